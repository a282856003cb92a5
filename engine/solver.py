"""``engine.solve``: breadth-first (shortest) or best-first search over compact states.

Both strategies expand positions with :class:`engine.compact.CompactLevel`, which
resolves turns exactly as the public engine does. A won successor ends the search
at once; a successor without a YOU object is a dead end and is never queued.

Memory is what bounds a search, so the visited set holds only the positions' int
keys (about 40 bytes each) and the search tree is two flat arrays, the parent
index and the move of every queued position: no dict of tuples, no per-node
object. ``bench/bench_solver.py`` measures the bytes per state.

Stopping: ``max_states`` (positions expanded), ``timeout`` (seconds) and
``cancel`` are checked before every expansion, so a cancel is seen within one
expansion (well under 100 ms even on a 128x128 board); ``progress`` is called at
most once per ``progress_interval`` seconds.
"""

from __future__ import annotations

import heapq
import time
from array import array
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from engine.compact import DIRECTIONS, CompactLevel
from engine.model import Level
from engine.search_heuristic import Heuristic

DEFAULT_MAX_STATES = 1_000_000
_LETTERS = "".join(d.letter for d in DIRECTIONS)


class SolveStatus(StrEnum):
    """How a search ended; compares equal to its string value."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # every reachable position was expanded: no solution exists
    LIMIT = "limit"  # stopped by max_states, timeout or cancel before an answer


class Strategy(StrEnum):
    BFS = "bfs"  # shortest solutions; proves unsolvability
    BEST_FIRST = "best-first"  # weighted A*: faster on large levels, not always shortest


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``states`` counts positions expanded; ``stopped_by`` names what stopped a
    ``limit`` result (``"max-states"``, ``"timeout"`` or ``"cancel"``).
    """

    status: SolveStatus
    moves: str
    states: int
    seconds: float
    strategy: Strategy = Strategy.BFS
    stopped_by: str | None = None

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
            "stoppedBy": self.stopped_by,
        }


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report: positions expanded, queued and the current search depth."""

    states: int
    frontier: int
    depth: int
    seconds: float


class _Flag(Protocol):
    def is_set(self) -> bool: ...


Cancel = _Flag | Callable[[], bool]


def solve(
    level: Level | Mapping[str, Any] | str,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    timeout: float | None = None,
    progress: Callable[[SolveProgress], None] | None = None,
    cancel: Cancel | None = None,
    strategy: Strategy | str = Strategy.BFS,
    progress_interval: float = 0.1,
) -> SolveResult:
    """Search for a winning move string from the level's settled start.

    ``strategy="bfs"`` returns a shortest solution and proves unsolvability by
    exhausting the reachable positions. ``strategy="best-first"`` expands the
    position with the lowest ``moves + 2 * heuristic`` first (see
    :mod:`engine.search_heuristic`); it usually needs far fewer expansions on
    large levels but its solutions may be longer than the shortest.
    ``cancel`` is a ``threading.Event``-like object (``is_set()``) or a callable
    returning true to stop.

    Raises:
        ValidationError: the level is not valid.
        ValueError: an unknown strategy or a negative bound.
    """
    began = time.perf_counter()
    strategy = Strategy(strategy)
    if max_states < 0 or (timeout is not None and timeout < 0):
        raise ValueError("max_states and timeout must not be negative")
    compact = CompactLevel(level)
    search = _Search(compact, max_states, timeout, progress, cancel, progress_interval, began)
    status, moves, stopped_by = search.bfs() if strategy is Strategy.BFS else search.best_first()
    return SolveResult(
        status, moves, search.expanded, time.perf_counter() - began, strategy, stopped_by
    )


class _Search:
    """The bookkeeping both strategies share: bounds, progress and the search tree."""

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
        self.deadline = None if timeout is None else began + timeout
        self.progress = progress
        self.cancelled = _cancel_check(cancel)
        self.interval = interval
        self.began = began
        self.next_report = began + interval
        self.expanded = 0
        self.parent = array("i", [-1])  # parent index of every queued position
        self.via = bytearray(b"\xff")  # direction index that reached it

    def stop_reason(self, frontier: int, depth: int) -> str | None:
        """Why to stop before the next expansion (None to go on); reports progress."""
        if self.expanded >= self.max_states:
            return "max-states"
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

    def path(self, index: int, last: int) -> str:
        letters = [_LETTERS[last]]
        while index > 0:
            letters.append(_LETTERS[self.via[index]])
            index = self.parent[index]
        return "".join(reversed(letters))

    def start(self) -> tuple[SolveStatus, str, str | None] | None:
        compact = self.compact
        if compact.start_won:
            return SolveStatus.SOLVED, "", None
        ex = compact.expansion(compact.start_key)
        if not ex.movers:
            return SolveStatus.UNSOLVABLE, "", None
        return None

    def bfs(self) -> tuple[SolveStatus, str, str | None]:
        """Breadth-first: the first won successor is a shortest solution."""
        early = self.start()
        if early is not None:
            return early
        compact = self.compact
        successor, expansion = compact.successor, compact.expansion
        seen = {compact.start_key}
        queue = deque([compact.start_key])
        parent, via = self.parent, self.via
        depth, layer_end = 0, 1
        while queue:
            stop = self.stop_reason(len(queue), depth)
            if stop is not None:
                return SolveStatus.LIMIT, "", stop
            index = self.expanded
            if index == layer_end:
                depth, layer_end = depth + 1, len(parent)
            self.expanded = index + 1
            ex = expansion(queue.popleft())
            for d in range(4):
                out = successor(ex, d)
                if out is None:
                    continue
                child, won, control = out
                if won:
                    return SolveStatus.SOLVED, self.path(index, d), None
                if control and child not in seen:  # without YOU no later turn is accepted
                    seen.add(child)
                    parent.append(index)
                    via.append(d)
                    queue.append(child)
        return SolveStatus.UNSOLVABLE, "", None

    def best_first(self) -> tuple[SolveStatus, str, str | None]:
        """Weighted A*: expand the lowest ``moves + 2 * h`` first, ties oldest first."""
        early = self.start()
        if early is not None:
            return early
        compact = self.compact
        estimate = Heuristic(compact).of
        successor, expansion = compact.successor, compact.expansion
        start = compact.start_key
        seen = {start}
        depths = array("i", [0])
        heap: list[tuple[int, int, int]] = [(2 * estimate(start), 0, start)]
        parent, via = self.parent, self.via
        while heap:
            stop = self.stop_reason(len(heap), 0)
            if stop is not None:
                return SolveStatus.LIMIT, "", stop
            _, index, key = heapq.heappop(heap)
            self.expanded += 1
            ex = expansion(key)
            g = depths[index] + 1
            for d in range(4):
                out = successor(ex, d)
                if out is None:
                    continue
                child, won, control = out
                if won:
                    return SolveStatus.SOLVED, self.path(index, d), None
                if control and child not in seen:
                    seen.add(child)
                    parent.append(index)
                    via.append(d)
                    depths.append(g)
                    heapq.heappush(heap, (g + 2 * estimate(child), len(parent) - 1, child))
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
