"""The level-bound codec of the compact solver path: a settled position as one int.

A position is a flat vector of small integers, one *field* each:

* ``vector[slot]`` for every entity slot: its cell (``y * width + x``) or ``gone``;
* ``vector[phase_base + a]``: the phase of automaton ``a``;
* ``vector[noun_base + slot]``: the noun index of the slot (words carry a pseudo noun,
  :attr:`Codec.word`, that no rule can name).

In the key the position and phase fields take ``itemsize`` bytes each (the walk
shortcut searches them with ``bytes.find``), while the noun fields are packed into
:attr:`Codec.noun_bits` bits each: a level with three nouns needs two bits a noun,
not a byte, and a turn that transforms objects touches every noun field, so a
byte each would make such keys twice as long as the positions.

That is all the authoritative state there is (spec 04, "Solver transitions include
frail state"): identity is the slot, existence is a position other than ``gone``,
the frail mechanic's leaves map is level data (its tokens are in :attr:`Codec.nouns` even when no
object starts with them) and nothing else can be stored — there is no field a
crumble counter or a per-object ``leaves`` value could live in. Rules, carriers,
``active`` and control are derived from the vector.

The key is those fields read as one int (packed as said above), XORed with the
settled start's: the fields of entities that never moved are zero, and slots are
ordered so that the entities that move most (movers, then words, then pushed
objects and carriers) come first, so a typical key is a short int (about 40 bytes) even on a
large board.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Sequence
from itertools import compress

from engine.context import LevelContext, Piece
from engine.errors import Problem, ValidationError, pointer
from engine.mechanics import Role
from engine.play.board import Frame
from engine.play.records import check_entity_records, entity_record

_SWAP = sys.byteorder != "little"  # keys are little-endian on every machine
_BYTE_LIMIT = 255  # one byte per field: values 0..254, 255 means gone
_CACHE_LIMIT = 1 << 14  # noun sets remembered by the packing caches


class Codec:
    """Slots, noun indices and the int key of one level's positions."""

    def __init__(self, ctx: LevelContext, start: Frame) -> None:
        self.ctx = ctx
        self.width, self.height = ctx.width, ctx.height
        self.cells = ctx.width * ctx.height
        self.nouns: tuple[str, ...] = tuple(sorted(ctx.nouns))
        self.noun_index = {noun: k for k, noun in enumerate(self.nouns)}
        self.word = len(self.nouns)  # the pseudo noun of every word tile
        self.automata = len(ctx.automata)
        longest = max((len(a.pattern) for a in ctx.automata), default=1)
        small = max(self.cells, self.word + 1, longest) <= _BYTE_LIMIT
        self.itemsize = 1 if small else 2
        self.gone = _BYTE_LIMIT if small else 0xFFFF

        authored = {e.id: e for e in ctx.level.entities}
        roles = ctx.vocabulary.mechanics.role_words
        you = {r.subject for r in start.rules if r.predicate in roles[Role.MOVER]}
        movable = {r.subject for r in start.rules if r.predicate in roles[Role.PUSHED]}
        movable |= {
            r.subject for r in start.rules if any(r.predicate == a.property for a in ctx.automata)
        }
        word_texts = {text for kind, text in ctx.kinds.values() if kind == "word"}

        def rank(i: int) -> int:
            # likely movers first: a short key for positions where only they moved
            noun = getattr(authored[i], "noun", None)
            if noun is None:
                return 1
            if noun in you:
                return 0
            if noun in movable:
                return 2
            return 3 if noun in word_texts else 4

        self.ids: tuple[int, ...] = tuple(sorted(authored, key=lambda i: (rank(i), i)))
        self.slot_of = {i: slot for slot, i in enumerate(self.ids)}
        self.n = len(self.ids)
        self.is_word: tuple[bool, ...] = tuple(ctx.kinds[i][0] == "word" for i in self.ids)
        self.texts: tuple[str | None, ...] = tuple(ctx.kinds[i][1] for i in self.ids)
        words = [slot for slot in range(self.n) if self.is_word[slot]]
        # words are one contiguous run of slots, so their cells are a slice of the vector
        self.word_lo = words[0] if words else 0
        self.word_hi = words[-1] + 1 if words else 0
        self.objects: tuple[int, ...] = tuple(
            slot for slot in range(self.n) if not self.is_word[slot]
        )
        # the noun field of an absent object: its authored noun, so absence has one key
        self.rest: tuple[int, ...] = tuple(
            self.noun_index[authored[i].noun] if not self.is_word[slot] else self.word  # type: ignore[union-attr]
            for slot, i in enumerate(self.ids)
        )
        self.phase_base = self.n
        self.noun_base = self.n + self.automata
        self.length = self.noun_base + self.n
        # the noun fields are packed: noun_bits each, from byte packed_from of the key
        self.noun_bits = max(1, self.word.bit_length())
        self.packed_from = self.noun_base * self.itemsize
        self.nbytes = self.packed_from + (self.n * self.noun_bits + 7) // 8
        self._packed: dict[bytes, int] = {}  # noun fields' bytes -> their packed int
        self.unpacked: dict[bytes, bytes] = {}  # packed bytes -> noun fields' bytes (shared)
        self._positions = (1 << (8 * self.n * self.itemsize)) - 1  # the position fields of a key
        self.start = self.vector(start.pieces, start.phases)
        self.base = 0
        self.base = self.encode(self.start)

    # -- key <-> vector -------------------------------------------------------

    def encode(self, vector: list[int]) -> int:
        """The hashable key of a vector (a non-negative int).

        Field ``i`` is the bits from :meth:`shift` of ``i`` on of ``key ^ base``
        (``itemsize`` bytes a cell or phase, :attr:`noun_bits` a noun), so a caller
        may also change a key arithmetically.
        """
        noun_base = self.noun_base
        if self.itemsize == 1:
            raw = bytes(vector)
            head, nouns = raw[:noun_base], raw[noun_base:]
        else:
            values = array("H", vector)
            nouns = values[noun_base:].tobytes()  # a cache key only: native order will do
            del values[noun_base:]
            if _SWAP:
                values.byteswap()
            head = values.tobytes()
        packed = self._packed.get(nouns)
        if packed is None:
            packed = self._pack(vector[noun_base:], nouns)
        return (int.from_bytes(head, "little") | packed) ^ self.base

    def _pack(self, nouns: Sequence[int], raw: bytes) -> int:
        """The noun fields as bits from :attr:`packed_from` on (cached: few noun sets occur)."""
        bits, packed = self.noun_bits, 0
        for k, noun in enumerate(nouns):
            packed |= noun << (k * bits)
        packed <<= 8 * self.packed_from
        if len(self._packed) >= _CACHE_LIMIT:
            self._packed.clear()
        self._packed[raw] = packed
        return packed

    def decode(self, key: int) -> list[int]:
        """The vector of a key; a fresh list the caller may change."""
        return list(self.fields(self.raw(key)))

    def raw(self, key: int) -> bytes:
        """The vector of a key as little-endian bytes, ``itemsize`` per field."""
        return (key ^ self.base).to_bytes(self.nbytes, "little")

    def fields(self, raw: bytes) -> bytes | array[int]:
        """The fields of :meth:`raw` bytes, indexable: bytes when one byte each, else an array."""
        packed = raw[self.packed_from :]
        nouns = self.unpacked.get(packed)
        if nouns is None:
            nouns = self.noun_fields(packed)
        if self.itemsize == 1:
            return raw[: self.packed_from] + nouns
        values = array("H", raw[: self.packed_from] + nouns)
        if _SWAP:
            values.byteswap()
        return values

    def noun_fields(self, packed: bytes) -> bytes:
        """The noun fields of packed bytes, ``itemsize`` little-endian bytes each (cached)."""
        bits, value = self.noun_bits, int.from_bytes(packed, "little")
        mask = (1 << bits) - 1
        nouns = b"".join(
            ((value >> (k * bits)) & mask).to_bytes(self.itemsize, "little") for k in range(self.n)
        )
        if len(self.unpacked) >= _CACHE_LIMIT:
            self.unpacked.clear()
        self.unpacked[packed] = nouns
        return nouns

    def shift(self, field: int) -> int:
        """The bit offset of ``field`` in a key: ``key ^ ((old ^ new) << shift)`` sets it."""
        if field < self.noun_base:
            return field * 8 * self.itemsize
        return 8 * self.packed_from + (field - self.noun_base) * self.noun_bits

    def changed_slots(self, key: int) -> list[int]:
        """The slots whose position differs from the settled start's, ascending."""
        key &= self._positions
        size = (key.bit_length() + 7) >> 3
        raw = key.to_bytes(size, "little")
        if self.itemsize == 1:
            return list(compress(range(size), raw))
        return sorted({i >> 1 for i in compress(range(size), raw)})

    # -- pieces <-> vector ----------------------------------------------------

    def vector(self, pieces: Iterable[Piece], phases: Iterable[int]) -> list[int]:
        """Encode the public engine's pieces and phases.

        Raises:
            ValidationError: an entity the level does not have, or one whose kind,
                text, noun or position the level cannot produce.
        """
        return self.vector_of_records([entity_record(piece) for piece in pieces], list(phases))

    def vector_of_records(self, entities: object, phases: Sequence[int]) -> list[int]:
        """Encode state-record entities (``Game.state()["entities"]``) and phases.

        Fails closed (spec 04: hidden state fails closed): any key beyond
        ``id, kind, noun|text, x, y`` — a crumble counter, a per-object ``leaves``
        map — is rejected, since the vector has no place that could hold it. The
        entities are checked by :func:`~engine.play.records.check_entity_records`,
        as :meth:`Game.from_snapshot` checks them, so both report the same codes.

        Raises:
            ValidationError: every problem found, pointers into ``entities``.
        """
        pieces, problems = check_entity_records(self.ctx, entities, "/entities")
        p = [self.gone] * self.n + [0] * self.automata + list(self.rest)
        for i, kind, name, x, y in pieces:
            s = self.slot_of[i]
            p[s] = y * self.width + x
            if kind == "object":
                p[self.noun_base + s] = self.noun_index[name]
        if len(phases) != self.automata:
            problems.append(Problem("/automata", "bad-size", f"expected {self.automata} phases"))
        else:
            for a, (automaton, phase) in enumerate(zip(self.ctx.automata, phases, strict=True)):
                if type(phase) is not int or not 0 <= phase < len(automaton.pattern):
                    problems.append(
                        Problem(
                            pointer("automata", a), "phase-out-of-range", f"bad phase {phase!r}"
                        )
                    )
                else:
                    p[self.phase_base + a] = phase
        if problems:
            raise ValidationError(x.located(pack=None, level=self.ctx.level.id) for x in problems)
        return p

    def pieces(self, vector: Sequence[int]) -> tuple[Piece, ...]:
        """The public engine's pieces of a vector: present entities, ascending id."""
        out: list[Piece] = []
        for slot, i in enumerate(self.ids):
            cell = vector[slot]
            if cell == self.gone:
                continue
            if self.is_word[slot]:
                kind, name = "word", self.texts[slot]
            else:
                kind, name = "object", self.nouns[vector[self.noun_base + slot]]
            assert name is not None
            out.append((i, kind, name, cell % self.width, cell // self.width))
        out.sort()
        return tuple(out)

    def phases(self, vector: Sequence[int]) -> tuple[int, ...]:
        return tuple(vector[self.phase_base : self.noun_base])

    def word_tiles(self, vector: Sequence[int]) -> list[tuple[int, str, int, int]]:
        """The words of a vector as the parser reads them, ascending id."""
        tiles = []
        for slot in range(self.word_lo, self.word_hi):
            cell = vector[slot]
            if cell != self.gone:
                text = self.texts[slot]
                assert text is not None
                tiles.append((self.ids[slot], text, cell % self.width, cell // self.width))
        tiles.sort()
        return tiles
