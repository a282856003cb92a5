"""Parsing a large JSON file a piece at a time, so no single step holds the interpreter long.

Decoding 36 MB of UTF-8 in one call makes one 36 MB string: about 20 ms in which
the interpreter lock is held (most of it the first touch of the new memory), and a
search of the whole bytes for surrogate escapes holds it 10 ms more. An editor that
reads a pack on a background thread then freezes its window for that long. Here the
bytes are decoded and searched a piece (1 MiB) at a time, the top-level object is
read by hand, and each value, and each element of a top-level array (a pack's
levels), is parsed from the window of text that holds it.

This path only ever answers for a document it read completely and exactly as
``json.loads`` would (same decoder, same hooks). At the first thing it does not
expect (invalid JSON, a value that is not an object at the top, a hook's refusal)
it gives up, and the caller parses the text whole, so every error is reported by
the one parser, with its words and its line and column.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from typing import Any

#: Bytes decoded (and searched for surrogate escapes) in one step.
PIECE = 1 << 20
#: The parser of a JSON string's rest (after its quote): ``(text, end)``; not in typeshed.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_SPACE = re.compile(r"[ \t\n\r]*")
_ESCAPE_BYTES = 6  # a \\uXXXX escape


class _WholeTextError(Exception):
    """Anything unexpected: the whole-text parser reports it."""


class _Window:
    """The decoded text from the reading position on, extended a piece at a time."""

    def __init__(self, raw: bytes, escape: re.Pattern[bytes], piece: int) -> None:
        self._raw = raw
        self._view = memoryview(raw)
        self._read = 0
        self._piece = piece
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._escape = escape
        self.escapes = False
        self.text = ""
        self.at = 0

    @property
    def done(self) -> bool:
        return self._read >= len(self._raw)

    def more(self, chars: int) -> bool:
        """Decode at least ``chars`` more bytes' worth; the text before ``at`` is dropped."""
        if self.done:
            return False
        parts = [self.text[self.at :]]
        wanted = self._read + max(chars, self._piece)
        while self._read < min(wanted, len(self._raw)):
            start = self._read
            self._read = min(start + self._piece, len(self._raw))
            try:
                parts.append(self._decoder.decode(self._view[start : self._read], self.done))
            except UnicodeDecodeError:
                raise _WholeTextError from None
            # An escape may straddle two pieces: search from just before this one.
            if not self.escapes:
                back = max(0, start - _ESCAPE_BYTES + 1)
                self.escapes = self._escape.search(self._raw, back, self._read) is not None
        self.text = "".join(parts)
        self.at = 0
        return True

    def skip(self) -> int:
        """Past the white space: the position of the next character (or the text's end)."""
        while True:
            self.at = _SPACE.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text) or not self.more(1):
                return self.at

    def take(self) -> str:
        """The next character that is not white space, consumed."""
        at = self.skip()
        if at >= len(self.text):
            raise _WholeTextError
        self.at = at + 1
        return self.text[at]

    def peek(self) -> str:
        at = self.skip()
        return self.text[at] if at < len(self.text) else ""

    def parsed(self, parse: Callable[[str, int], tuple[Any, int]], *, space: bool = True) -> Any:
        """The value ``parse`` reads at the reading position (past white space, with
        ``space``), its whole text in the window.

        A value is taken only when the text goes on after it (or the file ends
        there), so a number cut at the window's edge is never read short. A failure
        short of the file's end may be the window's edge: the window doubles, so a
        long value costs at most twice its parse.
        """
        more = self._piece
        while True:
            start = self.skip() if space else self.at
            try:
                value, end = parse(self.text, start)
            except (ValueError, RecursionError):  # JSONDecodeError, a hook's refusal, nesting
                end = -1
            if end >= 0 and (end < len(self.text) or self.done):
                self.at = end
                return value
            if not self.more(more):
                raise _WholeTextError
            more *= 2


def parse_in_pieces(
    raw: bytes,
    decoder: json.JSONDecoder,
    pairs: Callable[[list[tuple[str, Any]]], Any],
    escape: re.Pattern[bytes],
    *,
    piece: int = PIECE,
) -> tuple[Any, bool] | None:
    """``(document, whether escape matched the bytes)``, or None to parse the text whole.

    ``raw`` is UTF-8 without a byte order mark; ``decoder`` is the whole-text parser's
    (its hooks run here as there, ``pairs`` being its object hook); ``escape`` is
    searched for in the bytes a piece at a time. Only a document that is an object
    is read this way; its array values element by element.
    """
    window = _Window(raw, escape, piece)
    try:
        if window.take() != "{":
            return None
        items: list[tuple[str, Any]] = []
        if window.peek() == "}":
            window.take()
        else:
            while True:
                if window.take() != '"':
                    return None
                key = window.parsed(lambda text, at: _scanstring(text, at, True), space=False)
                if window.take() != ":":
                    return None
                value = _array(window, decoder) if window.peek() == "[" else _value(window, decoder)
                items.append((key, value))
                following = window.take()
                if following == "}":
                    break
                if following != ",":
                    return None
        if window.skip() < len(window.text):  # more after the document
            return None
        return pairs(items), window.escapes
    except _WholeTextError:
        return None


def _value(window: _Window, decoder: json.JSONDecoder) -> Any:
    return window.parsed(decoder.raw_decode)


def _array(window: _Window, decoder: json.JSONDecoder) -> list[Any]:
    window.take()  # the "["
    elements: list[Any] = []
    if window.peek() == "]":
        window.take()
        return elements
    while True:
        elements.append(_value(window, decoder))
        following = window.take()
        if following == "]":
            return elements
        if following != ",":
            raise _WholeTextError
