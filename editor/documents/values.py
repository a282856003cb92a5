"""Small immutable values the editor passes around: positions, pieces, stamps, properties.

A cell's stack is a tuple of :class:`Piece` ordered bottom first, so the last
element is the one drawn on top and the one an eraser removes. Pieces carry the
entity id the document assigned; a :class:`Stamp` is a piece without an id (what
the palette, the brush and the clipboard hold).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

import engine

OBJECT = "object"
WORD = "word"


class Pos(NamedTuple):
    """A cell: ``x`` grows to the right, ``y`` downward (api.md section 1)."""

    x: int
    y: int


class Stamp(NamedTuple):
    """What to put on the board: an object of a noun, or a word tile.

    Named tuples hash in C: stamps are dictionary keys on the drawing path.
    """

    kind: str  # OBJECT or WORD
    token: str

    def label(self) -> str:
        return self.token if self.kind == WORD else self.token.lower()


class Piece(NamedTuple):
    """One entity on the board as the editor holds it."""

    id: int
    kind: str
    token: str

    @property
    def stamp(self) -> Stamp:
        return Stamp(self.kind, self.token)


Stack = tuple[Piece, ...]
EMPTY: Stack = ()


class WordRole(Enum):
    """How a word reads in the current level; decides its colour."""

    NOUN = "noun"
    OPERATOR = "operator"
    PROPERTY = "property"
    MECHANIC = "mechanic"  # FRAIL and automaton properties


def word_role(token: str, automaton_properties: frozenset[str]) -> WordRole:
    """Classify a word the way the engine does (api.md section 1)."""
    if token in engine.OPERATORS:
        return WordRole.OPERATOR
    if token in engine.BASE_PROPERTIES:
        return WordRole.PROPERTY
    if token == engine.FRAIL or token in automaton_properties:
        return WordRole.MECHANIC
    return WordRole.NOUN


def signature(stack: Stack) -> tuple[Stamp, ...]:
    """The stack without ids: two cells with equal signatures look the same."""
    return tuple(piece.stamp for piece in stack)


@dataclass(frozen=True, slots=True)
class LevelProperties:
    level_id: str
    title: str
    author: str
    width: int
    height: int


class Anchor(NamedTuple):
    """Where the old contents sit after a resize: 0 left/top, 1 centre, 2 right/bottom."""

    ax: int = 0
    ay: int = 0


TOP_LEFT = Anchor(0, 0)


@dataclass(frozen=True, slots=True)
class NounSpec:
    color: str  # "#rrggbb"
    glyph: str = ""


@dataclass(frozen=True, slots=True)
class PackProperties:
    pack_id: str
    title: str
    author: str = ""
    description: str = ""
