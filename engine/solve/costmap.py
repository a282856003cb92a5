"""The heuristic's cost map after a turn, repaired from the map before it.

:meth:`engine.solve.heuristic.Heuristic._map` computes the cheapest cost from
every cell to a goal, where stepping into a cell costs what its occupant
makes it cost (1, 2 for a pushed thing, more for hazards and walls) and stepping
into a goal's cell costs 1. A push changes that price in two or three cells, so
best-first's incremental estimate repairs the parent's map instead (dynamic
shortest paths): the cells whose cheapest route ran through a cell that got
dearer are reset and re-seeded from their neighbours, cells that got cheaper are
relaxed again, and Dijkstra runs over just those. The result is the same list
``_map`` returns (costs above ``far`` are ``far``); a test compares the two.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

PUSHED = 2


def enters(
    hazards: list[int], walls: list[int], pushed: list[int], hazard: int, wall: int
) -> dict[int, int]:
    """The cells whose step costs more than 1, and what it costs (as ``_map`` prices them)."""
    out = dict.fromkeys(pushed, PUSHED)
    out.update(dict.fromkeys(hazards, hazard))
    out.update(dict.fromkeys(walls, wall))
    return out


def repaired(
    before: list[int],
    old: dict[int, int],
    new: dict[int, int],
    neighbours: list[list[int]],
    far: int,
    changed: Iterable[int] | None = None,
) -> list[int]:
    """The cost map for step prices ``new``, from the map ``before`` for prices ``old``.

    Both maps have the same goal cells (cost 0; a step into one costs 1 whatever
    stands there). ``changed`` may name the cells whose price differs (a superset).
    """
    costs = before.copy()
    raised: list[int] = []
    lowered: list[int] = []
    for cell in old.keys() | new.keys() if changed is None else changed:
        was, now = old.get(cell, 1), new.get(cell, 1)
        if was != now and before[cell]:
            (raised if now > was else lowered).append(cell)
    # the cells whose cost rises: every cheapest step out of them (in the old map)
    # led into a cell that got dearer or whose own cost rose; looked at cheapest first,
    # so whether a supporting neighbour's cost rose is known when it is asked
    affected: set[int] = set()
    candidates = [
        (before[n], n)
        for cell in raised
        for n in neighbours[cell]
        if before[n] == before[cell] + old.get(cell, 1) < far
    ]
    heapq.heapify(candidates)
    seen: set[int] = set()
    while candidates:
        cost, cell = heapq.heappop(candidates)
        if cell in seen:
            continue
        seen.add(cell)
        if any(
            n not in affected and before[n] + (new.get(n, 1) if before[n] else 1) == cost
            for n in neighbours[cell]
        ):
            continue  # still as cheap through a neighbour that kept its cost
        affected.add(cell)
        step = cost + old.get(cell, 1)
        if step < far:
            for n in neighbours[cell]:
                if before[n] == step and n not in seen:
                    heapq.heappush(candidates, (step, n))
    queue: list[tuple[int, int]] = []
    for cell in affected:
        costs[cell] = far
    for cell in affected:
        best = far
        for n in neighbours[cell]:
            if n not in affected:
                step = costs[n] + (new.get(n, 1) if costs[n] else 1)
                if step < best:
                    best = step
        if best < far:
            costs[cell] = best
            queue.append((best, cell))
    queue += [(costs[cell], cell) for cell in lowered if costs[cell] < far]
    heapq.heapify(queue)
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        cost, cell = pop(queue)
        if costs[cell] != cost:
            continue
        step = cost + (new.get(cell, 1) if cost else 1)
        if step >= far:
            continue
        for n in neighbours[cell]:
            if step < costs[n]:
                costs[n] = step
                push(queue, (step, n))
    return costs
