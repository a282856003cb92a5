"""SINK: a cell that holds a SINK object and anything else loses everything in it.

A contact, applied cell by cell after movement, transformation and the
checkpoint, first of the destroying contacts (rank 10): when a cell holds at least two entities and
one of them is a SINK object, every entity of the cell is destroyed, words too
(then the rules are read again). :func:`cell` is the rule of the public turn;
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

SINK = "SINK"


def cell(here: Here) -> Sequence[Occupant]:
    """Everything in the cell, when it holds two entities or more and a SINK object."""
    if len(here) >= 2 and any(SINK in props for _, props in here):
        return [o for o, _ in here]
    return ()


def compact(bits: Mapping[str, int]) -> CompactRule:
    """:func:`cell` on slots: every slot of each cell of ``cells`` that sinks, each once."""
    sink = bits[SINK]

    def rule(cells: Iterable[int], occupancy: Occupancy, flags: Sequence[int]) -> Sequence[int]:
        sinking = [
            cell
            for cell in cells
            if len(occupancy[cell]) > 1 and any(flags[slot] & sink for slot in occupancy[cell])
        ]
        if not sinking:
            return ()
        return [slot for cell in set(sinking) for slot in occupancy[cell]]

    return rule


MECHANIC = Mechanic(
    name="SINK",
    word=SINK,
    summary="destroys everything in its cell, itself too, when anything else is there",
    phases=(Phase.CONTACTS,),
    reads="the entities of each cell that holds a SINK object",
    changes="removes entities, words too (the rules are then read again)",
    roles=frozenset({Role.HAZARD}),
    contact=Contact(
        destroys=True,
        rank=10,
        at=SINK,
        needs=frozenset({SINK}),
        revisit={SINK: None},
        cell=cell,
        compact=compact,
        cause="sink",
    ),
    palette=PaletteEntry("#3e76a3", "it and whatever joins it are destroyed"),
)
