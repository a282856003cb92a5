"""Word tokens and the level-bound vocabulary that classifies them.

A token is an upper-case name (``^[A-Z][A-Z0-9_]*$``). Its class depends on the
level: ``IS``/``AND`` are operators everywhere, the six base properties are
properties everywhere, ``FRAIL`` is a property only in a level that opted into the
frail mechanic, and an automaton's property word is a property in its level.
Every other token is a noun. The parser, the turn resolver and the validators all
ask one :class:`Vocabulary` so they can never disagree about a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

TOKEN_PATTERN = r"^[A-Z][A-Z0-9_]*$"

IS = "IS"
AND = "AND"
OPERATORS = frozenset({IS, AND})

YOU, PUSH, STOP, WIN, SINK, DEFEAT = "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"
BASE_PROPERTIES = (YOU, PUSH, STOP, WIN, SINK, DEFEAT)
FRAIL = "FRAIL"

#: Tokens whose meaning is fixed by the engine; never nouns.
RESERVED = frozenset({*OPERATORS, *BASE_PROPERTIES, FRAIL})


class WordClass(IntEnum):
    """What a word does in a sentence."""

    NOUN = 0
    PROPERTY = 1
    IS = 2
    AND = 3


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The property words of one level; everything else that is not an operator is a noun."""

    properties: frozenset[str]

    @classmethod
    def for_level(cls, *, frail: bool, automaton_properties: tuple[str, ...] = ()) -> Vocabulary:
        extra = {FRAIL} if frail else set()
        return cls(frozenset({*BASE_PROPERTIES, *extra, *automaton_properties}))

    def classify(self, token: str) -> WordClass:
        if token == IS:
            return WordClass.IS
        if token == AND:
            return WordClass.AND
        if token in self.properties:
            return WordClass.PROPERTY
        return WordClass.NOUN

    def is_noun(self, token: str) -> bool:
        """Whether ``token`` names a noun in this level (``FRAIL`` never does)."""
        return token not in self.properties and token not in OPERATORS and token != FRAIL
