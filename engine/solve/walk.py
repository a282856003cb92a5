"""The walk shortcut of the compact path: the most common turns as key arithmetic.

Most turns of a search are YOU objects stepping into empty cells, or the one YOU
object stepping onto a passive object or pushing a line of single non-word
objects. Such a turn changes only position fields, so its successor is the key
XOR the changed fields; :class:`WalkShortcut` computes that, or says that the turn
needs the full phase order of :class:`~engine.solve.turn.TurnResolver`.

It never builds a cell index: who stands in a cell is found by searching the
position fields of the key's bytes for the cell's bytes (``bytes.find``, in C),
so a walk costs the same on a board of 20 entities and on one of 2,000.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from engine.solve.grid import Grid
from engine.solve.rules import BLOCKS, DEFEATS, PUSHES, SINKS, WINS
from engine.solve.state_codec import Codec
from engine.solve.turn import Expansion

Child = tuple[int, bool, bool]  # (key, won, control) of a settled successor


class Shortcut(Enum):
    """What the walk shortcut answers when it has no successor to give."""

    REJECTED = "rejected"  # the turn moves nothing
    FULL_TURN = "full turn"  # the shortcut cannot decide: resolve the turn in full


class WalkShortcut:
    """Walks and simple pushes as key arithmetic, for positions marked ``simple``."""

    def __init__(self, codec: Codec, grid: Grid) -> None:
        self.codec = codec
        self.grid = grid
        size = codec.itemsize
        self.shift = [codec.shift(slot) for slot in range(codec.n)]
        self.patterns = [cell.to_bytes(size, "little") for cell in range(grid.cells)]
        self.end = codec.n * size  # position fields come first in a key's bytes
        self.odd = size - 1  # a match at an odd offset straddles two fields (two-byte keys)

    def finder(self, raw: bytes) -> Callable[[bytes, int, int], int]:
        """``find(pattern, slot, end)``: the first slot from ``slot`` at the cell ``pattern``, or -1.

        With one byte per field that is ``raw.find`` itself (a byte offset is a
        slot); with two, a match at an odd offset straddles two fields and is skipped.
        """
        if not self.odd:
            return raw.find

        def find(pattern: bytes, slot: int, end: int) -> int:
            found = raw.find(pattern, slot << 1, end)
            while found > 0 and found & 1:
                found = raw.find(pattern, found + 1, end)
            return found >> 1 if found >= 0 else -1

        return find

    def walks(self, expansion: Expansion) -> list[Child | Shortcut]:
        """Each direction's successor, or :attr:`Shortcut.FULL_TURN` where a turn needs more.

        Handles YOU objects that each walk into an empty cell, onto one object
        they neither push nor are stopped by, or push a line of single non-word
        objects into an empty cell, or are blocked — where no two movers' paths
        (their cell, the cells they scan ahead and the blocker) share a cell, so
        their order does not matter. Every cell then gains one entity and loses
        one, so no other contact can start, no word moves and
        (``expansion.simple``) no link, carrier or FRAIL object can act.
        """
        vector, flags, movers = expansion.vector, expansion.flags, expansion.movers
        find, end, patterns = self.finder(expansion.raw), self.end, self.patterns
        shift = self.shift
        word_lo, word_hi = self.codec.word_lo, self.codec.word_hi
        several = len(movers) > 1
        out: list[Child | Shortcut] = []
        for step in self.grid.step:
            paths: set[int] = set()  # cells movers have used, when there are several
            key = expansion.key
            won = False
            answer: Shortcut | None = None
            for mover in movers:
                origin = vector[mover]
                cell = step[origin]
                if several:
                    if origin in paths or cell in paths:
                        answer = Shortcut.FULL_TURN  # two movers meet: their order matters
                        break
                    paths.add(origin)
                    if cell >= 0:
                        paths.add(cell)
                if cell < 0:
                    continue  # the edge: this mover stays
                pattern = patterns[cell]
                slot = find(pattern, 0, end)
                if slot < 0:
                    key ^= (origin ^ cell) << shift[mover]
                    continue
                if find(pattern, slot + 1, end) >= 0:
                    answer = Shortcut.FULL_TURN  # a stack: several entities act at once
                    break
                bits = flags[slot]
                if bits & BLOCKS:
                    continue
                if not bits & PUSHES:
                    if (bits | flags[mover]) & (SINKS | DEFEATS):
                        answer = Shortcut.FULL_TURN
                        break
                    key ^= (origin ^ cell) << shift[mover]
                    won = won or bool(bits & WINS)
                    continue
                moved = (origin ^ cell) << shift[mover]
                while True:  # a line of single pushed objects
                    if word_lo <= slot < word_hi:
                        answer = Shortcut.FULL_TURN  # a word moves: the rules may change
                        break
                    after = step[cell]
                    if several and after >= 0:
                        if after in paths:
                            answer = Shortcut.FULL_TURN
                            break
                        paths.add(after)
                    if after < 0:
                        break  # against the edge: the line and the mover stay
                    moved ^= (cell ^ after) << shift[slot]
                    pattern = patterns[after]
                    slot = find(pattern, 0, end)
                    if slot < 0:
                        key ^= moved
                        break
                    if find(pattern, slot + 1, end) >= 0:
                        answer = Shortcut.FULL_TURN
                        break
                    bits = flags[slot]
                    if bits & BLOCKS:
                        break
                    if not bits & PUSHES:
                        answer = Shortcut.FULL_TURN
                        break
                    cell = after
                if answer is not None:
                    break
            if answer is not None:
                out.append(answer)
            elif key == expansion.key:
                out.append(Shortcut.REJECTED)
            else:
                out.append((key, won, True))
        return out
