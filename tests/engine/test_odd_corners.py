"""Odd corners of reading input (issue 20, finding 6).

A lone surrogate gets a real code and pointer, duplicate JSON keys and UTF-16/32
files are refused, ``solve(timeout=nan)`` is refused, and a snapshot's move
counts and win flags are cross-checked with its positions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from engine import Game, ValidationError, load_level, load_pack, read_json_file, solve
from tests.support import grid_level, pack_document

WALK = grid_level(["baba . . flag", "BABA IS YOU .", "FLAG IS WIN ."], "walk")


def snapshot_problems(level: Any, snapshot: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    return [(p.pointer, p.code) for p in caught.value.errors]


# ------------------------------------------------- snapshots: moves and won


def played(moves: str) -> tuple[Any, dict[str, Any]]:
    level = load_level(WALK)
    game = Game(level)
    for letter in moves:
        game.step(letter)
    return level, game.snapshot()


def test_a_move_count_the_history_does_not_support_is_refused() -> None:
    level, snapshot = played("RR")
    snapshot["current"]["moves"] = 999
    assert snapshot_problems(level, snapshot) == [("/current/moves", "inconsistent-moves")]
    level, snapshot = played("RR")
    snapshot["history"][1]["moves"] = 0
    assert snapshot_problems(level, snapshot) == [("/history/1/moves", "inconsistent-moves")]


def test_a_win_the_board_does_not_show_is_refused() -> None:
    level, snapshot = played("R")
    snapshot["current"]["won"] = True
    assert snapshot_problems(level, snapshot) == [("/current/won", "inconsistent-won")]
    level, snapshot = played("RRR")
    assert snapshot["current"]["won"] is True
    snapshot["current"]["won"] = False
    assert snapshot_problems(level, snapshot) == [("/current/won", "inconsistent-won")]


def test_a_won_position_in_the_history_is_refused() -> None:
    level, snapshot = played("RR")
    snapshot["history"][0]["won"] = True
    assert snapshot_problems(level, snapshot) == [("/history/0/won", "inconsistent-won")]


def test_real_snapshots_restore_including_a_win_and_undo() -> None:
    level, snapshot = played("RRR")
    assert Game.from_snapshot(level, snapshot).won
    game = Game(level)
    for letter in "RRL":
        game.step(letter)
    game.undo()
    restored = Game.from_snapshot(level, game.snapshot())
    assert restored.snapshot() == game.snapshot()


def test_a_win_decided_before_a_sunk_word_reread_the_rules_still_restores() -> None:
    """The WIN word sinks in the step that wins: the settled rules lack FLAG IS WIN,
    yet the step won (the win is decided before the rules are read again)."""
    rows = [
        "FLAG . . .",
        "IS . . .",
        "water WIN baba .",
        "flag baba . .",
        "BABA IS YOU .",
        "WATER IS SINK .",
    ]
    level = load_level(grid_level(rows))
    game = Game(level)
    event = game.step("left").to_dict()
    assert event["won"] is True
    assert "WIN" not in {r["predicate"] for r in game.state()["rules"]}
    restored = Game.from_snapshot(level, game.snapshot())
    assert restored.won
    tampered = game.snapshot()
    tampered["current"]["won"] = False
    assert snapshot_problems(level, tampered) == [("/current/won", "inconsistent-won")]


# ---------------------------------------------------------------- reading text


def file_problems(tmp_path: Path, raw: bytes) -> list[tuple[str, str]]:
    path = tmp_path / "pack.json"
    path.write_bytes(raw)
    with pytest.raises(ValidationError) as caught:
        load_pack(path)
    return [(p.pointer, p.code) for p in caught.value.errors]


def test_a_lone_surrogate_is_bad_text_at_its_string(tmp_path: Path) -> None:
    """Before the fix: invalid-value at /levels/0/title/constrained-str (and /none)."""
    doc = pack_document(grid_level(["baba"], "one", title="odd \ud800 title"))
    with pytest.raises(ValidationError) as caught:
        load_pack(doc)
    assert [(p.pointer, p.code) for p in caught.value.errors] == [("/levels/0/title", "bad-text")]
    raw = json.dumps(doc).encode("ascii")  # the surrogate as a \ud800 escape
    assert b"\\ud800" in raw
    assert file_problems(tmp_path, raw) == [("/levels/0/title", "bad-text")]
    paired = json.dumps(pack_document(grid_level(["baba"], "one", title="\U0001f600"))).encode()
    (tmp_path / "pack.json").write_bytes(paired)
    assert load_pack(tmp_path / "pack.json").levels[0].title == "\U0001f600"


def test_duplicate_keys_are_refused_at_the_key(tmp_path: Path) -> None:
    """Before the fix the last "title" silently won."""
    text = json.dumps(pack_document(grid_level(["baba"], "one")))
    text = text.replace('"id": "one"', '"id": "one", "title": "A", "title": "B"', 1)
    assert file_problems(tmp_path, text.encode()) == [("/levels/0/title", "duplicate-key")]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_utf16_and_utf32_files_are_refused(tmp_path: Path, encoding: str) -> None:
    """Before the fix json.loads guessed the encoding and the pack loaded."""
    raw = json.dumps(pack_document(grid_level(["baba"], "one"))).encode(encoding)
    assert file_problems(tmp_path, raw) == [("", "invalid-json")]


def test_a_utf8_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf" + json.dumps(pack_document(grid_level(["baba"], "one"))).encode()
    path = tmp_path / "pack.json"
    path.write_bytes(raw)
    assert load_pack(path).levels[0].id == "one"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_numbers_that_are_not_json_numbers_are_invalid_json(tmp_path: Path, literal: str) -> None:
    text = json.dumps(pack_document(grid_level(["baba"], "one")))
    text = text.replace('"width": 1', f'"width": {literal}', 1)
    assert file_problems(tmp_path, text.encode()) == [("", "invalid-json")]


# ----------------------------------------------------------------------- solve


def test_solve_refuses_a_nan_timeout() -> None:
    """Before the fix NaN compared false with the deadline and meant no timeout."""
    with pytest.raises(ValueError, match="NaN"):
        solve(WALK, timeout=math.nan)
    assert solve(WALK, timeout=math.inf).status == "solved"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "not valid JSON: nested too deep"),
        (b'{"a": ' + b"9" * 10_000 + b"}", "not valid JSON: a number of more than 4,300 digits"),
        (b'{"a": 1e400}', "not valid JSON: the number 1e400 is too large"),
        (b'{"a": 1, "a": 2}', "appears more than once"),
    ],
    ids=["deep", "digits", "1e400", "repeated-key"],
)
def test_read_json_file_reads_a_file_as_strictly_as_a_pack(
    tmp_path: Path, raw: bytes, message: str
) -> None:
    """engine.read_json_file: what the editor reads packs, backups and recovered work with."""
    path = tmp_path / "hostile.json"
    path.write_bytes(raw)
    with pytest.raises(ValidationError) as caught:
        read_json_file(path)
    [problem] = caught.value.errors
    assert message in problem.message
    assert problem.pack == "hostile.json"
    path.write_bytes(b'{"a": [1, 2.5, "x"]}')
    assert read_json_file(path) == {"a": [1, 2.5, "x"]}
    with pytest.raises(ValidationError) as big:
        read_json_file(path, limit=8)  # at most 9 bytes are read
    assert [p.code for p in big.value.errors] == ["bad-size"]
