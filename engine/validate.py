"""Loading levels and packs: JSON Schema first, then the semantic validators.

Nothing is returned unless the whole input is valid; otherwise a
:class:`~engine.errors.ValidationError` lists every problem found, each with a JSON
Pointer and a stable code. The checks here are the ones a schema cannot express:
unique ids, positions inside the grid, which tokens are nouns in this level,
automata and FRAIL rules, and the parse budget of the initial board.

Codes (one per validator, see docs/validation.md): ``duplicate-entity-id``,
``out-of-bounds``, ``invalid-noun``, ``frail-not-declared``,
``duplicate-automaton-id``, ``invalid-subject``, ``invalid-property``,
``non-cardinal-move``, ``phase-out-of-range``, ``duplicate-mechanic``,
``invalid-token``, ``rule-complexity``, and for packs ``duplicate-level-id`` and
``unknown-noun``; schema problems use ``missing-field``, ``unknown-field``,
``wrong-type``, ``out-of-range``, ``bad-format``, ``bad-size``, ``bad-value``,
``unknown-kind``, ``unknown-action``, ``unknown-mechanic`` and
``per-object-leaves``; reading problems use ``invalid-json``, ``unreadable``,
``untrusted-module`` and ``module-error``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.board import LevelContext
from engine.errors import Problem, RuleComplexityError, ValidationError, pointer
from engine.model import Level, MoveStep, ObjectEntity, Pack
from engine.schema import schema_problems
from engine.tokens import BASE_PROPERTIES, FRAIL, OPERATORS, Vocabulary, is_token
from engine.turn import settle


def parse_json_text(text: str | bytes, *, source: str | None = None) -> Any:
    """Parse JSON, turning a syntax error into a located :class:`ValidationError`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError.single(
            "",
            "invalid-json",
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            pack=source,
        ) from None
    except (UnicodeDecodeError, RecursionError, ValueError) as exc:
        raise ValidationError.single("", "invalid-json", f"not valid JSON: {exc}", pack=source) from None


def load_level(data: Mapping[str, Any] | str | bytes) -> Level:
    """Validate and normalize one level (a dict or JSON text).

    Raises:
        ValidationError: listing every problem, pointers relative to the level.
    """
    doc = parse_json_text(data) if isinstance(data, str | bytes) else data
    level_id = _string_id(doc)
    problems = schema_problems("level", doc)
    if not problems:
        level, problems = _build_level(doc)
        if level is not None and not problems:
            problems = level_problems(level)
            if not problems:
                return level
    raise ValidationError(p.located(pack=None, level=level_id) for p in problems)


def _build_level(doc: Any, prefix: str = "") -> tuple[Level | None, list[Problem]]:
    try:
        return Level.model_validate(doc), []
    except PydanticError as exc:  # the schema should have caught it; stay located anyway
        return None, [
            Problem(prefix + pointer(*e["loc"]), "invalid-value", e["msg"]) for e in exc.errors()
        ]


def level_problems(level: Level) -> list[Problem]:
    """The semantic problems of one schema-valid level, pointers relative to it."""
    ctx = LevelContext.of(level)
    problems = list(_entity_problems(level, ctx.vocabulary))
    problems += _automata_problems(level, ctx.vocabulary)
    problems += _mechanic_problems(level, ctx.vocabulary)
    if not problems:
        try:
            settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
        except RuleComplexityError as exc:
            problems.append(Problem("/entities", "rule-complexity", str(exc)))
    return problems


def _entity_problems(level: Level, vocabulary: Vocabulary) -> Iterator[Problem]:
    opted = level.frail is not None
    first_use: dict[int, int] = {}
    for index, entity in enumerate(level.entities):
        if entity.id in first_use:
            yield Problem(
                pointer("entities", index, "id"),
                "duplicate-entity-id",
                f"entity id {entity.id} is already used by /entities/{first_use[entity.id]}",
            )
        else:
            first_use[entity.id] = index
        for axis, value, size in (("x", entity.x, level.width), ("y", entity.y, level.height)):
            if value >= size:
                yield Problem(
                    pointer("entities", index, axis),
                    "out-of-bounds",
                    f"{axis}={value} is outside the {level.width}x{level.height} grid",
                )
        token = entity.noun if isinstance(entity, ObjectEntity) else entity.text
        field = "noun" if isinstance(entity, ObjectEntity) else "text"
        if token == FRAIL and not opted:
            yield Problem(
                pointer("entities", index, field),
                "frail-not-declared",
                "FRAIL is used but the level has not opted into the frail mechanic",
            )
        elif isinstance(entity, ObjectEntity) and not vocabulary.is_noun(token):
            yield Problem(
                pointer("entities", index, "noun"),
                "invalid-noun",
                f"{token} is {_token_role(token)} in this level, not a noun an object can carry",
            )


def _token_role(token: str) -> str:
    if token in OPERATORS:
        return "an operator"
    if token in BASE_PROPERTIES or token == FRAIL:
        return "a property"
    return "an automaton property"


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
        if prop in OPERATORS or prop in BASE_PROPERTIES or prop == FRAIL:
            yield Problem(
                pointer(*base, "property"),
                "invalid-property",
                f"{prop} cannot be an automaton property: it is "
                f"{'an operator' if prop in OPERATORS else 'a built-in property'}",
            )
        if automaton.subject is not None and not vocabulary.is_noun(automaton.subject):
            yield Problem(
                pointer(*base, "subject"),
                "invalid-subject",
                f"subject {automaton.subject} is not a noun in this level",
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
                if not is_token(token):
                    yield Problem(
                        pointer("mechanics", index, "leaves", key),
                        "invalid-token",
                        f"leaves {what} {token!r} is not an upper-case noun token",
                    )
                elif not vocabulary.is_noun(token):
                    yield Problem(
                        pointer("mechanics", index, "leaves", key),
                        "invalid-noun",
                        f"leaves {what} {token} is {_token_role(token)}, not a noun",
                    )


def _string_id(doc: object) -> str | None:
    if isinstance(doc, Mapping):
        value = doc.get("id")
        if isinstance(value, str) and value:
            return value[:64]
    return None


def pack_problems(doc: Any, pack_name: str) -> tuple[Pack | None, list[Problem]]:
    """Validate a parsed pack document; the pack is returned only when it is valid."""
    raw = schema_problems("pack", doc)
    levels = doc.get("levels") if isinstance(doc, dict) else None
    levels = levels if isinstance(levels, list) else []

    def level_of(ptr: str) -> str | None:
        parts = ptr.split("/")
        if len(parts) > 2 and parts[1] == "levels" and parts[2].isdigit():
            index = int(parts[2])
            return _string_id(levels[index]) if index < len(levels) else None
        return None

    problems = [p.located(pack=pack_name, level=level_of(p.pointer)) for p in raw]
    bad_levels = {p.pointer.split("/")[2] for p in raw if p.pointer.startswith("/levels/")}
    pack_fields_ok = not any(not p.pointer.startswith("/levels/") for p in raw)
    nouns = doc.get("nouns") if pack_fields_ok and isinstance(doc, dict) else None
    first_index: dict[str, int] = {}
    for index, level_doc in enumerate(levels):
        prefix = f"/levels/{index}"
        level_id = _string_id(level_doc)
        if level_id is not None:
            if level_id in first_index:
                problems.append(
                    Problem(
                        prefix + "/id",
                        "duplicate-level-id",
                        f"level id {level_id!r} is already used by /levels/{first_index[level_id]}",
                        pack_name,
                        level_id,
                    )
                )
            else:
                first_index[level_id] = index
        if str(index) in bad_levels:
            continue  # its structure is broken: its schema problems say how
        level, found = _build_level(level_doc, prefix)
        if level is not None:
            found = level_problems(level)
            if isinstance(nouns, dict):
                found += _unknown_nouns(level, set(nouns))
        problems += [p.located(pack=pack_name, level=level_id, prefix=prefix) for p in found]
    if problems:
        return None, sorted(problems, key=lambda p: _order(p.pointer))
    return Pack.model_validate(doc), []


def _order(ptr: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in ptr.split("/")[1:]]


def _unknown_nouns(level: Level, declared: set[str]) -> Iterator[Problem]:
    vocabulary = LevelContext.of(level).vocabulary

    def unknown(token: str, ptr: str, what: str) -> Iterator[Problem]:
        if vocabulary.is_noun(token) and token not in declared:
            yield Problem(ptr, "unknown-noun", f"{what} {token} is not in the pack's nouns")

    for index, entity in enumerate(level.entities):
        if isinstance(entity, ObjectEntity):
            yield from unknown(entity.noun, pointer("entities", index, "noun"), "object noun")
        else:
            yield from unknown(entity.text, pointer("entities", index, "text"), "noun word")
    for index, automaton in enumerate(level.automata):
        if automaton.subject is not None:
            yield from unknown(automaton.subject, pointer("automata", index, "subject"), "subject")
    for index, mechanic in enumerate(level.mechanics):
        for key, value in mechanic.leaves.items():
            ptr = pointer("mechanics", index, "leaves", key)
            yield from unknown(key, ptr, "FRAIL map noun")
            yield from unknown(value, ptr, "FRAIL leftover noun")
