"""A compiled yes/no check of a JSON Schema, exact for the keywords our schemas use.

jsonschema interprets a schema value by value and spends about 70 µs on each
entity: seconds for a pack of a thousand levels. Nearly every pack an author
validates is valid, and for a valid pack only the answer matters. So the checked-in
schema is also compiled into nested closures that answer "is this valid?" exactly
as ``Draft202012Validator.is_valid`` would; when the answer is no, jsonschema runs
to find and explain every error (:mod:`engine.packs.schema`). The checked-in file stays
the only authority: a keyword outside the subset below makes :func:`compile_schema`
raise :class:`UnsupportedSchemaError`, and the engine then uses jsonschema alone.

Supported: ``type``, ``const``, ``enum``, ``properties``, ``required``,
``additionalProperties``, ``propertyNames``, ``minProperties``, ``maxProperties``,
``items`` (without ``prefixItems``), ``minItems``, ``maxItems``, ``pattern``,
``minLength``, ``maxLength``, ``minimum``, ``maximum``, ``exclusiveMinimum``,
``exclusiveMaximum``, ``allOf``, ``anyOf``, ``oneOf``, ``not`` and local
``$ref``s into ``$defs``; annotations are ignored, as jsonschema ignores them.

``pattern`` follows JSON Schema's (ECMA-262) meaning of a final ``$``: the end of
the text. Python's ``$`` also matches before a final newline, which would let
``"BABA\n"`` pass as a token; :func:`pattern_search` is used here and by the
jsonschema validator (:mod:`engine.packs.schema`), so both agree with the models.
"""

from __future__ import annotations

import functools
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

from engine.errors import quoted
from engine.limits import MAX_MAGNITUDE

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$defs",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "discriminator",
    }
)
_OBJECT_KEYS = (
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
)
_ARRAY_KEYS = ("items", "minItems", "maxItems")
_STRING_KEYS = ("pattern", "minLength", "maxLength")
_NUMBER_KEYS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
SUPPORTED = frozenset(
    {
        "type",
        "const",
        "enum",
        "$ref",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        *_OBJECT_KEYS,
        *_ARRAY_KEYS,
        *_STRING_KEYS,
        *_NUMBER_KEYS,
    }
)


class UnsupportedSchemaError(Exception):
    """The schema uses something this compiler does not reproduce exactly."""


@functools.cache
def pattern_search(pattern: str) -> Callable[[str], bool]:
    """Whether a pattern matches somewhere in a text, with ``$`` meaning the end of the text."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    search = re.compile(pattern).search
    return lambda text: search(text) is not None


def is_integer(value: object) -> TypeGuard[int | float]:
    """Draft 2020-12's ``integer``: a number with no fractional part (``1.0`` too), not a bool."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def is_number(value: object) -> bool:
    kind = type(value)
    if kind is int or kind is float:  # the common case, without the slow ABC check
        return True
    return not isinstance(value, bool) and isinstance(value, numbers.Number)


_TYPES: dict[str, Check] = {
    "array": lambda v: isinstance(v, list),
    "boolean": lambda v: isinstance(v, bool),
    "integer": is_integer,
    "null": lambda v: v is None,
    "number": is_number,
    "object": lambda v: isinstance(v, dict),
    "string": lambda v: isinstance(v, str),
}


def json_equal(one: object, two: object) -> bool:
    """Equality as JSON Schema means it: ``true`` is not ``1``, containers compare deeply."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(json_equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return False
    return bool(one == two)


def _always(_: object) -> bool:
    return True


def _never(_: object) -> bool:
    return False


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    frozen = tuple(checks)

    def check(value: object) -> bool:  # a plain loop: all() with a generator is slower here
        for one in frozen:  # noqa: SIM110
            if not one(value):
                return False
        return True

    return check


class CompiledSchema:
    """The compiled root of a schema document, and its named definitions."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self._defs: Mapping[str, Any] = root.get("$defs", {})
        self._compiled: dict[str, Check] = {}
        self.check: Check = self._node(root)

    def definition(self, name: str) -> Check:
        """The check of ``$defs/name``, as a ``$ref`` to it would apply it."""
        return self._ref(f"#/$defs/{name}")

    def _ref(self, ref: str) -> Check:
        prefix = "#/$defs/"
        name = ref[len(prefix) :]
        if not ref.startswith(prefix) or "/" in name or "~" in name or name not in self._defs:
            raise UnsupportedSchemaError(f"$ref {ref!r}")
        if name not in self._compiled:
            slot: list[Check] = []
            self._compiled[name] = lambda value: slot[0](value)  # a recursive reference
            slot.append(self._node(self._defs[name]))
            self._compiled[name] = slot[0]
        return self._compiled[name]

    def _node(self, node: object) -> Check:
        if node is True:
            return _always
        if node is False:
            return _never
        if not isinstance(node, Mapping):
            raise UnsupportedSchemaError(f"schema {node!r}")
        unknown = set(node) - SUPPORTED - ANNOTATIONS
        if unknown:
            raise UnsupportedSchemaError(f"keywords {sorted(unknown)}")
        checks: list[Check] = []
        if "type" in node:
            checks.append(self._type(node["type"]))
        if "const" in node:
            const = node["const"]
            checks.append(lambda v: json_equal(v, const))
        if "enum" in node:
            options = tuple(node["enum"])
            checks.append(lambda v: any(json_equal(v, o) for o in options))
        if any(k in node for k in _OBJECT_KEYS):
            checks.append(self._object(node))
        if any(k in node for k in _ARRAY_KEYS):
            checks.append(self._array(node))
        if any(k in node for k in _STRING_KEYS):
            checks.append(_string(node))
        if any(k in node for k in _NUMBER_KEYS):
            checks.append(_number(node))
        if "$ref" in node:
            checks.append(self._ref(node["$ref"]))
        if "allOf" in node:
            checks.append(_all([self._node(s) for s in node["allOf"]]))
        if "anyOf" in node:
            branches = tuple(self._node(s) for s in node["anyOf"])
            checks.append(lambda v: any(b(v) for b in branches))
        if "oneOf" in node:
            checks.append(_exactly_one(tuple(self._node(s) for s in node["oneOf"])))
        if "not" in node:
            negated = self._node(node["not"])
            checks.append(lambda v: not negated(v))
        return _all(checks)

    @staticmethod
    def _type(value: object) -> Check:
        names = value if isinstance(value, list) else [value]
        try:
            tests = tuple(_TYPES[str(n)] for n in names)
        except KeyError as exc:
            raise UnsupportedSchemaError(f"type {exc}") from None
        if len(tests) == 1:
            return tests[0]
        return lambda v: any(t(v) for t in tests)

    def _object(self, node: Mapping[str, Any]) -> Check:
        properties = {k: self._node(s) for k, s in node.get("properties", {}).items()}
        required = tuple(node.get("required", ()))
        extra_schema = node.get("additionalProperties", True)
        extra: Check | None = None if extra_schema is True else self._node(extra_schema)
        names = self._node(node["propertyNames"]) if "propertyNames" in node else None
        low = node.get("minProperties", 0)
        high = node.get("maxProperties")

        def check(value: object) -> bool:
            if not isinstance(value, dict):
                return True
            if not low <= len(value) or (high is not None and len(value) > high):
                return False
            for key in required:
                if key not in value:
                    return False
            for key, item in value.items():
                if names is not None and not names(key):
                    return False
                known = properties.get(key) if isinstance(key, str) else None
                if known is not None:
                    if not known(item):
                        return False
                elif extra is not None and not extra(item):
                    return False
            return True

        return check

    def _array(self, node: Mapping[str, Any]) -> Check:
        items = self._node(node["items"]) if "items" in node else None
        low = node.get("minItems", 0)
        high = node.get("maxItems")

        def check(value: object) -> bool:
            if not isinstance(value, list):
                return True
            if len(value) < low or (high is not None and len(value) > high):
                return False
            if items is not None:
                for item in value:
                    if not items(item):
                        return False
            return True

        return check


def _exactly_one(branches: tuple[Check, ...]) -> Check:
    def check(value: object) -> bool:
        found = 0
        for branch in branches:
            if branch(value):
                found += 1
                if found > 1:
                    return False
        return found == 1

    return check


def _string(node: Mapping[str, Any]) -> Check:
    search = pattern_search(node["pattern"]) if "pattern" in node else None
    low = node.get("minLength", 0)
    high = node.get("maxLength")

    def check(value: object) -> bool:
        if not isinstance(value, str):
            return True
        if len(value) < low or (high is not None and len(value) > high):
            return False
        return search is None or search(value)

    return check


def _number(node: Mapping[str, Any]) -> Check:
    bounds = [(node[k], k) for k in _NUMBER_KEYS if k in node]

    def check(value: Any) -> bool:
        if not is_number(value):
            return True
        for bound, kind in bounds:
            if kind == "minimum" and value < bound:
                return False
            if kind == "maximum" and value > bound:
                return False
            if kind == "exclusiveMinimum" and value <= bound:
                return False
            if kind == "exclusiveMaximum" and value >= bound:
                return False
        return True

    return check


def compile_schema(root: Mapping[str, Any]) -> CompiledSchema:
    """Compile ``root``; raises :class:`UnsupportedSchemaError` when it cannot be exact."""
    return CompiledSchema(root)


def describe(value: object) -> str:
    """A short phrase for a value of the document, never its whole text."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if (isinstance(value, int) and -MAX_MAGNITUDE < value < MAX_MAGNITUDE) or isinstance(
        value, float
    ):
        return f"the number {value!r}"
    if isinstance(value, int):
        return "a very large number"
    if isinstance(value, str):
        return f"the text {quoted(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a value of type {type(value).__name__}"
