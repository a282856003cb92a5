"""The walk shortcut of the compact path: the most common turns as key arithmetic.

Most turns of a search are movers stepping into empty cells or onto passive
objects, or pushing a line of single entities, with rules that stay as they were.
Such a turn changes a few fields, so its successor is the key XOR the changed
fields; :class:`WalkShortcut` computes that, or says that the turn needs the full
phase order of :class:`~engine.solve.turn.TurnResolver`. It knows the movement
roles (engine.mechanics.Role) as their bits, and what the declared contacts do
between two entities of a cell as a table the contacts' own compact rules fill
(:meth:`~engine.solve.rules.Meanings.meet`); a property it does not know makes
every turn where some noun has it a full turn.

It never builds a cell index: who stands in a cell is found by searching the
position fields of the key's bytes for the cell's bytes (``bytes.find``, in C),
so a walk costs the same on a board of 20 entities and on one of 2,000.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from engine.mechanics import PROPERTY_BITS
from engine.mechanics.base import CompactRule, Occupancy
from engine.solve.grid import Grid
from engine.solve.position import Child
from engine.solve.rules import CARRY, FIRST, GONE, SECOND, WON, Meaning, Meanings
from engine.solve.state_codec import Codec

_SWAP = sys.byteorder != "little"  # keys are little-endian on every machine
_PAIR = PROPERTY_BITS  # two entities' flags as one key of Meanings.meet's table
_SEVERAL = -2  # more than one entity of a stacked cell can act
_SURROGATES = 0xD800  # the first UTF-16 surrogate: cells below it decode one to a character
_ORDERS_LIMIT = 1 << 11  # placements of several movers whose orders are kept (~1 MB)
# movers over all kept placements: a level of 12,900 movers kept 2,048
# placements of 620 KB each (1.2 GB, issue 39); at 48 bytes a mover this is 6 MB
_ORDERS_MOVERS = 1 << 17


class Shortcut(Enum):
    """What the walk shortcut answers when it has no successor to give."""

    REJECTED = "rejected"  # the turn moves nothing
    FULL_TURN = "full turn"  # the shortcut cannot decide: resolve the turn in full


class WalkShortcut:
    """Walks and simple pushes as key arithmetic, for positions marked ``simple``."""

    def __init__(self, codec: Codec, grid: Grid, meanings: Meanings) -> None:
        self.codec = codec
        self.grid = grid
        self.meanings = meanings
        size = codec.itemsize
        self.shift = [codec.shift(slot) for slot in range(codec.n)]
        self.noun_shift = [codec.shift(codec.noun_base + slot) for slot in range(codec.n)]
        self.words_from, self.words_to = codec.word_lo * size, codec.word_hi * size
        self.span = codec.n * size  # position fields come first in a key's bytes
        self.odd = size - 1  # a match at an odd offset straddles two fields (two-byte keys)
        # two-byte fields are searched as UTF-16 text, one character a field (str.find
        # never matches across two), while no cell is a surrogate code unit
        self.text = bool(self.odd) and grid.cells <= _SURROGATES
        self.patterns: list[Any] = (
            [chr(cell) for cell in range(grid.cells)]
            if self.text
            else [cell.to_bytes(size, "little") for cell in range(grid.cells)]
        )
        self.end = codec.n if self.text else self.span  # where ``find`` stops
        self.positions = (1 << (8 * self.span)) - 1  # the position fields of a key
        # front_first's order as one int per mover: cells further along first, then ids
        rank = sorted(range(codec.n), key=codec.ids.__getitem__)
        self.rank = [0] * codec.n
        for k, slot in enumerate(rank):
            self.rank[slot] = k
        self.behind = [[-p * codec.n for p in progress] for progress in grid.progress]
        self._orders: dict[tuple[int, ...], list[list[int]]] = {}
        self._orders_movers = 0  # movers over the placements in ``_orders``
        # the bits of the movement roles, and of the contacts that can take an object
        # without a property (Meanings.wild: a crowd of inert objects is not inert to them)
        self.movers, self.pushes, self.blocks = meanings.movers, meanings.pushes, meanings.blocks
        self.wild, self.no_walk = meanings.wild, meanings.no_walk
        self.meets = meanings.meets()  # what two entities of a cell do (Meanings.meet's answers)
        # with several movers, what a pushed line may not carry or meet
        self.involved = self.movers | self.wild
        # each declared contact, destroying ones first: whether it destroys, the bits a
        # cell needs, each of them alone, its compact rule (settle_rules looks for them)
        self.checks = [
            (destroys, need, [1 << k for k in range(need.bit_length()) if need >> k & 1], rule)
            for destroys, rules in ((True, meanings.destroys), (False, meanings.wins))
            for need, rule in rules
        ]
        self.watch = self.movers  # the bits settle_rules reads: movers, and what contacts need
        for _, need, _, _ in self.checks:
            self.watch |= need

    def finder(self, raw: bytes) -> Callable[[Any, int, int], int]:
        """``find(pattern, slot, end)``: the first slot from ``slot`` at the cell ``pattern``, or -1.

        With one byte per field that is ``raw.find`` itself (a byte offset is a
        slot); with two, the ``find`` of the fields as text (a character is a
        slot), or on a board of more than 55,296 cells a search of the bytes
        that skips a match at an odd offset (it straddles two fields).
        """
        if not self.odd:
            return raw.find
        if self.text:
            return raw[: self.span].decode("utf-16-le").find

        def find(pattern: bytes, slot: int, end: int) -> int:
            found = raw.find(pattern, slot << 1, end)
            while found > 0 and found & 1:
                found = raw.find(pattern, found + 1, end)
            return found >> 1 if found >= 0 else -1

        return find

    def walks(
        self,
        key: int,
        raw: bytes,
        vector: Sequence[int],
        flags: list[int],
        movers: list[int],
        meaning: Meaning,
        known: list[Child | Shortcut] | None = None,
    ) -> list[Child | Shortcut]:
        """Each direction's successor, or :attr:`Shortcut.FULL_TURN` where a turn needs more.

        ``known`` gives answers already found (a plain walk's): only its
        directions marked :attr:`Shortcut.FULL_TURN` are worked out here.

        ``raw``, ``vector``, ``flags``, ``movers`` and ``meaning`` are the
        position's, as in :class:`~engine.solve.turn.Expansion`; the caller
        promises it is settled, with no link, no carrier and no property this
        shortcut does not know, so no phase but movement and contacts can act.
        Handled: each mover walks into an empty cell or onto one passive object
        (where a contact may destroy either or win: :meth:`Meanings.meet`), pushes
        a line of single entities into an empty cell or onto one passive object
        (where a contact may destroy either), or is blocked. Several movers
        resolve one after another in the public order (front first, ties by id),
        each against where the earlier ones left things, as the public movement
        phase does; with several, a turn where a contact could involve a mover (a
        contact under a mover, a pushed line that ends on or carries a mover or
        a property that takes anything) is a full turn. A crowd of objects
        without a property is passed over, unless a contact could take them.
        When words moved, the rules must mean what they meant; anything else is
        a full turn.
        """
        find, end, patterns = self.finder(raw), self.end, self.patterns
        shift, noun_shift, rest = self.shift, self.noun_shift, self.codec.rest
        gone, noun_base = self.codec.gone, self.codec.noun_base
        word_lo, word_hi = self.codec.word_lo, self.codec.word_hi
        blocks, pushes, wild, meets = self.blocks, self.pushes, self.wild, self.meets
        several = len(movers) > 1
        orders = self.orders(movers, vector) if several else None
        out: list[Child | Shortcut] = []
        for direction, step in enumerate(self.grid.step):
            if known is not None and known[direction] is not Shortcut.FULL_TURN:
                out.append(known[direction])
                continue
            order = movers if orders is None else orders[direction]
            child = seen = key  # ``seen``: the position ``search`` and ``now`` read
            search, now = find, vector
            won = lost = words = sank = False  # sank: a contact destroyed a pushed object
            answer: Shortcut | None = None
            for mover in order:
                if child != seen:  # an earlier mover moved: look where things stand now
                    seen = child
                    search, now = self.current(child)
                origin = now[mover]
                cell = step[origin]
                if cell < 0:
                    continue  # the edge: this mover stays
                pattern = patterns[cell]
                slot = search(pattern, 0, end)
                crowd = False  # inert objects share the cell
                if slot >= 0 and search(pattern, slot + 1, end) >= 0:
                    slot, crowd = self.live(search, pattern, flags), True
                    if slot == _SEVERAL:
                        answer = Shortcut.FULL_TURN  # a stack: several entities act at once
                        break
                if slot < 0:
                    if crowd and flags[mover] & wild:
                        answer = Shortcut.FULL_TURN  # a contact takes the inert objects
                        break
                    child ^= (origin ^ cell) << shift[mover]
                    continue
                bits = flags[slot]
                if bits & blocks:
                    continue
                if not bits & pushes:  # onto a passive object
                    try:
                        met = meets[flags[mover] << _PAIR | bits]
                    except KeyError:
                        met = self.meanings.meet(flags[mover], bits)
                    if not met:  # nothing happens between them
                        child ^= (origin ^ cell) << shift[mover]
                        continue
                    if met & GONE:
                        if several or crowd:
                            answer = Shortcut.FULL_TURN  # control depends on the others
                            break
                        if met & FIRST:  # the mover is destroyed
                            child ^= ((origin ^ gone) << shift[mover]) ^ (
                                (vector[noun_base + mover] ^ rest[mover]) << noun_shift[mover]
                            )
                            lost = True
                        else:
                            child ^= (origin ^ cell) << shift[mover]
                        if met & SECOND:  # and so is the object
                            child ^= ((cell ^ gone) << shift[slot]) ^ (
                                (vector[noun_base + slot] ^ rest[slot]) << noun_shift[slot]
                            )
                    else:
                        child ^= (origin ^ cell) << shift[mover]
                    won = won or bool(met & WON)
                    continue
                if crowd and flags[mover] & wild:
                    answer = Shortcut.FULL_TURN  # the mover follows the line onto inert objects
                    break
                moved = (origin ^ cell) << shift[mover]
                pushed_word = False
                carried = 0  # the properties of the pushed line
                while True:  # a line of single pushed entities
                    word = word_lo <= slot < word_hi
                    pushed_word = pushed_word or word
                    carried |= flags[slot]
                    after = step[cell]
                    if after < 0:
                        moved = 0  # against the edge: the line and the mover stay
                        break
                    moved ^= (cell ^ after) << shift[slot]
                    pattern = patterns[after]
                    ahead = search(pattern, 0, end)
                    crowd = False
                    if ahead >= 0 and search(pattern, ahead + 1, end) >= 0:
                        ahead, crowd = self.live(search, pattern, flags), True
                        if ahead == _SEVERAL:
                            answer = Shortcut.FULL_TURN
                            break
                    if ahead < 0:
                        if crowd and flags[slot] & wild:
                            answer = Shortcut.FULL_TURN  # a contact takes the inert objects
                        break  # into an empty cell, or one of inert objects
                    bits = flags[ahead]
                    if bits & blocks:
                        moved = 0
                        break
                    if bits & pushes:
                        if crowd and flags[slot] & wild:
                            answer = Shortcut.FULL_TURN  # a contact takes the inert objects
                            break
                        slot, cell = ahead, after
                        continue
                    if several and (bits | carried) & self.involved:
                        answer = Shortcut.FULL_TURN  # a contact with a mover, or one that takes all
                        break
                    # onto a passive object, which stays: a contact may destroy either
                    try:
                        met = meets[flags[slot] << _PAIR | bits]
                    except KeyError:
                        met = self.meanings.meet(flags[slot], bits)
                    if met & WON:
                        answer = Shortcut.FULL_TURN  # a win no mover is part of
                        break
                    if met & GONE:
                        sank = True
                        if (word and met & FIRST) or crowd:
                            answer = Shortcut.FULL_TURN  # a word goes, or inert objects too
                            break
                        if met & FIRST:
                            moved ^= ((after ^ gone) << shift[slot]) ^ (
                                (vector[noun_base + slot] ^ rest[slot]) << noun_shift[slot]
                            )
                        if met & SECOND:
                            moved ^= ((after ^ gone) << shift[ahead]) ^ (
                                (vector[noun_base + ahead] ^ rest[ahead]) << noun_shift[ahead]
                            )
                    break
                if answer is not None:
                    break
                if moved:
                    child ^= moved
                    words = words or pushed_word
            if answer is not None:
                out.append(answer)
            elif child == key:
                out.append(Shortcut.REJECTED)
            elif words and (reread := self.meaning_after(child))[0] is not meaning:
                # the rules changed: contacts anywhere, transformations, automata may act
                settled = None if lost or sank else self.settle_rules(child, *reread)
                out.append(Shortcut.FULL_TURN if settled is None else settled)
            else:
                out.append((child, won, not lost))
        return out

    def front_first(self, movers: list[int], direction: int, vector: Sequence[int]) -> list[int]:
        """Movers in the public resolution order: furthest along ``direction`` first, then by id."""
        behind, rank = self.behind[direction], self.rank
        return sorted(movers, key=lambda slot: behind[vector[slot]] + rank[slot])

    def orders(self, movers: list[int], vector: Sequence[int]) -> list[list[int]]:
        """:meth:`front_first` for every direction, cached by the movers and their cells.

        The order depends on nothing else, and a search meets the same placement
        of its movers again and again (only other things moved).
        """
        placed = (*movers, *[vector[slot] for slot in movers])
        found = self._orders.get(placed)
        if found is None:
            found = [self.front_first(movers, d, vector) for d in range(len(self.grid.step))]
            self._orders_movers += len(movers)
            if len(self._orders) >= _ORDERS_LIMIT or self._orders_movers > _ORDERS_MOVERS:
                self._orders.clear()
                self._orders_movers = len(movers)
            self._orders[placed] = found
        return found

    def current(self, child: int) -> tuple[Callable[[Any, int, int], int], Sequence[int]]:
        """``find`` and the position fields of ``child``, for a mover after one that moved.

        With one byte a field, the whole key's bytes: every search and read stops
        before ``end``, so the noun and phase fields after it need no masking off.
        """
        codec = self.codec
        if not self.odd:
            raw = (child ^ codec.base).to_bytes(codec.nbytes, "little")
            return raw.find, raw
        raw = ((child ^ codec.base) & self.positions).to_bytes(self.span, "little")
        values = array("H", raw)
        if _SWAP:
            values.byteswap()
        return self.finder(raw), values

    def live(self, find: Callable[[Any, int, int], int], pattern: Any, flags: list[int]) -> int:
        """The one entity with any property in a stacked cell; -1 if none, ``_SEVERAL`` if more.

        Objects without a property (floors, decorations) never act: walking or
        pushing into their cell is walking into an empty one, unless a contact takes them.
        """
        found = -1
        slot = find(pattern, 0, self.end)
        while slot >= 0:
            if flags[slot]:
                if found >= 0:
                    return _SEVERAL
                found = slot
            slot = find(pattern, slot + 1, self.end)
        return found

    def settle_rules(
        self, child: int, after: Meaning | None, fields: Sequence[int]
    ) -> Child | None:
        """A walk that changed the rules, settled: when no contact destroys anything now.

        ``child`` is where the movement phase left things (nothing was destroyed
        in it), ``fields`` its fields. The public turn then reads the rules
        (``after``) and looks for contacts in every cell, since every object's
        properties may have changed. When ``after`` links no noun (no
        transformation), moves no automaton, gives no noun a property this
        shortcut does not know, and no destroying contact acts in a cell that
        holds an object with a property, nothing is removed: the position stays,
        won if a winning contact holds in such a cell, in control if a mover is
        present. Otherwise ``None``: the full phases resolve it.
        """
        if after is None or after.links or after.union >= CARRY or after.union & self.no_walk:
            return None
        codec = self.codec
        n, noun_base, gone, union = codec.n, codec.noun_base, codec.gone, after.union
        table, watch, movers = after.flags, self.watch, self.movers
        cells = fields[:n]
        present = [
            (cell, bits)
            for cell, noun in zip(cells, fields[noun_base : noun_base + n], strict=True)
            if (bits := table[noun]) & watch and cell != gone
        ]
        have: dict[int, set[int]] = {}  # a bit -> the cells of present slots with it
        won = False
        for destroys, need, singles, rule in self.checks:
            if union & need != need:
                continue
            candidates: set[int] | None = None  # the cells that hold every bit it needs
            for bit in singles:
                found = have.get(bit)
                if found is None:
                    found = have[bit] = {cell for cell, bits in present if bits & bit}
                candidates = found if candidates is None else candidates & found
                if not candidates:
                    break
            if candidates and self._acts(rule, candidates, cells, table, fields):
                if destroys:
                    return None
                won = True
                break
        return child, won, any(bits & movers for _, bits in present)

    def _acts(
        self,
        rule: CompactRule,
        candidates: set[int],
        cells: Sequence[int],
        table: Sequence[int],
        fields: Sequence[int],
    ) -> bool:
        """Whether a contact's compact rule acts in one of the ``candidates`` cells."""
        codec = self.codec
        n, noun_base = codec.n, codec.noun_base
        flags = list(map(table.__getitem__, fields[noun_base : noun_base + n]))
        occupancy: Occupancy = dict.fromkeys(candidates, ())
        for slot in [slot for slot in range(n) if cells[slot] in candidates]:
            occupancy[cells[slot]] += (slot,)
        return bool(rule(list(candidates), occupancy, flags))

    def meaning_after(self, child: int) -> tuple[Meaning | None, Sequence[int]]:
        """The meaning of the words of the position ``child`` (``None`` over the parse budget), and its fields."""
        codec = self.codec
        raw = (child ^ codec.base).to_bytes(codec.nbytes, "little")
        fields = codec.fields(raw)
        return self.meanings.of_words(raw[self.words_from : self.words_to], fields), fields
