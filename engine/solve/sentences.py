"""Each noun's cheapest ``N IS G`` (G a goal word), reused while the words it uses stand still.

:meth:`engine.solve.heuristic.Heuristic._rewrites` prices forming ``N IS G`` for
every noun and goal word on each new word configuration. A noun's price reads only
the cells of its own, the IS and the goal words and the ways those can be pushed,
so best-first's incremental estimate keeps it by exactly those: a turn that pushed
another noun's word (and freed or blocked none of these) leaves it as it was.
"""

from __future__ import annotations

from engine.solve.heuristic import Heuristic
from engine.tokens import IS

_LIMIT = 1 << 15  # nouns' prices remembered (cleared when full)


class Sentences:
    """:meth:`Heuristic._rewrites` with each noun's part cached by what it reads."""

    def __init__(self, heuristic: Heuristic) -> None:
        self.heuristic = heuristic
        self._cheapest: dict[tuple[object, ...], tuple[int, tuple[int, ...]] | None] = {}

    def __call__(self, vector: list[int]) -> list[tuple[int, int, tuple[int, ...]]]:
        """:meth:`Heuristic._rewrites`, each noun's part reused while its words stand still.

        A noun's cheapest ``N IS G`` reads only the cells of its own, the IS and
        the goal words and the ways those can be pushed, so a turn that pushed
        another noun's word (and freed or blocked none of these) leaves it as it was.
        """
        heuristic = self.heuristic
        codec, gone = heuristic.codec, heuristic.codec.gone
        by_text: dict[str, list[int]] = {}
        for slot in range(codec.word_lo, codec.word_hi):
            cell = vector[slot]
            if cell != gone:
                text = codec.texts[slot]
                assert text is not None
                by_text.setdefault(text, []).append(cell)
        goals = [goal for goal in heuristic.goals if goal in by_text]
        if IS not in by_text or not goals:
            return []
        ways = heuristic._pushable_ways(vector)
        linking = by_text[IS]
        nouns, cheapest, far = heuristic._nouns, self._cheapest, heuristic.far
        found: dict[int, tuple[int, tuple[int, ...]]] = {}
        for goal in goals:
            winning = by_text[goal]
            shared = (*linking, -1, *winning, -1, *map(ways.__getitem__, [*linking, *winning]))
            for text, cells in by_text.items():
                noun = nouns.get(text)
                if noun is None:
                    continue
                key = (noun, *cells, -1, *map(ways.__getitem__, cells), -1, *shared)
                try:
                    best = cheapest[key]
                except KeyError:
                    heuristic._can = ways
                    best = None
                    for cost, movers in heuristic._placements((cells, linking, winning)):
                        if cost < (far if best is None else best[0]):
                            best = (cost, movers)
                    if len(cheapest) >= _LIMIT:
                        cheapest.clear()
                    cheapest[key] = best
                if best is not None and best[0] < found.get(noun, (far, ()))[0]:
                    found[noun] = best
        return sorted((cost, noun, movers) for noun, (cost, movers) in found.items())
