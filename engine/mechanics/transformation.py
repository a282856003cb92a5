"""Transformation: ``ROCK IS FLAG`` turns every ROCK object into a FLAG object.

Read in the parse-and-transform phase, after each movement phase and in the
settle: each noun has at most one link, the first noun-valued rule about it in
rule order, unless an ``X IS X`` rule keeps X what it is (then it has none); each
object follows its noun's link at most once a turn. The rule table makes the
links (engine.rules.RuleTable), the public turn applies them
(engine.play.phases.transform) and the compact path keeps them as noun index to
noun index (engine.solve.rules.Meaning.links).
"""

from __future__ import annotations

from engine.mechanics.base import Mechanic, Phase

MECHANIC = Mechanic(
    name="transformation",
    word=None,
    summary="NOUN IS NOUN turns the objects of the first noun into the second",
    phases=(Phase.PARSE_AND_TRANSFORM,),
    reads="the noun-valued rules; the objects that have not used their link this turn",
    changes="nouns of objects",
    encoding="the links of a meaning (noun index to noun index) and each slot's noun field",
)
