"""The authored data model: packs, levels, entities, automata and mechanics.

These pydantic models are the single source of truth for the file format:
``schemas/*.schema.json`` are generated from them (``rulegrid schema --write``) and a
test fails when the checked-in files drift. Models are frozen: a loaded level is a
value the engine, the solver and the editor can share without copying.

Optional fields are absent rather than ``null`` in documents; ``to_data()`` writes
the normalized form (defaults filled in, absent optionals and empty optional lists
left out) that packs and share payloads store.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic.json_schema import SkipJsonSchema

from engine.limits import (
    MAX_AUTOMATA,
    MAX_CUE_NAME_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_ENTITIES,
    MAX_ENTITY_ID,
    MAX_GLYPH_LENGTH,
    MAX_GRID_SIZE,
    MAX_ID_LENGTH,
    MAX_LEAVES,
    MAX_LEVELS,
    MAX_MECHANICS,
    MAX_NOUNS,
    MAX_PATTERN_STEPS,
    MAX_REFERENCES,
    MAX_SOLUTION_LENGTH,
    MAX_TITLE_LENGTH,
    TOKEN_MAX_LENGTH,
)
from engine.tokens import TOKEN_PATTERN

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
COLOR_PATTERN = r"^#[0-9a-fA-F]{6}$"
MOVES_PATTERN = r"^[UDLR]*$"

Token = Annotated[
    str,
    StringConstraints(pattern=TOKEN_PATTERN, max_length=TOKEN_MAX_LENGTH),
    Field(description="An upper-case word token such as BABA, ROCK or TICK."),
]
Identifier = Annotated[
    str,
    StringConstraints(pattern=ID_PATTERN, min_length=1, max_length=MAX_ID_LENGTH),
    Field(description="A short identifier: letters, digits, '.', '_' and '-'."),
]
CueName = Annotated[
    str,
    StringConstraints(pattern=NAME_PATTERN, min_length=1, max_length=MAX_CUE_NAME_LENGTH),
    Field(description="A short plain name in lower case (letters, digits, '_', '-')."),
]


def _whole_number(value: object) -> object:
    """Store ``1.0`` as ``1`` and refuse ``true``, as JSON Schema's ``integer`` does."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true or false")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _absent_not_null(value: object) -> object:
    """Optional fields are left out of a document, never written as null (the schema agrees)."""
    if value is None:
        raise ValueError("null is not allowed here; leave the field out instead")
    return value


#: An optional field: absent means "none"; an explicit null is refused.
NotNull = BeforeValidator(_absent_not_null)
Absent = SkipJsonSchema[None]


ShortText = Annotated[str, StringConstraints(max_length=MAX_TITLE_LENGTH)]
LongText = Annotated[str, StringConstraints(max_length=MAX_DESCRIPTION_LENGTH)]
Moves = Annotated[str, StringConstraints(pattern=MOVES_PATTERN, max_length=MAX_SOLUTION_LENGTH)]
Glyph = Annotated[str, StringConstraints(min_length=1, max_length=MAX_GLYPH_LENGTH)]


# Constraints go before the validator: pydantic then writes them as JSON Schema keywords.
Integer = Annotated[int, BeforeValidator(_whole_number)]
Coordinate = Annotated[int, Field(ge=0, lt=MAX_GRID_SIZE), BeforeValidator(_whole_number)]
Delta = Annotated[int, Field(ge=-1, le=1), BeforeValidator(_whole_number)]
EntityId = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_ENTITY_ID,
        description="Unique within the level; stays with the object for ever.",
    ),
    BeforeValidator(_whole_number),
]
Version = Annotated[Literal[1], BeforeValidator(_whole_number)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    def to_data(self) -> dict[str, Any]:
        """The normalized JSON-ready form of this value."""
        data: dict[str, Any] = self.model_dump(mode="json", exclude_none=True)
        return data


class ObjectEntity(_Model):
    """A thing on the board; its noun decides which rules apply to it."""

    model_config = ConfigDict(title="Object")
    id: EntityId
    kind: Literal["object"]
    noun: Token
    x: Coordinate = Field(description="Column, 0 at the left.")
    y: Coordinate = Field(description="Row, 0 at the top.")


class WordEntity(_Model):
    """A word tile; words are always PUSH and form the level's rules."""

    model_config = ConfigDict(title="Word")
    id: EntityId
    kind: Literal["word"]
    text: Token
    x: Coordinate = Field(description="Column, 0 at the left.")
    y: Coordinate = Field(description="Row, 0 at the top.")


Entity = Annotated[ObjectEntity | WordEntity, Field(discriminator="kind")]


class MoveStep(_Model):
    """Move every carrier one cell in a cardinal direction."""

    model_config = ConfigDict(title="Move step")
    action: Literal["move"]
    dx: Delta = Field(description="-1 left, 1 right, 0 for a vertical move.")
    dy: Delta = Field(description="-1 up, 1 down, 0 for a horizontal move.")
    cue: Annotated[CueName | Absent, NotNull] = Field(default=None, description="Visual cue name.")
    sound: Annotated[CueName | Absent, NotNull] = Field(default=None, description="Sound name.")


class WaitStep(_Model):
    """Let one beat pass without moving."""

    model_config = ConfigDict(title="Wait step")
    action: Literal["wait"]
    cue: Annotated[CueName | Absent, NotNull] = Field(default=None, description="Visual cue name.")
    sound: Annotated[CueName | Absent, NotNull] = Field(default=None, description="Sound name.")


Step = Annotated[MoveStep | WaitStep, Field(discriminator="action")]


class Automaton(_Model):
    """A repeating pattern carried by every object that the board makes PROPERTY."""

    id: Identifier
    subject: Annotated[Token | Absent, NotNull] = Field(
        default=None,
        description="When given, only this noun can carry the automaton.",
    )
    property: Token = Field(description="The property word that activates it, e.g. TICK.")
    pattern: list[Step] = Field(min_length=1, max_length=MAX_PATTERN_STEPS)
    phase: Integer = Field(
        default=0,
        ge=0,
        lt=MAX_PATTERN_STEPS,
        description="Index of the step used by the next beat.",
    )


class FrailMechanic(_Model):
    """Opt into FRAIL: objects that crumble when left alone, leaving the mapped noun."""

    model_config = ConfigDict(title="Frail mechanic")
    id: Literal["frail"]
    type: Literal["frail"]
    version: Version
    state: Literal["derived"]
    leaves: dict[Token, Token] = Field(
        max_length=MAX_LEAVES,
        description="Noun left behind by a crumbling noun; an unmapped noun is removed.",
    )


Mechanic = FrailMechanic


class ReferenceSolution(_Model):
    """A known solution kept for the record beside the intended one, with where it came from.

    The intended ``solution`` is the one tools judge the level by (the shortest the
    author means); a reference keeps another known solution that is not it, such
    as a longer human solution of an imported level, so that it is not lost. The
    lint replays it like the intended one; it never changes play or a verdict.
    """

    model_config = ConfigDict(title="Reference solution")
    moves: Annotated[
        str,
        StringConstraints(pattern=MOVES_PATTERN, min_length=1, max_length=MAX_SOLUTION_LENGTH),
    ] = Field(description="The solution as a string of U D L R.")
    source: Annotated[str, StringConstraints(min_length=1, max_length=MAX_TITLE_LENGTH)] = Field(
        description="Who recorded it or where it was taken from (a file and its level)."
    )


class Level(_Model):
    """One level: a grid of stacked objects and words, plus optional mechanics."""

    id: Identifier
    title: Annotated[ShortText | Absent, NotNull] = Field(default=None)
    author: Annotated[ShortText | Absent, NotNull] = Field(default=None)
    width: Integer = Field(ge=1, le=MAX_GRID_SIZE, description=f"Columns, at most {MAX_GRID_SIZE}.")
    height: Integer = Field(ge=1, le=MAX_GRID_SIZE, description=f"Rows, at most {MAX_GRID_SIZE}.")
    entities: list[Entity] = Field(max_length=MAX_ENTITIES)
    automata: list[Automaton] = Field(default_factory=list, max_length=MAX_AUTOMATA)
    mechanics: list[Mechanic] = Field(default_factory=list, max_length=MAX_MECHANICS)
    solution: Annotated[Moves | Absent, NotNull] = Field(
        default=None, description="The author's intended solution as a string of U D L R."
    )
    references: list[ReferenceSolution] = Field(
        default_factory=list,
        max_length=MAX_REFERENCES,
        description="Other known solutions kept for the record, such as a longer human one.",
    )

    @property
    def frail(self) -> FrailMechanic | None:
        return next((m for m in self.mechanics if m.type == "frail"), None)

    def to_data(self) -> dict[str, Any]:
        data = super().to_data()
        for key in ("automata", "mechanics", "references"):
            if not data[key]:
                del data[key]
        return data


class NounStyle(_Model):
    """How the editor draws a noun."""

    model_config = ConfigDict(title="Noun style")
    color: Annotated[str, StringConstraints(pattern=COLOR_PATTERN)] = Field(
        description="Colour as #rrggbb."
    )
    glyph: Annotated[Glyph | Absent, NotNull] = Field(
        default=None, description="One or two characters drawn on the object."
    )


class Pack(_Model):
    """A level pack: its noun vocabulary and its levels, in play order."""

    format: Literal["rulegrid-pack"]
    version: Version
    id: Identifier
    title: str = Field(max_length=MAX_TITLE_LENGTH)
    author: Annotated[ShortText | Absent, NotNull] = Field(default=None)
    description: Annotated[LongText | Absent, NotNull] = Field(default=None)
    nouns: dict[Token, NounStyle] = Field(
        max_length=MAX_NOUNS, description="Every noun the pack's levels may use."
    )
    levels: list[Level] = Field(max_length=MAX_LEVELS)

    def level(self, level_id: str) -> Level:
        """The level with this id; ``KeyError`` when the pack has none."""
        for level in self.levels:
            if level.id == level_id:
                return level
        raise KeyError(level_id)

    def to_data(self) -> dict[str, Any]:
        data = super().to_data()
        data["levels"] = [level.to_data() for level in self.levels]
        return data
