"""The values that pass between the parts of the compact path.

An :class:`Expansion` is a settled position unpacked once for its four turns (by
:class:`~engine.solve.level.CompactLevel`, read by the walk shortcut and the
general turn); a :class:`Successor` is what a turn returns to the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.mechanics.base import Occupancy
from engine.solve.rules import Meaning

__all__ = ["Child", "Crumbles", "Expansion", "Occupancy", "Successor"]

Crumbles = list[tuple[int, str, str | None]]  # (id, from, to) per crumbled object
Child = tuple[int, bool, bool]  # (key, won, control): a Successor as a plain tuple


@dataclass(slots=True)
class Expansion:
    """One settled position unpacked for its four turns (shared; only ``occupancy`` is filled in later)."""

    key: int
    raw: bytes  # the vector's bytes (:meth:`Codec.raw`)
    vector: Sequence[int]  # its fields, indexable (:meth:`Codec.fields`)
    meaning: Meaning
    flags: list[int]  # property bits of every slot under ``meaning``
    movers: list[int]  # the objects that take the intent (Meanings.movers)
    pending: bool  # a contact its own rules would resolve: only a restored, unsettled position
    links: bool  # some object's noun has a transformation link under ``meaning``
    simple: bool  # movers, and no link, carrier, unknown property or pending contact: arithmetic
    occupancy: Occupancy | None = None  # cell -> slots, built by the first turn that needs it


class Successor(NamedTuple):
    """A settled position after an accepted turn."""

    key: int
    won: bool
    control: bool  # some mover is present; without one no later turn is accepted
