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
transformation links), interned so that equal meanings are one object.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from operator import itemgetter

from engine.errors import RuleComplexityError
from engine.rules import PARSE_BUDGET, Rule, RuleTable, parse_rules, parse_units
from engine.solve.state_codec import Codec
from engine.tokens import DEFEAT, FRAIL, IS, PUSH, SINK, STOP, WIN, YOU

# property bits of a noun under one rule set; automaton a uses CARRY << a
YOUS, PUSHES, BLOCKS, WINS, SINKS, DEFEATS, FRAILS, CARRY = 1, 2, 4, 8, 16, 32, 64, 128
_BITS = ((YOU, YOUS), (WIN, WINS), (SINK, SINKS), (DEFEAT, DEFEATS), (FRAIL, FRAILS))
_CACHE_LIMIT = 1 << 18

Line = tuple[
    tuple[tuple[tuple[int, int, int], Rule], ...], int
]  # (order key, rule) pairs, unit bound


@dataclass(frozen=True, slots=True, eq=False)
class Meaning:
    """What one rule set does: property bits per noun index, and noun links.

    ``flags[codec.word]`` is PUSHES: word tiles are pushed and nothing else.
    BLOCKS is STOP without PUSH (PUSH wins, spec 02). ``union`` is every bit some
    noun has, so phases that cannot apply are skipped. Interned: ``is`` compares.
    """

    flags: tuple[int, ...]
    links: dict[int, int]
    union: int


class Meanings:
    """The meaning of each word configuration of one level, cached.

    A configuration over the parse budget maps to ``None`` (its turn is rejected).
    """

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.vocabulary = codec.ctx.vocabulary
        self._cache: dict[bytes, Meaning | None] = {}
        self._lines: dict[tuple[int, int, tuple[tuple[int, int], ...]], Line] = {}
        self._by_rules: dict[tuple[tuple[str, str], ...], Meaning] = {}
        self._interned: dict[tuple[object, ...], Meaning] = {}
        self._is = [codec.texts[s] == IS for s in range(codec.n)]

    def rules(self, p: list[int]) -> tuple[Rule, ...]:
        """The rules the words of ``p`` form, from the public parser (uncached).

        Raises:
            RuleComplexityError: the words exceed the parse budget.
        """
        return parse_rules(self.codec.word_tiles(p), self.vocabulary)

    def of(self, p: list[int]) -> Meaning | None:
        c = self.codec
        words = p[c.word_lo : c.word_hi]
        key = bytes(words) if c.itemsize == 1 else array("H", words).tobytes()
        try:
            return self._cache[key]
        except KeyError:
            pass
        found = self._read(p)
        if len(self._cache) >= _CACHE_LIMIT:  # bound the cache; meanings stay interned
            self._cache.clear()
            self._lines.clear()
        self._cache[key] = found
        return found

    def direct(self, p: list[int]) -> Meaning | None:
        """The meaning through the public parser alone, for tests of :meth:`of`."""
        try:
            return self._meaning(self.rules(p))
        except RuleComplexityError:
            return None

    def _read(self, p: list[int]) -> Meaning | None:
        c = self.codec
        width, gone = c.width, c.gone
        rows: dict[int, list[tuple[int, int]]] = {}
        cols: dict[int, list[tuple[int, int]]] = {}
        cells = set()
        count = 0
        for s in range(c.word_lo, c.word_hi):
            cell = p[s]
            if cell != gone:
                cells.add(cell)
                count += 1
                y, x = divmod(cell, width)
                rows.setdefault(y, []).append((x, s))
                cols.setdefault(x, []).append((y, s))
        if len(cells) < count:
            return self.direct(p)  # a stack: its alternatives can multiply the parser's work
        entries: list[tuple[tuple[int, int, int], Rule]] = []
        units = 0
        is_word = self._is
        for axis, lines in enumerate((rows, cols)):
            for index, members in lines.items():
                if not any(is_word[s] for _, s in members):
                    continue  # no IS word: the parser spends nothing on this line
                members.sort()
                line_key = (axis, index, tuple(members))
                line = self._lines.get(line_key)
                if line is None:
                    line = self._lines[line_key] = self._line(axis, index, members)
                entries.extend(line[0])
                units += line[1]
        if units > PARSE_BUDGET:
            return self.direct(p)  # over the budget: the public parser raises, as it must
        entries.sort(key=itemgetter(0))
        return self._meaning([rule for _, rule in entries])

    def _line(self, axis: int, index: int, members: list[tuple[int, int]]) -> Line:
        """The rules of one row (axis 0) or column (axis 1) of single words."""
        c = self.codec
        tiles = []
        place = {}
        for coord, s in members:
            x, y = (coord, index) if axis == 0 else (index, coord)
            text = c.texts[s]
            assert text is not None
            tiles.append((c.ids[s], text, x, y))
            place[c.ids[s]] = (y, x)
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
        c = self.codec
        flags = [0] * (c.word + 1)
        for noun, props in table.properties.items():
            bits = 0
            for word, bit in _BITS:
                if word in props:
                    bits |= bit
            if PUSH in props:
                bits |= PUSHES
            elif STOP in props:
                bits |= BLOCKS
            for a, automaton in enumerate(c.ctx.automata):
                if automaton.property in props and automaton.subject in (None, noun):
                    bits |= CARRY << a
            flags[c.noun_index[noun]] = bits
        flags[c.word] = PUSHES
        links = {
            c.noun_index[n]: c.noun_index[target] for n, (target, _) in table.transforms.items()
        }
        signature = (tuple(flags), tuple(sorted(links.items())))
        found = self._interned.get(signature)
        if found is None:
            union = 0
            for bits in flags[: c.word]:
                union |= bits
            found = self._interned[signature] = Meaning(signature[0], links, union)
        return found
