"""Automata: objects that carry an automaton's property move by its pattern, one beat a turn.

Each automaton of a level names a property word of its own (``TICK``), an
optional subject noun and a pattern of moves and waits. In the automaton
movement phase, after the player's and before the second parse, each automaton
in authored order takes one beat: its carriers (objects whose noun has its
property, and is its subject if it has one), chosen from the rules after the
player phase, move front-first like the player's objects; an automaton without
carriers pauses.
The public turn runs it (engine.play.phases.automaton_movement), the compact path
keeps each automaton's phase as a field of the key and a carrier bit per
automaton in a noun's flags (engine.solve.rules.CARRY).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.errors import Problem, pointer
from engine.mechanics.base import LevelFacts, Mechanic, PaletteEntry, Phase


def _never_active(facts: LevelFacts) -> Iterator[Problem]:
    for index, automaton_id, prop in facts.automata:
        if prop not in facts.words:
            yield Problem(
                pointer("automata", index, "property"),
                "automaton-never-active",
                f"automaton {automaton_id!r} never acts: there is no {prop} "
                "word on the board to give its property",
            )


MECHANIC = Mechanic(
    name="automata",
    word=None,
    summary="objects with an automaton's property move by its pattern, one beat a turn",
    phases=(Phase.AUTOMATON_MOVEMENT,),
    reads="each automaton's pattern and phase; its carriers after the player phase",
    changes="positions (the carriers and what they push) and each automaton's phase",
    encoding="a phase field per automaton in the key; a carrier bit per automaton in the flags",
    lints=(_never_active,),
    lint_codes=("automaton-never-active",),
    palette=PaletteEntry("#2fa39a", "its carriers move by the automaton's pattern"),
)
