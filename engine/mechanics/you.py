"""YOU: the objects the player moves.

Every object whose noun is YOU takes the player's intent in the player movement
phase (front-first along it, ties by ascending id, with the atomic push rules of
the pushed and blocking roles). YOU is also what the level's control is: a
position in which no object is YOU accepts no step (``controlLost``), and two
contacts are about YOU objects (engine.mechanics.defeat, engine.mechanics.win).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.errors import Problem
from engine.mechanics.base import LevelFacts, Mechanic, PaletteEntry, Phase, Role

YOU = "YOU"
#: Why a step is refused when the player controls nothing (a replay says so).
NO_CONTROL = "nothing is YOU"


def _no_you_at_start(facts: LevelFacts) -> Iterator[Problem]:
    if not facts.control_lost:
        return
    you = sorted({subject for subject, predicate in facts.rules if predicate == YOU})
    if you:
        names = " and ".join(you)
        yield Problem(
            "",
            "no-you-at-start",
            f"{NO_CONTROL} at the start: {names} IS YOU, but no {names} is on the "
            "board once it settles, so the player cannot move",
        )
    else:
        yield Problem(
            "",
            "no-you-at-start",
            "no rule makes anything YOU at the start, so the player cannot move",
        )


MECHANIC = Mechanic(
    name="YOU",
    word=YOU,
    summary="the player moves these objects; with none left the level is out of control",
    phases=(Phase.PLAYER_MOVEMENT,),
    reads="the intent; the objects whose noun is YOU",
    changes="positions (the movers and what they push)",
    encoding="one bit of a noun's flags; the compact path's movers are the slots with it",
    roles=frozenset({Role.MOVER}),
    lints=(_no_you_at_start,),
    lint_codes=("no-you-at-start",),
    palette=PaletteEntry("#d9396a", "the player moves these objects"),
)
