"""What a mechanic declares, and the plain types its rules are written against.

A :class:`Mechanic` is one thing the rules of the genre can do: a property word
(engine.mechanics.you, …), the frail mechanic, transformation, automata. It says, once, its word,
the phases of a turn it acts in, what it reads and what it changes, how the
compact path encodes it (a bit of a noun's flags, assigned at registration), its
lints and its palette entry, and it carries its rules: movement **roles** the two
movement phases read, a :class:`Contact` (a rule of the contacts phase, for the
public turn and, beside it, its compact twin) or a checkpoint of its own.

The mechanics sit below the token classes (engine.tokens reads the words from the
registry), so they import nothing of the engine but errors and limits: the
public rules take a cell as its :data:`Occupant` tuples with their properties
(:data:`Here`) and a rule table as :class:`Table`, the compact ones slot lists,
flags and an :data:`Occupancy`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Protocol

from engine.errors import Problem

Cell = tuple[int, int]
Piece = tuple[int, str, str, int, int]  # (id, kind, noun-or-text, x, y)
Occupant = tuple[int, str, str]  # (id, kind, noun-or-text), one entity of a cell
Json = dict[str, Any]
#: The compact path's cells: cell index -> the slots in it (tuples, so copies share them).
Occupancy = dict[int, tuple[int, ...]]


class Table(Protocol):
    """What a rule of the public turn asks of a rule set (``engine.rules.RuleTable``)."""

    def has(self, noun: str, prop: str) -> bool: ...


#: One cell of the public turn: each occupant, ascending id, with its properties
#: under the rules (an object's noun's; a word has none).
Here = Sequence[tuple[Occupant, frozenset[str]]]
#: A contact's rule of the public turn: one cell to what it acts on there (the
#: occupants it removes; for a win, those that win).
CellRule = Callable[[Here], Sequence[Occupant]]
#: A contact's compact rule over ``cells``: ``(cells, occupancy, flags) -> slots`` (the
#: slots it removes, each once; for a win, any slots that win: empty when none).
CompactRule = Callable[[Iterable[int], Occupancy, Sequence[int]], Sequence[int]]
#: Made once per level from the bit of every property word (``bits[word]``).
CompactFactory = Callable[[Mapping[str, int]], CompactRule]


class Phase(Enum):
    """The phases of a turn, in the order a step runs them (engine.play.phases.STEP_PHASES)."""

    PLAYER_MOVEMENT = "player_movement"
    PARSE_AND_TRANSFORM = "parse_and_transform"
    AUTOMATON_MOVEMENT = "automaton_movement"
    FRAIL_CHECKPOINT = "frail_checkpoint"
    CONTACTS = "contacts"
    REREAD_RULES = "reread_rules"


#: A step: parse and transform runs twice, after each movement phase.
STEP_ORDER = (
    Phase.PLAYER_MOVEMENT,
    Phase.PARSE_AND_TRANSFORM,
    Phase.AUTOMATON_MOVEMENT,
    Phase.PARSE_AND_TRANSFORM,
    Phase.FRAIL_CHECKPOINT,
    Phase.CONTACTS,
    Phase.REREAD_RULES,
)
#: The settle (game start and reset): no movement, no checkpoint.
SETTLE_ORDER = (Phase.PARSE_AND_TRANSFORM, Phase.CONTACTS, Phase.REREAD_RULES)


class Role(StrEnum):
    """What an object with a property is to the two movement phases and to the solver's estimate.

    A string enum: the turn looks a table's nouns up by role, and a string hashes in C.
    """

    #: takes the player's intent; a position where no object has it is out of control
    MOVER = "mover"
    #: pushed along by what moves into its cell (words always are)
    PUSHED = "pushed"
    #: stops what would move into its cell, unless it is also pushed
    BLOCKS = "blocks"
    #: is not stopped: a group moving into a cell is stopped there only if one of it lacks this
    PASSES = "passes"
    #: the estimate walks movers towards it (the level is won there)
    GOAL = "goal"
    #: the estimate prices entering its cell high (a mover may be destroyed there)
    HAZARD = "hazard"


#: The roles the walk shortcut of the compact path knows how to resolve. A property
#: with any other role (or a checkpoint) makes the positions where some noun has it
#: full turns (engine.solve.walk).
WALK_ROLES = frozenset({Role.MOVER, Role.PUSHED, Role.BLOCKS, Role.GOAL, Role.HAZARD})


@dataclass(frozen=True, slots=True)
class Contact:
    """A rule of the contacts phase: what happens among the entities of one cell.

    Contacts never reach past their cell, so the settle, a turn and the editor's
    incremental reader all apply them cell by cell. Destroying contacts run first,
    in ``rank`` order, each on what the earlier ones left; then the winning ones
    decide whether the level is won.

    ``at``: only a cell holding an object with this property can see the contact
    (the public turn visits those). ``needs``: the properties that must all be in
    the cell (the compact path skips the contact when no noun has them all).
    ``revisit``: when a noun's property of these changes between two rule sets,
    which cells may now hold the contact: ``None``, the cells of that noun's
    objects; a property word, the cells of every object that has it (the
    incremental turn looks there, besides the cells the turn changed).
    """

    destroys: bool
    rank: int
    at: str
    needs: frozenset[str]
    revisit: Mapping[str, str | None]
    cell: CellRule
    compact: CompactFactory
    cause: str = ""  # an event entry's ``cause`` for what it destroys ("sink")
    shows: str = ""  # a winning contact: what a cell shows where it holds (in messages)

    @property
    def reads(self) -> frozenset[str]:
        """The properties a contact depends on: equal ones in a cell, equal outcomes."""
        return frozenset({*self.revisit, *(w for w in self.revisit.values() if w is not None)})


@dataclass(frozen=True, slots=True)
class PaletteEntry:
    """How the editor's palette offers a mechanic's word."""

    color: str  # the word tile's colour, "#rrggbb"
    tip: str  # what the word does, as a clause (the palette prefixes "Property word X: ")


@dataclass(frozen=True, slots=True)
class LevelFacts:
    """What a mechanic's lint reads of a valid level: the board's tokens and its settled start.

    ``rules`` are the settled start's rules as ``(subject, predicate)``;
    ``mechanics`` the level's declared mechanics as ``(index, type)``;
    ``automata`` its automata as ``(index, id, property)``. Pointers of the
    problems a lint yields are relative to the level.
    """

    words: frozenset[str]
    objects: frozenset[str]
    noun_words: frozenset[str]
    is_word: bool  # an IS word is on the board
    has_leftovers: bool  # a mechanic's map names nouns objects can become
    rules: tuple[tuple[str, str], ...]
    control_lost: bool
    won: bool
    mechanics: tuple[tuple[int, str], ...]
    automata: tuple[tuple[int, str, str], ...]


Lint = Callable[[LevelFacts], Iterator[Problem]]


@dataclass(frozen=True, slots=True)
class Mechanic:
    """One mechanic, declared once; the turn, the compact path, validation, lint and the palette read it.

    ``word`` is the property word (``None`` for transformation, and for automata,
    whose words are each level's own). ``phases`` are the phases of a turn it acts
    in; ``reads`` and ``changes`` say, for people and for the docs page, what it
    looks at and what it changes; ``encoding`` how the compact path stores it
    (every property is one bit of a noun's flags, :attr:`bit`, assigned when it
    is registered). A property acts through its ``roles`` in the movement phases,
    through its ``contact`` in the contacts phase, or (engine.mechanics.frail) in a phase of its own.
    ``unless``: words that cancel its roles on an object (engine.mechanics.stop);
    ``words``: every word tile has it (engine.mechanics.push). ``opt_in``: the type of the level
    mechanic that makes the word a property; without it the word is a mechanic
    word no object can have (``not_declared`` says so, as a validation problem).
    ``lints`` and ``lint_codes``: its warnings about a valid level, and their
    codes in the order it yields them.
    """

    name: str
    word: str | None
    summary: str
    phases: tuple[Phase, ...]
    reads: str
    changes: str
    encoding: str = "one bit of a noun's flags"
    roles: frozenset[Role] = frozenset()
    unless: frozenset[str] = frozenset()
    words: bool = False
    contact: Contact | None = None
    checkpoint: bool = False
    opt_in: str | None = None
    not_declared: str = ""
    lints: tuple[Lint, ...] = ()
    lint_codes: tuple[str, ...] = ()
    palette: PaletteEntry | None = None
    bit: int = field(default=0, compare=False)

    @property
    def is_property(self) -> bool:
        """Whether it is a property word (a noun can have it through ``NOUN IS WORD``)."""
        return self.word is not None

    @property
    def walks(self) -> bool:
        """Whether the walk shortcut can resolve turns in which some noun has it."""
        return not self.checkpoint and self.roles <= WALK_ROLES
