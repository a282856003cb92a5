"""The walk shortcut of the compact path: the most common turns as key arithmetic.

Most turns of a search are YOU objects stepping into empty cells, or the one YOU
object stepping onto a passive object or pushing a line of single non-word
objects. Such a turn changes only position fields, so its successor is the key
XOR the changed fields; :class:`WalkShortcut` computes that, or says that the turn
needs the full phase order of :class:`~engine.solve.turn.TurnResolver`.
"""

from __future__ import annotations

from enum import Enum

from engine.solve.grid import Grid
from engine.solve.rules import BLOCKS, DEFEATS, PUSHES, SINKS, WINS
from engine.solve.state_codec import Codec
from engine.solve.turn import Expansion, Successor


class Shortcut(Enum):
    """What the walk shortcut answers when it has no successor to give."""

    REJECTED = "rejected"  # the turn moves nothing
    FULL_TURN = "full turn"  # the shortcut cannot decide: resolve the turn in full


class WalkShortcut:
    """Walks and simple pushes as key arithmetic, for positions marked ``simple``."""

    def __init__(self, codec: Codec, grid: Grid) -> None:
        self.codec = codec
        self.grid = grid
        self.shift = [codec.shift(slot) for slot in range(codec.n)]

    def walk(self, expansion: Expansion, direction: int) -> Successor | Shortcut:
        """The successor of a common turn, or :attr:`Shortcut.FULL_TURN` when it needs more.

        Handles the one mover walking into an empty cell, onto one object it
        neither pushes nor is stopped by (contacts of that cell only), or pushing
        a line of single non-word objects into an empty cell. Each cell then gains
        one entity and loses one, so no other contact can start, no word moves and
        (``expansion.simple``) no link, carrier or FRAIL object can act.
        """
        if len(expansion.movers) > 1:
            return self.walk_apart(expansion, direction)
        vector, occupancy, flags = expansion.vector, expansion.occupancy, expansion.flags
        mover = expansion.movers[0]
        step, shift = self.grid.step[direction], self.shift
        origin = vector[mover]
        cell = step[origin]
        if cell < 0:
            return Shortcut.REJECTED
        key = expansion.key ^ ((origin ^ cell) << shift[mover])
        here = occupancy.get(cell)
        if not here:
            return Successor(key, False, True)
        if len(here) != 1:
            return Shortcut.FULL_TURN
        slot = here[0]
        bits = flags[slot]
        if bits & BLOCKS:
            return Shortcut.REJECTED
        if not bits & PUSHES:
            if (bits | flags[mover]) & (SINKS | DEFEATS):
                return Shortcut.FULL_TURN
            return Successor(key, bool(bits & WINS), True)
        word_lo, word_hi = self.codec.word_lo, self.codec.word_hi
        while True:
            if word_lo <= slot < word_hi:
                return Shortcut.FULL_TURN  # a word moves: the rules may change
            after = step[cell]
            if after < 0:
                return Shortcut.REJECTED
            key ^= (cell ^ after) << shift[slot]
            there = occupancy.get(after)
            if not there:
                return Successor(key, False, True)
            if len(there) != 1:
                return Shortcut.FULL_TURN
            slot = there[0]
            bits = flags[slot]
            if bits & BLOCKS:
                return Shortcut.REJECTED
            if not bits & PUSHES:
                return Shortcut.FULL_TURN
            cell = after

    def walk_apart(self, expansion: Expansion, direction: int) -> Successor | Shortcut:
        """Several YOU objects, each into an empty cell or against the edge.

        Movers in distinct cells that step into cells empty at the start cannot
        meet, push or block one another, so their order does not matter and each
        is one XOR; anything else (a stack of movers, an occupied cell ahead) is
        resolved in full.
        """
        vector, occupancy = expansion.vector, expansion.occupancy
        step, shift = self.grid.step[direction], self.shift
        key = expansion.key
        origins = set()
        for mover in expansion.movers:
            origin = vector[mover]
            if origin in origins:
                return Shortcut.FULL_TURN
            origins.add(origin)
            target = step[origin]
            if target < 0:
                continue  # blocked by the edge: it stays, the others may still move
            if occupancy.get(target):
                return Shortcut.FULL_TURN
            key ^= (origin ^ target) << shift[mover]
        if key == expansion.key:
            return Shortcut.REJECTED
        return Successor(key, False, True)
