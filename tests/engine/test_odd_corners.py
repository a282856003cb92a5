"""Odd corners of reading input (issue 20, finding 6).

A lone surrogate gets a real code and pointer, duplicate JSON keys and UTF-16/32
files are refused, ``solve(timeout=nan)`` is refused, and a snapshot's move
counts and win flags are cross-checked with its positions.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, ValidationError, load_level
from tests.support import grid_level

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
