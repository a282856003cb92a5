"""The compact transition path: the public engine's turns on int-keyed positions.

:class:`CompactLevel` is what the solver drives. It is assembled from parts, each
with one job: the settled start comes from the public turn
(:func:`engine.play.turn.settle`); :class:`~engine.solve.state_codec.Codec` packs a
position into an int key; :class:`~engine.solve.rules.Meanings` reads its rules
with the public parser; :class:`~engine.solve.grid.Grid` does cell arithmetic;
:class:`~engine.solve.walk.WalkShortcut` resolves the most common turns as key
arithmetic; :class:`~engine.solve.turn.TurnResolver` resolves every other turn
with the public turn's phases. Parity with the public engine is tested step by
step (tests/engine/test_parity.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from engine.context import LevelContext
from engine.errors import Problem, ValidationError, pointer
from engine.model import Level
from engine.packs.validate import load_level
from engine.play.turn import settle
from engine.rules import Rule
from engine.solve.grid import DIRECTIONS, Grid
from engine.solve.position import Child, Crumbles, Expansion, Successor
from engine.solve.rules import CARRY, Meaning, Meanings
from engine.solve.state_codec import Codec
from engine.solve.turn import TurnResolver
from engine.solve.walk import Shortcut, WalkShortcut

__all__ = ["DIRECTIONS", "CompactLevel", "Expansion", "Successor"]

# the cells a plain walk must not enter, read from a position's fields
_Solid = Callable[[Sequence[int]], tuple[int, ...]]
# flags, mover slots, linked slots, walkable, and the solid cells (None: no plain walk)
_View = tuple[list[int], list[int], list[int], bool, _Solid | None]

# what a state record (Game.state()) or a snapshot position may hold; all but
# entities and phases is derived, so it is read by no one here
_STATE_KEYS = frozenset(
    {
        "level",
        "width",
        "height",
        "entities",
        "rules",
        "moves",
        "won",
        "controlLost",
        "historyDepth",
        "automata",
        "mechanics",
    }
)
_AUTOMATON_KEYS = frozenset(
    {"id", "subject", "property", "pattern", "phase", "active", "carriers", "instanceIds", "next"}
)


def _nothing(vector: Sequence[int]) -> tuple[int, ...]:
    return ()


class CompactLevel:
    """One level's compact transitions: start key, successors, decoding for tests."""

    def __init__(self, level: Level | Mapping[str, Any] | str) -> None:
        if not isinstance(level, Level):
            level = load_level(level)
        self.level = level
        ctx = LevelContext.of(level)
        start = settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
        self.codec = codec = Codec(ctx, start)
        self.grid = Grid(ctx.width, ctx.height)
        self.meanings = Meanings(codec)
        self.turns = TurnResolver(codec, self.meanings, self.grid)
        self.walks = WalkShortcut(codec, self.grid, self.meanings)
        self.start_key = codec.encode(codec.start)
        self.start_won = start.won
        self._stacked_at_start = [
            cell for cell, here in self.turns.start_occupancy.items() if len(here) > 1
        ]
        # per meaning, per noun fields (bytes of the key): flags, mover slots, linked slots
        self._views: dict[Meaning, dict[bytes, _View]] = {}
        size = codec.itemsize
        self._nouns_from = codec.packed_from
        self._words_from, self._words_to = codec.word_lo * size, codec.word_hi * size
        self._gone = codec.gone
        self._one_byte, self._unpacked = codec.itemsize == 1, codec.unpacked
        # meanings under which no walk is arithmetic: carriers act, or a property does
        # what the walk shortcut does not know (a checkpoint's, a role it lacks)
        self._no_walk = self.meanings.no_walk
        self._movers = self.meanings.movers
        # the destroying contacts' rules and the bits a cell needs for each
        self._destroys = self.meanings.destroys
        self._shift = self.walks.shift

    def rules(self, key: int) -> tuple[Rule, ...]:
        """The rules of a settled position, as the public engine reports them."""
        return self.meanings.rules(self.codec.decode(key))

    def key_of(self, state: Mapping[str, Any]) -> int:
        """The key of a state record (``Game.state()`` or a snapshot position).

        Reads only ``entities`` and the automata phases; what else the record
        carries is derived or presentation. A restored position is not settled,
        so it may hold a contact its rules have not resolved yet; its turns
        resolve it as the public engine does.

        Raises:
            ValidationError: an entity the level cannot have, or a field on an
                entity beyond ``id, kind, noun|text, x, y`` (spec 04: hidden
                state fails closed).
        """
        problems = [
            Problem(pointer(key), "unknown-field", f"'{key}' is not part of a position")
            for key in state
            if key not in _STATE_KEYS
        ]
        entries = state.get("automata", [])
        for n, entry in enumerate(entries):
            problems += [
                Problem(
                    pointer("automata", n, key),
                    "unknown-field",
                    f"'{key}' is not part of an automaton's state",
                )
                for key in entry
                if key not in _AUTOMATON_KEYS
            ]
        if problems:
            raise ValidationError(x.located(pack=None, level=self.level.id) for x in problems)
        phases = [entry.get("phase") for entry in entries]
        return self.codec.encode(self.codec.vector_of_records(state.get("entities", []), phases))

    def describe(self, key: int) -> dict[str, Any]:
        """A position in the public state record's terms (``Game.state()`` keys).

        Everything here is derived from the key alone: entities, rules, each
        automaton's phase and ``active``, and ``controlLost``. Tests compare it
        with the public engine; tools use it to show a solver position.
        """
        codec = self.codec
        vector = codec.decode(key)
        meaning = self.meanings.of(vector)
        assert meaning is not None, "a settled position always parses"
        flags, noun_base, gone = meaning.flags, codec.noun_base, codec.gone
        present = [slot for slot in codec.objects if vector[slot] != gone]
        return {
            "entities": [
                {
                    "id": i,
                    "kind": kind,
                    ("noun" if kind == "object" else "text"): name,
                    "x": x,
                    "y": y,
                }
                for i, kind, name, x, y in codec.pieces(vector)
            ],
            "rules": [r.to_dict() for r in self.meanings.rules(vector)],
            "phases": list(codec.phases(vector)),
            "active": [
                any(flags[vector[noun_base + slot]] & (CARRY << a) for slot in present)
                for a in range(codec.automata)
            ],
            "controlLost": not any(
                flags[vector[noun_base + slot]] & self._movers for slot in present
            ),
        }

    # -- one position, four turns ----------------------------------------------

    def expansion(self, key: int, settled: bool = False) -> Expansion:
        """Unpack a position once for all of its turns.

        ``settled`` promises that ``key`` is the start or a successor, never a
        restored record (:meth:`key_of`): such a position has no pending contact
        (a destroyed word only removes rules), so none is looked for.
        """
        raw, vector, meaning, flags, movers, links, walks, _ = self._unpack(key)
        expansion = Expansion(key, raw, vector, meaning, flags, movers, False, links, False)
        union = meaning.union
        if not settled and any(union & need == need for need, _ in self._destroys):
            expansion.pending = self._pending(expansion)
        expansion.simple = walks and not expansion.pending
        return expansion

    def _unpack(
        self, key: int
    ) -> tuple[bytes, Sequence[int], Meaning, list[int], list[int], bool, bool, _Solid | None]:
        """A settled position's bytes, fields, meaning, slot flags, mover slots, links, walkability.

        Links says some present object has a noun link; walkability that the
        walk shortcut may try its turns (movers, no link, no carrier and no
        property it does not know). The last reads the cells :meth:`_plain_walks`
        must not enter (``None`` when a mover has a property besides the movers',
        or the walk shortcut may not try).
        """
        codec = self.codec
        raw = (key ^ codec.base).to_bytes(codec.nbytes, "little")
        nouns = raw[self._nouns_from :]  # packed
        if self._one_byte:  # Codec.fields, inlined: this runs once per expansion
            tail = self._unpacked.get(nouns)
            vector: Sequence[int] = raw[: self._nouns_from] + (
                tail if tail is not None else codec.noun_fields(nouns)
            )
        else:
            vector = codec.fields(raw)
        meaning = self.meanings.of_words(raw[self._words_from : self._words_to], vector)
        assert meaning is not None, "a reachable position always parses"
        views = self._views.get(meaning)
        view = None if views is None else views.get(nouns)
        if view is None:
            view = self._view(meaning, nouns, vector)
        flags, you, linked, walkable, solid = view
        gone = self._gone
        movers = [slot for slot in you if vector[slot] != gone]
        links = any(vector[slot] != gone for slot in linked) if linked else False
        walkable = walkable and bool(movers) and not links
        return raw, vector, meaning, flags, movers, links, walkable, solid if walkable else None

    def _pending(self, expansion: Expansion) -> bool:
        """Whether a restored position holds a contact its own rules would resolve.

        Only where it differs from the settled start can it: the cells of what
        moved or changed, the start's stacks, and the movers' cells (a mover may
        be what its own cell's contact needs).
        """
        occupancy = self.turns.occupancy(expansion)
        flags, vector, gone = expansion.flags, expansion.vector, self.codec.gone
        cells = list(
            {
                vector[slot]
                for slot in (*self.codec.changed_slots(expansion.key), *expansion.movers)
                if vector[slot] != gone
            }.union(self._stacked_at_start)
        )
        union = expansion.meaning.union
        return any(
            union & need == need and rule(cells, occupancy, flags) for need, rule in self._destroys
        )

    def _view(self, meaning: Meaning, nouns: bytes, vector: Sequence[int]) -> _View:
        """Each slot's bits, the mover slots, the slots whose noun has a link, and walkability.

        For one meaning and one set of nouns; few positions differ in either.
        """
        codec = self.codec
        flags = self.turns.slot_flags(vector, meaning)
        movers = self._movers
        you = [slot for slot in codec.objects if flags[slot] & movers]
        noun_base = codec.noun_base
        linked = [slot for slot in codec.objects if vector[noun_base + slot] in meaning.links]
        views = self._views.get(meaning)
        if views is None or len(views) >= 1 << 12:
            if len(self._views) >= 1 << 12:
                self._views.clear()
            views = self._views[meaning] = {}
        solid: _Solid | None = None
        if not any(flags[slot] & ~movers for slot in you):
            # the cells of everything with a property besides the movers' (a gone one's
            # is no cell); the first slot twice, so that one slot still gives a tuple
            slots = [slot for slot in range(codec.n) if flags[slot] & ~movers]
            solid = itemgetter(slots[0], *slots) if slots else _nothing
        union = meaning.union  # a carrier bit of any automaton (CARRY << a) is at least CARRY
        view = flags, you, linked, union < CARRY and not union & self._no_walk, solid
        views[nouns] = view
        return view

    def successor(
        self, expansion: Expansion, direction: int, crumbled: Crumbles | None = None
    ) -> Successor | None:
        """One turn from an expansion (``direction`` indexes :data:`DIRECTIONS`); ``None`` if rejected.

        ``crumbled`` collects ``(id, from, to)`` per crumbled object, ascending id.
        A key does not record ``won`` (a won position ends every search), so
        unlike ``Game.step`` this does not refuse to move on from a won position.
        """
        if expansion.simple:
            quick = self.walks.walks(
                expansion.key,
                expansion.raw,
                expansion.vector,
                expansion.flags,
                expansion.movers,
                expansion.meaning,
            )[direction]
            if quick is Shortcut.REJECTED:
                return None
            if quick is not Shortcut.FULL_TURN:
                return Successor(*quick)
        out = self.turns.turn(expansion, direction, crumbled)
        if out is None:
            return None
        vector, won, control = out
        return Successor(self.codec.encode(vector), won, control)

    def children(self, key: int) -> list[Child | None]:
        """The turns of a settled position in :data:`DIRECTIONS` order, for a search.

        Each is ``(key, won, control)`` as in :class:`Successor`, or ``None`` if
        rejected; plain tuples, since a search makes millions. The walk shortcut
        answers from the key's bytes; an :class:`Expansion` is built only for a
        turn that needs the general phases.
        """
        raw, vector, meaning, flags, movers, links, walkable, solid = self._unpack(key)
        if not movers:
            return [None, None, None, None]
        if walkable:
            if solid is not None and len(movers) > 1:
                plain = self._plain_walks(key, vector, movers, set(solid(vector)))
                if Shortcut.FULL_TURN not in plain:
                    return [answer if isinstance(answer, tuple) else None for answer in plain]
                quick = self.walks.walks(key, raw, vector, flags, movers, meaning, plain)
            else:
                quick = self.walks.walks(key, raw, vector, flags, movers, meaning)
            if Shortcut.FULL_TURN not in quick:
                return [answer if isinstance(answer, tuple) else None for answer in quick]
        else:
            quick = [Shortcut.FULL_TURN] * 4
        expansion = Expansion(key, raw, vector, meaning, flags, movers, False, links, walkable)
        turn, encode = self.turns.turn, self.codec.encode
        out: list[Child | None] = []
        for direction, answer in enumerate(quick):
            if answer is Shortcut.FULL_TURN:
                turned = turn(expansion, direction)
                out.append(None if turned is None else (encode(turned[0]), turned[1], turned[2]))
            else:
                out.append(None if answer is Shortcut.REJECTED else answer)
        return out

    def _plain_walks(
        self, key: int, vector: Sequence[int], movers: list[int], solid: set[int]
    ) -> list[Child | Shortcut]:
        """The turns in which every mover walks into a free cell or stays at the edge.

        Its movers have no other property (else there is no ``solid``) and every
        cell they enter holds nothing with one, so nothing is pushed, blocks or
        meets a contact (each contact needs a property no mover has:
        engine.mechanics.registry checks it), and movers that share a cell do
        nothing to each other: the successor is the key with their cells
        changed, in any order. Any
        other direction is :attr:`Shortcut.FULL_TURN` here, for the walk
        shortcut to answer.
        """
        shift = self._shift
        out: list[Child | Shortcut] = []
        for step in self.grid.step:
            child = key
            for mover in movers:
                origin = vector[mover]
                cell = step[origin]
                if cell >= 0:
                    if cell in solid:
                        out.append(Shortcut.FULL_TURN)
                        break
                    child ^= (origin ^ cell) << shift[mover]
            else:
                out.append((child, False, True) if child != key else Shortcut.REJECTED)
        return out

    def step(self, key: int, direction: int, crumbled: Crumbles | None = None) -> Successor | None:
        """One turn from the position ``key``; see :meth:`successor`."""
        return self.successor(self.expansion(key), direction, crumbled)
