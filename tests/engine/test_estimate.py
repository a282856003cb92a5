"""Best-first's incremental estimate is the heuristic ``h``, child for child."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings

from engine.solve.costmap import enters, repaired
from engine.solve.estimate import Estimate, _Node
from engine.solve.heuristic import HAZARD, WALL, Heuristic
from engine.solve.level import CompactLevel
from tests.engine.test_solver import small_level
from tests.support import keke_corpus, keke_level


def differences(
    level: Any, estimate_type: type[Estimate], positions: int, seed: int
) -> tuple[int, int]:
    """(children checked, children whose incremental ``h`` differs from ``Heuristic.of``).

    Positions are expanded in a random order (deep and shallow ones mixed, as
    best-first does), each through the estimate's node of the position, and every
    accepted child is priced from that node and afresh by a separate heuristic.
    """
    compact = CompactLevel(level)
    fresh = Heuristic(compact)
    estimate = estimate_type(Heuristic(compact))
    rng = random.Random(seed)
    frontier, seen = [compact.start_key], {compact.start_key}
    checked = wrong = 0
    for i in range(positions):
        if i >= len(frontier):
            break
        j = rng.randrange(i, len(frontier))
        frontier[i], frontier[j] = frontier[j], frontier[i]
        key = frontier[i]
        node = estimate.node(key)
        h = fresh.of(key)
        wrong += (estimate.price(node, key) != h) + (estimate.of(key) != h)
        for child in compact.children(key):
            if child is None or not child[2]:
                continue
            checked += 1
            wrong += estimate.after(node, key, child[0]) != fresh.of(child[0])
            if child[0] not in seen:
                seen.add(child[0])
                frontier.append(child[0])
    return checked, wrong


def test_the_incremental_estimate_is_h_on_corpus_levels() -> None:
    total = 0
    for n, record in enumerate(keke_corpus()["levels"][::4]):
        checked, wrong = differences(keke_level(record), Estimate, 250, n)
        assert wrong == 0, record.get("id")
        total += checked
    assert total > 10_000


def test_the_incremental_estimate_is_h_on_two_byte_keys() -> None:
    """Boards of more than 254 cells keep two bytes a field: the readers shift fields out."""
    wide = [
        record
        for record in keke_corpus()["levels"]
        if CompactLevel(keke_level(record)).codec.itemsize == 2
    ]
    assert wide
    for n, record in enumerate(wide):
        checked, wrong = differences(keke_level(record), Estimate, 300, n)
        assert wrong == 0, record.get("id")
        assert checked > 300


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_level())
def test_the_incremental_estimate_is_h_on_random_levels(level: dict[str, Any]) -> None:
    """Small boards with automata (phases), FRAIL, and words that change roles."""
    assert differences(level, Estimate, 150, 0)[1] == 0


class _Forgetful(Estimate):
    """Caches that hold almost nothing: every bound is hit and cleared all the time."""

    def __init__(self, heuristic: Heuristic) -> None:
        super().__init__(heuristic)
        self._held = self._ring_limit = 1


def test_the_incremental_estimate_is_h_when_its_caches_overflow() -> None:
    for n, record in enumerate(keke_corpus()["levels"][1::9]):
        assert differences(keke_level(record), _Forgetful, 150, n)[1] == 0, record.get("id")


class _ParentsNode(Estimate):
    """A wrong update: every child is priced with its parent's node."""

    def after(self, node: _Node, key: int, child: int) -> int:
        return self.price(node, child)


class _StaleLayout(Estimate):
    """A wrong update: a child keeps its parent's cost map when only words moved."""

    def _build(self, key: int, parent: _Node | None, changed: int) -> _Node:
        return super()._build(key, parent, changed & ~self.words)


def test_the_check_catches_a_wrong_update() -> None:
    """The comparison above fails for estimates that skip part of the update."""
    levels = [keke_level(record) for record in keke_corpus()["levels"][::4]]
    for wrong in (_ParentsNode, _StaleLayout):
        assert sum(differences(level, wrong, 250, n)[1] for n, level in enumerate(levels)) > 0


def test_a_repaired_cost_map_is_the_computed_one() -> None:
    """After prices change in a few cells, the repaired map equals ``Heuristic._map``."""
    rng = random.Random(7)
    repairs = 0
    for record in keke_corpus()["levels"][::6]:
        heuristic = Heuristic(CompactLevel(keke_level(record)))
        size = heuristic.codec.cells

        def pick(most: int, size: int = size) -> list[int]:
            return [rng.randrange(size) for _ in range(rng.randint(0, most))]

        for _ in range(25):
            win, roles = (
                [rng.randrange(size)],
                [pick(5), pick(12), pick(12)],
            )  # hazards, walls, pushed
            before = heuristic._map(win, *roles)
            for _ in range(4):
                moved = [list(cells) for cells in roles]
                for cells in rng.sample(moved, rng.randint(1, 3)):
                    for _ in range(rng.randint(1, 3)):
                        if cells and rng.random() < 0.7:
                            cells[rng.randrange(len(cells))] = rng.randrange(size)
                        elif cells and rng.random() < 0.5:
                            cells.pop()
                        else:
                            cells.append(rng.randrange(size))
                old, new = enters(*roles, HAZARD, WALL), enters(*moved, HAZARD, WALL)
                changed = {cell for cell, _ in old.items() ^ new.items()} if repairs % 2 else None
                got = repaired(before, old, new, heuristic._neighbours, heuristic.far, changed)
                assert got == heuristic._map(win, *moved)
                repairs += got != before
    assert repairs > 500
