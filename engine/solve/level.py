"""The compact transition path: the public engine's turns on int-keyed positions.

:class:`CompactLevel` is what the solver drives: a settled position is an int key
(:mod:`engine.solve.state_codec`), its rules come from the public parser through
:mod:`engine.solve.rules`, and :meth:`CompactLevel.successor` resolves one intent
without event records. The most common turns — YOU objects stepping into empty
cells, or the one YOU object stepping onto a passive object or pushing a line of
single non-word objects — are key arithmetic (:meth:`CompactLevel._walk`); every other turn goes through the
full phase order of :mod:`engine.solve.turn`. Parity with the public engine is
tested step by step (tests/engine/test_parity.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.context import LevelContext
from engine.errors import Problem, ValidationError, pointer
from engine.model import Level
from engine.packs.validate import load_level
from engine.play.turn import settle
from engine.rules import Rule
from engine.solve.rules import (
    BLOCKS,
    CARRY,
    DEFEATS,
    FRAILS,
    PUSHES,
    SINKS,
    WINS,
    YOUS,
    Meaning,
    Meanings,
)
from engine.solve.state_codec import Codec
from engine.solve.turn import DIRECTIONS, Crumbles, Expansion, Occupancy, TurnResolver

__all__ = ["DIRECTIONS", "CompactLevel", "Expansion", "Successor"]

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


class Successor(NamedTuple):
    """A settled position after an accepted turn."""

    key: int
    won: bool
    control: bool  # some object is YOU; without it no later turn is accepted


_GENERAL = object()  # the walk shortcut cannot decide: resolve the turn in full


class CompactLevel(TurnResolver):
    """One level's compact transitions: start key, successors, decoding for tests."""

    def __init__(self, level: Level | Mapping[str, Any] | str) -> None:
        if not isinstance(level, Level):
            level = load_level(level)
        self.level = level
        ctx = LevelContext.of(level)
        start = settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
        self.codec = codec = Codec(ctx, start)
        self.meanings = Meanings(codec)
        self.start_key = codec.encode(codec.start)
        self.start_won = start.won
        super().__init__(ctx, codec, self.meanings)
        self._shift = [codec.shift(s) for s in range(codec.n)]
        self._occ_start: Occupancy = {}
        for s in range(codec.n):
            cell = codec.start[s]
            if cell != codec.gone:
                self._occ_start[cell] = (*self._occ_start.get(cell, ()), s)
        self._stacked_start = [cell for cell, here in self._occ_start.items() if len(here) > 1]
        self._views: dict[
            tuple[Meaning, bytes | tuple[int, ...]], tuple[list[int], list[int], list[int]]
        ] = {}
        self._no_walk = CARRY | (FRAILS if self._leaves is not None else 0)

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
                entity beyond ``id, kind, noun|text, x, y`` (spec 04: hidden FRAIL
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
        c = self.codec
        p = c.decode(key)
        meaning = self.meanings.of(p)
        assert meaning is not None, "a settled position always parses"
        flags, nb, gone = meaning.flags, self._nb, self._gone
        present = [s for s in c.objects if p[s] != gone]
        return {
            "entities": [
                {
                    "id": i,
                    "kind": kind,
                    ("noun" if kind == "object" else "text"): name,
                    "x": x,
                    "y": y,
                }
                for i, kind, name, x, y in c.pieces(p)
            ],
            "rules": [r.to_dict() for r in self.meanings.rules(p)],
            "phases": list(c.phases(p)),
            "active": [
                any(flags[p[nb + s]] & (CARRY << a) for s in present)
                for a in range(len(self._beats))
            ],
            "controlLost": not any(flags[p[nb + s]] & YOUS for s in present),
        }

    # -- one position, four turns ----------------------------------------------

    def expansion(self, key: int) -> Expansion:
        """Unpack a settled position once for all of its turns.

        Occupancy is the start's, corrected for the slots whose position bytes
        differ from the start's, so its cost follows what moved, not the board.
        """
        p = self.codec.decode(key)
        gone, nb, n, start = self._gone, self._nb, self._n, self.codec.start
        occ = self._occ_start.copy()
        changed = self.codec.changed_slots(key)
        for s in changed:
            a, b = start[s], p[s]
            if a != gone:
                here = occ[a]
                occ[a] = () if len(here) == 1 else tuple([x for x in here if x != s])
            if b != gone:
                there = occ.get(b)
                occ[b] = (*there, s) if there else (s,)
        meaning = self.meanings.of(p)
        assert meaning is not None, "a settled position always parses"
        nouns = p[nb : nb + n]
        view = self._views.get(
            (meaning, bytes(nouns) if self.codec.itemsize == 1 else tuple(nouns))
        )
        if view is None:
            view = self._view(meaning, nouns)
        bits, you, linked = view
        movers = [s for s in you if p[s] != gone]
        links = any(p[s] != gone for s in linked)
        pending = False
        union = meaning.union
        if union & (SINKS | DEFEATS):
            cells = {p[s] for s in changed if p[s] != gone}.union(self._stacked_start)
            pending = any(bits[s] & DEFEATS for s in movers) or any(
                len(here) > 1
                and (
                    any(bits[s] & SINKS for s in here)
                    or (any(bits[s] & DEFEATS for s in here) and any(bits[s] & YOUS for s in here))
                )
                for here in map(occ.__getitem__, cells)
            )
        simple = bool(movers) and not pending and not links and not union & self._no_walk
        return Expansion(key, p, occ, meaning, bits, movers, pending, links, simple)

    def _view(self, meaning: Meaning, nouns: list[int]) -> tuple[list[int], list[int], list[int]]:
        """Each slot's bits, the YOU slots and the slots whose noun has a link.

        For one meaning and one set of nouns; few positions differ in either.
        """
        bits = list(map(meaning.flags.__getitem__, nouns))
        you = [s for s in self.codec.objects if bits[s] & YOUS]
        linked = [s for s in self.codec.objects if nouns[s] in meaning.links]
        if len(self._views) >= 1 << 12:
            self._views.clear()
        key: bytes | tuple[int, ...] = bytes(nouns) if self.codec.itemsize == 1 else tuple(nouns)
        self._views[(meaning, key)] = (bits, you, linked)
        return bits, you, linked

    def successor(
        self, ex: Expansion, d: int, crumbled: Crumbles | None = None
    ) -> Successor | None:
        """One turn from an expansion (``d`` indexes :data:`DIRECTIONS`); ``None`` if rejected.

        ``crumbled`` collects ``(id, from, to)`` per crumbled object, ascending id.
        A key does not record ``won`` (a won position ends every search), so
        unlike ``Game.step`` this does not refuse to move on from a won position.
        """
        if ex.simple:
            quick = self._walk(ex, d)
            if quick is not _GENERAL:
                return quick  # type: ignore[return-value]
        out = self.turn(ex, d, crumbled)
        if out is None:
            return None
        p, won, control = out
        return Successor(self.codec.encode(p), won, control)

    def step(self, key: int, direction: int, crumbled: Crumbles | None = None) -> Successor | None:
        """One turn from the position ``key``; see :meth:`successor`."""
        return self.successor(self.expansion(key), direction, crumbled)

    def _walk(self, ex: Expansion, d: int) -> Successor | object | None:
        """The common turns as key arithmetic, or ``_GENERAL`` when a turn needs more.

        Handles the one mover walking into an empty cell, onto one object it
        neither pushes nor is stopped by (contacts of that cell only), or pushing
        a line of single non-word objects into an empty cell. Each cell then gains
        one entity and loses one, so no other contact can start, no word moves and
        (``ex.simple``) no link, carrier or FRAIL object can act.
        """
        if len(ex.movers) > 1:
            return self._walk_apart(ex, d)
        p, occ, bits, m = ex.p, ex.occ, ex.bits, ex.movers[0]
        nxt, shift = self._next[d], self._shift
        a = p[m]
        cell = nxt[a]
        if cell < 0:
            return None
        key = ex.key ^ ((a ^ cell) << shift[m])
        here = occ.get(cell)
        if not here:
            return Successor(key, False, True)
        if len(here) != 1:
            return _GENERAL
        s = here[0]
        f = bits[s]
        if f & BLOCKS:
            return None
        if not f & PUSHES:
            if (f | bits[m]) & (SINKS | DEFEATS):
                return _GENERAL
            return Successor(key, bool(f & WINS), True)
        lo, hi = self._lo, self._hi
        while True:
            if lo <= s < hi:
                return _GENERAL  # a word moves: the rules may change
            after = nxt[cell]
            if after < 0:
                return None
            key ^= (cell ^ after) << shift[s]
            there = occ.get(after)
            if not there:
                return Successor(key, False, True)
            if len(there) != 1:
                return _GENERAL
            s = there[0]
            f = bits[s]
            if f & BLOCKS:
                return None
            if not f & PUSHES:
                return _GENERAL
            cell = after

    def _walk_apart(self, ex: Expansion, d: int) -> Successor | object | None:
        """Several YOU objects, each into an empty cell or against the edge.

        Movers in distinct cells that step into cells empty at the start cannot
        meet, push or block one another, so their order does not matter and each
        is one XOR; anything else (a stack of movers, an occupied cell ahead) is
        resolved in full.
        """
        p, occ, nxt, shift = ex.p, ex.occ, self._next[d], self._shift
        key = ex.key
        origins = set()
        for m in ex.movers:
            a = p[m]
            if a in origins:
                return _GENERAL
            origins.add(a)
            b = nxt[a]
            if b < 0:
                continue  # blocked by the edge: it stays, the others may still move
            if occ.get(b):
                return _GENERAL
            key ^= (a ^ b) << shift[m]
        if key == ex.key:
            return None
        return Successor(key, False, True)
