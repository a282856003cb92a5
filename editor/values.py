"""Small immutable values the editor passes around: positions, pieces, stamps, properties.

A cell's stack is a tuple of :class:`Piece` ordered bottom first, so the last
element is the one drawn on top and the one an eraser removes. Pieces carry the
entity id the document assigned; a :class:`Stamp` is a piece without an id (what
the palette, the brush and the clipboard hold).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import engine

OBJECT = "object"
WORD = "word"


class Pos(NamedTuple):
    """A cell: ``x`` grows to the right, ``y`` downward (docs/contract.md section 1)."""

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


#: How a word reads in the current level; decides its colour. The engine's own.
WordRole = engine.WordRole


class HasAutomata(Protocol):
    """A level document, as far as its vocabulary goes."""

    def automaton_properties(self) -> frozenset[str]: ...


def vocabulary_of(*levels: HasAutomata) -> engine.Vocabulary:
    """The engine's vocabulary for these levels: one level's board, or a whole pack's nouns.

    FRAIL is always a mechanic word, opted in or not (validation says when a level
    has not opted in), so the vocabulary does not depend on the frail mechanic.
    """
    return vocabulary(frozenset().union(*(level.automaton_properties() for level in levels)))


@lru_cache(maxsize=64)
def vocabulary(automaton_properties: frozenset[str]) -> engine.Vocabulary:
    """The engine's vocabulary with these automaton property words (cached: tiles ask often)."""
    return engine.Vocabulary.for_level(frail=True, automaton_properties=automaton_properties)


def word_role(token: str, automaton_properties: frozenset[str]) -> WordRole:
    """Classify a word the way the engine does (docs/contract.md section 1): it is the engine's answer."""
    return vocabulary(automaton_properties).role(token)


def signature(stack: Stack) -> tuple[Stamp, ...]:
    """The stack without ids: two cells with equal signatures look the same."""
    return tuple(piece.stamp for piece in stack)


class Absent:
    """A field the file leaves out (kept left out, like a value kept as written)."""

    _one: Absent | None = None

    def __new__(cls) -> Absent:
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __deepcopy__(self, _memo: object) -> Absent:
        return self

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = Absent()

#: A field the editor holds a working value for while the file's value, which the
#: editor cannot hold, is written back: ``(key, as written, working value)``.
Written = tuple[tuple[str, Any, Any], ...]


def written_over(
    data: dict[str, Any], written: Written, current: Mapping[str, Any]
) -> dict[str, Any]:
    """``data`` with each field written as the file had it while its working value
    (``current[key]``) is still the one the editor chose when it read the file.

    A value of the wrong type (a width of ``"9"``) is kept as written, and so is a
    field the file leaves out: the editor shows a working value instead (the
    smallest grid that holds the entities) and saves what the author wrote until
    the author sets the field (to anything else, or in the form that owns it).
    """
    for key, raw, working in written:
        if key in current and current[key] != working:
            continue  # the author set it: the new value is written
        if raw is ABSENT:
            data.pop(key, None)
        else:
            data[key] = copy.deepcopy(raw)
    return data


def written_note(key: str, raw: object, working: object) -> str:
    """What the forms and the repair notes say of a field kept as written."""
    shown = "it empty" if working == "" else repr(working)
    if raw is ABSENT:
        return f"'{key}' is not in the file; the editor shows {shown} and saves it left out"
    return (
        f"'{key}' is written as {engine.clipped(json.dumps(raw, default=str))}, which the editor "
        f"cannot use; it shows {shown} and keeps the written value until you set {key}"
    )


def _values(props: object, *fields: str | tuple[str, str]) -> dict[str, Any]:
    """``{document key: attribute}`` of properties (a pair when the names differ)."""
    pairs = [(f, f) if isinstance(f, str) else f for f in fields]
    return {key: getattr(props, attribute) for key, attribute in pairs}


@dataclass(frozen=True, slots=True)
class LevelProperties:
    level_id: str
    title: str
    author: str
    width: int
    height: int
    #: Fields kept as the file wrote them (see :func:`written_over`).
    written: Written = ()

    def values(self) -> dict[str, Any]:
        """The working values by the level document's keys."""
        return _values(self, ("id", "level_id"), "title", "author", "width", "height")


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
    #: Fields kept as the file wrote them (see :func:`written_over`).
    written: Written = ()

    def values(self) -> dict[str, Any]:
        """The working values by the pack document's keys."""
        return _values(self, ("id", "pack_id"), "title", "author", "description")


# ------------------------------------------------------------- reading values
# Documents and clipboard regions come from files and other programs: each value
# the editor keeps is checked as the engine checks a pack, and a value it cannot
# hold is a ValueError naming where it is (never an OverflowError from int(1e400),
# never a size of 10**9 that a later paint overflows on).

_TOKEN = re.compile(engine.TOKEN_PATTERN.removesuffix("$") + r"\Z")


def whole_number(value: object, where: str, low: int, high: int) -> int:
    """``value`` as an int within ``low..high`` (``2.0`` is 2; ``true`` is not a number)."""
    if isinstance(value, float) and value.is_integer() and low <= value <= high:
        return int(value)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{where} must be a whole number from {low} to {high}, not {_show(value)}")
    return value


def grid_size(value: object, where: str) -> int:
    """A level's or region's width or height: 1 to the engine's largest grid."""
    return whole_number(value, where, 1, engine.MAX_GRID_SIZE)


def is_token(value: object) -> bool:
    """Whether ``value`` is a word token as the engine spells it (``BABA``, ``TICK``)."""
    return (
        isinstance(value, str)
        and len(value) <= engine.TOKEN_MAX_LENGTH
        and _TOKEN.match(value) is not None
    )


def text(value: object, where: str) -> str:
    """A text field: a string (absent or null reads as empty)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{where} must be text, not {_show(value)}")
    return value


def _show(value: object) -> str:
    if isinstance(value, bool | None):
        return repr(value).lower() if value is not None else "null"
    if isinstance(value, int) and abs(value) > 10**12:
        return "a number that large"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 30 else value[:30] + "…")
    return f"a {type(value).__name__}"
