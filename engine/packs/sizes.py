"""Sizes first: every list and map of a pack or level is measured before anything walks it.

The schema, the models and the semantic checks each walk a document; jsonschema
in particular walks every item of a list that is already too long, and reports
every unknown field of an object one by one. So before any of them runs, the
known structure of the document is descended once, and every container's length
is compared with its cap (:mod:`engine.limits`) *before* its items are visited:
an oversized list or map is reported where it is and never entered. The walk
itself visits only containers within their caps, so it is bounded by the caps.

Caps: levels, nouns, entities, automata, pattern steps, mechanics and their
``leaves`` maps (format limits, also in the schema), and the fields of any record
(:data:`~engine.limits.MAX_RECORD_FIELDS`, a reading limit: a record has at most
nine real fields, so a thousand unknown ones are one problem, not a thousand).
Values of the wrong type are left for the schema to report.

:func:`json_value_problems` finds what no JSON text can hold (from Python
callers: sets, NaN, huge numbers, deep nesting, lone surrogates), without
recursion; :func:`structure_problems` is both checks, for tools that must hold a
document before its schema has passed (the editor's repair).
"""

from __future__ import annotations

import math
import re
from collections.abc import Generator, Iterator
from typing import Any, Literal

from engine.errors import Problem, pointer
from engine.limits import (
    MAX_AUTOMATA,
    MAX_DEPTH,
    MAX_ENTITIES,
    MAX_LEAVES,
    MAX_LEVELS,
    MAX_MAGNITUDE,
    MAX_MECHANICS,
    MAX_NOUNS,
    MAX_PATTERN_STEPS,
    MAX_RECORD_FIELDS,
    MAX_REFERENCES,
)
from engine.packs.compiled import describe

Path = tuple[Any, ...]
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def pack_size_problems(doc: object) -> list[Problem]:
    """The oversized containers of a pack document, pointers from the pack."""
    return list(_pack(doc))


def pack_shell_size_problems(doc: object) -> list[Problem]:
    """The oversized containers of a pack outside its levels: its fields and its nouns.

    A pack with too many fields is that one problem: nothing inside it is measured
    (:func:`pack_size_problems` does not measure its levels either).
    """
    return list(_shell(doc))


def level_size_problems(doc: object, prefix: Path = ()) -> list[Problem]:
    """The oversized containers of a level document, pointers under ``prefix``."""
    return list(_level(doc, prefix))


def structure_problems(
    document: object, *, kind: Literal["pack", "level"] = "pack"
) -> list[Problem]:
    """What makes a document unsafe to hold at all, before its schema is asked.

    Containers over their caps (as above), then values no JSON text can hold
    (nesting past :data:`~engine.limits.MAX_DEPTH`, NaN, huge numbers, lone
    surrogates, keys that are not text, non-JSON types). A tool that keeps an
    invalid document to let its author repair it (the editor) needs at least
    this much: every problem is located; no schema or semantic check is made.
    """
    found = pack_size_problems(document) if kind == "pack" else level_size_problems(document)
    return found or json_value_problems(document)


def _pack(doc: object) -> Iterator[Problem]:
    if not (yield from _shell(doc)):
        return
    levels = doc.get("levels") if isinstance(doc, dict) else None
    if isinstance(levels, list):
        if len(levels) > MAX_LEVELS:
            yield too_many_levels(len(levels))
        else:
            for index, level in enumerate(levels):
                yield from _level(level, ("levels", index))


def _shell(doc: object) -> Generator[Problem, None, bool]:
    """The pack's own fields and its nouns; returns whether its levels may be measured."""
    if not isinstance(doc, dict):
        return False
    if len(doc) > MAX_RECORD_FIELDS:
        yield _too_many_fields(doc, (), "a pack")
        return False
    nouns = doc.get("nouns")
    if isinstance(nouns, dict):
        if len(nouns) > MAX_NOUNS:
            yield _over(("nouns",), "a pack declares", MAX_NOUNS, "nouns", len(nouns))
        else:
            for noun, style in nouns.items():
                if isinstance(style, dict) and len(style) > MAX_RECORD_FIELDS:
                    yield _too_many_fields(style, ("nouns", noun), "a noun style")
    return True


def too_many_levels(count: int) -> Problem:
    """The problem of a pack holding more than :data:`~engine.limits.MAX_LEVELS` levels."""
    return _over(("levels",), "a pack holds", MAX_LEVELS, "levels", count)


def _level(doc: object, at: Path) -> Iterator[Problem]:
    if not isinstance(doc, dict):
        return
    if len(doc) > MAX_RECORD_FIELDS:
        yield _too_many_fields(doc, at, "a level")
        return
    entities = doc.get("entities")
    yield from _records(entities, (*at, "entities"), MAX_ENTITIES, "a level", "entities")
    automata = doc.get("automata")
    if (yield from _records(automata, (*at, "automata"), MAX_AUTOMATA, "a level", "automata")):
        for index, automaton in enumerate(automata):  # type: ignore[arg-type]
            pattern = automaton.get("pattern") if isinstance(automaton, dict) else None
            where = (*at, "automata", index, "pattern")
            yield from _records(pattern, where, MAX_PATTERN_STEPS, "a pattern", "steps")
    mechanics = doc.get("mechanics")
    if (yield from _records(mechanics, (*at, "mechanics"), MAX_MECHANICS, "a level", "mechanics")):
        for index, mechanic in enumerate(mechanics):  # type: ignore[arg-type]
            leaves = mechanic.get("leaves") if isinstance(mechanic, dict) else None
            if isinstance(leaves, dict) and len(leaves) > MAX_LEAVES:
                where = (*at, "mechanics", index, "leaves")
                yield _over(where, "a FRAIL map holds", MAX_LEAVES, "entries", len(leaves))
    references = doc.get("references")  # reference solutions, a format limit too
    yield from _records(references, (*at, "references"), MAX_REFERENCES, "a level", "references")


def _records(
    items: object, at: Path, cap: int, owner: str, plural: str
) -> Generator[Problem, None, bool]:
    """A list of records: its length first, then each record's number of fields.

    Returns (as the generator's value) whether the records may be walked further:
    a list within its cap whose every record is within its own.
    """
    if not isinstance(items, list):
        return False
    if len(items) > cap:
        yield _over(at, f"{owner} holds", cap, plural, len(items))
        return False
    fits = True
    for index, item in enumerate(items):
        if isinstance(item, dict) and len(item) > MAX_RECORD_FIELDS:
            fits = False
            yield _too_many_fields(item, (*at, index), "a record")
    return fits


def _too_many_fields(item: dict[Any, Any], at: Path, what: str) -> Problem:
    return Problem(
        pointer(*at),
        "bad-size",
        f"{what} has at most {MAX_RECORD_FIELDS} fields; this one has {len(item):,} "
        "(they are not listed one by one)",
    )


def _over(at: Path, owner: str, cap: int, plural: str, count: int) -> Problem:
    return Problem(
        pointer(*at), "bad-size", f"{owner} at most {cap:,} {plural}; this one has {count:,}"
    )


def json_value_problems(data: object) -> list[Problem]:
    """Values no JSON text can hold (sets, functions, NaN, huge numbers, deep nesting,
    text with a lone surrogate).

    Such values reach the engine only from Python callers (a dict, a trusted
    ``pack.py``); each is reported at its pointer instead of crashing a validator.
    The walk holds one iterator per open container (at most :data:`MAX_DEPTH`),
    never an entry per element: a list of millions of items costs no memory here.
    """
    problems: list[Problem] = []
    found = _value_problem((), data)
    if found is not None:
        return [found]
    stack: list[tuple[Path, bool, Iterator[tuple[Any, Any]]]] = []
    if type(data) is dict or type(data) is list:
        stack.append(((), type(data) is dict, _items_of(data)))
    while stack and len(problems) < 100:
        path, in_dict, items = stack[-1]
        deep = len(path) >= MAX_DEPTH
        # Go on through this container until the next container inside it: scalars
        # are checked here, in one loop (most of a document's values).
        for key, value in items:
            kind = type(value)
            if in_dict and type(key) is not str:
                where = pointer(*path, key)
                problems.append(
                    Problem(where, "wrong-type", f"field names are text, not {describe(key)}")
                )
                continue
            if deep:
                problems.append(
                    Problem(
                        pointer(*path, key), "too-deep", f"nested deeper than {MAX_DEPTH} levels"
                    )
                )
                continue
            if kind is dict or kind is list:
                stack.append(((*path, key), kind is dict, _items_of(value)))
                break
            if kind is str or kind is bool or value is None:
                if kind is str and not value.isascii():
                    problem = _value_problem((*path, key), value)
                    if problem is not None:
                        problems.append(problem)
                continue
            problem = _value_problem((*path, key), value)
            if problem is not None:
                problems.append(problem)
        else:
            stack.pop()
    return sorted(problems, key=lambda p: _path_key(p.pointer))


def _items_of(value: Any) -> Iterator[tuple[Any, Any]]:
    """A container's (key, item) pairs."""
    if type(value) is dict:
        return iter(value.items())
    return enumerate(value)


def _value_problem(path: Path, value: object) -> Problem | None:
    """The problem of one value that no JSON text can hold, or ``None``."""
    kind = type(value)
    if kind is dict or kind is list or kind is bool or value is None:
        return None
    if kind is int:
        assert isinstance(value, int)
        if not -MAX_MAGNITUDE < value < MAX_MAGNITUDE:
            return Problem(pointer(*path), "out-of-range", "the number is too large")
        return None
    if kind is float:
        assert isinstance(value, float)
        if not math.isfinite(value):
            return Problem(pointer(*path), "wrong-type", f"{value!r} is not a JSON number")
        return None
    if kind is str:
        assert isinstance(value, str)
        if not value.isascii() and _LONE_SURROGATE.search(value):
            return Problem(
                pointer(*path),
                "bad-text",
                "the text holds a lone surrogate: not a character, and no UTF-8 file can hold it",
            )
        return None
    return Problem(pointer(*path), "wrong-type", f"{describe(value)} is not JSON data")


def _path_key(ptr: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in ptr.split("/")[1:]]
