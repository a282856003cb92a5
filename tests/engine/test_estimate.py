"""Best-first's incremental estimate is the heuristic ``h``, child for child."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings

from engine.solve.estimate import Estimate, _Node
from engine.solve.heuristic import Heuristic
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_level())
def test_the_incremental_estimate_is_h_on_random_levels(level: dict[str, Any]) -> None:
    """Small boards with automata (phases), FRAIL, and words that change roles."""
    assert differences(level, Estimate, 150, 0)[1] == 0


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
