"""The JSON Schemas of packs and levels: generation, loading and readable errors.

``schemas/pack.schema.json`` and ``schemas/level.schema.json`` are generated from the
pydantic models (:func:`pack_json_schema`, :func:`level_json_schema`) by
``rulegrid schema --write`` and checked in so other tools can validate packs. The
engine validates with the checked-in files; a test fails when they drift from the
models. jsonschema's raw messages are turned into located :class:`Problem`s with
stable codes, and a failed ``oneOf`` over a discriminated union (entity ``kind``,
step ``action``) reports the errors of the branch the document asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema import ValidationError as SchemaError
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

from engine.errors import Problem, pointer
from engine.model import Level, Pack

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_BASE_URI = "https://rulegrid.dev/schemas/"
SCHEMA_FILES = {"pack": "pack.schema.json", "level": "level.schema.json"}


class _Generator(GenerateJsonSchema):
    def generate(self, schema: Any, mode: Any = "validation") -> JsonSchemaValue:
        result = super().generate(schema, mode=mode)
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", **result}


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


def write_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    """Regenerate the checked-in schema files; returns the paths written."""
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


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of the checked-in schema ``name`` (``"pack"`` or ``"level"``)."""
    path = SCHEMA_DIR / SCHEMA_FILES[name]
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_problems(name: str, data: object) -> list[Problem]:
    """Every structural problem of ``data`` against schema ``name``, sorted by path.

    A mechanic of an unknown ``type`` is reported once, as ``unknown-mechanic``,
    instead of as every field that the known mechanics would want.
    """
    unknown = dict(_unknown_mechanics(name, data))
    problems: list[Problem] = [
        Problem(prefix + "/type", "unknown-mechanic", f"unknown mechanic type {kind!r}; this version knows 'frail'")
        for prefix, kind in unknown.items()
    ]
    for error in validator(name).iter_errors(data):
        problems.extend(
            p for p in _translate(error) if not any(_inside(p.pointer, prefix) for prefix in unknown)
        )
    unique = {(p.pointer, p.code, p.message): p for p in problems}
    return sorted(unique.values(), key=lambda p: (_path_key(p.pointer), p.code))


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


def _path_key(ptr: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in ptr.split("/")[1:]]


def _translate(error: SchemaError) -> Iterator[Problem]:
    path = list(error.absolute_path)
    where = pointer(*path)
    kind = error.validator
    if kind in ("oneOf", "anyOf") and isinstance(error.schema, dict):
        yield from _translate_union(error, path)
        return
    instance = error.instance
    if kind == "required":
        missing = _quoted(error.message)
        yield Problem(pointer(*path, missing), "missing-field", f"missing required field '{missing}'")
    elif kind == "additionalProperties":
        for extra in _unexpected(error):
            if extra == "leaves" and len(path) == 2 and path[0] == "entities":
                yield Problem(
                    pointer(*path, extra),
                    "per-object-leaves",
                    "objects carry no 'leaves' field: FRAIL leftovers belong in the "
                    "level's frail mechanic ('mechanics' → 'leaves')",
                )
            else:
                yield Problem(pointer(*path, extra), "unknown-field", f"unknown field '{extra}'")
    elif kind == "type":
        yield Problem(where, "wrong-type", f"expected {_types(error.validator_value)}, got {_describe(instance)}")
    elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        yield Problem(where, "out-of-range", f"{instance!r} is out of range ({_bound(error)})")
    elif kind == "pattern":
        yield Problem(where, "bad-format", f"{instance!r} does not match the pattern {error.validator_value}")
    elif kind in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
        yield Problem(where, "bad-size", _size_message(error))
    elif kind in ("const", "enum"):
        expected = error.validator_value
        options = expected if kind == "enum" else [expected]
        yield Problem(where, "bad-value", f"{instance!r} is not allowed here; expected {' or '.join(map(repr, options))}")
    else:
        yield Problem(where, f"schema-{kind}", error.message)


def _translate_union(error: SchemaError, path: list[Any]) -> Iterator[Problem]:
    schema = error.schema
    assert isinstance(schema, dict)
    disc = schema.get("discriminator")
    branches = schema.get(str(error.validator), [])
    instance = error.instance
    if isinstance(disc, dict) and isinstance(instance, dict):
        field = disc["propertyName"]
        mapping: dict[str, str] = disc["mapping"]
        value = instance.get(field)
        if value not in mapping:
            options = " or ".join(repr(v) for v in mapping)
            code = {"kind": "unknown-kind", "action": "unknown-action"}.get(field, "bad-value")
            if field not in instance:
                yield Problem(pointer(*path, field), "missing-field", f"missing required field '{field}' ({options})")
            else:
                yield Problem(pointer(*path, field), code, f"unknown {field} {value!r}; expected {options}")
            return
        target = mapping[value]
        index = next(i for i, b in enumerate(branches) if b.get("$ref") == target)
        for sub in error.context or ():
            if sub.relative_schema_path and sub.relative_schema_path[0] == index:
                yield from _translate(sub)
        return
    # A plain union (for example a nullable value): report the simplest reading.
    best = min(error.context or (), key=lambda e: len(list(e.absolute_path)), default=None)
    if best is None:
        yield Problem(pointer(*path), "wrong-type", error.message)
    else:
        yield from _translate(best)


def _quoted(message: str) -> str:
    start = message.find("'")
    end = message.find("'", start + 1)
    return message[start + 1 : end] if start >= 0 and end > start else message


def _unexpected(error: SchemaError) -> list[str]:
    instance = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    known = set(schema.get("properties", {}))
    if not isinstance(instance, dict):
        return []
    return sorted(str(k) for k in instance if k not in known)


def _types(value: object) -> str:
    names = value if isinstance(value, list) else [value]
    words = {"integer": "an integer", "string": "a string", "object": "an object",
             "array": "a list", "boolean": "true or false", "number": "a number", "null": "null"}
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _bound(error: SchemaError) -> str:
    symbol = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
    return f"must be {symbol[str(error.validator)]} {error.validator_value}"


def _size_message(error: SchemaError) -> str:
    kind = str(error.validator)
    limit = error.validator_value
    what = "items" if "Items" in kind else ("fields" if "Properties" in kind else "characters")
    bound = "at least" if kind.startswith("min") else "at most"
    return f"must have {bound} {limit} {what}"
