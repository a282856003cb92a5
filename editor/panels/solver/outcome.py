"""One level's solve as the solver panel keeps it, and how the panel words it.

The words are the engine's (``engine.SolveBudget.stop_text``, and the verdict's
"proved shortest" / "shortest is at least N"), so the panel, ``rulegrid solve``
and the pack check say the same. What earlier searches of the same content proved
(this panel's, or the pack check's) is kept with the outcome: a best-first solution
and a breadth-first bound combine into "Solved in 51 moves, shortest is at least 31".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from editor.documents.level import LevelDocument

_UNSOLVED_KEYS = ("id", "title", "author", "solution", "references")  # never change a solve
#: The panel's option that raises each budget, by what ``stopped_by`` calls it.
RAISE_WITH = {"max-states": "Budget", "timeout": "Time", "memory": "Memory"}


def solve_content(level: LevelDocument) -> dict[str, Any]:
    """What a solve depends on: the level without its names and intended solution."""
    return {k: v for k, v in level.to_data().items() if k not in _UNSOLVED_KEYS}


@dataclass
class SolveOutcome:
    """One level's last solve, from start to result.

    ``known_bound`` and ``known_best`` are what other searches of the same content
    proved before this one started: every solution has at least ``known_bound``
    moves, and one of ``known_best`` moves exists.
    """

    strategy: engine.Strategy
    budget: int
    content: dict[str, Any]
    status: str = "running"  # then solved, unsolvable, limit, cancelled or failed
    result: engine.SolveResult | None = None
    progress: engine.SolveProgress | None = None
    error: str = ""
    stale: bool = False
    seconds: float | None = None
    memory: int | None = None
    known_bound: int = 0
    known_best: int | None = None

    def learn(self, bound: int | None, best: int | None) -> None:
        """Take in what another search of the same content proved."""
        if bound is not None:
            self.known_bound = max(self.known_bound, bound)
        if best is not None and (self.known_best is None or best < self.known_best):
            self.known_best = best

    def lower_bound(self) -> int:
        """Proved now: every solution has at least this many moves."""
        found = 0
        if self.result is not None:
            found = self.result.lower_bound
        elif self.progress is not None:
            found = self.progress.lower_bound
        return max(found, self.known_bound)

    def best(self) -> int | None:
        """The shortest solution length known, this solve's or an earlier one's."""
        mine = self.result.length if self.result is not None and self.status == "solved" else None
        known = [n for n in (mine, self.known_best) if n is not None]
        return min(known) if known else None


def describe(outcome: SolveOutcome | None) -> tuple[str, str, str, str]:
    """Headline, details, moves and progress text for a solve."""
    if outcome is None:
        return "Not solved yet", "", "", "Press Solve (Ctrl+R) to search this level."
    p = outcome.progress
    searched = f"{p.states:,} states" if p is not None else "starting…"
    if outcome.status == "running":
        if p is None:
            return "Solving…", "", "", searched
        parts = [searched, f"depth {p.depth}", f"{p.frontier:,} queued"]
        bound = outcome.lower_bound()
        if bound > 1:
            parts.append(f"no solution in {bound - 1} moves or fewer")
        rate = p.rate
        if rate is not None:
            parts.append(f"{rate:,.0f} states per CPU second")
        return "Solving…", "", "", " · ".join(parts)
    if outcome.status == "cancelled":
        return "Cancelled", f"after {searched}" if p is not None else "", "", ""
    if outcome.status == "failed":
        return "Could not solve", outcome.error, "", ""
    r = outcome.result
    if r is None:
        return "", "", "", ""
    how = "breadth-first" if r.strategy == "bfs" else str(r.strategy)
    details = f"{r.states:,} states · {r.seconds:.2f} s · {how}"
    bound = outcome.lower_bound()
    if outcome.status == "solved":
        if r.shortest or r.length <= bound:
            return f"Solved in {r.length} moves (proved shortest)", details, r.moves, ""
        if bound > 1:
            return f"Solved in {r.length} moves, shortest is at least {bound}", details, r.moves, ""
        return f"Solved in {r.length} moves (not proved shortest)", details, r.moves, ""
    if outcome.status == "unsolvable":
        return "Unsolvable: every reachable position was searched", details, "", ""
    budget = engine.SolveBudget(outcome.budget, outcome.seconds, outcome.memory)
    stop = budget.stop_text(r)
    option = RAISE_WITH.get(r.stopped_by or "")
    if option is not None:
        stop += f" (raise {option} above)"
    headline = f"No solution in {bound - 1} moves or fewer" if bound > 1 else "No solution found"
    best = outcome.best()
    if best is not None:
        headline += f"; best found {best}"
    return headline, f"{stop} · {details}", "", ""
