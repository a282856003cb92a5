"""HOLLOW, a toy property that nothing stops: the example of docs/adding-a-mechanic.md.

A group of entities moving into a cell (a mover, or the front of what it pushes) is
stopped there by a blocking object unless every one of the group is HOLLOW. It is
one declaration: a role the two movement phases read (the public turn's and the
compact path's), a palette entry, nothing else. The walk shortcut of the compact
path does not know the role, so positions where some noun is HOLLOW take full turns.
tests/engine/test_mechanics.py registers it, plays it and takes it away.
"""

from __future__ import annotations

from engine import Mechanic, PaletteEntry
from engine.mechanics import Phase, Role

HOLLOW = "HOLLOW"

MECHANIC = Mechanic(
    name="HOLLOW",
    word=HOLLOW,
    summary="nothing stops it",
    phases=(Phase.PLAYER_MOVEMENT, Phase.AUTOMATON_MOVEMENT),
    reads="the cells ahead of a mover",
    changes="positions: it moves into the cells of blocking objects",
    roles=frozenset({Role.PASSES}),
    palette=PaletteEntry("#8c8c8c", "nothing stops it"),
)
