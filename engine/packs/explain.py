"""Explaining schema errors: jsonschema's errors as located problems an author can act on.

Every error becomes a :class:`~engine.errors.Problem` with a JSON Pointer and a
stable code. A failed ``oneOf`` over a discriminated union (entity ``kind``, step
``action``) reports the errors of the branch the document asked for, and a
pattern failure names what the pattern means ("a token is upper case ...")
rather than printing the regular expression.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from engine.errors import Problem, pointer, quoted
from engine.model import COLOR_PATTERN, ID_PATTERN, MOVES_PATTERN, NAME_PATTERN
from engine.packs.compiled import describe
from engine.tokens import TOKEN_PATTERN

if TYPE_CHECKING:  # jsonschema loads only when a document fails (docs/install.md)
    from jsonschema import ValidationError as SchemaError


def path_key(ptr: str) -> list[tuple[int, int | str]]:
    """Sort key of a JSON Pointer: array indexes in numeric order."""
    return [(0, int(t)) if t.isdigit() else (1, t) for t in ptr.split("/")[1:]]


#: Patterns of the models, with the code and the explanation an author needs.
_PATTERNS = {
    TOKEN_PATTERN: (
        "bad-format",
        "is not a token: use upper-case letters, digits and _, starting with a letter",
    ),
    ID_PATTERN: (
        "bad-format",
        "is not an identifier: use letters, digits, '.', '_' and '-', starting with a letter or digit",
    ),
    NAME_PATTERN: (
        "bad-format",
        "is not a cue or sound name: use lower-case letters, digits, '_' and '-'",
    ),
    COLOR_PATTERN: ("bad-format", "is not a colour: write it as #rrggbb"),
    MOVES_PATTERN: ("bad-format", "is not a move string: use only the letters U, D, L and R"),
}


def translate(error: SchemaError, base: list[Any]) -> Iterator[Problem]:
    path = base + list(error.absolute_path)
    schema_path = list(error.relative_schema_path)
    if len(schema_path) >= 2 and schema_path[-2] == "propertyNames":
        path.append(error.instance)  # a bad key: point at it, not at its map
    where = pointer(*path)
    kind = error.validator
    if kind in ("oneOf", "anyOf") and isinstance(error.schema, dict):
        yield from _translate_union(error, path, base)
        return
    instance = error.instance
    if kind == "required":
        missing = _quoted(error.message)
        yield Problem(
            pointer(*path, missing), "missing-field", f"missing required field '{missing}'"
        )
    elif kind == "additionalProperties":
        for extra in _unexpected(error):
            if extra == "leaves" and len(path) >= 2 and path[-2] == "entities":
                yield Problem(
                    pointer(*path, extra),
                    "per-object-leaves",
                    "objects carry no 'leaves' field: FRAIL leftovers belong in the "
                    "level's frail mechanic ('mechanics' → 'leaves')",
                )
            else:
                yield Problem(
                    pointer(*path, extra), "unknown-field", f"unknown field {short(extra)}"
                )
    elif kind == "type":
        yield Problem(
            where,
            "wrong-type",
            f"expected {_types(error.validator_value)}, got {describe(instance)}",
        )
    elif kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        yield Problem(where, "out-of-range", f"{short(instance)} is out of range ({_bound(error)})")
    elif kind == "pattern":
        code, explanation = _PATTERNS.get(
            str(error.validator_value),
            ("bad-format", f"does not match the pattern {error.validator_value}"),
        )
        if len(path) >= 2 and path[-2] == "leaves" and error.validator_value == TOKEN_PATTERN:
            code = "invalid-token"  # a leaves map entry: its keys are data, not field names
        yield Problem(where, code, f"{short(instance)} {explanation}")
    elif kind in (
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    ):
        yield Problem(where, "bad-size", _size_message(error))
    elif kind in ("const", "enum"):
        expected: Any = error.validator_value
        options: list[Any] = list(expected) if kind == "enum" else [expected]
        yield Problem(
            where,
            "bad-value",
            f"{short(instance)} is not allowed here; expected {' or '.join(map(repr, options))}",
        )
    else:
        yield Problem(where, f"schema-{kind}", error.message[:200])


def _translate_union(error: SchemaError, path: list[Any], base: list[Any]) -> Iterator[Problem]:
    schema = error.schema
    assert isinstance(schema, dict)
    disc = schema.get("discriminator")
    branches = schema.get(str(error.validator), [])
    instance = error.instance
    if isinstance(disc, dict) and isinstance(instance, dict):
        field = disc["propertyName"]
        mapping: dict[str, str] = disc["mapping"]
        value = instance.get(field)
        if not isinstance(value, str) or value not in mapping:
            options = " or ".join(repr(v) for v in mapping)
            code = {"kind": "unknown-kind", "action": "unknown-action"}.get(field, "bad-value")
            if field not in instance:
                yield Problem(
                    pointer(*path, field),
                    "missing-field",
                    f"missing required field '{field}' ({options})",
                )
            else:
                yield Problem(
                    pointer(*path, field),
                    code,
                    f"unknown {field} {short(value)}; expected {options}",
                )
            return
        target = mapping[value]
        index = next(i for i, b in enumerate(branches) if b.get("$ref") == target)
        for sub in error.context or ():
            if sub.relative_schema_path and sub.relative_schema_path[0] == index:
                yield from translate(sub, base)
        return
    if isinstance(disc, dict):
        yield Problem(pointer(*path), "wrong-type", f"expected an object, got {describe(instance)}")
        return
    # A plain union: report the simplest reading.
    best = min(error.context or (), key=lambda e: len(list(e.absolute_path)), default=None)
    if best is None:
        yield Problem(pointer(*path), "wrong-type", error.message[:200])
    else:
        yield from translate(best, base)


def short(value: object) -> str:
    """A readable quote of a value from the document, never unbounded."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return describe(value).removeprefix("the number ")
    return describe(value)


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
    words = {
        "integer": "an integer",
        "string": "a string",
        "object": "an object",
        "array": "a list",
        "boolean": "true or false",
        "number": "a number",
        "null": "null",
    }
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _bound(error: SchemaError) -> str:
    symbol = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
    return f"must be {symbol[str(error.validator)]} {error.validator_value}"


def _size_message(error: SchemaError) -> str:
    kind = str(error.validator)
    limit = error.validator_value
    what = "items" if "Items" in kind else ("fields" if "Properties" in kind else "characters")
    bound = "at least" if kind.startswith("min") else "at most"
    return f"must have {bound} {limit:,} {what}"
