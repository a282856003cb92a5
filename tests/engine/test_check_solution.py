"""``engine.check_solution``: whether an intended solution still wins, and where it breaks."""

from __future__ import annotations

import pytest

import engine
from tests.support import grid_level

# BABA IS YOU on the top row, FLAG IS WIN on the bottom row, a wall of rocks that is STOP.
LEVEL = grid_level(
    [
        "BABA IS YOU . . .",
        "baba . . rock flag .",
        "ROCK IS STOP . . .",
        "FLAG IS WIN . . .",
    ]
)


def test_a_solution_that_wins_says_so() -> None:
    good = engine.check_solution(grid_level(["BABA IS YOU", "baba . flag", "FLAG IS WIN"]), "RR")
    assert good == engine.SolutionCheck("RR", True, "wins", 2, None, "wins in 2 moves")


def test_a_blocked_move_is_named_by_number_and_letter() -> None:
    check = engine.check_solution(LEVEL, "RRR")  # the third R walks into the STOP rock
    assert check.wins is False
    assert check.reason == "blocked"
    assert check.failed_at == 3
    assert check.played == 2
    assert check.message == "move 3 (R) is blocked"


def test_moves_that_end_without_a_win_say_how_many_were_played() -> None:
    check = engine.check_solution(LEVEL, "RL")
    assert (check.wins, check.reason, check.failed_at, check.played) == (False, "not-won", None, 2)
    assert check.message == "the level is not won after 2 moves"


def test_a_win_before_the_last_move_still_wins_and_says_when() -> None:
    level = grid_level(["BABA IS YOU", "baba . flag", "FLAG IS WIN"])
    check = engine.check_solution(level, "RRLL")
    assert (check.wins, check.reason, check.played) == (True, "won-early", 2)
    assert check.message == "the level is won after 2 of 4 moves"


def test_a_move_without_anything_that_is_you_is_control_lost() -> None:
    # Baba walks up into YOU and pushes it out of its sentence: nothing is YOU after move 1.
    level = grid_level([". . . .", "BABA IS YOU .", ". . baba .", ". . . ."])
    assert engine.Game(level).state()["controlLost"] is False
    check = engine.check_solution(level, "UR")
    assert check.reason == "control-lost"
    assert check.failed_at == 2
    assert check.message == "move 2 (R) cannot be played: nothing is YOU"


def test_the_tutorials_solutions_all_win() -> None:
    pack = engine.load_pack("packs/tutorial.json")
    for level in pack.levels:
        assert level.solution is not None
        assert engine.check_solution(level, level.solution).wins, level.id


def test_a_move_string_that_is_not_udlr_is_refused() -> None:
    with pytest.raises(ValueError, match="move 2"):
        engine.check_solution(LEVEL, "RX")
