"""Issue 36: the solver's proved lower bounds and its memory budget; issue 39: solve's budgets.

A breadth-first search that has started the positions ``d`` moves from the start
has looked at every child of the layers before for a win, so no solution has ``d``
moves or fewer: ``SolveResult.lower_bound`` is ``d + 1``. These tests hold the
bound against shortest lengths proved independently (a public-engine search on
small boards, and the corpus's proved lengths in ``tests/data/keke/shortest.json``),
count the layers of a stopped search without the solver's table, and stop searches
with small memory budgets. Every figure is a count: nothing here measures time.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import engine
from bench.hostile_solve import crowd
from engine import solve
from engine.solve import search, walk
from engine.solve.level import CompactLevel
from tests.engine.test_solver import OPEN_ROOM, reference_bfs, small_level
from tests.support import ROOT, keke_corpus, keke_level

SHORTEST: dict[str, int] = json.loads(
    (ROOT / "tests" / "data" / "keke" / "shortest.json").read_text(encoding="utf-8")
)["shortest"]
RECORDS = [r for r in keke_corpus()["levels"] if r["id"] in SHORTEST]


@pytest.fixture(autouse=True)
def _no_resident_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts only: the resident size of this test process is not the searches' own."""
    monkeypatch.setattr(search, "_resident_bytes", lambda: None)


def layer_depths(level: Any, count: int) -> list[int]:
    """The depth of each of the first ``count`` positions breadth-first keeps, in order.

    The same order as the solver's table (children in direction order, dead ends and
    wins never kept), found with a dict and a list instead of the table.
    """
    compact = CompactLevel(level)
    depth = {compact.start_key: 0}
    order = [compact.start_key]
    for key in order:
        if len(order) >= count:
            break
        for child in compact.children(key):
            if child is not None and child[2] and not child[1] and child[0] not in depth:
                depth[child[0]] = depth[key] + 1
                order.append(child[0])
    return [depth[key] for key in order[:count]]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    small_level(),
    st.sampled_from(["bfs", "best-first", "auto"]),
    st.sampled_from([0, 1, 3, 10, 40, 100_000]),
)
def test_the_bound_is_never_above_the_shortest_solution(
    level: dict[str, Any], strategy: str, max_states: int
) -> None:
    result = solve(level, strategy=strategy, max_states=max_states)
    status, length, _ = reference_bfs(level, cap=1_500)
    assume(status != "limit")  # the public-engine search could not say what is shortest
    event(f"{strategy}: {result.status}, bound {min(result.lower_bound, 4)}+")
    if status == "solved":
        assert result.lower_bound <= length
    if result.status == "solved":
        assert result.lower_bound <= result.length
        if result.shortest:  # proved: then it is the shortest
            assert result.length == length


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_the_bound_is_never_above_a_proved_corpus_length(record: dict[str, Any]) -> None:
    shortest = SHORTEST[record["id"]]
    level = engine.load_level(keke_level(record))
    result = solve(level, max_states=1_500)
    assert result.lower_bound <= shortest
    if result.status == "solved":  # the stored length agrees with what is proved here
        assert (result.length, result.lower_bound, result.shortest) == (shortest,) * 2 + (True,)
    else:
        assert (result.status, result.stopped_by) == ("limit", "max-states")


@pytest.mark.parametrize("max_states", [1, 2, 5, 17, 60, 200, 750])
def test_a_search_stopped_by_its_state_budget_reports_the_depth_it_finished(
    max_states: int,
) -> None:
    depths = layer_depths(OPEN_ROOM, max_states + 1)
    result = solve(OPEN_ROOM, max_states=max_states)
    assert (result.status, result.states) == ("limit", max_states)
    # the next position to expand is at depth d: every layer before it is finished
    assert result.lower_bound == depths[max_states] + 1
    assert result.no_solution_within() == depths[max_states]


def test_a_search_stopped_by_its_memory_budget_reports_the_depth_it_finished() -> None:
    budget = 200_000
    result = solve(OPEN_ROOM, memory=budget, max_states=10**6)
    assert (result.status, result.stopped_by) == ("limit", "memory")
    assert result.memory <= budget
    assert result.visited > 1_000  # the budget was used, not refused at once
    # stopped while expanding its last position: the layers before that one are done
    depths = layer_depths(OPEN_ROOM, result.states)
    assert result.lower_bound == depths[result.states - 1] + 1


def test_a_timeout_keeps_the_bound_it_reached() -> None:
    reports: list[engine.SolveProgress] = []
    result = solve(OPEN_ROOM, timeout=0, progress=reports.append)
    assert (result.status, result.stopped_by, result.lower_bound) == ("limit", "timeout", 1)
    reached = solve(OPEN_ROOM, max_states=300, progress=reports.append, progress_interval=0)
    depths = layer_depths(OPEN_ROOM, 301)
    assert [r.lower_bound for r in reports[-300:]] == [d + 1 for d in depths[:300]]
    assert reached.lower_bound == depths[300] + 1


@pytest.mark.parametrize("strategy", ["bfs", "best-first", "auto"])
@pytest.mark.parametrize("budget", [0, 20_000, 150_000])
def test_every_strategy_stops_cleanly_at_a_memory_budget(strategy: str, budget: int) -> None:
    result = solve(OPEN_ROOM, memory=budget, strategy=strategy, max_states=10**6)
    assert (result.status, result.stopped_by) == ("limit", "memory")
    if budget:
        assert 0 < result.memory <= budget
    else:  # not even the start fits: only the empty table's index is held
        assert (result.visited, result.states) == (0, 0)
    assert result.lower_bound >= 1  # the start is not won, whatever else is known


def test_a_larger_memory_budget_goes_further() -> None:
    small = solve(OPEN_ROOM, memory=100_000)
    large = solve(OPEN_ROOM, memory=400_000)
    assert small.states < large.states
    assert small.lower_bound <= large.lower_bound


def test_the_resident_size_is_read_every_1024_expansions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Caches and everything else the search grows count too: the process is watched."""
    budget = 10**9  # the table's own count never comes near it here
    readings = iter([100_000_000] * 4 + [100_000_000 + budget + 1] * 10)
    monkeypatch.setattr(search, "_resident_bytes", lambda: next(readings))
    result = solve(OPEN_ROOM, memory=budget, max_states=10**6)
    # the start's reading, then at 0, 1,024 and 2,048 expansions; the fourth is over
    assert (result.status, result.stopped_by, result.states) == ("limit", "memory", 3 * 1024)


def test_the_default_memory_budget_is_a_share_of_what_is_available(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search, "available_memory", lambda: 2**30)
    assert engine.default_memory_budget() == 2**28  # a quarter
    assert engine.default_memory_budget(4) == 2**26  # shared by four searches
    monkeypatch.setattr(search, "available_memory", lambda: 64 * 2**30)
    assert engine.default_memory_budget() == search.MEMORY_CEILING == 768 * 2**20
    monkeypatch.setattr(search, "available_memory", lambda: None)
    assert engine.default_memory_budget() == search.MEMORY_CEILING


def test_a_bad_memory_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="memory"):
        solve(OPEN_ROOM, memory=-1)


@pytest.mark.parametrize(
    ("stopped_by", "text"),
    [
        ("max-states", "stopped at the state budget of 1,000 states"),
        ("timeout", "stopped at the time budget of 60 s after 12,345 states"),
        ("memory", "stopped at the memory budget of 768 MiB after 12,345 states"),
        ("cancel", "cancelled after 12,345 states"),
    ],
)
def test_a_stop_names_its_budget(stopped_by: str, text: str) -> None:
    result = engine.SolveResult("limit", "", 12_345, 1.0, "bfs", False, stopped_by, 0, 31)
    budget = engine.SolveBudget(1_000, 60.0, 768 * 2**20)
    assert budget.stop_text(result) == text


def test_the_walk_shortcut_keeps_a_bounded_number_of_mover_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 39: a board of thousands of YOU objects kept 2,048 orders of 620 KB each."""
    built: list[CompactLevel] = []

    class Kept(CompactLevel):
        def __init__(self, level: Any) -> None:
            super().__init__(level)
            built.append(self)

    monkeypatch.setattr(search, "CompactLevel", Kept)
    movers = 1_500
    solve(crowd(movers, size=48), max_states=120)
    orders = built[0].walks._orders
    held = sum(len(placement) // 2 for placement in orders)
    assert held <= walk._ORDERS_MOVERS  # 120 placements of 1,500 would be 180,000
    assert len(orders) < 120


@pytest.mark.parametrize("strategy", ["bfs", "best-first"])
def test_a_small_budget_stops_a_heavy_corpus_level_with_its_bound(strategy: str) -> None:
    """biy-176: one of the three levels whose proof would need 170 GB to petabytes."""
    record = next(r for r in keke_corpus()["levels"] if r["id"] == "biy-176")
    budget = 2 * 2**20
    result = solve(keke_level(record), strategy=strategy, memory=budget, max_states=10**7)
    assert (result.status, result.stopped_by) == ("limit", "memory")
    assert 0 < result.memory <= budget
    assert result.visited > 5_000  # best-first's heap costs a position about 130 bytes more
    if strategy == "bfs":  # the layers it finished, never past a solution it did not find
        assert 5 < result.lower_bound <= len(record["solution"])
    else:
        assert result.lower_bound == 1
