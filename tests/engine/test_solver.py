"""``engine.solve`` (docs/contract.md §3): shortest solutions, proofs of unsolvability, bounds,
cancel and progress, and the spec's solver scenarios (03 "Solver distinguishes phase
states", 04 "Same board different chain stages remain distinct")."""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine import Game, SolveProgress, SolveStatus, Strategy, load_level, replay, solve
from engine.solve import search
from engine.solve.table import PositionTable
from tests.engine.test_parity import frail
from tests.support import grid_level


def reference_bfs(level: dict[str, Any], cap: int) -> tuple[str, int, int]:
    """Breadth-first search with the public engine only: (status, length, expanded).

    Positions are keyed by their state record's entities and automaton phases, so
    this counts exactly the positions the public engine tells apart.
    """

    def key(game: Game) -> tuple[object, ...]:
        state = game.state()
        entities = tuple(tuple(sorted(e.items())) for e in state["entities"])
        return entities, tuple(a["phase"] for a in state["automata"])

    loaded = load_level(level)
    game = Game(loaded)
    if game.won:
        return "solved", 0, 0
    if game.control_lost:
        return "unsolvable", 0, 0
    seen = {key(game)}
    queue = deque([""])
    expanded = 0
    while queue:
        if expanded >= cap:
            return "limit", 0, expanded
        moves = queue.popleft()
        expanded += 1
        game = Game(loaded)
        for letter in moves:
            game.step(letter)
        for letter in "UDLR":
            event = game.step(letter)
            if not event.accepted:
                continue
            if event.won:
                return "solved", len(moves) + 1, expanded
            if not event.control_lost and key(game) not in seen:
                seen.add(key(game))
                queue.append(moves + letter)
            game.undo()
    return "unsolvable", 0, expanded


def wins(level: dict[str, Any], moves: str) -> bool:
    events = replay(level, moves)
    return bool(events) and events[-1].won and all(e.accepted for e in events)


@st.composite
def small_level(draw: st.DrawFn) -> dict[str, Any]:
    """A small board with BABA IS YOU, a flag and FLAG IS WIN somewhere, and some clutter."""
    width, height = draw(st.integers(3, 5)), draw(st.integers(3, 4))
    entities: list[dict[str, Any]] = []
    rows = draw(st.lists(st.integers(0, height - 1), min_size=2, max_size=2, unique=True))
    for y, sentence in zip(rows, (("BABA", "IS", "YOU"), ("FLAG", "IS", "WIN")), strict=True):
        x = draw(st.integers(0, width - 3))
        entities += [
            {"kind": "word", "text": t, "x": x + k, "y": y} for k, t in enumerate(sentence)
        ]
    cells = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    for noun in ("BABA", "FLAG"):
        x, y = draw(cells)
        entities.append({"kind": "object", "noun": noun, "x": x, "y": y})
    extra = ("ROCK", "WATER", "SAND", "IS", "PUSH", "STOP", "SINK", "WIN", "FRAIL", "TICK")
    for x, y in draw(st.lists(cells, max_size=3)):
        entities.append({"kind": "word", "text": draw(st.sampled_from(extra)), "x": x, "y": y})
    for x, y in draw(st.lists(cells, max_size=3)):
        entities.append(
            {
                "kind": "object",
                "noun": draw(st.sampled_from(("ROCK", "WATER", "SAND"))),
                "x": x,
                "y": y,
            }
        )
    for n, entity in enumerate(entities, start=1):
        entity["id"] = n
    level: dict[str, Any] = {"id": "small", "width": width, "height": height, "entities": entities}
    level["mechanics"] = frail({"SAND": "WATER"})
    pattern = draw(
        st.sampled_from(
            [
                [{"action": "wait"}],
                [{"action": "move", "dx": 1, "dy": 0}, {"action": "move", "dx": -1, "dy": 0}],
            ]
        )
    )
    level["automata"] = [{"id": "tick", "property": "TICK", "pattern": pattern}]
    return level


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(small_level())
def test_bfs_agrees_with_a_public_engine_search(level: dict[str, Any]) -> None:
    status, length, expanded = reference_bfs(level, cap=400)
    event(f"{status} in {length // 4 * 4}+ moves" if status == "solved" else status)
    assume(status != "limit")
    result = solve(level)
    assert result.status == status
    if status == "solved":
        assert result.length == length
        assert result.shortest is True
        assert length == 0 or wins(level, result.moves)
    else:
        assert result.states == expanded  # the same reachable positions, one key each


def test_shortest_solution_of_a_small_level() -> None:
    level = grid_level(["BABA IS YOU .", ". . . .", "baba . . flag", "FLAG IS WIN ."])
    result = solve(level)
    assert (result.status, result.moves, result.shortest) == ("solved", "RRR", True)
    assert result.strategy == Strategy.BFS


def test_unsolvable_when_the_whole_space_is_searched() -> None:
    level = grid_level(["BABA IS YOU", ". baba .", ". . ."])  # nothing is WIN, nothing can be
    result = solve(level)
    assert result.status == SolveStatus.UNSOLVABLE
    assert result.moves == ""
    assert result.states == reference_bfs(level, cap=10_000)[2]


def test_a_won_start_and_a_start_without_you() -> None:
    assert solve(grid_level(["BABA IS YOU", "BABA IS WIN", "baba . ."])).moves == ""
    result = solve(grid_level(["BABA IS WIN", "baba . ."]))
    assert (result.status, result.states) == ("unsolvable", 0)


def test_positions_without_you_are_dead_ends() -> None:
    # every move either sinks baba or breaks BABA IS YOU: nothing is ever queued
    level = grid_level(["water BABA water", "baba IS .", "water YOU water", "WATER IS SINK"])
    result = solve(level)
    assert (result.status, result.states) == ("unsolvable", 1)


def test_solver_distinguishes_phase_states() -> None:
    """Spec 03: the same board at another phase is another state.

    The gate drops into its pocket on the third beat and comes back on the fourth.
    Pacing right and left returns to the start's board at phase 2, which a solver
    that ignored phases would prune as already seen.
    """
    level = grid_level(
        [
            "BABA IS YOU . .",
            "GATE IS STOP . .",
            "GATE IS TICK . .",
            "FLAG IS WIN . .",
            "baba . gate . flag",
            "wall wall . wall wall",
            "WALL IS STOP . .",
        ],
        automata=[
            {
                "id": "gate",
                "property": "TICK",
                "pattern": [
                    {"action": "wait"},
                    {"action": "wait"},
                    {"action": "move", "dx": 0, "dy": 1},
                    {"action": "move", "dx": 0, "dy": -1},
                ],
            }
        ],
    )
    result = solve(level)
    assert (result.status, result.moves) == ("solved", "RLRRRR")
    assert wins(level, result.moves)
    assert reference_bfs(level, cap=10_000)[:2] == ("solved", 6)


def test_same_board_different_chain_stages_remain_distinct() -> None:
    """Spec 04: SAND and SHOAL on the same board are different states.

    WATER wins, and the plank becomes water only after two departures; standing
    on the SHOAL plank looks like standing on the SAND plank, board-wise.
    """
    level = grid_level(
        [
            "BABA IS YOU . .",
            "SAND IS FRAIL . .",
            "SHOAL IS FRAIL . .",
            "WATER IS WIN . .",
            ". baba+sand . . .",
        ],
        mechanics=[
            {
                "id": "frail",
                "type": "frail",
                "version": 1,
                "state": "derived",
                "leaves": {"SAND": "SHOAL", "SHOAL": "WATER"},
            }
        ],
    )
    result = solve(level)
    assert (result.status, result.length) == ("solved", 4)
    assert wins(level, result.moves)


@pytest.mark.parametrize("strategy", ["best-first", "auto"])
def test_other_strategies_find_replayable_solutions(strategy: str) -> None:
    level = grid_level(
        [
            "BABA IS YOU . . .",
            ". . . rock . .",
            "baba . . rock . flag",
            "ROCK IS PUSH . . .",
            "FLAG IS WIN . . .",
        ]
    )
    result = solve(level, strategy=strategy)
    assert result.status == "solved"
    assert wins(level, result.moves)
    if strategy == "auto":  # a small level: the breadth-first stage answers
        assert (result.strategy, result.shortest) == (Strategy.BFS, True)
    else:
        assert result.strategy == Strategy.BEST_FIRST


def test_best_first_also_proves_unsolvability() -> None:
    level = grid_level(["BABA IS YOU", ". baba .", ". . ."])
    result = solve(level, strategy="best-first")
    assert result.status == "unsolvable"


# no WIN anywhere and ten pushable rocks: far more positions than any test expands
OPEN_ROOM = grid_level(
    [
        "BABA IS YOU . . . . .",
        *[". rock . . rock . . ."] * 5,
        "baba . . . . . . .",
        "ROCK IS PUSH . . . . .",
    ]
)


@pytest.mark.parametrize("strategy", ["bfs", "best-first", "auto"])
def test_max_states_stops_the_search(strategy: str) -> None:
    result = solve(OPEN_ROOM, max_states=50, strategy=strategy)
    assert (result.status, result.states, result.stopped_by) == ("limit", 50, "max-states")


def test_timeout_stops_the_search() -> None:
    result = solve(OPEN_ROOM, timeout=0)
    assert (result.status, result.stopped_by, result.states) == ("limit", "timeout", 0)


def test_cancel_is_checked_before_every_expansion() -> None:
    calls = 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls > 25

    result = solve(OPEN_ROOM, cancel=cancelled)
    assert (result.status, result.stopped_by, result.states) == ("limit", "cancel", 25)


def test_cancel_from_another_thread() -> None:
    flag = threading.Event()
    reports: list[SolveProgress] = []

    def progress(report: SolveProgress) -> None:
        reports.append(report)
        flag.set()  # as a UI would, from the first report on

    done: list[Any] = []
    worker = threading.Thread(
        target=lambda: done.append(
            solve(OPEN_ROOM, cancel=flag, progress=progress, progress_interval=0.01)
        )
    )
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive()
    [result] = done
    assert (result.status, result.stopped_by) == ("limit", "cancel")
    assert reports


def test_progress_reports_states_frontier_and_depth() -> None:
    reports: list[SolveProgress] = []
    solve(OPEN_ROOM, max_states=300, progress=reports.append, progress_interval=0)
    assert len(reports) == 300  # interval 0: before every expansion
    assert [r.states for r in reports] == list(range(300))
    assert all(r.frontier >= 1 for r in reports)
    depths = [r.depth for r in reports]
    assert depths == sorted(depths)
    assert depths[-1] > 1


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"strategy": "dfs"}, ValueError),
        ({"max_states": -1}, ValueError),
        ({"timeout": -1.0}, ValueError),
        ({"weight": 0}, ValueError),
        ({"cancel": 42}, TypeError),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        solve(OPEN_ROOM, **kwargs)


def test_result_record() -> None:
    result = solve(grid_level(["BABA IS YOU", "FLAG IS WIN", "baba flag ."]))
    record = result.to_dict()
    assert record["status"] == "solved"
    assert (record["moves"], record["length"], record["shortest"]) == ("R", 1, True)
    assert record["lowerBound"] == 1  # a shortest solution is its own bound
    assert set(record) == {
        "status",
        "moves",
        "length",
        "states",
        "seconds",
        "strategy",
        "shortest",
        "stoppedBy",
        "visited",
        "lowerBound",
        "memory",
    }


@given(st.sampled_from(["bfs", "best-first", "auto"]))
@settings(max_examples=3, deadline=None)
def test_status_compares_as_a_string(strategy: str) -> None:
    assert solve(grid_level(["BABA IS YOU", "baba . ."]), strategy=strategy).status == "unsolvable"


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    small_level(),
    st.sampled_from(["bfs", "best-first", "auto"]),
    st.sampled_from([1, 5, 50, 100_000]),
)
def test_shortest_is_claimed_only_when_proved(
    level: dict[str, Any], strategy: str, max_states: int
) -> None:
    """Issue 21: ``SolveResult.shortest`` is never true for a result the search did not prove.

    A claim is checked against a breadth-first search with the public engine: the
    solution must be solved, replay to a win and be as short as the shortest one.
    """
    result = solve(level, strategy=strategy, max_states=max_states)
    event(f"{strategy}: {result.status}, shortest={result.shortest}")
    if not result.shortest:
        return
    status, length, _ = reference_bfs(level, cap=5_000)
    assert status != "limit"  # small boards: the reference always finishes
    assert (result.status, status, result.length) == ("solved", "solved", length)
    # breadth-first proves, and so does a proved lower bound the solution reaches
    assert result.strategy == Strategy.BFS or result.length <= result.lower_bound
    assert length == 0 or wins(level, result.moves)


def test_a_best_first_answer_is_never_claimed_shortest(monkeypatch: pytest.MonkeyPatch) -> None:
    # the auto strategy's breadth-first stage is cut short, so best-first answers
    monkeypatch.setattr(search, "AUTO_BFS_STATES", 3)
    level = grid_level(
        [
            "BABA IS YOU . . .",
            ". . . rock . .",
            "baba . . rock . flag",
            "ROCK IS PUSH . . .",
            "FLAG IS WIN . . .",
        ]
    )
    for strategy in ("auto", "best-first"):
        result = solve(level, strategy=strategy)
        assert (result.status, result.strategy) == ("solved", Strategy.BEST_FIRST)
        assert result.shortest is False
        assert wins(level, result.moves)
    proved = solve(level)
    assert (proved.strategy, proved.shortest) == (Strategy.BFS, True)
    assert proved.length <= result.length


def test_a_cancel_is_honoured_while_the_position_table_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # growing the table's index visits every kept position (seconds past a few
    # million); it calls the search's pause, which must stop the search at once
    grew: list[int] = []

    class Growing(PositionTable):
        def __init__(self, pause: Any = None, **budget: Any) -> None:
            super().__init__(pause, **budget)
            self.hook = pause

        def add(self, key: int) -> int:
            if grew:
                grew.append(key)  # an add after the pause: the search went on
            number = super().add(key)
            if number == 500 and self.hook is not None:
                grew.append(key)
                self.hook()  # what a long growth does
            return number

    monkeypatch.setattr(search, "PositionTable", Growing)
    result = solve(OPEN_ROOM, cancel=lambda: bool(grew), max_states=10**6)
    assert (result.status, result.stopped_by) == ("limit", "cancel")
    assert len(grew) == 1
