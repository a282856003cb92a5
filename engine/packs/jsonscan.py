"""Measuring JSON text before it is parsed: what a parser would build, found at C speed.

``json.loads`` builds a Python object for every value it reads, and a small value
costs many times its text: ``{}`` is two bytes and a 64-byte dictionary, so a
64 MiB file of them is gigabytes. Both readers of strangers' JSON (pack files and
share payloads) therefore measure the text first and refuse it before the parser
runs. This module is that one scanner:

- :func:`count_structure` counts the bytes that open containers (``{`` and ``[``)
  and the separators (``,`` and ``:``, one per value past the first of each
  container). Brackets and separators inside strings are counted too, so both are
  upper bounds; one pass of ``bytes.translate``, about a millisecond a megabyte.
- :func:`nesting` measures how deep the containers nest, with strings removed
  (a regular expression over the whole text, about 25 ms a megabyte): payloads ask
  for it; a pack file is bounded without it (docs/validation.md, "Reading limits").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_KEPT = b"{[,:"
_NOT_KEPT = bytes(b for b in range(256) if b not in _KEPT)
# A JSON string, escapes included (unrolled loop: linear, no backtracking blow-up).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_FOLD_BRACKETS = bytes.maketrans(b"{}", b"[]")


@dataclass(frozen=True, slots=True)
class TextCounts:
    """Upper bounds on what parsing a JSON text builds."""

    containers: int  # objects and lists
    values: int  # separators: every value but the first of each container


def count_structure(text: bytes | str) -> TextCounts:
    """The containers and separators of a JSON text, counted without parsing it."""
    if isinstance(text, str):  # documents handed over as text are small: four C passes
        containers = text.count("{") + text.count("[")
        return TextCounts(containers, text.count(",") + text.count(":"))
    kept = text.translate(None, _NOT_KEPT)
    return TextCounts(kept.count(b"{") + kept.count(b"["), kept.count(b",") + kept.count(b":"))


Nesting = Literal["ok", "deep", "unbalanced", "unterminated"]


def nesting(raw: bytes, limit: int) -> Nesting:
    """Whether the containers of a JSON text nest at most ``limit`` deep.

    Strings are removed first (their brackets are text), then innermost ``[]``
    pairs are peeled at most ``limit`` times. ``"unterminated"``: a string has no
    closing quote; ``"unbalanced"``: the brackets cannot be JSON.
    """
    skeleton = _JSON_STRING.sub(b"", raw)
    if b'"' in skeleton:
        return "unterminated"
    brackets = skeleton.translate(_FOLD_BRACKETS, _NOT_BRACKETS)
    for _ in range(limit):
        if not brackets:
            return "ok"
        peeled = brackets.replace(b"[]", b"")
        if len(peeled) == len(brackets):
            break
        brackets = peeled
    if not brackets:
        return "ok"
    if brackets.count(b"[") != brackets.count(b"]") or b"[]" not in brackets:
        return "unbalanced"
    return "deep"
