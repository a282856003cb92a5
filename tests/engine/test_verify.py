"""``engine.verify_level``: the release checks of one level, and its difficulty."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest

import engine
from tests.support import PACKS_DIR, grid_level

WALK_ROWS = ["baba . . flag", "BABA IS YOU .", "FLAG IS WIN ."]
# Room for a detour: "DRRRU" wins, and so does the shorter "RRR".
ROOM_ROWS = ["baba . . flag", ". . . .", "BABA IS YOU .", "FLAG IS WIN ."]
STUCK_ROWS = ["baba . . . . flag", "BABA IS YOU . . ."]  # nothing can become WIN
# Pushing FLAG IS right completes FLAG IS WIN; the flag is then reached in three moves.
RULE_ROWS = ["BABA IS YOU . .", ". . . . .", "baba FLAG IS . WIN", ". . . . .", "flag . . . ."]


def level(rows: list[str], solution: str | None = None, **extra: Any) -> dict[str, Any]:
    data = grid_level(rows, **extra)
    if solution is not None:
        data["solution"] = solution
    return data


def test_an_intended_solution_of_the_shortest_length_is_solved_and_proved() -> None:
    verdict = engine.verify_level(level(WALK_ROWS, "RRR"))
    assert verdict.status == "solved"
    assert verdict.message == "proved shortest: 3 moves"
    assert (verdict.words, verdict.lower_bound) == ("proved shortest", 3)
    assert verdict.shortcut is None
    assert verdict.solve is not None
    assert verdict.solve.moves == "RRR"
    assert verdict.intended == engine.SolutionCheck("RRR", True, "wins", 3, None, "wins in 3 moves")
    assert verdict.difficulty is not None
    assert verdict.difficulty.to_dict() == {
        "length": 3,
        "states": verdict.solve.states,
        "ruleChanges": 0,
        "shortest": True,
        "source": "solver",
    }
    assert not verdict.fails()


def test_a_blocked_intended_move_is_broken_and_named_by_number_and_letter() -> None:
    verdict = engine.verify_level(level(WALK_ROWS, "URRR"))  # the first move runs into the edge
    assert verdict.status == "broken"
    assert verdict.message == "intended solution broken: move 1 (U) is blocked"
    assert verdict.intended is not None
    assert (verdict.intended.failed_at, verdict.intended.reason) == (1, "blocked")
    assert verdict.fails()
    # The level itself is still solved, and its difficulty measured on the solver's answer.
    assert verdict.solve is not None
    assert verdict.solve.status == "solved"
    assert verdict.difficulty is not None
    assert verdict.difficulty.length == 3


def test_an_intended_solution_that_stops_short_says_after_how_many_moves() -> None:
    verdict = engine.verify_level(level(WALK_ROWS, "RR"))
    assert verdict.status == "broken"
    assert verdict.message == "intended solution broken: the level is not won after 2 moves"


def test_a_shorter_solver_answer_is_a_shortcut_with_its_moves() -> None:
    verdict = engine.verify_level(level(ROOM_ROWS, "DRRRU"))
    assert verdict.status == "shortcut"
    assert verdict.message == "shortcut: 3 moves vs. intended 5"
    assert verdict.shortcut == "RRR"
    assert engine.replay(level(ROOM_ROWS), verdict.shortcut)[-1].won
    assert verdict.fails()


def test_moves_after_an_early_win_do_not_count_as_intended_length() -> None:
    verdict = engine.verify_level(level(WALK_ROWS, "RRRL"))  # won after the third move
    assert verdict.intended is not None
    assert verdict.intended.reason == "won-early"
    assert verdict.status == "solved"
    assert verdict.shortcut is None


def test_a_level_whose_whole_space_is_searched_without_a_win_is_unsolvable() -> None:
    verdict = engine.verify_level(level(STUCK_ROWS))
    assert verdict.status == "unsolvable"
    assert verdict.solve is not None
    assert verdict.message == (
        f"unsolvable: every reachable position was searched ({verdict.solve.states:,})"
    )
    assert verdict.difficulty is None


def test_a_search_stopped_by_its_budget_is_unknown() -> None:
    settings = engine.VerifySettings(max_states=2)
    verdict = engine.verify_level(level(STUCK_ROWS), settings)
    assert verdict.status == "unknown"
    # the start and its one child were expanded: no solution of up to two moves
    assert verdict.message == (
        "unknown within budget: no solution in 2 moves or fewer "
        "(stopped at the state budget of 2 states)"
    )
    assert (verdict.words, verdict.lower_bound, verdict.stopped_by_budget) == (
        "unknown within budget",
        3,
        "max-states",
    )
    assert verdict.settings == settings
    assert verdict.difficulty is None


def test_a_budget_hit_with_a_winning_intended_solution_is_solved_by_it() -> None:
    verdict = engine.verify_level(level(ROOM_ROWS, "DRRRU"), engine.VerifySettings(max_states=1))
    assert verdict.status == "solved"
    assert verdict.message == (
        "solved, shortest at least 2: the intended solution wins in 5 moves; "
        "no solution in 1 move or fewer (stopped at the state budget of 1 state)"
    )
    assert verdict.words == "solved, shortest at least 2"
    assert verdict.difficulty is not None
    assert verdict.difficulty.to_dict() == {
        "length": 5,
        "states": None,
        "ruleChanges": 0,
        "shortest": False,
        "source": "intended",
    }


def test_a_timeout_is_named_in_the_budget() -> None:
    settings = engine.VerifySettings(strategy="bfs", timeout=1e-9)
    verdict = engine.verify_level(level(STUCK_ROWS), settings)
    assert verdict.status == "unknown"
    assert verdict.message == (
        "unknown within budget: no solution found (stopped at the time budget of 1e-09 s after 0 states)"
    )
    assert verdict.stopped_by_budget == "timeout"


def test_difficulty_counts_the_turns_that_change_the_rules() -> None:
    verdict = engine.verify_level(level(RULE_ROWS))
    assert verdict.status == "solved"
    assert verdict.difficulty is not None
    assert verdict.difficulty.rule_changes == 1
    assert verdict.difficulty.length == 4


def test_an_invalid_level_is_a_verdict_not_an_exception() -> None:
    verdict = engine.verify_level({"id": "x", "width": 0, "height": 3, "entities": []})
    assert verdict.status == "invalid"
    assert verdict.message.startswith("invalid level: ")
    assert (verdict.solve, verdict.intended, verdict.difficulty) == (None, None, None)


def test_a_cancelled_run_says_it_was_cancelled() -> None:
    stop = threading.Event()
    stop.set()
    verdict = engine.verify_level(level(STUCK_ROWS), cancel=stop)
    assert verdict.cancelled
    assert not engine.verify_level(level(STUCK_ROWS)).cancelled


@pytest.mark.parametrize(
    ("rows", "solution"),
    [(WALK_ROWS, "RRR"), (WALK_ROWS, "URRR"), (ROOM_ROWS, "DRRRU"), (STUCK_ROWS, None)],
)
def test_a_verdict_survives_its_json_record(rows: list[str], solution: str | None) -> None:
    verdict = engine.verify_level(level(rows, solution))
    record = verdict.to_dict()
    again = engine.LevelVerdict.from_dict(record)
    assert again.to_dict() == record
    assert verdict.solve is not None
    assert again.solve is not None
    # Only the time is rounded (to milliseconds) on the way.
    assert replace(again, solve=replace(again.solve, seconds=verdict.solve.seconds)) == verdict


def test_the_key_ignores_names_and_follows_content_solution_and_settings() -> None:
    settings = engine.VerifySettings()
    base = level(WALK_ROWS, "RRR")
    key = engine.verdict_key(base, settings)
    renamed = dict(base, id="other", title="Other", author="Someone")
    assert engine.verdict_key(renamed, settings) == key
    assert engine.verdict_key(engine.load_level(base), settings) == key
    assert engine.verdict_key(dict(base, solution="RRRL"), settings) != key
    moved = level(["baba . . flag .", "BABA IS YOU . .", "FLAG IS WIN . ."], "RRR")
    assert engine.verdict_key(moved, settings) != key
    assert engine.verdict_key(base, engine.VerifySettings(max_states=10)) != key
    assert engine.verdict_key(base, engine.VerifySettings(strategy="bfs")) != key


def test_settings_reject_an_empty_budget() -> None:
    with pytest.raises(ValueError, match="max_states"):
        engine.VerifySettings(max_states=0)
    with pytest.raises(ValueError, match="timeout"):
        engine.VerifySettings(timeout=0)


# ------------------------------------------------ bounds and budgets (issue 36)
def test_an_intended_solution_as_short_as_the_proved_bound_is_proved_shortest() -> None:
    # the search stops inside the last layer: no solution of 2 moves, the intended has 3
    capped = [
        engine.verify_level(level(WALK_ROWS, "RRR"), engine.VerifySettings("bfs", cap))
        for cap in range(1, 12)
    ]
    verdict = next(
        v
        for v in capped
        if v.solve is not None and v.solve.status == "limit" and v.lower_bound == 3
    )
    assert verdict.status == "solved"
    assert verdict.words == "proved shortest"
    assert verdict.difficulty is not None
    assert (verdict.difficulty.source, verdict.difficulty.shortest) == ("intended", True)
    assert verdict.message.startswith(
        "proved shortest: the intended 3 moves (no solution in 2 moves or fewer; stopped at "
    )


def test_a_longer_solver_answer_leaves_the_intended_solution_the_best_known() -> None:
    """Best-first may find a longer solution than the intended one: the verdict says the
    intended length (issue 35: "✓ 15–21" showed for a Keke level whose intended 20 won)."""
    tutorial = engine.load_pack(PACKS_DIR / "tutorial.json")
    words_move = tutorial.level("words-move")
    settings = engine.VerifySettings("best-first", 20_000)
    verdict = engine.verify_level(words_move, settings)
    assert verdict.solve is not None
    assert (verdict.solve.status, verdict.solve.length) == ("solved", 21)  # intended: 17
    assert verdict.status == "solved"
    assert verdict.message == (
        "solved, not proved shortest: the intended solution wins in 17 moves; "
        "best-first found 21 moves"
    )
    assert verdict.difficulty is not None
    assert verdict.difficulty.to_dict() == {
        "length": 17,
        "states": verdict.solve.states,
        "ruleChanges": verdict.difficulty.rule_changes,
        "shortest": False,
        "source": "intended",
    }
    assert engine.LevelVerdict.from_dict(verdict.to_dict()).difficulty == verdict.difficulty


def test_the_memory_budget_is_named_and_is_not_part_of_the_key() -> None:
    settings = engine.VerifySettings("bfs", memory=20_000)
    room = level(
        [
            ". . . . . .",
            ". rock . rock . .",
            "baba . . . . .",
            "BABA IS YOU . . .",
            "ROCK IS PUSH . . .",
        ]
    )
    verdict = engine.verify_level(room, settings)
    assert (verdict.status, verdict.stopped_by_budget) == ("unknown", "memory")
    assert "(stopped at the memory budget of 19.5 KiB after " in verdict.message
    assert engine.verdict_key(room, settings) == engine.verdict_key(
        room, engine.VerifySettings("bfs")
    )
    assert engine.VerifySettings().timeout == 60.0  # issue 39: a default time budget


def test_a_verdict_stopped_by_a_budget_keeps_its_bound_in_its_record() -> None:
    verdict = engine.verify_level(level(STUCK_ROWS), engine.VerifySettings(max_states=2))
    record = verdict.to_dict()
    assert (record["words"], record["lowerBound"]) == ("unknown within budget", 3)
    assert engine.LevelVerdict.from_dict(record).lower_bound == 3
