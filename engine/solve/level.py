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

from collections.abc import Mapping
from typing import Any

from engine.context import LevelContext
from engine.errors import Problem, ValidationError, pointer
from engine.model import Level
from engine.packs.validate import load_level
from engine.play.turn import settle
from engine.rules import Rule
from engine.solve.grid import DIRECTIONS, Grid
from engine.solve.rules import CARRY, DEFEATS, FRAILS, SINKS, YOUS, Meaning, Meanings
from engine.solve.state_codec import Codec
from engine.solve.turn import Crumbles, Expansion, Occupancy, Successor, TurnResolver
from engine.solve.walk import Shortcut, WalkShortcut

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
        self.walks = WalkShortcut(codec, self.grid)
        self.start_key = codec.encode(codec.start)
        self.start_won = start.won
        self._start_occupancy: Occupancy = {}
        for slot in range(codec.n):
            cell = codec.start[slot]
            if cell != codec.gone:
                self._start_occupancy[cell] = (*self._start_occupancy.get(cell, ()), slot)
        self._stacked_at_start = [
            cell for cell, here in self._start_occupancy.items() if len(here) > 1
        ]
        self._views: dict[
            tuple[Meaning, bytes | tuple[int, ...]], tuple[list[int], list[int], list[int]]
        ] = {}
        # meanings under which no walk is arithmetic: carriers act, FRAIL objects may crumble
        self._no_walk = CARRY | (FRAILS if self.turns.leftovers is not None else 0)

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
            "controlLost": not any(flags[vector[noun_base + slot]] & YOUS for slot in present),
        }

    # -- one position, four turns ----------------------------------------------

    def expansion(self, key: int) -> Expansion:
        """Unpack a settled position once for all of its turns.

        Occupancy is the start's, corrected for the slots whose position bytes
        differ from the start's, so its cost follows what moved, not the board.
        """
        codec = self.codec
        vector = codec.decode(key)
        gone, noun_base, start = codec.gone, codec.noun_base, codec.start
        occupancy = self._start_occupancy.copy()
        changed = codec.changed_slots(key)
        for slot in changed:
            origin, cell = start[slot], vector[slot]
            if origin != gone:
                here = occupancy[origin]
                occupancy[origin] = () if len(here) == 1 else tuple([x for x in here if x != slot])
            if cell != gone:
                there = occupancy.get(cell)
                occupancy[cell] = (*there, slot) if there else (slot,)
        meaning = self.meanings.of(vector)
        assert meaning is not None, "a settled position always parses"
        nouns = vector[noun_base : noun_base + codec.n]
        view = self._views.get((meaning, bytes(nouns) if codec.itemsize == 1 else tuple(nouns)))
        if view is None:
            view = self._view(meaning, nouns)
        flags, you, linked = view
        movers = [slot for slot in you if vector[slot] != gone]
        links = any(vector[slot] != gone for slot in linked)
        pending = False
        union = meaning.union
        if union & (SINKS | DEFEATS):
            cells = {vector[slot] for slot in changed if vector[slot] != gone}.union(
                self._stacked_at_start
            )
            pending = any(flags[slot] & DEFEATS for slot in movers) or any(
                len(here) > 1
                and (
                    any(flags[slot] & SINKS for slot in here)
                    or (
                        any(flags[slot] & DEFEATS for slot in here)
                        and any(flags[slot] & YOUS for slot in here)
                    )
                )
                for here in map(occupancy.__getitem__, cells)
            )
        simple = bool(movers) and not pending and not links and not union & self._no_walk
        return Expansion(key, vector, occupancy, meaning, flags, movers, pending, links, simple)

    def _view(self, meaning: Meaning, nouns: list[int]) -> tuple[list[int], list[int], list[int]]:
        """Each slot's bits, the YOU slots and the slots whose noun has a link.

        For one meaning and one set of nouns; few positions differ in either.
        """
        codec = self.codec
        flags = list(map(meaning.flags.__getitem__, nouns))
        you = [slot for slot in codec.objects if flags[slot] & YOUS]
        linked = [slot for slot in codec.objects if nouns[slot] in meaning.links]
        if len(self._views) >= 1 << 12:
            self._views.clear()
        key: bytes | tuple[int, ...] = bytes(nouns) if codec.itemsize == 1 else tuple(nouns)
        self._views[(meaning, key)] = (flags, you, linked)
        return flags, you, linked

    def successor(
        self, expansion: Expansion, direction: int, crumbled: Crumbles | None = None
    ) -> Successor | None:
        """One turn from an expansion (``direction`` indexes :data:`DIRECTIONS`); ``None`` if rejected.

        ``crumbled`` collects ``(id, from, to)`` per crumbled object, ascending id.
        A key does not record ``won`` (a won position ends every search), so
        unlike ``Game.step`` this does not refuse to move on from a won position.
        """
        if expansion.simple:
            quick = self.walks.walk(expansion, direction)
            if quick is Shortcut.REJECTED:
                return None
            if quick is not Shortcut.FULL_TURN:
                return quick
        out = self.turns.turn(expansion, direction, crumbled)
        if out is None:
            return None
        vector, won, control = out
        return Successor(self.codec.encode(vector), won, control)

    def step(self, key: int, direction: int, crumbled: Crumbles | None = None) -> Successor | None:
        """One turn from the position ``key``; see :meth:`successor`."""
        return self.successor(self.expansion(key), direction, crumbled)
