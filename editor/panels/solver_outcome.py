"""One level's solve as the solver panel keeps it, and how the panel words it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from editor.documents.level import LevelDocument

_UNSOLVED_KEYS = ("id", "title", "author", "solution")  # never change what a solve finds


def solve_content(level: LevelDocument) -> dict[str, Any]:
    """What a solve depends on: the level without its names and intended solution."""
    return {k: v for k, v in level.to_data().items() if k not in _UNSOLVED_KEYS}


@dataclass
class SolveOutcome:
    """One level's last solve, from start to result."""

    strategy: engine.Strategy
    budget: int
    content: dict[str, Any]
    status: str = "running"  # then solved, unsolvable, limit, cancelled or failed
    result: engine.SolveResult | None = None
    progress: engine.SolveProgress | None = None
    error: str = ""
    stale: bool = False


def describe(outcome: SolveOutcome | None) -> tuple[str, str, str, str]:
    """Headline, details, moves and progress text for a solve."""
    if outcome is None:
        return "Not solved yet", "", "", "Press Solve (Ctrl+R) to search this level."
    p = outcome.progress
    searched = f"{p.states:,} states" if p is not None else "starting…"
    if outcome.status == "running":
        rate = f" · {p.states / p.seconds:,.0f} states/s" if p is not None and p.seconds > 0 else ""
        depth = f" · depth {p.depth}" if p is not None else ""
        queued = f" · {p.frontier:,} queued" if p is not None else ""
        return "Solving…", "", "", f"{searched}{depth}{queued}{rate}"
    if outcome.status == "cancelled":
        return "Cancelled", f"after {searched}" if p is not None else "", "", ""
    if outcome.status == "failed":
        return "Could not solve", outcome.error, "", ""
    r = outcome.result
    if r is None:
        return "", "", "", ""
    how = "breadth-first" if r.strategy == "bfs" else str(r.strategy)
    details = f"{r.states:,} states · {r.seconds:.2f} s · {how}"
    if outcome.status == "solved":
        proof = "shortest" if r.shortest else "not proved shortest"
        return f"Solved in {r.length} moves ({proof})", details, r.moves, ""
    if outcome.status == "unsolvable":
        return "Unsolvable: every reachable position was searched", details, "", ""
    return f"No solution within {outcome.budget:,} states", details, "", ""
