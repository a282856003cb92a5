"""Loading levels and packs: sizes, then the JSON Schema, then the semantic validators.

Nothing is returned unless the whole input is valid; otherwise a
:class:`~engine.errors.ValidationError` lists problems, each with a JSON Pointer
and a stable code (docs/validation.md lists them all). The checks a schema cannot
express are in :mod:`engine.packs.semantic`.

Sizes come first and stop everything else (:mod:`engine.packs.sizes`): a list or
map over its documented limit is refused before any validator walks it. A pack
is checked in parts (:mod:`engine.packs.parts`: its shell, each level alone, then
the pack-wide checks), the same parts an editor re-checks one level at a time,
and they carry the bounds of a whole pack: at most
:data:`~engine.limits.MAX_PROBLEMS` problems listed, schema explanations that stop
once the list is full, and one total of rule reading over all the levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.errors import Problem, ProblemList, ValidationError, counted
from engine.limits import MAX_PROBLEMS
from engine.model import Level, Pack
from engine.packs import sizes
from engine.packs.jsontext import parse_json_text
from engine.packs.parts import (
    LevelCheck,
    PackBudget,
    check_pack_level,
    check_pack_shell,
    combine_pack_problems,
    document_id,
)
from engine.packs.quick import quick_level
from engine.packs.semantic import model_problems

#: How problems name a pack document that has neither a usable id nor a file.
UNNAMED_PACK = "<pack>"


def load_level(data: Mapping[str, Any] | str | bytes) -> Level:
    """Validate and normalize one level (a dict or JSON text).

    A plainly valid level takes the quick way (:func:`~engine.packs.quick.quick_level`);
    anything else the full one, which finds and explains every problem.

    Raises:
        ValidationError: listing every problem, pointers relative to the level.
    """
    doc = parse_json_text(data) if isinstance(data, str | bytes) else data
    if not sizes.level_size_problems(doc):
        quick = quick_level(doc)
        if quick is not None:
            return quick
    return full_level(doc)


def full_level(doc: Any) -> Level:
    """:func:`load_level` of a parsed document the full way: sizes, schema, model, semantics.

    The checks of one level of a pack (:func:`~engine.packs.parts.check_pack_level`)
    without a pack's nouns: the schema, and every semantic check of what the
    schema accepts, in one pass.

    Raises:
        ValidationError: listing every problem, pointers relative to the level.
    """
    level_id = document_id(doc)
    check = check_pack_level(doc, None)
    if check.stage == "valid" and check.level is not None:
        return check.level
    problems = ProblemList(MAX_PROBLEMS)
    problems.extend(check.problems)
    problems.count(check.more)
    if check.unexplained:
        problems.uncounted = (
            f"{counted(check.unexplained, 'more record')} fail the schema but are not "
            f"explained (the first is {check.first_unexplained})"
        )
    raise ValidationError(
        p.located(pack=None, level=level_id) for p in problems.listed(level=level_id)
    )


def pack_name(doc: object, fallback: str = UNNAMED_PACK) -> str:
    """The name every problem gives a pack document: ``load_pack``, the CLI and share alike.

    Its id when the id is well formed; otherwise ``fallback`` (the file or folder
    name, or :data:`UNNAMED_PACK` for a document in memory). A malformed id is never
    used: it may hold a line break or a path, and a problem must print on one line.
    """
    return document_id(doc) or fallback


def pack_problems(doc: Any, pack_name: str) -> tuple[Pack | None, list[Problem]]:
    """Validate a parsed pack document; the pack is returned only when it is valid.

    Every level is checked even when others fail, so one run lists the problems of
    every level (up to :data:`~engine.limits.MAX_PROBLEMS`). Nothing is built from
    a pack that has any problem.
    """
    too_big = pack_size_problems(doc, pack_name)
    if too_big:  # before anything walks the oversized part
        return None, too_big
    shell = check_pack_shell(doc)
    budget = PackBudget(shell)
    checks: list[LevelCheck] = []
    sound = not shell.problems
    for level in pack_levels(doc):
        check = check_pack_level(level, shell.nouns, budget=budget)
        sound = sound and check.stage == "valid"
        checks.append(check if sound else replace(check, level=None))  # models only while useful
    problems = combine_pack_problems(pack_name, shell, checks)
    if problems:
        return None, problems
    return build_pack(doc, pack_name, [c.level for c in checks if c.level is not None])


def build_pack(doc: Any, pack_name: str, levels: list[Level]) -> tuple[Pack | None, list[Problem]]:
    """The pack model of a document whose parts passed; its levels are already models.

    The schema lets nothing through that the model refuses, so the problems are
    only ever a located trace of such a bug (``invalid-value``).
    """
    try:  # levels are already models: pydantic keeps them as they are
        return Pack.model_validate({**doc, "levels": levels}), []
    except PydanticError as exc:
        return None, [p.located(pack=pack_name, level=None) for p in model_problems(exc, doc)]


def pack_levels(doc: object) -> list[Any]:
    """The ``levels`` list of a pack document (empty when it has none, or not a list)."""
    levels = doc.get("levels") if isinstance(doc, dict) else None
    return levels if isinstance(levels, list) else []


def pack_size_problems(doc: object, pack_name: str) -> list[Problem]:
    """Every list and map over its cap (:mod:`engine.packs.sizes`), located and listed.

    When there are any, they are the whole answer: nothing else is checked.
    """
    levels = pack_levels(doc)
    found = ProblemList(MAX_PROBLEMS)
    found.extend(
        p.located(pack=pack_name, level=document_id(_at(levels, p.pointer)))
        for p in sizes.pack_size_problems(doc)
    )
    return found.listed(pack=pack_name) if found else []


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
