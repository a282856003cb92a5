"""Loading levels and packs: sizes, then the JSON Schema, then the semantic validators.

Nothing is returned unless the whole input is valid; otherwise a
:class:`~engine.errors.ValidationError` lists every problem found, each with a JSON
Pointer and a stable code (docs/validation.md lists them all). The checks here are
the ones a schema cannot express: unique ids, positions inside the grid, which
tokens are nouns in this level, the pack's noun vocabulary, automata and FRAIL
rules, and the parse budget of the initial board.

Sizes come first and stop everything else (:mod:`engine.packs.sizes`): a list or
map over its documented limit is refused before any validator walks it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.context import LevelContext
from engine.errors import (
    Problem,
    ProblemList,
    RuleComplexityError,
    ValidationError,
    WorkLimitError,
    pointer,
)
from engine.limits import MAX_ID_LENGTH, MAX_PROBLEMS, PACK_PARSE_BUDGET
from engine.model import ID_PATTERN, Level, MoveStep, ObjectEntity, Pack
from engine.packs.compiled import pattern_search
from engine.packs.explain import path_key
from engine.packs.jsontext import bad_text, parse_json_text
from engine.packs.schema import check_document
from engine.packs.sizes import level_size_problems, pack_size_problems
from engine.rules import Meter, metered, parse_units
from engine.tokens import FRAIL, Vocabulary, WordRole

_is_id = pattern_search(ID_PATTERN)

#: How problems name a pack document that has neither a usable id nor a file.
UNNAMED_PACK = "<pack>"

_ROLE_TEXT = {
    WordRole.NOUN: "a noun",
    WordRole.OPERATOR: "an operator",
    WordRole.PROPERTY: "a property",
    WordRole.MECHANIC: "a mechanic's property word",
}


def load_level(data: Mapping[str, Any] | str | bytes) -> Level:
    """Validate and normalize one level (a dict or JSON text).

    Raises:
        ValidationError: listing every problem, pointers relative to the level.
    """
    doc = parse_json_text(data) if isinstance(data, str | bytes) else data
    level_id = document_id(doc)
    problems = ProblemList(MAX_PROBLEMS)
    problems.extend(level_size_problems(doc))
    if not problems:
        schema = check_document("level", doc, limit=MAX_PROBLEMS)
        problems.extend(schema.problems)
        if schema.cut:
            problems.uncounted = "more schema problems are not counted"
    if not problems:
        level, found = _build_level(doc)
        problems.extend(found if level is None else level_problems(level))
        if level is not None and not problems:
            return level
    raise ValidationError(
        p.located(pack=None, level=level_id) for p in problems.listed(level=level_id)
    )


def _build_level(doc: Any, prefix: str = "") -> tuple[Level | None, list[Problem]]:
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
        # The settle reads the authored words first; destroying words can only
        # shrink the parse, so the authored words bound its work. Counting is
        # enough: no rule is built.
        words = [(i, name, x, y) for i, kind, name, x, y in ctx.authored_pieces() if kind == "word"]
        try:
            parse_units(words, ctx.vocabulary)
        except RuleComplexityError as exc:
            problems.append(Problem("/entities", "rule-complexity", str(exc)))
    return problems


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


def document_id(doc: object) -> str | None:
    """The document's id when it is a well-formed one (a label must never break a line)."""
    if isinstance(doc, Mapping):
        value = doc.get("id")
        if isinstance(value, str) and len(value) <= MAX_ID_LENGTH and _is_id(value):
            return value
    return None


def pack_name(doc: object, fallback: str = UNNAMED_PACK) -> str:
    """The name every problem gives a pack document: ``load_pack``, the CLI and share alike.

    Its id when the id is well formed; otherwise ``fallback`` (the file or folder
    name, or :data:`UNNAMED_PACK` for a document in memory). A malformed id is never
    used: it may hold a line break or a path, and a problem must print on one line.
    """
    return document_id(doc) or fallback


def pack_problems(doc: Any, pack_name: str) -> tuple[Pack | None, list[Problem]]:
    """Validate a parsed pack document; the pack is returned only when it is valid.

    Every level is checked even when others fail, so one run lists every problem of
    every level. Nothing is built from a pack that has any problem.
    """
    levels = doc.get("levels") if isinstance(doc, dict) else None
    levels = levels if isinstance(levels, list) else []
    problems = ProblemList(MAX_PROBLEMS)

    def located(found: list[Problem]) -> Iterator[Problem]:
        for p in found:
            yield p.located(pack=pack_name, level=document_id(_at(levels, p.pointer)))

    problems.extend(located(pack_size_problems(doc)))
    if problems:
        return None, problems.listed(pack=pack_name)
    raw, checked, unexplained, _ = check_document("pack", doc, limit=MAX_PROBLEMS)
    problems.extend(located(raw))
    if not checked:  # values no JSON text holds: nothing else can be trusted to run
        return None, problems.listed(pack=pack_name)
    if unexplained:
        problems.uncounted = (
            f"{len(unexplained):,} more levels have schema problems that are not counted "
            f"(the first is /levels/{unexplained[0]})"
        )
    bad_levels = {p.pointer.split("/")[2] for p in raw if p.pointer.startswith("/levels/")}
    bad_levels.update(str(index) for index in unexplained)
    nouns_ok = not any(p.pointer == "/nouns" or p.pointer.startswith("/nouns/") for p in raw)
    declared = doc.get("nouns") if nouns_ok and isinstance(doc, dict) else None
    nouns = frozenset(declared) if isinstance(declared, dict) else None
    built: list[Level] = []
    first_index: dict[str, int] = {}
    read_rules = True
    meter = Meter(PACK_PARSE_BUDGET, "the levels of this pack")
    for index, level_doc in enumerate(levels):
        prefix = f"/levels/{index}"
        level_id = document_id(level_doc)
        if level_id is not None:
            if level_id in first_index:
                message = (
                    f"level id {level_id!r} is already used by /levels/{first_index[level_id]}"
                )
                problems.add(
                    Problem(prefix + "/id", "duplicate-level-id", message, pack_name, level_id)
                )
            else:
                first_index[level_id] = index
        if str(index) in bad_levels:
            continue  # its structure is broken: its schema problems say how
        level, found = _build_level(level_doc)
        if level is not None:
            if not problems:
                built.append(level)  # kept only while the pack may still be valid
            try:
                with metered(meter):
                    found = level_problems(level, nouns, read_rules=read_rules)
            except WorkLimitError as exc:
                read_rules = False  # said once, where the total ran out
                found = [Problem("/entities", "too-much-work", str(exc))]
        if problems.full:
            problems.count(len(found))  # past the limit: counted, not located
        else:
            problems.extend(p.located(pack=pack_name, level=level_id, prefix=prefix) for p in found)
    if problems:
        return None, problems.listed(lambda p: path_key(p.pointer), pack=pack_name)
    try:  # levels are already models: pydantic keeps them as they are
        return Pack.model_validate({**doc, "levels": built}), []
    except PydanticError as exc:
        return None, [p.located(pack=pack_name, level=None) for p in model_problems(exc, doc)]


def _at(levels: list[Any], ptr: str) -> Any:
    """The level document a pack pointer lies in, or ``None``."""
    parts = ptr.split("/")
    if (
        len(parts) > 2
        and parts[1] == "levels"
        and parts[2].isdigit()
        and int(parts[2]) < len(levels)
    ):
        return levels[int(parts[2])]
    return None
