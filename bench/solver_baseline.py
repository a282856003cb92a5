"""The baseline of ``bench_solver.py``: breadth-first search that re-runs the public
``engine.Game`` for every state.

It is the straightforward solver one writes with the public API alone: each
queued position is a snapshot; expanding it restores a ``Game`` from the snapshot
and, per direction, steps, reads the state record for the visited-set key and a
snapshot for the queue, and undoes. It uses nothing a careful author would avoid
(no replaying from the start, no deep copies), so it is a fair yardstick.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from engine import Game, Level


def _key(state: dict[str, Any]) -> tuple[object, ...]:
    entities = tuple(
        (e["id"], e.get("noun", e.get("text")), e["x"], e["y"]) for e in state["entities"]
    )
    return entities, tuple(a["phase"] for a in state["automata"])


def public_bfs(level: Level, max_states: int, seconds: float) -> tuple[int, float, str | None]:
    """Expand up to ``max_states`` positions or for ``seconds``: (expanded, time, moves if won)."""
    began = time.perf_counter()
    game = Game(level)
    start = game.snapshot()
    seen = {_key(game.state())}
    queue: deque[tuple[dict[str, Any], str]] = deque([(start, "")])
    expanded = 0
    while queue and expanded < max_states and time.perf_counter() - began < seconds:
        snapshot, moves = queue.popleft()
        expanded += 1
        game = Game.from_snapshot(level, snapshot)
        for letter in "UDLR":
            event = game.step(letter)
            if not event.accepted:
                continue
            if event.won:
                return expanded, time.perf_counter() - began, moves + letter
            if not event.control_lost:
                key = _key(game.state())
                if key not in seen:
                    seen.add(key)
                    child = game.snapshot()
                    # a position without its history: its move count starts again at
                    # 0, since a snapshot's moves must be what its history supports
                    child["history"] = []
                    child["current"]["moves"] = 0
                    queue.append((child, moves + letter))
            game.undo()
    return expanded, time.perf_counter() - began, None
