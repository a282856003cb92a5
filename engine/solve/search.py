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
at once; a successor without control (no mover left) is a dead end and is never queued. A
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
called at most once per ``progress_interval`` seconds (and before the first
expansion, so a caller hears at once that the search runs).

Memory: ``memory`` is a budget of bytes (default :func:`default_memory_budget`).
The position table counts what it and the tree hold (its own lengths, one
comparison per add) and refuses to pass the budget; every tenth of a second (or
every 1,024 expansions when nothing reads the clock) the process's resident size
is read too (``/proc/self/statm`` where there is one), so caches and whatever else
the search grows are inside the budget as well. Either stops the search with
``stopped_by="memory"``: never a ``MemoryError``, never a swapping machine.

Lower bounds: breadth-first expands the positions one layer (one move count) at
a time and looks at every child for a win, so once it has started the positions
``d`` moves from the start, no solution of ``d`` moves or fewer exists.
``SolveResult.lower_bound`` is that proved bound (``d + 1``), whatever stopped the
search; a best-first stage adds nothing to it, but a best-first solution no
longer than it is proved shortest too (``auto``: "51 moves, shortest is at
least 31").
"""

from __future__ import annotations

import heapq
import os
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
from engine.solve.table import PositionTable, TableFullError

DEFAULT_MAX_STATES = 1_000_000
#: A search's default memory budget is this share of the memory available when it
#: starts (a quarter: the editor runs a few searches at once, the machine has other
#: work), and never more than :data:`MEMORY_CEILING`.
DEFAULT_MEMORY_SHARE = 0.25
#: The largest default memory budget: with the interpreter, the level and the
#: solver's caches, a default search then stays under 1 GB (issue 39's goal). A
#: budget given explicitly (``--memory``, the solver panel) may be larger.
MEMORY_CEILING = 768 * 2**20
#: Bytes a position costs a search beside the table: its parent (4) and move (1);
#: best-first also keeps its move count (4) and a heap entry (a 3-tuple and an int,
#: about 120 bytes, measured with tracemalloc).
_TREE_BYTES = 5
_HEAP_BYTES = 4 + 120
_LOOK_EVERY = 0.1  # seconds between two readings of the resident size
_LOOK_COUNT = 1 << 10  # expansions between two readings when nothing reads the clock
DEFAULT_WEIGHT = 5
AUTO_BFS_STATES = 60_000  # twice the first budget: breadth-first got about twice as fast
AUTO_ASTAR_STATES = 60_000
_LETTERS = "".join(d.letter for d in DIRECTIONS)
_UNSET: Any = object()  # a parent's estimate node not asked for yet


class SolveStatus(StrEnum):
    """How a search ended; compares equal to its string value."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # every reachable position was expanded: no solution exists
    LIMIT = "limit"  # stopped by max_states, timeout, memory or cancel before an answer


class Strategy(StrEnum):
    BFS = "bfs"
    BEST_FIRST = "best-first"
    AUTO = "auto"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``states`` counts positions expanded and ``visited`` the distinct positions
    kept (expanded or queued) by the last stage. ``strategy`` is the one that produced
    the answer (for ``auto``, the stage that found it); ``shortest`` is true when no
    shorter solution exists: breadth-first found it, or it is no longer than the
    proved ``lower_bound``. ``stopped_by`` names what stopped a ``limit`` result:
    ``"max-states"``, ``"timeout"``, ``"memory"`` or ``"cancel"``.

    ``lower_bound`` is proved: every solution has at least that many moves (the
    length itself for a shortest solution, 0 for a won start). ``memory`` is the
    bytes the search's positions held at the end (the table's own count).
    """

    status: SolveStatus
    moves: str
    states: int
    seconds: float
    strategy: Strategy = Strategy.BFS
    shortest: bool = False
    stopped_by: str | None = None
    visited: int = 0
    lower_bound: int = 0
    memory: int = 0

    @property
    def length(self) -> int:
        return len(self.moves)

    def no_solution_within(self) -> int:
        """The move count within which no solution exists (``lower_bound - 1``, at least 0)."""
        return max(0, self.lower_bound - 1)

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
            "lowerBound": self.lower_bound,
            "memory": self.memory,
        }


@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report: positions expanded and queued, and the depth reached.

    ``seconds`` is wall time since the search began, ``cpu`` the CPU time this
    process used meanwhile (a rate per CPU second does not fall when other work
    shares the machine); ``lower_bound`` is proved so far, as in
    :class:`SolveResult`, and ``memory`` the bytes the positions hold.
    """

    states: int
    frontier: int
    depth: int
    seconds: float
    cpu: float = 0.0
    lower_bound: int = 0
    memory: int = 0

    @property
    def rate(self) -> float | None:
        """Positions expanded per CPU second (``None`` before any CPU time is counted)."""
        return self.states / self.cpu if self.cpu > 0 else None


@dataclass(frozen=True, slots=True)
class SolveBudget:
    """What a search may spend: expansions, seconds (``None``: no limit) and bytes
    (``None``: :func:`default_memory_budget`). It only words a stop; :func:`solve`
    takes the same three as arguments."""

    max_states: int = DEFAULT_MAX_STATES
    seconds: float | None = None
    memory: int | None = None

    def stop_text(self, result: SolveResult) -> str:
        """Which budget stopped ``result``, and its size: "stopped at the time budget of 60 s …"."""
        states = f"{result.states:,} state{'s' if result.states != 1 else ''}"
        if result.stopped_by == "cancel":
            return f"cancelled after {states}"
        if result.stopped_by == "timeout":
            of = "" if self.seconds is None else f" of {self.seconds:g} s"
            return f"stopped at the time budget{of} after {states}"
        if result.stopped_by == "memory":
            of = " (the default)" if self.memory is None else f" of {format_bytes(self.memory)}"
            return f"stopped at the memory budget{of} after {states}"
        return f"stopped at the state budget of {self.max_states:,} state{'s' if self.max_states != 1 else ''}"


def format_bytes(count: int) -> str:
    """A byte count as an author reads it: "768 MiB", "1.5 GiB", "64 KiB"."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} bytes"


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
    memory: int | None = None,
) -> SolveResult:
    """Search for a winning move string from the level's settled start.

    ``cancel`` is a ``threading.Event``-like object (``is_set()``) or a callable
    returning true to stop; ``weight`` is best-first's weight on ``h``;
    ``memory`` is the budget of bytes (``None``: :func:`default_memory_budget`).

    Raises:
        ValidationError: the level is not valid.
        ValueError: an unknown strategy, a negative or NaN bound or a weight below 1.
    """
    began = time.perf_counter()
    strategy = Strategy(strategy)
    # ``not timeout >= 0`` also refuses NaN, which compares false with everything
    # and so would never stop the search
    if (
        max_states < 0
        or (timeout is not None and not timeout >= 0)
        or weight < 1
        or (memory is not None and memory < 0)
    ):
        raise ValueError(
            "max_states, timeout and memory must not be negative or NaN, "
            "and weight must be at least 1"
        )
    budget = default_memory_budget() if memory is None else memory
    search = _Search(
        CompactLevel(level),
        max_states,
        timeout,
        progress,
        cancel,
        progress_interval,
        began,
        budget,
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
        except (TableFullError, MemoryError):  # the budget, or an allocation it did not see
            answer = (SolveStatus.LIMIT, "", "memory")
        if answer[2] != "stage":
            break
    status, moves, stopped_by = answer
    if stopped_by == "stage":
        stopped_by = "max-states"
    bound = search.bound
    if status is SolveStatus.SOLVED:
        bound = len(moves) if used is Strategy.BFS else min(bound, len(moves))
    shortest = status is SolveStatus.SOLVED and len(moves) <= bound
    seconds = time.perf_counter() - began
    return SolveResult(
        status,
        moves,
        search.expanded,
        seconds,
        used,
        shortest,
        stopped_by,
        len(search.table),
        bound,
        search.table.nbytes(),
    )


def default_memory_budget(searches: int = 1) -> int:
    """The bytes one of ``searches`` searches running at once may use by default.

    :data:`DEFAULT_MEMORY_SHARE` of the memory available now, shared among them,
    and at most :data:`MEMORY_CEILING` each. "Available" is the system's estimate
    of what can be used without swapping (``MemAvailable``), or what is left under
    the process's control-group limit when that is smaller (containers); where
    neither can be read, the physical memory; where that cannot be read either,
    the ceiling alone.
    """
    available = available_memory()
    share = MEMORY_CEILING if available is None else int(available * DEFAULT_MEMORY_SHARE)
    return max(1, min(MEMORY_CEILING, share // max(1, searches)))


def available_memory() -> int | None:
    """Bytes this process could still use without swapping, if the system says."""
    found: list[int] = []
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    try:  # cgroup v2: the limit of this process's group, less what the group uses
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as limit:
            text = limit.read().strip()
        if text != "max":
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as current:
                found.append(max(0, int(text) - int(current.read().strip())))
    except (OSError, ValueError):
        pass
    if not found:
        try:
            found.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, OSError, ValueError):
            return None
    return min(found)


def _resident_bytes() -> int | None:
    """This process's resident size (``/proc/self/statm``); ``None`` where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, OSError, ValueError):
    _PAGE = 4096


class _StoppedError(Exception):
    """A cancel, a timeout or the memory budget seen while the position table grew."""

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
        memory: int,
    ) -> None:
        self.compact = compact
        self.max_states = max_states
        self.cap = max_states  # expansions allowed to the running stage
        self.deadline = None if timeout is None else began + timeout
        self.progress = progress
        self.cancelled = _cancel_check(cancel)
        self.interval = interval
        self.began = began
        self.cpu_began = time.process_time()
        self.next_report = began  # the first report comes before the first expansion
        self.memory = memory
        resident = _resident_bytes()
        # the resident size the search may reach: where it started plus the budget
        self.resident_cap = None if resident is None else resident + memory
        self.next_look = began + _LOOK_EVERY
        self.clocked = self.deadline is not None or progress is not None
        self.expanded = 0
        self.frontier = self.depth = 0  # as last reported
        self.bound = 0  # proved: every solution has at least this many moves
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
        if self.clocked:
            now = time.perf_counter()
            if self.deadline is not None and now >= self.deadline:
                return "timeout"
            if now >= self.next_look and self.over_memory(now):
                return "memory"
            if self.progress is not None and now >= self.next_report:
                self.next_report = now + self.interval
                self.report(now)
        elif not self.expanded % _LOOK_COUNT and self.over_memory(0.0):
            return "memory"
        return None

    def over_memory(self, now: float) -> bool:
        """Whether the process has grown past the budget since the search began."""
        self.next_look = now + _LOOK_EVERY
        if self.resident_cap is None:
            return False
        resident = _resident_bytes()
        return resident is not None and resident > self.resident_cap

    def report(self, now: float) -> None:
        assert self.progress is not None
        self.progress(
            SolveProgress(
                self.expanded,
                self.frontier,
                self.depth,
                now - self.began,
                time.process_time() - self.cpu_began,
                self.bound,
                self.table.nbytes(),
            )
        )

    def pause(self) -> None:
        """Honour a cancel, a timeout or the budget, and report progress, in a long table growth."""
        if self.cancelled is not None and self.cancelled():
            raise _StoppedError("cancel")
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise _StoppedError("timeout")
        if now >= self.next_look and self.over_memory(now):
            raise _StoppedError("memory")
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + self.interval
            self.report(now)

    def path(self, index: int, last: int) -> str:
        letters = [_LETTERS[last]]
        while index > 0:
            letters.append(_LETTERS[self.via[index]])
            index = self.parent[index]
        return "".join(reversed(letters))

    def start(self, extra: int) -> _Answer | None:
        """The answer when the start decides (already won, no control); else a fresh tree.

        ``extra`` is what a position costs the strategy beside the table (bytes).
        """
        compact = self.compact
        if compact.start_won:
            return SolveStatus.SOLVED, "", None
        self.bound = max(self.bound, 1)  # the start is not won: no solution of 0 moves
        if not compact.expansion(compact.start_key).movers:
            return SolveStatus.UNSOLVABLE, "", None
        self.parent = array("i", [-1])
        self.via = bytearray(b"\xff")
        self.table = PositionTable(self.pause, budget=self.memory, extra=extra)
        self.table.add(compact.start_key)
        return None

    def bfs(self) -> _Answer:
        """Breadth-first: the first won successor is a shortest solution.

        Before it expands the first position of a layer, every position of the
        layers before has been expanded and each child looked at for a win: no
        solution has as few moves as that layer's depth, so the bound is depth + 1.
        """
        early = self.start(_TREE_BYTES)
        if early is not None:
            return early
        compact = self.compact
        children = compact.children
        table = self.table
        add, key_of = table.add, table.key
        parent, via = self.parent, self.via
        index, depth, layer_end = 0, 0, 1
        while index < len(table):
            if index == layer_end:
                depth, layer_end = depth + 1, len(table)
                if depth >= self.bound:
                    self.bound = depth + 1
            stop = self.stop_reason(len(table) - index, depth)
            if stop is not None:
                return SolveStatus.LIMIT, "", stop
            self.expanded += 1
            back = key_of(parent[index]) if index else -1  # a walk back to it: no lookup
            for direction, child in enumerate(children(key_of(index))):
                if child is None:
                    continue
                key, won, control = child
                if won:
                    return SolveStatus.SOLVED, self.path(index, direction), None
                # without control no later turn is accepted; the parent is kept already
                if control and key != back and add(key) >= 0:
                    parent.append(index)
                    via.append(direction)
            index += 1
        return SolveStatus.UNSOLVABLE, "", None

    def best_first(self, weight: int) -> _Answer:
        """Weighted A*: the lowest ``moves + weight * h`` first; positions are never reopened."""
        early = self.start(_TREE_BYTES + _HEAP_BYTES)
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
        # without a cancel or a clock only the count can stop it (and the budget,
        # whose resident size is read every _LOOK_COUNT expansions)
        watched = self.cancelled is not None or self.clocked
        while heap:
            if watched or self.expanded >= cap or not self.expanded % _LOOK_COUNT:
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
