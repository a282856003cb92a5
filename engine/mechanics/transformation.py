"""Transformation: ``ROCK IS FLAG`` turns every ROCK object into a FLAG object.

Read in the parse-and-transform phase, after each movement phase and in the
settle: each noun has at most one link, the first noun-valued rule about it in
rule order, unless an ``X IS X`` rule keeps X what it is (then it has none); each
object follows its noun's link at most once a turn. :func:`links` chooses the
links (for engine.rules.RuleTable), the public turn applies them
(engine.play.phases.transform) and the compact path keeps them as noun index to
noun index (engine.solve.rules.Meaning.links).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from engine.mechanics.base import Mechanic, Phase


class Sentence(Protocol):
    """A rule as far as a link is concerned (engine.rules.Rule)."""

    @property
    def subject(self) -> str: ...
    @property
    def predicate(self) -> str: ...


R = TypeVar("R", bound=Sentence)


def links(noun_rules: Iterable[R]) -> dict[str, tuple[str, R]]:
    """Each noun's link: the target and rule of its first noun-valued rule, in rule order.

    ``noun_rules`` are the rules whose predicate is a noun. A noun with an
    ``X IS X`` rule has no link: it stays what it is.
    """
    found: dict[str, tuple[str, R]] = {}
    kept: set[str] = set()
    for rule in noun_rules:
        if rule.predicate == rule.subject:
            kept.add(rule.subject)
        elif rule.subject not in found:
            found[rule.subject] = (rule.predicate, rule)
    for noun in kept:
        found.pop(noun, None)
    return found


MECHANIC = Mechanic(
    name="transformation",
    word=None,
    summary="NOUN IS NOUN turns the objects of the first noun into the second",
    phases=(Phase.PARSE_AND_TRANSFORM,),
    reads="the noun-valued rules; the objects that have not used their link this turn",
    changes="nouns of objects",
    encoding="the links of a meaning (noun index to noun index) and each slot's noun field",
)
