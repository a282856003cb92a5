"""STOP: what nothing moves into.

A STOP object in the cell ahead of a push chain stops the whole chain (nothing
in it moves), unless the object is also PUSH: then it is pushed (spec 02).
"""

from __future__ import annotations

from engine.mechanics.base import Mechanic, PaletteEntry, Phase, Role
from engine.mechanics.push import PUSH

STOP = "STOP"

MECHANIC = Mechanic(
    name="STOP",
    word=STOP,
    summary="stops whatever would move into its cell, unless it is PUSH too",
    phases=(Phase.PLAYER_MOVEMENT, Phase.AUTOMATON_MOVEMENT),
    reads="the cells ahead of a mover",
    changes="nothing: a stopped chain stays where it is",
    encoding="one bit of a noun's flags, left out where the noun is PUSH too",
    roles=frozenset({Role.BLOCKS}),
    unless=frozenset({PUSH}),
    palette=PaletteEntry("#5b7f2a", "nothing moves into it, unless it is PUSH too"),
)
