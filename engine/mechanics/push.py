"""PUSH: what moves along when something moves into its cell.

In both movement phases a mover's push chain takes every PUSH entity of the
cell ahead, cell after cell, and the whole chain moves one cell or, if the edge
or a blocking object is in the way, nothing in it does. Every word tile is PUSH,
whatever the rules say, and PUSH cancels a blocking property on the same object
(engine.mechanics.stop).
"""

from __future__ import annotations

from engine.mechanics.base import Mechanic, PaletteEntry, Phase, Role

PUSH = "PUSH"

MECHANIC = Mechanic(
    name="PUSH",
    word=PUSH,
    summary="pushed along by whatever moves into its cell; every word tile is PUSH",
    phases=(Phase.PLAYER_MOVEMENT, Phase.AUTOMATON_MOVEMENT),
    reads="the cells ahead of a mover",
    changes="positions (a push chain moves whole or not at all)",
    encoding="one bit of a noun's flags, and of the words' pseudo noun",
    roles=frozenset({Role.PUSHED}),
    words=True,
    palette=PaletteEntry("#a5773f", "pushed along by whatever moves into it"),
)
