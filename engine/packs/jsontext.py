"""Reading JSON text: UTF-8 only, every key once, only real numbers and real text.

``json.loads`` is lenient where a pack format must not be: it guesses UTF-16 and
UTF-32 from the first bytes, keeps the last of two equal keys without a word,
reads ``NaN`` and ``Infinity``, turns ``1e400`` into infinity, and accepts
``"\\ud800"``, a lone surrogate that is not a character (no UTF-8 file can hold
it, so such a pack could never be saved again). Each of these is refused here
with a located problem, before any validator sees the document. The common case
costs nothing extra: the duplicate-key and surrogate searches run only when the
parser or a byte scan has seen one.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engine.errors import Problem, ValidationError, clipped, counted, pointer
from engine.limits import MAX_PACK_CONTAINERS, MAX_PACK_VALUES
from engine.packs.jsonpieces import PIECE, parse_in_pieces
from engine.packs.jsonscan import count_structure

_UTF8_BOM = b"\xef\xbb\xbf"
# RFC 8259 (and RFC 4627's detection): JSON text starts with an ASCII character, so a
# NUL among the first four bytes, or a UTF-16/32 byte order mark, means UTF-16/32.
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: At most this many problems of one kind are listed from the reading stage.
_LISTED = 100


class _Keys(dict[str, Any]):
    """An object that had a key twice; ``repeated`` names them (the last value is kept)."""

    repeated: list[str]


def parse_json_text(text: str | bytes, *, source: str | None = None) -> Any:
    """Parse one JSON document; any fault is a :class:`ValidationError` located in it.

    Codes: ``invalid-json`` (syntax, not UTF-8, UTF-16/32, NaN/Infinity, a number
    too large for a float, nesting past the parser's recursion), ``duplicate-key``
    (pointer: the repeated key) and ``bad-text`` (pointer: the string holding a lone
    surrogate). A UTF-8 byte order mark is skipped.
    """

    def fail(message: str) -> ValidationError:
        return ValidationError.single("", "invalid-json", message, pack=source)

    raw = text if isinstance(text, bytes) else None
    if raw is not None:
        if raw.startswith(_UTF8_BOM):
            raw = raw[len(_UTF8_BOM) :]
        if raw.startswith(_WIDE_BOMS) or b"\x00" in raw[:4]:
            raise fail("not UTF-8 text: this looks like UTF-16 or UTF-32; save the file as UTF-8")
    too_much = _over_counts(raw if raw is not None else text)
    if too_much:
        raise ValidationError.single("", "bad-size", too_much, pack=source)
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        obj = dict(items)
        if len(obj) == len(items):
            return obj
        repeated = True
        marked = _Keys(obj)
        seen: set[str] = set()
        marked.repeated = [k for k, _ in items if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
        return marked

    hooks: dict[str, Any] = {
        "object_pairs_hook": pairs,
        "parse_constant": _no_constant,
        "parse_float": _finite_float,
    }
    pieces = None
    if raw is not None and len(raw) > PIECE:  # decoded whole, it holds the interpreter
        pieces = parse_in_pieces(
            raw, json.JSONDecoder(**hooks), pairs, _SURROGATE_ESCAPE, piece=PIECE
        )
        repeated = repeated and pieces is not None  # a failed try's hooks do not count
    if pieces is not None:
        value, escaped = pieces
        return _checked(value, repeated=repeated, escaped=escaped, source=source)
    if raw is not None:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"not valid JSON: not UTF-8 text (byte {exc.start})") from None
    assert isinstance(text, str)
    try:
        value = json.loads(text, **hooks)
    except json.JSONDecodeError as exc:
        raise fail(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise fail("not valid JSON: nested too deep") from None
    except ValueError as exc:  # NaN, 1e400, an integer of more than 4,300 digits
        if "integer string conversion" in str(exc):  # Python's words: not the author's
            raise fail("not valid JSON: a number of more than 4,300 digits") from None
        raise fail(f"not valid JSON: {exc}") from None
    escaped = _has_surrogate_escape(raw, text)
    return _checked(value, repeated=repeated, escaped=escaped, source=source)


def _over_counts(text: bytes | str) -> str:
    """Why the text holds more than any pack (``""`` when it does not), before parsing.

    What the parser builds is bounded by the containers and the values it reads,
    not by the bytes (:mod:`engine.packs.jsonscan`): both are counted first.
    """
    counts = count_structure(text)
    if counts.containers > MAX_PACK_CONTAINERS:
        return (
            f"the file holds {counts.containers:,} objects and lists, more than the "
            f"{MAX_PACK_CONTAINERS:,} a pack file may (a pack at the level limit holds "
            "about 620,000); nothing was read"
        )
    if counts.values > MAX_PACK_VALUES:
        return (
            f"the file holds {counts.values:,} values, more than the {MAX_PACK_VALUES:,} a "
            "pack file may (a pack at the level limit holds about 6,100,000); nothing was read"
        )
    return ""


def _checked(value: Any, *, repeated: bool, escaped: bool, source: str | None) -> Any:
    """``value``, unless it repeats a key or (when ``escaped``) holds a lone surrogate."""
    problems: list[Problem] = []
    if repeated:
        problems += _repeated_keys(value)
    if escaped:
        problems += _lone_surrogates(value)
    if problems:
        raise ValidationError(p.located(pack=source, level=None) for p in problems[:_LISTED])
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        raise ValueError(f"the number {literal[:40]} is too large")
    return number


def _has_surrogate_escape(raw: bytes | None, text: str) -> bool:
    if raw is not None:
        return _SURROGATE_ESCAPE.search(raw) is not None
    return _LONE_SURROGATE.search(text) is not None or "\\u" in text


def _walk(value: Any) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a parsed document, depth first, without recursion.

    The stack holds one iterator per open container (at most the nesting depth),
    never an entry per element: a list of ten million items costs no more.
    """
    yield (), value
    stack: list[tuple[tuple[Any, ...], Iterator[tuple[Any, Any]]]] = [((), _children(value))]
    while stack:
        path, children = stack[-1]
        step = next(children, None)
        if step is None:
            stack.pop()
            continue
        key, item = step
        where = (*path, key)
        yield where, item
        if isinstance(item, dict | list):
            stack.append((where, _children(item)))


def _children(item: Any) -> Iterator[tuple[Any, Any]]:
    if isinstance(item, dict):
        return iter(item.items())
    if isinstance(item, list):
        return enumerate(item)
    return iter(())


def _repeated_keys(value: Any) -> list[Problem]:
    """One problem per key given more than once in an object, saying how many times.

    A million copies of one key are one mistake: one line, with the count.
    """
    found = []
    for path, item in _walk(value):
        if isinstance(item, _Keys):
            for key, times in Counter(item.repeated).items():
                found.append(
                    Problem(
                        pointer(*path, key),
                        "duplicate-key",
                        f"the key {clipped(key)!r} appears more than once in this object "
                        f"({counted(times + 1, 'time')}); JSON readers disagree on which one "
                        "counts, so keep one",
                    )
                )
            if len(found) >= _LISTED:
                break
    return found


def _lone_surrogates(value: Any) -> list[Problem]:
    found = []
    for path, item in _walk(value):
        texts = [(path, item)] if isinstance(item, str) else []
        if isinstance(item, dict):
            texts += [((*path, key), key) for key in item]  # a key names its own place
        for where, text in texts:
            if _LONE_SURROGATE.search(text):
                found.append(bad_text(where))
        if len(found) >= _LISTED:
            break
    return found


def bad_text(path: tuple[Any, ...]) -> Problem:
    """The problem of a string holding a lone surrogate, at ``path``."""
    return Problem(
        pointer(*path),
        "bad-text",
        "the text holds a lone surrogate (a \\ud800-\\udfff escape without its pair): "
        "it is not a character and no UTF-8 file can hold it",
    )
