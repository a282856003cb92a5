"""The heuristic's fast helpers agree with their plain definitions."""

from __future__ import annotations

import random

from engine.solve.heuristic import Heuristic
from engine.solve.level import CompactLevel
from tests.support import keke_corpus, keke_level


def plain_ways(heuristic: Heuristic, cells: set[int]) -> dict[int, int]:
    """The greatest fixpoint by its definition: all ways, removed until nothing changes."""
    steps = heuristic.grid.step
    back = [steps[1], steps[0], steps[3], steps[2]]
    ways = dict.fromkeys(cells, 15)
    changed = True
    while changed:
        changed = False
        for cell in cells:
            for d in range(4):
                bit = 1 << d
                behind, ahead = back[d][cell], steps[d][cell]
                if ways[cell] & bit and (
                    behind < 0
                    or ahead < 0
                    or ways.get(behind, 15) == 0
                    or (ahead in ways and not ways[ahead] & bit)
                ):
                    ways[cell] &= ~bit
                    changed = True
    return ways


def test_pushable_ways_and_distances_on_random_boards() -> None:
    rng = random.Random(11)
    frozen = 0
    for record in keke_corpus()["levels"][::3]:
        compact = CompactLevel(keke_level(record))
        heuristic, codec = Heuristic(compact), compact.codec
        for _ in range(40):
            vector = list(codec.start)
            spread = rng.random()
            for slot in range(codec.word_lo, codec.word_hi):
                if rng.random() < spread:
                    vector[slot] = rng.choice([codec.gone, rng.randrange(codec.cells)])
            cells = {vector[s] for s in range(codec.word_lo, codec.word_hi)} - {codec.gone}
            ways = heuristic._pushable_ways(vector)
            assert ways == plain_ways(heuristic, cells)
            frozen += 0 in ways.values()
            targets = tuple(rng.sample(range(codec.cells), rng.randint(1, 5)))
            xy = [heuristic.grid.xy(cell) for cell in range(codec.cells)]
            assert heuristic._distances(targets) == [
                min(abs(x - xy[t][0]) + abs(y - xy[t][1]) for t in targets) for x, y in xy
            ]
    assert frozen > 50  # the sweeps after the one-pass bound ran
