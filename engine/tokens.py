"""Word tokens and the level-bound vocabulary that classifies them.

A token is an upper-case name (``^[A-Z][A-Z0-9_]*$``). Its class depends on the
level: ``IS``/``AND`` are operators everywhere, the six base properties are
properties everywhere, ``FRAIL`` is a property only in a level that opted into the
frail mechanic, and an automaton's property word is a property in its level.
Every other token is a noun. The parser, the turn resolver, the validators and
the editor (palette, word colours, forms) all ask one :class:`Vocabulary` so they
can never disagree about a word: :meth:`Vocabulary.classify` says what a word does
in a sentence, :meth:`Vocabulary.role` what it is to an author.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

TOKEN_PATTERN = r"^[A-Z][A-Z0-9_]*$"

IS = "IS"
AND = "AND"
OPERATORS = frozenset({IS, AND})

YOU, PUSH, STOP, WIN, SINK, DEFEAT = "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"
BASE_PROPERTIES = (YOU, PUSH, STOP, WIN, SINK, DEFEAT)
FRAIL = "FRAIL"


_BASE = frozenset(BASE_PROPERTIES)

#: Tokens whose meaning is fixed by the engine; never nouns.
RESERVED = frozenset({*OPERATORS, *BASE_PROPERTIES, FRAIL})


class WordClass(IntEnum):
    """What a word does in a sentence."""

    NOUN = 0
    PROPERTY = 1
    IS = 2
    AND = 3


class WordRole(Enum):
    """What a word is to an author: how the editor colours it, how problems name it."""

    NOUN = "noun"
    OPERATOR = "operator"  # IS, AND
    PROPERTY = "property"  # a base property: YOU PUSH STOP WIN SINK DEFEAT
    MECHANIC = "mechanic"  # a word a mechanic adds: FRAIL, an automaton's property


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The property words of one level; everything else that is not an operator is a noun."""

    properties: frozenset[str]

    @classmethod
    def for_level(cls, *, frail: bool, automaton_properties: Iterable[str] = ()) -> Vocabulary:
        """The vocabulary of a level that does or does not opt into FRAIL, with these automata.

        For several levels at once (a noun must be a noun in every level of a
        pack), pass the automaton properties of them all.
        """
        extra = {FRAIL} if frail else set()
        return cls(frozenset({*BASE_PROPERTIES, *extra, *automaton_properties}))

    @classmethod
    def builtin(cls) -> Vocabulary:
        """The words whose meaning the engine fixes, in no level: what no author may redefine."""
        return _BUILTIN

    @property
    def automaton_properties(self) -> frozenset[str]:
        return self.properties - _BASE - {FRAIL}

    def classify(self, token: str) -> WordClass:
        if token == IS:
            return WordClass.IS
        if token == AND:
            return WordClass.AND
        if token in self.properties:
            return WordClass.PROPERTY
        return WordClass.NOUN

    def role(self, token: str) -> WordRole:
        """The author's view of ``token``; ``FRAIL`` is a mechanic word even where not opted in."""
        if token in OPERATORS:
            return WordRole.OPERATOR
        if token in _BASE:
            return WordRole.PROPERTY
        if token == FRAIL or token in self.properties:
            return WordRole.MECHANIC
        return WordRole.NOUN

    def is_noun(self, token: str) -> bool:
        """Whether ``token`` names a noun in this level (``FRAIL`` never does)."""
        return self.role(token) is WordRole.NOUN

    def words(self, role: WordRole) -> tuple[str, ...]:
        """The words of a closed role, in the order a palette lists them.

        Raises:
            ValueError: for :attr:`WordRole.NOUN`: every other token is a noun.
        """
        if role is WordRole.OPERATOR:
            return (IS, AND)
        if role is WordRole.PROPERTY:
            return BASE_PROPERTIES
        if role is WordRole.MECHANIC:
            return (FRAIL, *sorted(self.automaton_properties))
        raise ValueError("nouns are not a closed list: every token that is no other word is one")


_BUILTIN = Vocabulary.for_level(frail=False)
