"""The checks of one level after its schema: the model, then what a schema cannot express.

:func:`build_level` turns a schema-valid level document into its model (a
refusal becomes located problems). :func:`level_problems` then checks unique
ids, positions inside the grid, which tokens are nouns in this level, the pack's
noun vocabulary, automata and FRAIL rules, and the parse budget of the initial
board. Pointers are relative to the level.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.context import LevelContext
from engine.errors import Problem, RuleComplexityError, pointer
from engine.model import Level, MoveStep, ObjectEntity
from engine.packs.jsontext import bad_text
from engine.rules import WordTile, parse_units
from engine.tokens import FRAIL, Vocabulary, WordRole

_ROLE_TEXT = {
    WordRole.NOUN: "a noun",
    WordRole.OPERATOR: "an operator",
    WordRole.PROPERTY: "a property",
    WordRole.MECHANIC: "a mechanic's property word",
}


def build_level(doc: Any, prefix: str = "") -> tuple[Level | None, list[Problem]]:
    """The level model of a schema-valid document, or the model's refusal as problems."""
    try:
        return Level.model_validate(doc), []
    except PydanticError as exc:  # the schema lets nothing through that fails here; stay located
        return None, model_problems(exc, doc, prefix)


def model_problems(exc: PydanticError, doc: Any, prefix: str = "") -> list[Problem]:
    """A pydantic error as located problems (the schema should have caught it first).

    The schema cannot see one fault the models refuse: text holding a lone
    surrogate, which is ``bad-text`` here as when it is read from a file. An
    optional field is a union, so one fault can come back once per branch; it is
    listed once.
    """
    found: dict[tuple[str, str], Problem] = {}
    for e in exc.errors(include_url=False, include_input=False):
        where = prefix + pointer(*_document_path(doc, e["loc"]))
        if e["type"] == "string_unicode":
            problem = bad_text(())
            problem = Problem(where, problem.code, problem.message)
        elif e["type"].endswith("_type"):
            problem = Problem(where, "wrong-type", e["msg"])
        else:
            problem = Problem(where, "invalid-value", e["msg"])
        found.setdefault((where, problem.code), problem)
    bad = {where for where, code in found if code == "bad-text"}
    return [p for (where, code), p in found.items() if code == "bad-text" or where not in bad]


def _document_path(doc: Any, loc: tuple[Any, ...]) -> list[Any]:
    """The parts of a pydantic location that exist in the document.

    Pydantic adds the tag of a discriminated union (``object``, ``move``) and
    ``[key]`` to its locations; neither is a place in the document.
    """
    path: list[Any] = []
    current = doc
    for index, part in enumerate(loc):
        in_map = isinstance(current, Mapping) and part in current
        in_list = isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        if in_map or in_list:
            current = current[part]
        elif index < len(loc) - 1 or part == "[key]" or not isinstance(current, Mapping):
            continue  # a tag, a key marker, or a union branch below a value
        path.append(part)
    return path


def level_problems(
    level: Level, nouns: frozenset[str] | None = None, *, read_rules: bool = True
) -> list[Problem]:
    """The semantic problems of one schema-valid level, pointers relative to it.

    ``nouns`` is the pack's noun vocabulary; without it nouns are not checked
    against a pack (a level loaded on its own). ``read_rules=False`` skips the
    parse budget check (a pack whose total has run out reports that once).

    Raises:
        WorkLimitError: an open :func:`~engine.rules.metered` total ran out here.
    """
    ctx = LevelContext.of(level)
    problems = list(_entity_problems(level, ctx.vocabulary))
    problems += _automata_problems(level, ctx.vocabulary)
    problems += _mechanic_problems(level, ctx.vocabulary)
    if nouns is not None:
        problems += _unknown_nouns(level, ctx.vocabulary, nouns)
    if not problems and read_rules:
        words = [(i, name, x, y) for i, kind, name, x, y in ctx.authored_pieces() if kind == "word"]
        problems += rule_problems(words, ctx.vocabulary)
    return problems


def rule_problems(words: list[WordTile], vocabulary: Vocabulary) -> list[Problem]:
    """The parse budget of a level's authored ``words`` (ascending id), as problems.

    The settle reads the authored words first; destroying words can only shrink
    the parse, so the authored words bound its work. Counting is enough: no rule
    is built.

    Raises:
        WorkLimitError: an open :func:`~engine.rules.metered` total ran out here.
    """
    try:
        parse_units(words, vocabulary)
    except RuleComplexityError as exc:
        return [Problem("/entities", "rule-complexity", str(exc))]
    return []


def _entity_problems(level: Level, vocabulary: Vocabulary) -> Iterator[Problem]:
    opted = level.frail is not None
    first_use: dict[int, int] = {}
    width, height = level.width, level.height
    for index, entity in enumerate(level.entities):
        if entity.id in first_use:
            yield Problem(
                pointer("entities", index, "id"),
                "duplicate-entity-id",
                f"entity id {entity.id} is already used by /entities/{first_use[entity.id]}",
            )
        else:
            first_use[entity.id] = index
        if entity.x >= width or entity.y >= height:
            for axis, value, size in (("x", entity.x, width), ("y", entity.y, height)):
                if value >= size:
                    yield Problem(
                        pointer("entities", index, axis),
                        "out-of-bounds",
                        f"{axis}={value} is outside the {width}x{height} grid",
                    )
        is_object = isinstance(entity, ObjectEntity)
        token = entity.noun if isinstance(entity, ObjectEntity) else entity.text
        if token == FRAIL and not opted:
            yield Problem(
                pointer("entities", index, "noun" if is_object else "text"),
                "frail-not-declared",
                "FRAIL is used but the level has not opted into the frail mechanic "
                "(add the frail entry to 'mechanics')",
            )
        elif is_object and not vocabulary.is_noun(token):
            yield Problem(
                pointer("entities", index, "noun"),
                "invalid-noun",
                f"{token} is {_what(vocabulary, token)} in this level, not a noun an object can carry",
            )


def _what(vocabulary: Vocabulary, token: str) -> str:
    """What a token is in a level, as a problem says it ("an operator", "a property")."""
    return _ROLE_TEXT[vocabulary.role(token)]


def _automata_problems(level: Level, vocabulary: Vocabulary) -> Iterator[Problem]:
    seen: dict[str, int] = {}
    for index, automaton in enumerate(level.automata):
        base = ("automata", index)
        if automaton.id in seen:
            yield Problem(
                pointer(*base, "id"),
                "duplicate-automaton-id",
                f"automaton id {automaton.id!r} is already used by /automata/{seen[automaton.id]}",
            )
        else:
            seen[automaton.id] = index
        prop = automaton.property
        builtin = Vocabulary.builtin().role(prop)
        if builtin is not WordRole.NOUN:
            yield Problem(
                pointer(*base, "property"),
                "invalid-property",
                f"{prop} cannot be an automaton property: it is "
                f"{'an operator' if builtin is WordRole.OPERATOR else 'a built-in property'}",
            )
        if automaton.subject is not None and not vocabulary.is_noun(automaton.subject):
            yield Problem(
                pointer(*base, "subject"),
                "invalid-subject",
                f"subject {automaton.subject} is {_what(vocabulary, automaton.subject)} in this level, not a noun",
            )
        for j, step in enumerate(automaton.pattern):
            if isinstance(step, MoveStep) and abs(step.dx) + abs(step.dy) != 1:
                what = "has no direction" if step.dx == step.dy == 0 else "is diagonal"
                yield Problem(
                    pointer(*base, "pattern", j, "dx"),
                    "non-cardinal-move",
                    f"move (dx={step.dx}, dy={step.dy}) {what}; use one of "
                    "(1,0), (-1,0), (0,1), (0,-1)",
                )
        if automaton.phase >= len(automaton.pattern):
            yield Problem(
                pointer(*base, "phase"),
                "phase-out-of-range",
                f"phase {automaton.phase} is past the end of a {len(automaton.pattern)}-step pattern",
            )


def _mechanic_problems(level: Level, vocabulary: Vocabulary) -> Iterator[Problem]:
    frails = [i for i, m in enumerate(level.mechanics) if m.type == "frail"]
    for index in frails[1:]:
        yield Problem(
            pointer("mechanics", index),
            "duplicate-mechanic",
            f"a level declares the frail mechanic once; /mechanics/{frails[0]} already does",
        )
    for index, mechanic in enumerate(level.mechanics):
        for key, value in mechanic.leaves.items():
            for token, what in ((key, "key"), (value, "value")):
                if not vocabulary.is_noun(token):
                    yield Problem(
                        pointer("mechanics", index, "leaves", key),
                        "invalid-noun",
                        f"leaves {what} {token} is {_what(vocabulary, token)}, not a noun",
                    )


def _unknown_nouns(
    level: Level, vocabulary: Vocabulary, declared: frozenset[str]
) -> Iterator[Problem]:
    def unknown(token: str) -> bool:
        return token not in declared and vocabulary.is_noun(token)

    for index, entity in enumerate(level.entities):
        is_object = isinstance(entity, ObjectEntity)
        token = entity.noun if isinstance(entity, ObjectEntity) else entity.text
        if unknown(token):
            field, what = ("noun", "object noun") if is_object else ("text", "noun word")
            yield Problem(
                pointer("entities", index, field),
                "unknown-noun",
                f"{what} {token} is not in the pack's nouns",
            )
    for index, automaton in enumerate(level.automata):
        if automaton.subject is not None and unknown(automaton.subject):
            yield Problem(
                pointer("automata", index, "subject"),
                "unknown-noun",
                f"subject {automaton.subject} is not in the pack's nouns",
            )
    for index, mechanic in enumerate(level.mechanics):
        for key, value in mechanic.leaves.items():
            for token, what in ((key, "FRAIL map noun"), (value, "FRAIL leftover noun")):
                if unknown(token):
                    yield Problem(
                        pointer("mechanics", index, "leaves", key),
                        "unknown-noun",
                        f"{what} {token} is not in the pack's nouns",
                    )
