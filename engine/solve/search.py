"""``engine.solve``: search the compact positions of a level for a winning move string.

Strategies (``strategy=``):

* ``"bfs"`` (the default): breadth-first. The first won successor is a shortest
  solution; expanding every reachable position without one proves the level
  unsolvable.
* ``"best-first"``: weighted A*, expanding the lowest ``moves + weight * h`` first
  (``h`` from :mod:`engine.solve.heuristic`, each child's updated from its
  parent's by :mod:`engine.solve.estimate`; ties to the lower ``h``, then to the
  older position). Much faster on large levels; its solutions are not always
  shortest, the more so the larger the weight.
* ``"auto"``: breadth-first for :data:`AUTO_BFS_STATES` expansions, then A* with
  weight 1 for :data:`AUTO_ASTAR_STATES`, then weight 5 for the rest of the
  budget; each stage starts afresh. Cheap levels get a shortest solution, hard
  ones a solution at all. ``SolveResult.shortest`` says which it is.

Every stage expands positions with :class:`engine.solve.level.CompactLevel`, which
resolves turns exactly as the public engine does. A won successor ends the search
at once; a successor without a YOU object is a dead end and is never queued. A
search whose queue runs dry has expanded every reachable position, whatever its
order, so any strategy may answer ``unsolvable``.

Memory bounds a search, so the positions kept are a
:class:`~engine.solve.table.PositionTable` (their keys' bytes, no object each) and
the tree is flat arrays — the parent number and the move of every kept position —
never a dict of tuples; breadth-first's queue is the table's own order.
``bench/bench_solver.py`` measures the bytes per position.

Stopping: ``max_states`` (positions expanded, over all stages), ``timeout``
(seconds) and ``cancel`` are checked before every expansion, so a cancel is seen
within one expansion (well under 100 ms even on a 128x128 board); ``progress`` is
called at most once per ``progress_interval`` seconds.
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from engine.model import Level
from engine.solve.estimate import Estimate
from engine.solve.heuristic import Heuristic
from engine.solve.level import DIRECTIONS, CompactLevel
from engine.solve.table import PositionTable

DEFAULT_MAX_STATES = 1_000_000
DEFAULT_WEIGHT = 5
AUTO_BFS_STATES = 60_000  # twice the first budget: breadth-first got about twice as fast
AUTO_ASTAR_STATES = 60_000
_LETTERS = "".join(d.letter for d in DIRECTIONS)
_UNSET: Any = object()  # a parent's estimate node not asked for yet


class SolveStatus(StrEnum):
    """How a search ended; compares equal to its string value."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # every reachable position was expanded: no solution exists
    LIMIT = "limit"  # stopped by max_states, timeout or cancel before an answer


class Strategy(StrEnum):
    BFS = "bfs"
    BEST_FIRST = "best-first"
    AUTO = "auto"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``states`` counts positions expanded and ``visited`` the distinct positions
    kept (expanded or queued) by the last stage. ``strategy`` is the one that produced
    the answer (for ``auto``, the stage that found it); ``shortest`` is true when
    breadth-first found the solution, so no shorter one exists. ``stopped_by``
    names what stopped a ``limit`` result: ``"max-states"``, ``"timeout"`` or
    ``"cancel"``.
    """

    status: SolveStatus
    moves: str
    states: int
    seconds: float
    strategy: Strategy = Strategy.BFS
    shortest: bool = False
    stopped_by: str | None = None
    visited: int = 0

    @property
    def length(self) -> int:
        return len(self.moves)

    def to_dict(self) -> dict[str, object]:
        return {
            "status": str(self.status),
            "moves": self.moves,
            "length": self.length,
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "strategy": str(self.strategy),
            "shortest": self.shortest,
            "stoppedBy": self.stopped_by,
            "visited": self.visited,
        }


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report: positions expanded and queued, and the depth reached."""

    states: int
    frontier: int
    depth: int
    seconds: float


class _Flag(Protocol):
    def is_set(self) -> bool: ...


Cancel = _Flag | Callable[[], bool]
_Answer = tuple[SolveStatus, str, str | None]  # status, moves, stopped by


def solve(
    level: Level | Mapping[str, Any] | str,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    timeout: float | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
    cancel: Cancel | None = None,
    strategy: Strategy | str = Strategy.BFS,
    weight: int = DEFAULT_WEIGHT,
    progress_interval: float = 0.1,
) -> SolveResult:
    """Search for a winning move string from the level's settled start.

    ``cancel`` is a ``threading.Event``-like object (``is_set()``) or a callable
    returning true to stop; ``weight`` is best-first's weight on ``h``.

    Raises:
        ValidationError: the level is not valid.
        ValueError: an unknown strategy, a negative or NaN bound or a weight below 1.
    """
    began = time.perf_counter()
    strategy = Strategy(strategy)
    # ``not timeout >= 0`` also refuses NaN, which compares false with everything
    # and so would never stop the search
    if max_states < 0 or (timeout is not None and not timeout >= 0) or weight < 1:
        raise ValueError(
            "max_states and timeout must not be negative or NaN, and weight must be at least 1"
        )
    search = _Search(
        CompactLevel(level), max_states, timeout, progress, cancel, progress_interval, began
    )
    stages: list[tuple[Strategy, int, int]] = {  # (strategy, weight, expansions allowed)
        Strategy.BFS: [(Strategy.BFS, 0, max_states)],
        Strategy.BEST_FIRST: [(Strategy.BEST_FIRST, weight, max_states)],
        Strategy.AUTO: [
            (Strategy.BFS, 0, AUTO_BFS_STATES),
            (Strategy.BEST_FIRST, 1, AUTO_ASTAR_STATES),
            (Strategy.BEST_FIRST, DEFAULT_WEIGHT, max_states),
        ],
    }[strategy]
    answer: _Answer = (SolveStatus.LIMIT, "", "max-states")
    used = strategy
    for used, stage_weight, allowed in stages:
        search.cap = min(max_states, search.expanded + allowed)
        try:
            answer = search.bfs() if used is Strategy.BFS else search.best_first(stage_weight)
        except _StoppedError as stopped:
            answer = (SolveStatus.LIMIT, "", stopped.reason)
        if answer[2] != "stage":
            break
    status, moves, stopped_by = answer
    if stopped_by == "stage":
        stopped_by = "max-states"
    shortest = status is SolveStatus.SOLVED and used is Strategy.BFS
    seconds = time.perf_counter() - began
    return SolveResult(
        status, moves, search.expanded, seconds, used, shortest, stopped_by, len(search.table)
    )


class _StoppedError(Exception):
    """A cancel or timeout seen while the position table grew."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Search:
    """What all strategies share: bounds, progress, the start and the search tree."""

    def __init__(
        self,
        compact: CompactLevel,
        max_states: int,
        timeout: float | None,
        progress: Callable[[SolveProgress], None] | None,
        cancel: Cancel | None,
        interval: float,
        began: float,
    ) -> None:
        self.compact = compact
        self.max_states = max_states
        self.cap = max_states  # expansions allowed to the running stage
        self.deadline = None if timeout is None else began + timeout
        self.progress = progress
        self.cancelled = _cancel_check(cancel)
        self.interval = interval
        self.began = began
        self.next_report = began + interval
        self.expanded = 0
        self.frontier = self.depth = 0  # as last reported
        self.estimate: Estimate | None = None
        self.table = PositionTable(self.pause)  # every position kept, numbered in order
        self.parent = array("i")  # parent number of every kept position
        self.via = bytearray()  # direction index that reached it

    def stop_reason(self, frontier: int, depth: int) -> str | None:
        """Why to stop before the next expansion (``None`` to go on); reports progress."""
        self.frontier, self.depth = frontier, depth
        if self.expanded >= self.cap:
            return "max-states" if self.expanded >= self.max_states else "stage"
        if self.cancelled is not None and self.cancelled():
            return "cancel"
        if self.deadline is not None or self.progress is not None:
            now = time.perf_counter()
            if self.deadline is not None and now >= self.deadline:
                return "timeout"
            if self.progress is not None and now >= self.next_report:
                self.next_report = now + self.interval
                self.progress(SolveProgress(self.expanded, frontier, depth, now - self.began))
        return None

    def pause(self) -> None:
        """Honour a cancel or a timeout, and report progress, in a long table growth."""
        if self.cancelled is not None and self.cancelled():
            raise _StoppedError("cancel")
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise _StoppedError("timeout")
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + self.interval
            self.progress(SolveProgress(self.expanded, self.frontier, self.depth, now - self.began))

    def path(self, index: int, last: int) -> str:
        letters = [_LETTERS[last]]
        while index > 0:
            letters.append(_LETTERS[self.via[index]])
            index = self.parent[index]
        return "".join(reversed(letters))

    def start(self) -> _Answer | None:
        """The answer when the start decides (already won, no YOU); else a fresh tree."""
        compact = self.compact
        if compact.start_won:
            return SolveStatus.SOLVED, "", None
        if not compact.expansion(compact.start_key).movers:
            return SolveStatus.UNSOLVABLE, "", None
        self.parent = array("i", [-1])
        self.via = bytearray(b"\xff")
        self.table = PositionTable(self.pause)
        self.table.add(compact.start_key)
        return None

    def bfs(self) -> _Answer:
        """Breadth-first: the first won successor is a shortest solution."""
        early = self.start()
        if early is not None:
            return early
        compact = self.compact
        children = compact.children
        table = self.table
        add, key_of = table.add, table.key
        parent, via = self.parent, self.via
        index, depth, layer_end = 0, 0, 1
        while index < len(table):
            stop = self.stop_reason(len(table) - index, depth)
            if stop is not None:
                return SolveStatus.LIMIT, "", stop
            if index == layer_end:
                depth, layer_end = depth + 1, len(table)
            self.expanded += 1
            back = key_of(parent[index]) if index else -1  # a walk back to it: no lookup
            for direction, child in enumerate(children(key_of(index))):
                if child is None:
                    continue
                key, won, control = child
                if won:
                    return SolveStatus.SOLVED, self.path(index, direction), None
                # without YOU no later turn is accepted; the parent is kept already
                if control and key != back and add(key) >= 0:
                    parent.append(index)
                    via.append(direction)
            index += 1
        return SolveStatus.UNSOLVABLE, "", None

    def best_first(self, weight: int) -> _Answer:
        """Weighted A*: the lowest ``moves + weight * h`` first; positions are never reopened."""
        early = self.start()
        if early is not None:
            return early
        compact = self.compact
        if self.estimate is None:
            self.estimate = Estimate(Heuristic(compact))  # its caches serve every stage
        estimate = self.estimate
        node_of, after = estimate.node, estimate.after
        children = compact.children
        table = self.table
        add, key_of = table.add, table.key
        moves = array("i", [0])
        h = estimate.of(compact.start_key)
        heap: list[tuple[int, int, int]] = [(weight * h, h, 0)]
        parent, via = self.parent, self.via
        push, pop = heapq.heappush, heapq.heappop
        deepest = 0
        cap = self.cap
        # without a cancel, a deadline or progress reports only the count can stop it
        watched = (self.cancelled, self.deadline, self.progress) != (None, None, None)
        while heap:
            if watched or self.expanded >= cap:
                stop = self.stop_reason(len(heap), deepest)
                if stop is not None:
                    return SolveStatus.LIMIT, "", stop
            _, _, index = pop(heap)
            self.expanded += 1
            g = moves[index] + 1
            if g > deepest:
                deepest = g
            key = key_of(index)
            back = key_of(parent[index]) if index else -1  # a walk back to it: no lookup
            node = _UNSET
            for direction, child in enumerate(children(key)):
                if child is None:
                    continue
                child_key, won, control = child
                if won:
                    return SolveStatus.SOLVED, self.path(index, direction), None
                if control and child_key != back:
                    number = add(child_key)
                    if number >= 0:
                        parent.append(index)
                        via.append(direction)
                        moves.append(g)
                        if node is _UNSET:
                            node = node_of(key)
                        h = after(node, key, child_key)
                        push(heap, (g + weight * h, h, number))
        return SolveStatus.UNSOLVABLE, "", None


def _cancel_check(cancel: Cancel | None) -> Callable[[], bool] | None:
    if cancel is None:
        return None
    is_set = getattr(cancel, "is_set", None)
    if callable(is_set):
        return is_set  # type: ignore[no-any-return]
    if callable(cancel):
        return cancel
    raise TypeError("cancel must have is_set() (e.g. threading.Event) or be callable")
