"""Bad input to load_level, from_snapshot and `rulegrid play`: located errors, no tracebacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, ValidationError, load_level
from engine.cli import main
from tests.support import grid_level

LEVEL = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], level_id="first")


def problems(data: Any) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        load_level(data)
    return [(p.pointer, p.code) for p in caught.value.errors]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("[1, 2", ("", "invalid-json")),
        ("", ("", "invalid-json")),
        (b"\xff\xfe", ("", "invalid-json")),
        ([], ("", "wrong-type")),
        ({}, ("/id", "missing-field")),
        ({**LEVEL, "width": 0}, ("/width", "out-of-range")),
        ({**LEVEL, "width": 129}, ("/width", "out-of-range")),
        ({**LEVEL, "width": "9"}, ("/width", "wrong-type")),
        ({**LEVEL, "colour": "red"}, ("/colour", "unknown-field")),
        (
            {**LEVEL, "entities": [{"id": 1, "kind": "object", "noun": "BABA", "x": 0}]},
            ("/entities/0/y", "missing-field"),
        ),
        (
            {**LEVEL, "entities": [{"id": 0, "kind": "word", "text": "IS", "x": 0, "y": 0}]},
            ("/entities/0/id", "out-of-range"),
        ),
        (
            {**LEVEL, "entities": [{"id": 1, "kind": "word", "text": "is", "x": 0, "y": 0}]},
            ("/entities/0/text", "bad-format"),
        ),
        (
            {**LEVEL, "entities": [{"id": 1, "kind": "thing", "x": 0, "y": 0}]},
            ("/entities/0/kind", "unknown-kind"),
        ),
        (
            {**LEVEL, "entities": [{"id": 1, "kind": "word", "text": "IS", "x": 3, "y": 0}]},
            ("/entities/0/x", "out-of-bounds"),
        ),
        (
            {**LEVEL, "entities": [{"id": 1, "kind": "object", "noun": "AND", "x": 0, "y": 0}]},
            ("/entities/0/noun", "invalid-noun"),
        ),
        ({**LEVEL, "solution": "RRX"}, ("/solution", "bad-format")),
    ],
)
def test_load_level_names_the_json_path(data: Any, expected: tuple[str, str]) -> None:
    assert expected in problems(data)


def test_duplicate_entity_ids_are_reported_with_both_places() -> None:
    data = json.loads(json.dumps(LEVEL))
    data["entities"][2]["id"] = 1
    with pytest.raises(ValidationError) as caught:
        load_level(data)
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code, problem.level) == (
        "/entities/2/id",
        "duplicate-entity-id",
        "first",
    )
    assert str(problem) == "first/entities/2/id: entity id 1 is already used by /entities/0"


def test_malformed_json_reports_line_and_column() -> None:
    with pytest.raises(ValidationError) as caught:
        load_level('{\n  "id": "x",\n  "width": ,\n}')
    assert "line 3 column 12" in str(caught.value)


@pytest.mark.parametrize(
    ("tamper", "pointer", "code"),
    [
        (lambda s: s.update(level="other"), "/level", "level-mismatch"),
        (lambda s: s.update(version=1), "/version", "bad-value"),
        (lambda s: s.pop("history"), "/history", "missing-field"),
        (lambda s: s["current"].update(moves=-1), "/current/moves", "wrong-type"),
        (lambda s: s["current"].update(won="yes"), "/current/won", "wrong-type"),
        (
            lambda s: s["current"]["entities"].append(
                {"id": 99, "kind": "object", "noun": "BABA", "x": 0, "y": 0}
            ),
            "/current/entities/8/id",
            "unknown-entity",
        ),
        (lambda s: s["current"]["entities"][0].update(x=7), "/current/entities/0", "out-of-bounds"),
        (
            lambda s: s["current"]["entities"][3].update(text="WIN"),
            "/current/entities/3/text",
            "bad-value",
        ),
        (lambda s: s["current"]["rules"].pop(), "/current/rules", "inconsistent-rules"),
        (lambda s: s["history"].append("junk"), "/history/1", "wrong-type"),
        (lambda s: s.update(current=None), "/current", "wrong-type"),
    ],
)
def test_from_snapshot_rejects_a_snapshot_that_does_not_match(
    tamper: Any, pointer: str, code: str
) -> None:
    level = load_level(LEVEL)
    g = Game(level)
    g.step("right")
    snapshot = g.snapshot()
    tamper(snapshot)
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert (pointer, code) in [(p.pointer, p.code) for p in caught.value.errors]
    assert all(p.level == "first" for p in caught.value.errors)


def test_from_snapshot_rejects_an_inconsistent_active_flag() -> None:
    rows = ["mouse baba .", "MOUSE IS TICK", "BABA IS YOU"]
    automata = [{"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}]
    level = load_level(grid_level(rows, automata=automata))
    snapshot = Game(level).snapshot()
    snapshot["current"]["automata"][0]["active"] = False
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert [(p.pointer, p.code) for p in caught.value.errors] == [
        ("/current/automata/0/active", "inconsistent-active")
    ]


@pytest.fixture
def pack_file(tmp_path: Path) -> Path:
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "mini",
        "title": "Mini",
        "nouns": {"BABA": {"color": "#ffffff"}, "FLAG": {"color": "#ffff00"}},
        "levels": [LEVEL],
    }
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    return path


def test_play_prints_one_event_per_line(
    pack_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", str(pack_file), "first", "RR", "--state"]) == 0
    lines = capsys.readouterr().out.splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["accepted"] for e in events[:2]] == [True, True]
    assert events[1]["won"] is True
    assert events[2]["won"] is True  # the final state record
    assert events[2]["moves"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["first", "RX"], "mini (level \"first\"): move 2 is 'X'"),
        (["nope", "R"], "no level 'nope' in this pack"),
    ],
)
def test_play_reports_bad_arguments_without_a_traceback(
    pack_file: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["play", str(pack_file), *args]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_play_reports_a_broken_pack_file_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "rulegrid-pack",', encoding="utf-8")
    assert main(["play", str(broken), "first", "R"]) == 1
    err = capsys.readouterr().err
    assert "broken: not valid JSON" in err
    assert main(["play", str(tmp_path / "missing.json"), "first", "R"]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("noun", [[1], {"a": 1}, None, 7])
def test_from_snapshot_rejects_a_noun_that_is_not_text(noun: Any) -> None:
    level = load_level(LEVEL)
    snapshot = Game(level).snapshot()
    snapshot["current"]["entities"][0]["noun"] = noun
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert [(p.pointer, p.code) for p in caught.value.errors] == [
        ("/current/entities/0/noun", "unknown-noun")
    ]
