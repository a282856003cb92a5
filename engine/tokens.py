"""Word tokens and the level-bound vocabulary that classifies them.

A token is an upper-case name (``^[A-Z][A-Z0-9_]*$``). Its class depends on the
level: ``IS``/``AND`` are operators everywhere, the word of every registered
property mechanic (engine.mechanics) is a property everywhere, the word of a
mechanic a level opts into (engine.mechanics.frail) is a property only in a level that opted in,
and an automaton's property word is a property in its level. Every other token
is a noun. The parser, the turn resolver, the validators and the editor
(palette, word colours, forms) all ask one :class:`Vocabulary` so they can never
disagree about a word: :meth:`Vocabulary.classify` says what a word does in a
sentence, :meth:`Vocabulary.role` what it is to an author. A vocabulary keeps the
mechanics registered when it was made (:attr:`Vocabulary.mechanics`): everything
built from it reads the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from engine.limits import TOKEN_MAX_LENGTH
from engine.mechanics import Mechanic, Mechanics, PaletteEntry, register, registered

TOKEN_PATTERN = r"^[A-Z][A-Z0-9_]*$"

IS = "IS"
AND = "AND"
OPERATORS = frozenset({IS, AND})

#: The property words of every level, in palette order (the built-in mechanics').
BASE_PROPERTIES: tuple[str, ...] = registered().base_words

#: Tokens whose meaning the engine fixes: never nouns.
RESERVED = frozenset({*OPERATORS, *registered().words})


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
    PROPERTY = "property"  # a property word of every level (BASE_PROPERTIES)
    MECHANIC = "mechanic"  # a word a level's mechanic adds: one it opts into, an automaton's


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The property words of one level; everything else that is not an operator is a noun."""

    properties: frozenset[str]
    #: the mechanics registered when the vocabulary was made (engine.mechanics.registered)
    mechanics: Mechanics = field(default_factory=registered, compare=False, repr=False)

    @classmethod
    def for_level(
        cls,
        *,
        frail: bool,
        automaton_properties: Iterable[str] = (),
        opted: Iterable[str] = (),
    ) -> Vocabulary:
        """The vocabulary of a level that does or does not opt into the frail mechanic, with these automata.

        ``opted`` names further mechanics the level opts into, by type (``frail``
        is one). For several levels at once (a noun must be a noun in every level
        of a pack), pass the automaton properties of them all.
        """
        mechanics = registered()
        types = {*opted, "frail"} if frail else set(opted)
        extra = {m.word for kind, m in mechanics.by_type.items() if kind in types and m.word}
        return cls(frozenset({*mechanics.base_words, *extra, *automaton_properties}), mechanics)

    @classmethod
    def builtin(cls) -> Vocabulary:
        """The words whose meaning the engine fixes, in no level: what no author may redefine."""
        global _builtin
        if _builtin is None or _builtin.mechanics is not registered():
            _builtin = cls.for_level(frail=False)
        return _builtin

    @property
    def automaton_properties(self) -> frozenset[str]:
        return self.properties - self.mechanics.words

    def classify(self, token: str) -> WordClass:
        if token == IS:
            return WordClass.IS
        if token == AND:
            return WordClass.AND
        if token in self.properties:
            return WordClass.PROPERTY
        return WordClass.NOUN

    def role(self, token: str) -> WordRole:
        """The author's view of ``token``; an opt-in word is a mechanic word even where not opted in."""
        if token in OPERATORS:
            return WordRole.OPERATOR
        mechanic = self.mechanics.by_word.get(token)
        if mechanic is not None:
            return WordRole.PROPERTY if mechanic.opt_in is None else WordRole.MECHANIC
        if token in self.properties:
            return WordRole.MECHANIC
        return WordRole.NOUN

    def is_noun(self, token: str) -> bool:
        """Whether ``token`` names a noun in this level (an opt-in word never does)."""
        return self.role(token) is WordRole.NOUN

    def words(self, role: WordRole) -> tuple[str, ...]:
        """The words of a closed role, in the order a palette lists them.

        Raises:
            ValueError: for :attr:`WordRole.NOUN`: every other token is a noun.
        """
        if role is WordRole.OPERATOR:
            return (IS, AND)
        if role is WordRole.PROPERTY:
            return self.mechanics.base_words
        if role is WordRole.MECHANIC:
            return (*self.mechanics.opt_in_words, *sorted(self.automaton_properties))
        raise ValueError("nouns are not a closed list: every token that is no other word is one")

    def entry(self, token: str) -> PaletteEntry | None:
        """How a palette offers the word ``token`` (its mechanic's entry); ``None`` for nouns and operators."""
        mechanic = self.mechanics.by_word.get(token)
        if mechanic is not None:
            return mechanic.palette
        if token in self.properties:  # an automaton's word
            automata = self.mechanics.by_name.get("automata")
            return None if automata is None else automata.palette
        return None


_builtin: Vocabulary | None = None
_TOKEN = re.compile(TOKEN_PATTERN)


def register_mechanic(mechanic: Mechanic) -> Mechanic:
    """Register ``mechanic`` (engine.mechanics.register), its word first checked as a token.

    Register before building the levels and games that should know it: a
    vocabulary, and all that is built from one, keeps the mechanics of its moment.

    Raises:
        ValueError: the word is not a token or is an operator, or the registry
            refuses the mechanic (its name or word is taken, …).
    """
    word = mechanic.word
    if word is not None and (
        len(word) > TOKEN_MAX_LENGTH or _TOKEN.match(word) is None or word in OPERATORS
    ):
        raise ValueError(f"{word!r} cannot be a property word: it must be a token, not IS or AND")
    return register(mechanic)
