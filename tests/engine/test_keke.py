"""The Keke corpus (tests/data/keke, 113 external levels with human solutions).

Every stored solution replays to a win, through the public engine and through the
compact path, at exactly the step the corpus records. The solver solves every
level with a solution that replays to a win and is no longer than the human one
(``slow``: about a minute for the whole corpus; ``bench/bench_solver.py`` times it).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, load_level, replay, solve
from engine.solve.level import CompactLevel
from tests.support import keke_corpus, keke_level

RECORDS = keke_corpus()["levels"]
IDS = [f"{n}-{r['id']}" for n, r in enumerate(RECORDS, start=1)]


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_stored_solution_wins_at_the_recorded_step(record: dict[str, Any]) -> None:
    events = replay(keke_level(record), record["solution"])
    assert all(e.accepted for e in events)
    assert [n for n, e in enumerate(events, start=1) if e.won] == [
        record["checks"]["reference_win_at"]
    ]


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_compact_path_replays_the_stored_solution(record: dict[str, Any]) -> None:
    level = load_level(keke_level(record))
    compact, game = CompactLevel(level), Game(level)
    key = compact.start_key
    for letter in record["solution"]:
        event = game.step(letter)
        out = compact.step(key, "UDLR".index(letter))
        assert out is not None
        key = out.key
        assert out.won == event.won
        assert key == compact.key_of(game.state())
    assert out.won


@pytest.mark.slow
@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_solver_beats_or_matches_the_human_solution(record: dict[str, Any]) -> None:
    level = load_level(keke_level(record))
    result = solve(level, strategy="auto")
    assert result.status == "solved"
    assert len(result.moves) <= len(record["solution"])
    events = replay(level, result.moves)
    assert all(e.accepted for e in events)
    assert events[-1].won
