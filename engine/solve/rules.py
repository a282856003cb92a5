"""Rules for the compact path: the public parser's results, cached by line.

A position's rules depend only on its words, and the public parser
(:func:`engine.rules.parse_rules`) reads every row and column on its own: the
sentences of a row, and the budget units spent on them, depend only on the words
of that row. So when no cell holds two words, the rules of a board are the rules
of its lines merged in the public order (first word's row, then column, then
horizontal before vertical; within a line the parser's own order), and a line seen
before costs one lookup. The budget is respected exactly: each line's units are
counted as the parser counts them (:func:`~engine.rules.parse_units`), and whenever
their sum passes :data:`~engine.rules.PARSE_BUDGET`, or a cell holds a stack, the
whole board goes to the public parser instead.

The result is reduced to a :class:`Meaning` (property bits per noun index and the
transformation links), interned so that equal meanings are one object. Each
property's bit, and what the bits mean to the phases (the masks of the movement
roles, the declared contacts' compact rules), come from the registered mechanics
(engine.mechanics) once per level: :class:`Meanings` holds them.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import cast

from engine.errors import RuleComplexityError
from engine.mechanics import PROPERTY_BITS, Role
from engine.mechanics.base import CompactRule, Occupancy
from engine.rules import PARSE_BUDGET, Rule, RuleTable, parse_rules, parse_units
from engine.solve.state_codec import Codec
from engine.tokens import IS

# A noun's flags under one rule set: a bit per property it has (the mechanic's, given
# at registration: engine.mechanics.registry), and automaton a's carrier bit CARRY << a
# above them all.
CARRY = 1 << PROPERTY_BITS
# What two entities alone in a cell do to each other (Meanings.meet): the first is
# destroyed, the second is, the level is won there.
FIRST, SECOND, WON = 1, 2, 4
GONE = FIRST | SECOND
_PAIR = PROPERTY_BITS  # a pair of flags (no carrier bit) as one int key: first << _PAIR | second
_NONE: frozenset[str] = frozenset()
# Entries each cache may hold before it is emptied. The words cache is consulted
# for every position a search expands, so it fills fastest; 65,536 entries cost a
# few MB, which a search of a million positions would otherwise pay again per
# position (measured by bench/bench_solver.py's memory part).
_CACHE_LIMIT = 1 << 16
_MASK_CELLS = 1 << 20  # cells held by the two-byte translate tables of one search
_SURROGATES = 0xD800  # two-byte cells below it decode as one UTF-16 character each
_SWAP = sys.byteorder != "little"  # cache keys are little-endian, as keys are

Line = tuple[
    tuple[tuple[tuple[int, int, int], Rule], ...], int
]  # (order key, rule) pairs, unit bound


@dataclass(frozen=True, slots=True, eq=False)
class Meaning:
    """What one rule set does: property bits per noun index, and noun links.

    ``flags[codec.word]`` has the bits every word tile has (the pushed role, and
    nothing else). A property whose mechanic is cancelled on an object by
    another of its properties (``Mechanic.unless``, spec 02) has no
    bit there. ``union`` is every bit some noun has, so phases that cannot apply
    are skipped. Interned: ``is`` compares.
    """

    flags: tuple[int, ...]
    links: dict[int, int]
    union: int


class Meanings:
    """The meaning of each word configuration of one level, cached, and what its bits do.

    A configuration over the parse budget maps to ``None`` (its turn is rejected).
    The masks of the movement roles (:attr:`movers`, :attr:`pushes`, :attr:`blocks`,
    :attr:`passes`), the bits of the properties the walk shortcut cannot resolve
    (:attr:`no_walk`) and the declared contacts' compact rules (:attr:`destroys`,
    :attr:`wins`: the bits a cell needs, and the rule) are the mechanics' of the
    level's vocabulary, resolved here once.
    """

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.vocabulary = codec.ctx.vocabulary
        mechanics = self.mechanics = self.vocabulary.mechanics
        self.bits = mechanics.bits
        roles = mechanics.role_bits
        self.movers, self.pushes = roles[Role.MOVER], roles[Role.PUSHED]
        self.blocks, self.passes = roles[Role.BLOCKS], roles[Role.PASSES]
        self.no_walk = mechanics.no_walk
        self.destroys: list[tuple[int, CompactRule]] = [
            (mechanics.need_bits(c), c.compact(self.bits)) for _, c in mechanics.destroys
        ]
        self.wins: list[tuple[int, CompactRule]] = [
            (mechanics.need_bits(c), c.compact(self.bits)) for _, c in mechanics.wins
        ]
        # the bits of the destroying contacts that need no mover: such a contact can
        # take objects without a property (engine.mechanics.sink takes whatever joins it)
        self.wild = 0
        for _, contact in mechanics.destroys:
            if not contact.needs & mechanics.role_words[Role.MOVER]:
                self.wild |= mechanics.need_bits(contact)
        self._meets: dict[int, int] = {}
        self._cache: dict[bytes, Meaning | None] = {}
        self._lines: dict[tuple[int, int, bytes], Line] = {}  # one row or column of words
        self._by_lines: dict[bytes | str, Meaning | None] = {}  # the IS lines' signatures
        self._tables: dict[tuple[int, int], bytes] = {}
        self._is_slots = [
            slot for slot in range(codec.word_lo, codec.word_hi) if codec.texts[slot] == IS
        ]
        self._by_rules: dict[tuple[tuple[str, str], ...], Meaning] = {}
        self._interned: dict[tuple[object, ...], Meaning] = {}
        self._is = [codec.texts[slot] == IS for slot in range(codec.n)]
        offsets = [slot - codec.word_lo for slot in self._is_slots]
        # the IS words' cells from the words' bytes: an int, a tuple, or () without IS
        self._is_places: Callable[[bytes | str], object] = (
            itemgetter(*offsets) if offsets else lambda words: ()
        )
        self._masks: dict[object, bytes | list[int]] = {}  # IS cells -> _read's table
        # A two-byte board's table is a list of one entry per cell: bound the cells held,
        # not only the tables (65,536 tables of a 50,000-cell board would be gigabytes).
        self._mask_limit = (
            _CACHE_LIMIT if codec.itemsize == 1 else max(64, _MASK_CELLS // codec.cells)
        )
        self._text = codec.itemsize == 2 and codec.cells <= _SURROGATES

    def rules(self, vector: Sequence[int]) -> tuple[Rule, ...]:
        """The rules the words of ``vector`` form, from the public parser (uncached).

        Raises:
            RuleComplexityError: the words exceed the parse budget.
        """
        return parse_rules(self.codec.word_tiles(vector), self.vocabulary)

    def of(self, vector: Sequence[int]) -> Meaning | None:
        """The meaning of the words of ``vector``; ``None`` over the parse budget."""
        codec = self.codec
        words = vector[codec.word_lo : codec.word_hi]
        if codec.itemsize == 1:
            return self.of_words(bytes(words), vector)
        values = array("H", words)
        if _SWAP:
            values.byteswap()
        return self.of_words(values.tobytes(), vector)

    def of_words(self, words: bytes, vector: Sequence[int]) -> Meaning | None:
        """:meth:`of` when the caller has the words' bytes already (a slice of :meth:`Codec.raw`)."""
        try:
            return self._cache[words]
        except KeyError:
            pass
        found = self._read(vector, words)
        if len(self._cache) >= _CACHE_LIMIT:  # bound the cache; meanings stay interned
            self._cache.clear()
            self._lines.clear()
            self._by_lines.clear()
        self._cache[words] = found
        return found

    def direct(self, vector: Sequence[int]) -> Meaning | None:
        """The meaning through the public parser alone, for tests of :meth:`of`."""
        try:
            return self._meaning(self.rules(vector))
        except RuleComplexityError:
            return None

    def _read(self, vector: Sequence[int], raw: bytes) -> Meaning | None:
        """The meaning of a word configuration not seen before, from the lines of its IS words.

        Only a row or column that holds an IS word can form a sentence or cost
        the parser anything, so a configuration is reduced to the signature of
        those lines (which word stands where along each); configurations that
        differ only in words elsewhere share it. That is one ``translate`` of the
        words' cells (``raw``, their bytes; as UTF-16 text, one character a cell,
        with two bytes a cell): a word off those lines reads as ``gone``, which no
        line can read either, and the IS words keep their cells, so the key also
        names the lines. The table is built once per placement of the IS words.
        """
        codec = self.codec
        key: bytes | str
        if codec.itemsize == 1 or self._text:
            words: bytes | str = raw if codec.itemsize == 1 else raw.decode("utf-16-le")
            places = self._is_places(words)
            mask = self._masks.get(places)
            if mask is None:
                mask = self._mask(places)
            key = words.translate(mask)  # type: ignore[arg-type]
            try:
                return self._by_lines[key]
            except KeyError:
                pass
            lines = self._lines_of(vector, vector[codec.word_lo : codec.word_hi])
        else:  # a board of more than 55,296 cells: a signature per line
            lines = self._lines_of(vector, vector[codec.word_lo : codec.word_hi])
            # one bytes object (signatures have one length): the row count, the line
            # indices, then the signatures
            rows = sum(1 for axis, _, _ in lines if axis == 0)
            key = bytes([rows, *(index for _, index, _ in lines)]) + b"".join(
                signature for _, _, signature in lines
            )
            try:
                return self._by_lines[key]
            except KeyError:
                pass
        return self._read_lines(vector, lines, key)

    def _lines_of(
        self, vector: Sequence[int], words: Sequence[int]
    ) -> list[tuple[int, int, bytes]]:
        """Each row (axis 0), then column, of an IS word, with its :meth:`_signature`."""
        codec = self.codec
        gone, width = codec.gone, codec.width
        rows, cols = set(), set()
        for slot in self._is_slots:
            cell = vector[slot]
            if cell != gone:
                rows.add(cell // width)
                cols.add(cell % width)
        return [(0, y, self._signature(words, 0, y)) for y in sorted(rows)] + [
            (1, x, self._signature(words, 1, x)) for x in sorted(cols)
        ]

    def _read_lines(
        self, vector: Sequence[int], lines: list[tuple[int, int, bytes]], key: bytes | str
    ) -> Meaning | None:
        """The meaning from the rules of ``lines``, merged in the public order; cached under ``key``."""
        entries: list[tuple[tuple[int, int, int], Rule]] = []
        units = 0
        found: Meaning | None
        for line_key in lines:
            line = self._lines.get(line_key)
            if line is None:
                line = self._lines[line_key] = self._line(*line_key)
            if line[1] < 0:
                found = self.direct(vector)  # a stack: its alternatives can multiply the work
                break
            entries.extend(line[0])
            units += line[1]
        else:
            if units > PARSE_BUDGET:
                found = self.direct(vector)  # over the budget: the public parser raises, as it must
            else:
                entries.sort(key=itemgetter(0))
                found = self._meaning([rule for _, rule in entries])
        if len(self._by_lines) >= _CACHE_LIMIT:
            self._by_lines.clear()
        self._by_lines[key] = found
        return found

    def _mask(self, found: object) -> bytes | list[int]:
        """The ``translate`` table of :meth:`_read` for IS words at ``found``.

        Bytes with one byte a cell; with two, a list indexed by cell (``gone``,
        past its end, is left as it is).
        """
        codec = self.codec
        gone, width = codec.gone, codec.width
        if isinstance(found, tuple):
            places = [cell if isinstance(cell, int) else ord(cell) for cell in found]
        else:
            places = [found if isinstance(found, int) else ord(cast(str, found))]
        rows = {cell // width for cell in places if cell != gone}
        cols = {cell % width for cell in places if cell != gone}
        kept = [
            cell if cell // width in rows or cell % width in cols else gone
            for cell in range(codec.cells)
        ]
        mask: bytes | list[int] = (
            bytes(kept + [gone] * (256 - codec.cells)) if codec.itemsize == 1 else kept
        )
        if len(self._masks) >= self._mask_limit:
            self._masks.clear()
        self._masks[found] = mask
        return mask

    def _signature(self, words: Sequence[int], axis: int, index: int) -> bytes:
        """Where each word stands along one row (axis 0) or column: 1 + its coordinate, 0 off it.

        One ``bytes.translate`` of the words' positions when a cell fits in a
        byte; a loop otherwise.
        """
        if isinstance(words, bytes):
            table = self._tables.get((axis, index))
            if table is None:
                table = self._tables[(axis, index)] = self._table(axis, index)
            return words.translate(table)
        width, gone = self.codec.width, self.codec.gone
        out = bytearray(len(words))
        for k, cell in enumerate(words):
            if cell != gone:
                y, x = divmod(cell, width)
                if axis == 0 and y == index:
                    out[k] = x + 1
                elif axis == 1 and x == index:
                    out[k] = y + 1
        return bytes(out)

    def _table(self, axis: int, index: int) -> bytes:
        """The ``translate`` table of :meth:`_signature` for one line (cells fit in a byte)."""
        width, cells = self.codec.width, self.codec.cells
        out = bytearray(256)
        for cell in range(cells):
            y, x = divmod(cell, width)
            if axis == 0 and y == index:
                out[cell] = x + 1
            elif axis == 1 and x == index:
                out[cell] = y + 1
        return bytes(out)

    def _line(self, axis: int, index: int, signature: bytes) -> Line:
        """The rules of one row (axis 0) or column (axis 1) and a bound on its parse units.

        The bound is -1 when two words share a cell of the line: then the public
        parser reads the whole board.
        """
        codec = self.codec
        members = sorted(
            (place - 1, codec.word_lo + k) for k, place in enumerate(signature) if place
        )
        if len({coord for coord, _ in members}) < len(members):
            return (), -1
        tiles = []
        place = {}
        for coord, slot in members:
            x, y = (coord, index) if axis == 0 else (index, coord)
            text = codec.texts[slot]
            assert text is not None
            tiles.append((codec.ids[slot], text, x, y))
            place[codec.ids[slot]] = (y, x)
        units = parse_units(tiles, self.vocabulary, budget=None)  # what the parser spends
        if units > PARSE_BUDGET:
            return (), units  # never merged: the whole board goes to the public parser
        rules = parse_rules(tiles, self.vocabulary)
        return tuple(((*place[r.source_ids[0]], axis), r) for r in rules), units

    def _meaning(self, rules: list[Rule] | tuple[Rule, ...]) -> Meaning:
        semantic = tuple((r.subject, r.predicate) for r in rules)
        found = self._by_rules.get(semantic)
        if found is None:
            found = self._intern(RuleTable.build(tuple(rules), self.vocabulary))
            if len(self._by_rules) >= _CACHE_LIMIT:
                self._by_rules.clear()
            self._by_rules[semantic] = found
        return found

    def _intern(self, table: RuleTable) -> Meaning:
        codec = self.codec
        flags = [0] * (codec.word + 1)
        words, unless = self.bits, self.mechanics.unless
        for noun, props in table.properties.items():
            bits = 0
            for word in props:
                bit = words.get(word)
                if bit is not None and not unless.get(word, _NONE) & props:
                    bits |= bit
            for a, automaton in enumerate(codec.ctx.automata):
                if automaton.property in props and automaton.subject in (None, noun):
                    bits |= CARRY << a
            flags[codec.noun_index[noun]] = bits
        flags[codec.word] = self.mechanics.word_bits
        links = {
            codec.noun_index[noun]: codec.noun_index[target]
            for noun, (target, _) in table.transforms.items()
        }
        signature = (tuple(flags), tuple(sorted(links.items())))
        found = self._interned.get(signature)
        if found is None:
            union = 0
            for bits in flags[: codec.word]:
                union |= bits
            found = self._interned[signature] = Meaning(signature[0], links, union)
        return found

    # -- what the bits do -------------------------------------------------------

    def meet(self, first: int, second: int) -> int:
        """What the declared contacts do in a cell of two entities with these flags.

        ``FIRST`` and ``SECOND`` say which is destroyed, ``WON`` that the cell wins
        after that: the contacts' own compact rules on a cell of two slots, once
        per pair of flags (no carrier bit), so the walk shortcut resolves a step
        onto one object as a lookup.
        """
        key = first << _PAIR | second
        found = self._meets.get(key)
        if found is not None:
            return found
        occupancy: Occupancy = {0: (0, 1)}
        flags = [first, second]
        union = first | second
        out = 0
        for need, rule in self.destroys:
            if union & need == need:
                gone = rule((0,), occupancy, flags)
                for slot in gone:
                    out |= FIRST if slot == 0 else SECOND
                occupancy[0] = tuple(slot for slot in occupancy[0] if slot not in gone)
        for need, rule in self.wins:
            if union & need == need and rule((0,), occupancy, flags):
                out |= WON
                break
        self._meets[key] = out
        return out

    def meets(self) -> dict[int, int]:
        """The table :meth:`meet` fills: ``first << PROPERTY_BITS | second`` -> its answer."""
        return self._meets
