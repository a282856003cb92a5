"""The JSON Schemas of packs and levels: generation, checking and readable errors.

``schemas/pack.schema.json`` and ``schemas/level.schema.json`` are generated from the
pydantic models (:func:`pack_json_schema`, :func:`level_json_schema`) by
``rulegrid schema --write`` and checked in so other tools can validate packs; a test
fails when they drift from the models. The engine validates with the checked-in
files only.

Checking a document takes two steps. The checked-in schema, compiled by
:mod:`engine.packs.compiled`, first answers whether the document is valid; that is
the whole cost for a valid pack. Only when it is not does ``jsonschema`` run, on
just the parts that failed (the pack without its levels, then each failing level),
and every error it yields becomes a located :class:`Problem` with a stable code.
A failed ``oneOf`` over a discriminated union (entity ``kind``, step ``action``)
reports the errors of the branch the document asked for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

from engine.errors import Problem
from engine.model import Level, Pack
from engine.packs.compiled import (
    Check,
    CompiledSchema,
    UnsupportedSchemaError,
    compile_schema,
    pattern_search,
)
from engine.packs.explain import path_key, short, translate
from engine.packs.shipped import schema_folder, schema_text
from engine.packs.sizes import json_value_problems

if TYPE_CHECKING:  # jsonschema itself loads only when a document fails: a valid pack,
    # and every command that reads none, never pays for it (docs/install.md)
    from jsonschema import ValidationError as SchemaError

SCHEMA_BASE_URI = "https://rulegrid.dev/schemas/"
SCHEMA_FILES = {"pack": "pack.schema.json", "level": "level.schema.json"}


class _Generator(GenerateJsonSchema):
    def generate(self, schema: Any, mode: Any = "validation") -> JsonSchemaValue:
        result = super().generate(schema, mode=mode)
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", **result}

    def dict_schema(self, schema: Any) -> JsonSchemaValue:
        # pydantic writes a dict with constrained keys as patternProperties, which lets a
        # key that misses the pattern through unchecked; say what the model enforces.
        result = super().dict_schema(schema)
        patterns = result.get("patternProperties")
        if isinstance(patterns, dict) and len(patterns) == 1:
            [(key_pattern, value_schema)] = patterns.items()
            del result["patternProperties"]
            result["propertyNames"] = {**result.get("propertyNames", {}), "pattern": key_pattern}
            result["additionalProperties"] = value_schema
        return result


def _schema(model: type[BaseModel], name: str, description: str) -> dict[str, Any]:
    body = model.model_json_schema(schema_generator=_Generator)
    head = {
        "$schema": body.pop("$schema"),
        "$id": SCHEMA_BASE_URI + SCHEMA_FILES[name],
        "title": body.pop("title"),
        "description": description,
    }
    body.pop("description", None)
    return {**head, **body}


def pack_json_schema() -> dict[str, Any]:
    return _schema(
        Pack,
        "pack",
        "A Rulegrid level pack: its noun vocabulary and its levels. Semantic rules "
        "(unique ids, positions inside the grid, known nouns, automata and FRAIL "
        "checks) are applied after this schema by `rulegrid validate`.",
    )


def level_json_schema() -> dict[str, Any]:
    return _schema(
        Level,
        "level",
        "One Rulegrid level: a grid of stacked objects and words, with optional "
        "automata and mechanics.",
    )


GENERATORS = {"pack": pack_json_schema, "level": level_json_schema}


def write_schemas(folder: Path | None = None) -> list[Path]:
    """Regenerate the checked-in schema files (the shipped ones by default); returns the paths written."""
    folder = schema_folder() if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, generate in GENERATORS.items():
        path = folder / SCHEMA_FILES[name]
        text = json.dumps(generate(), indent=2, ensure_ascii=False) + "\n"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written


def stale_schemas(folder: Path | None = None) -> list[str]:
    """The names of the checked-in schemas that differ from the models (or are missing)."""
    folder = schema_folder() if folder is None else folder
    stale = []
    for name, generate in GENERATORS.items():
        try:
            on_disk = json.loads((folder / SCHEMA_FILES[name]).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            on_disk = None
        if on_disk != generate():
            stale.append(name)
    return stale


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[SchemaError]:
    from jsonschema import ValidationError as SchemaError

    if isinstance(instance, str) and not pattern_search(pattern)(instance):
        yield SchemaError(f"{short(instance)} does not match {pattern!r}")


@cache
def _validator_class() -> Any:
    """Draft 2020-12 with ``pattern`` read as JSON Schema means it (see engine.packs.compiled)."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]


def Validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator of ``schema`` (:func:`_validator_class`)."""
    return _validator_class()(schema)


@cache
def checked_in(name: str) -> dict[str, Any]:
    """The checked-in schema ``name`` (``"pack"`` or ``"level"``), checked once.

    Its compiled check needs no jsonschema; jsonschema checks the schema itself
    the first time a document must be explained (:func:`validator`).
    """
    schema: dict[str, Any] = json.loads(schema_text(SCHEMA_FILES[name]))
    return schema


@cache
def _checked_schema(name: str) -> dict[str, Any]:
    from jsonschema import Draft202012Validator

    schema = checked_in(name)
    Draft202012Validator.check_schema(schema)
    return schema


@cache
def validator(name: str) -> Any:
    """The jsonschema validator of the checked-in schema ``name``."""
    return Validator(_checked_schema(name))


@cache
def _compiled(name: str) -> CompiledSchema | None:
    try:
        return compile_schema(checked_in(name))
    except UnsupportedSchemaError:
        return None  # jsonschema alone then: slower, never different


@cache
def _pack_shell_validator() -> Any:
    """The pack schema without its per-level items: every other pack-level assertion."""
    root = _checked_schema("pack")
    levels = {k: v for k, v in root["properties"]["levels"].items() if k != "items"}
    return Validator({**root, "properties": {**root["properties"], "levels": levels}})


@cache
def _pack_level_validator() -> Any:
    """``levels.items`` of the pack schema, to explain one failing level at a time."""
    root = _checked_schema("pack")
    items = root["properties"]["levels"]["items"]
    return Validator({"$schema": root["$schema"], "$defs": root["$defs"], **items})


def _passes(check: Check, data: object) -> bool:
    try:
        return check(data)
    except Exception:  # an exotic value the compiled check cannot compare: ask jsonschema
        return False


def schema_problems(name: str, data: object) -> list[Problem]:
    """Every structural problem of ``data`` against schema ``name``, sorted by path.

    A mechanic of an unknown ``type`` is reported once, as ``unknown-mechanic``,
    instead of as every field that the known mechanics would want.
    """
    return check_document(name, data).problems


class SchemaCheck(NamedTuple):
    """What checking a document against a schema found.

    ``checked`` is false when the data holds values no JSON text can hold (or
    nests too deep, or holds huge numbers): those are the only problems then,
    since jsonschema's messages would have to print such values. ``unexplained``
    lists the levels of a pack that fail the schema but were not explained
    because ``limit`` problems had already been found; ``cut`` says that a level
    document has more problems than were explained (none at all, for a pack's
    level checked with ``explain=False``).
    """

    problems: list[Problem]
    checked: bool = True
    unexplained: tuple[int, ...] = ()
    cut: bool = False  # a level document's explanation stopped at the limit


def check_document(name: str, data: object, *, limit: int | None = None) -> SchemaCheck:
    """:func:`schema_problems`, whether the schema could run, and what was left unexplained.

    Explaining costs about 70 µs an entity, so once ``limit`` problems are found
    the remaining failing levels are only noted (the compiled check says which).
    """
    compiled = _compiled(name)
    if compiled is not None and _passes(compiled.check, data):
        return SchemaCheck([])
    shape = json_value_problems(data)
    if shape:
        return SchemaCheck(shape, checked=False)
    problems: list[Problem] = []
    skipped: list[int] = []

    def room() -> bool:
        return limit is None or len(problems) < limit

    errors = _errors(name, data, compiled, room, skipped)
    cut = _explain(name, data, errors, problems, room if name == "level" else None)
    return SchemaCheck(_unique_sorted(problems), True, tuple(skipped), cut)


def _explain(
    name: str,
    data: object,
    errors: Iterator[tuple[SchemaError, list[Any]]],
    problems: list[Problem],
    room: Callable[[], bool] | None = None,
) -> bool:
    """Turn jsonschema's errors into problems (added to ``problems``).

    A mechanic of an unknown type is one ``unknown-mechanic`` problem, not every
    field the known ones would want. Returns whether it stopped because ``room``
    ran out (jsonschema finds errors lazily, so stopping saves the work).
    """
    unknown = dict(_unknown_mechanics(name, data))
    problems.extend(
        Problem(
            prefix + "/type",
            "unknown-mechanic",
            f"unknown mechanic type {kind!r}; this version knows 'frail'",
        )
        for prefix, kind in unknown.items()
    )
    for error, base in errors:
        if room is not None and not room():
            return True
        problems.extend(
            p
            for p in translate(error, base)
            if not any(_inside(p.pointer, prefix) for prefix in unknown)
        )
    return False


def _errors(
    name: str,
    data: object,
    compiled: CompiledSchema | None,
    room: Callable[[], bool],
    skipped: list[int],
) -> Iterator[tuple[SchemaError, list[Any]]]:
    levels = data.get("levels") if name == "pack" and isinstance(data, dict) else None
    if not isinstance(levels, list):
        for error in validator(name).iter_errors(data):
            yield error, []
        return
    for error in _pack_shell_validator().iter_errors(data):
        yield error, []
    level_check = compiled.definition("Level") if compiled is not None else None
    explain = _pack_level_validator()
    for index, level in enumerate(levels):
        if level_check is None or not _passes(level_check, level):
            if not room():
                skipped.append(index)  # failing, noted, not explained
                continue
            for error in explain.iter_errors(level):
                yield error, ["levels", index]


@cache
def _pack_shell_check() -> Check | None:
    """The compiled form of :func:`_pack_shell_validator`'s schema (it never walks levels)."""
    root = checked_in("pack")
    levels = {k: v for k, v in root["properties"]["levels"].items() if k != "items"}
    try:
        return compile_schema(
            {**root, "properties": {**root["properties"], "levels": levels}}
        ).check
    except UnsupportedSchemaError:
        return None


def pack_shell_problems(doc: object) -> SchemaCheck:
    """:func:`check_document` for a pack outside its levels (the levels' items are not read).

    Pointers are absolute. With the problems of :func:`pack_level_problems` for each
    level, this is exactly what ``check_document("pack", doc)`` reports for a
    document of JSON values, so a caller can re-check one level without the rest.
    """
    levels = doc.get("levels") if isinstance(doc, dict) else None
    if not isinstance(levels, list):
        return check_document("pack", doc)
    assert isinstance(doc, dict)
    check = _pack_shell_check()
    if check is not None and _passes(check, doc):
        return SchemaCheck([])
    shape = json_value_problems({k: v for k, v in doc.items() if k != "levels"})
    if shape:
        return SchemaCheck(shape, checked=False)
    problems = [
        p for error in _pack_shell_validator().iter_errors(doc) for p in translate(error, [])
    ]
    return SchemaCheck(_unique_sorted(problems))


def pack_level_problems(level: object, *, explain: bool = True) -> SchemaCheck:
    """:func:`check_document` for one item of a pack's ``levels``, pointers relative to it.

    With ``explain=False`` a failing level is only said to fail (``cut``, no
    problems): a pack check whose problem list is full saves jsonschema's walk.
    """
    compiled = _compiled("pack")
    level_check = compiled.definition("Level") if compiled is not None else None
    if level_check is not None and _passes(level_check, level):
        return SchemaCheck([])
    shape = json_value_problems(level)
    if shape:
        return SchemaCheck(shape, checked=False)
    if not explain and level_check is not None:
        return SchemaCheck([], cut=True)
    problems: list[Problem] = []
    errors: Iterator[tuple[SchemaError, list[Any]]] = (
        (error, []) for error in _pack_level_validator().iter_errors(level)
    )
    _explain("level", level, errors, problems)
    return SchemaCheck(_unique_sorted(problems))


def _unique_sorted(problems: list[Problem]) -> list[Problem]:
    unique = {(p.pointer, p.code, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: (path_key(p.pointer), p.code))


def _inside(ptr: str, prefix: str) -> bool:
    return ptr == prefix or ptr.startswith(prefix + "/")


def _unknown_mechanics(name: str, data: object) -> Iterator[tuple[str, object]]:
    levels: list[tuple[str, object]] = []
    if name == "level":
        levels = [("", data)]
    elif isinstance(data, dict) and isinstance(data.get("levels"), list):
        levels = [(f"/levels/{i}", level) for i, level in enumerate(data["levels"])]
    for base, level in levels:
        mechanics = level.get("mechanics") if isinstance(level, dict) else None
        if not isinstance(mechanics, list):
            continue
        for j, item in enumerate(mechanics):
            if isinstance(item, dict) and "type" in item and item["type"] != "frail":
                yield f"{base}/mechanics/{j}", item["type"]
