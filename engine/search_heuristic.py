"""The best-first solver's estimate of how far a position is from a win.

``h`` is the Manhattan distance from the nearest YOU object to the nearest WIN
object when both exist. Without a WIN object the level must first be rewritten, so
``h`` is ``width + height`` (more than any walk) plus the distance from a YOU object
to the nearest word, which steers the search towards the words.

It is a guide, not a bound: a push can change every rule at once, so ``h`` can
overestimate, and the search weights it twice (``f = moves + 2 * h``). That is why
best-first solutions are not always shortest; breadth-first ones are.
"""

from __future__ import annotations

from engine.codec import WINS, YOUS
from engine.compact import CompactLevel


class Heuristic:
    """``h`` for the positions of one level."""

    def __init__(self, compact: CompactLevel) -> None:
        self.compact = compact
        c = compact.codec
        self.xy = [(cell % c.width, cell // c.width) for cell in range(c.cells)]
        self.far = c.width + c.height

    def of(self, key: int) -> int:
        compact = self.compact
        c = compact.codec
        p = c.decode(key)
        meaning = compact.meanings.of(p)
        if meaning is None:
            return self.far * 2
        flags, nb, gone, xy = meaning.flags, c.noun_base, c.gone, self.xy
        you: list[tuple[int, int]] = []
        win: list[tuple[int, int]] = []
        for s in c.objects:
            cell = p[s]
            if cell != gone:
                bits = flags[p[nb + s]]
                if bits & YOUS:
                    you.append(xy[cell])
                if bits & WINS:
                    win.append(xy[cell])
        if not you:
            return self.far * 2
        if win:
            return min(abs(ax - bx) + abs(ay - by) for ax, ay in you for bx, by in win)
        words = [xy[p[s]] for s in range(c.word_lo, c.word_hi) if p[s] != gone]
        if not words:
            return self.far * 2
        return self.far + min(abs(ax - bx) + abs(ay - by) for ax, ay in you for bx, by in words)
