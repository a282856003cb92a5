"""DEFEAT: a YOU object in a cell with a DEFEAT object is destroyed.

A contact, applied cell by cell after the first destroying contact (rank 20): in a cell that holds
a DEFEAT object, every YOU object is destroyed (an object that is both destroys
itself); nothing else is. :func:`cell` is the rule of the public turn;
:func:`compact` its twin on the compact path's slots and flags.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.mechanics.base import (
    CompactRule,
    Contact,
    Here,
    Mechanic,
    Occupancy,
    Occupant,
    PaletteEntry,
    Phase,
    Role,
)
from engine.mechanics.you import YOU

DEFEAT = "DEFEAT"


def cell(here: Here) -> Sequence[Occupant]:
    """The YOU objects of a cell that holds a DEFEAT object."""
    if any(DEFEAT in props for _, props in here):
        return [o for o, props in here if YOU in props]
    return ()


def compact(bits: Mapping[str, int]) -> CompactRule:
    """:func:`cell` on slots: the YOU slots of each cell of ``cells`` with a DEFEAT slot, each once."""
    defeat, you = bits[DEFEAT], bits[YOU]

    def rule(cells: Iterable[int], occupancy: Occupancy, flags: Sequence[int]) -> Sequence[int]:
        gone: list[int] = []
        for cell in cells:
            here = occupancy[cell]
            if any(flags[slot] & defeat for slot in here):
                gone += [slot for slot in here if flags[slot] & you]
        return list(dict.fromkeys(gone)) if gone else gone

    return rule


MECHANIC = Mechanic(
    name="DEFEAT",
    word=DEFEAT,
    summary="destroys the YOU objects in its cell",
    phases=(Phase.CONTACTS,),
    reads="the YOU objects of each cell that holds a DEFEAT object",
    changes="removes YOU objects",
    roles=frozenset({Role.HAZARD}),
    contact=Contact(
        destroys=True,
        rank=20,
        at=DEFEAT,
        needs=frozenset({DEFEAT, YOU}),
        revisit={YOU: None, DEFEAT: YOU},
        cell=cell,
        compact=compact,
        cause="defeat",
    ),
    palette=PaletteEntry("#a8362a", "a YOU object that meets it is destroyed"),
)
