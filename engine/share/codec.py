"""The share payload's text codec: canonical JSON <-> ``rulegrid:1:`` text.

A payload is hostile input until proven otherwise, so decoding is a ladder of
cheap checks, each bounded before the next, more expensive step runs: text
length, alphabet, base64 canonical form, decompressed size (enforced while
inflating, so a compression bomb stops at the limit), bracket and item counts
and nesting depth (all measured on the raw bytes *before* ``json.loads`` builds
anything), canonical form, and finally the SHA-256 checksum. Every failure is a
:class:`ShareError` naming what is wrong; nothing in a payload is evaluated,
imported or used as a path.

Layout (docs/share-format.md)::

    rulegrid:1:<base64url, no padding, of: zlib(canonical JSON) + tag>

where the document is ``{"format": "rulegrid-share", "version": 1, "sha256": H, ...}``,
``H`` is the SHA-256 of the canonical JSON of the document without ``sha256``, and
``tag`` is the first 8 bytes of the SHA-256 of the zlib bytes. ``H`` ties the content
to itself whatever compressed it; the tag catches the changes ``H`` cannot see:
deflate is not unique (a back-reference to another copy of the same bytes, or the
padding bits at the end of the stream, inflate to identical JSON), so without it
some single-character edits of the text would go unnoticed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from engine.errors import Problem, ValidationError
from engine.limits import (
    MAX_DEPTH,
    MAX_PAYLOAD_CHARS,
    MAX_PAYLOAD_CONTAINERS,
    MAX_PAYLOAD_JSON_BYTES,
    MAX_PAYLOAD_VALUES,
)
from engine.packs.jsonscan import count_structure, nesting

PREFIX = "rulegrid"
FORMAT = "rulegrid-share"
VERSION = 1

#: Name used as the ``pack`` of problems that concern the payload itself.
SHARE_NAME = "<share>"

_TOP_REQUIRED = ("format", "version", "sha256")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_BODY = re.compile(r"[A-Za-z0-9_-]*")
_NOT_BODY = re.compile(r"[^A-Za-z0-9_-]")
_INFLATE_CHUNK = 2**20
TAG_BYTES = 8


class ShareError(ValidationError):
    """A payload that cannot be read at all: bad text, corruption, or a limit passed.

    It is a :class:`~engine.errors.ValidationError` (so also an ``EngineError`` and a
    ``ValueError``): callers that already report validation problems report these
    the same way, located at the payload (``<share>``).
    """

    @classmethod
    def at(cls, code: str, message: str, pointer: str = "") -> ShareError:
        return cls([Problem(pointer, code, message, SHARE_NAME, None)])


def canonical_json(value: object) -> bytes:
    """The one byte string a JSON value encodes to: sorted keys, no spaces, UTF-8.

    Raises:
        ShareError: the value holds NaN/infinity, a lone surrogate or a non-JSON type.
    """
    try:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
        return text.encode("utf-8")
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise ShareError.at("not-canonical", f"not canonical JSON: {exc}") from None


def digest(value: object) -> str:
    """SHA-256 (hex) of a value's canonical JSON."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def tag(stream: bytes) -> bytes:
    """The integrity tag of the compressed bytes (see the module docstring)."""
    return hashlib.sha256(stream).digest()[:TAG_BYTES]


def seal(content: Mapping[str, Any]) -> dict[str, Any]:
    """The document for ``content``: format, version and the checksum added."""
    body = {**content, "format": FORMAT, "version": VERSION}
    return {**body, "sha256": digest(body)}


def to_text(document: Mapping[str, Any]) -> str:
    """Compress and armour a sealed document as one line of payload text.

    Raises:
        ShareError: the document is larger than a payload may be.
    """
    raw = canonical_json(document)
    if len(raw) > MAX_PAYLOAD_JSON_BYTES:
        raise ShareError.at(
            "too-large",
            f"the payload's JSON is {_mib(len(raw))}, more than {_mib(MAX_PAYLOAD_JSON_BYTES)}",
        )
    check_structure(raw)
    stream = zlib.compress(raw, 9)
    body = base64.urlsafe_b64encode(stream + tag(stream)).rstrip(b"=").decode("ascii")
    text = f"{PREFIX}:{VERSION}:{body}"
    if len(text) > MAX_PAYLOAD_CHARS:
        raise ShareError.at(
            "too-large", f"the payload is {len(text):,} characters, more than {MAX_PAYLOAD_CHARS:,}"
        )
    return text


def from_text(text: object) -> dict[str, Any]:
    """Read payload text back into its document, verifying every layer.

    Raises:
        ShareError: naming the first layer that fails.
    """
    raw = _unarmour(text)
    stream, seal_tag = raw[:-TAG_BYTES], raw[-TAG_BYTES:]
    if len(raw) <= TAG_BYTES or tag(stream) != seal_tag:
        raise ShareError.at(
            "bad-checksum", "the payload text is corrupted (its integrity tag does not match)"
        )
    document = parse_document(inflate(stream))
    verify(document)
    return document


def _unarmour(text: object) -> bytes:
    if not isinstance(text, str):
        raise ShareError.at("wrong-type", f"a payload is text, not {type(text).__name__}")
    if len(text) > MAX_PAYLOAD_CHARS:
        raise ShareError.at(
            "too-large", f"the payload is {len(text):,} characters, more than {MAX_PAYLOAD_CHARS:,}"
        )
    text = text.strip()
    if not text:
        raise ShareError.at("empty", "the payload is empty")
    scheme, sep, rest = text.partition(":")
    if not sep or scheme != PREFIX:
        raise ShareError.at(
            "bad-prefix", f"a payload starts with '{PREFIX}:{VERSION}:' (got {text[:16]!r})"
        )
    version, sep, body = rest.partition(":")
    if not sep or not version.isascii() or not version.isdigit():
        raise ShareError.at(
            "bad-prefix", f"a payload starts with '{PREFIX}:{VERSION}:' (got {text[:16]!r})"
        )
    if version != str(VERSION):
        raise ShareError.at(
            "unsupported-version",
            f"this is a version {version[:8]} payload; this Rulegrid reads version {VERSION}",
        )
    if not _BODY.fullmatch(body):
        bad = _NOT_BODY.search(body)
        assert bad is not None
        where = len(text) - len(body) + bad.start() + 1
        raise ShareError.at(
            "bad-base64", f"character {where} ({bad.group()!r}) is not base64url (A-Z a-z 0-9 - _)"
        )
    if len(body) % 4 == 1:
        raise ShareError.at(
            "bad-base64", "the base64url text has an impossible length (truncated or padded?)"
        )
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ShareError.at("bad-base64", f"not base64url: {exc}") from None
    # Python ignores the unused low bits of the last character; we do not, so a
    # changed last character can never decode to the same bytes unnoticed.
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != body:
        raise ShareError.at(
            "bad-base64", "the base64url text is not in canonical form (a changed character?)"
        )
    return raw


def inflate(raw: bytes) -> bytes:
    """Decompress a zlib stream, stopping as soon as it passes :data:`MAX_PAYLOAD_JSON_BYTES`.

    Raises:
        ShareError: corrupt stream, trailing bytes, or too large once inflated.
    """
    inflater = zlib.decompressobj()
    chunks: list[bytes] = []
    total = 0
    pending = raw
    try:
        while not inflater.eof:
            before = len(pending)
            chunk = inflater.decompress(pending, _INFLATE_CHUNK)
            pending = inflater.unconsumed_tail
            total += len(chunk)
            if total > MAX_PAYLOAD_JSON_BYTES:
                raise ShareError.at(
                    "too-large",
                    f"the payload inflates to more than {_mib(MAX_PAYLOAD_JSON_BYTES)} (a compression bomb?)",
                )
            chunks.append(chunk)
            if not chunk and len(pending) == before:
                break  # no progress: the stream needs input it does not have
    except zlib.error as exc:
        raise ShareError.at("bad-compression", f"the payload is corrupt (zlib: {exc})") from None
    if not inflater.eof:
        raise ShareError.at(
            "bad-compression", "the payload is truncated (the compressed data ends early)"
        )
    if inflater.unused_data:
        raise ShareError.at(
            "bad-compression", "the payload has bytes after the end of its compressed data"
        )
    return b"".join(chunks)


def check_structure(raw: bytes) -> None:
    """Bound what ``json.loads`` would build, before it builds anything.

    Measured by the scanner pack files use too (:mod:`engine.packs.jsonscan`):
    counts on the raw bytes (brackets inside strings count too), so they are upper
    bounds found at C speed, and the depth with strings removed.

    Raises:
        ShareError: too many containers or items, nesting too deep, or brackets
            that cannot be JSON.
    """
    counts = count_structure(raw)
    if counts.containers > MAX_PAYLOAD_CONTAINERS:
        raise ShareError.at(
            "too-many-values",
            f"the payload holds {counts.containers:,} objects/arrays, "
            f"more than {MAX_PAYLOAD_CONTAINERS:,}",
        )
    if counts.values > MAX_PAYLOAD_VALUES:
        raise ShareError.at(
            "too-many-values",
            f"the payload holds {counts.values:,} values, more than {MAX_PAYLOAD_VALUES:,}",
        )
    shape = nesting(raw, MAX_DEPTH)
    if shape == "unterminated":
        raise ShareError.at("invalid-json", "not valid JSON: a string is not terminated")
    if shape == "unbalanced":
        raise ShareError.at("invalid-json", "not valid JSON: its brackets do not balance")
    if shape == "deep":
        raise ShareError.at("too-deep", f"the payload's JSON nests deeper than {MAX_DEPTH} levels")


def parse_document(raw: bytes) -> dict[str, Any]:
    """Parse bounded, canonical JSON into the share document.

    Raises:
        ShareError: invalid JSON, not canonical, or not a JSON object.
    """
    check_structure(raw)
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise ShareError.at("invalid-json", f"not UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise ShareError.at(
            "invalid-json", f"not valid JSON: {exc.msg} at character {exc.pos}"
        ) from None
    except (ValueError, RecursionError) as exc:  # huge integers, NaN/Infinity
        raise ShareError.at("invalid-json", f"not valid JSON: {exc}") from None
    if canonical_json(value) != raw:
        raise ShareError.at(
            "not-canonical",
            "the payload's JSON is not in canonical form (sorted keys, no spaces, UTF-8)",
        )
    if not isinstance(value, dict):
        raise ShareError.at("wrong-type", "a payload holds a JSON object")
    return value


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def verify(document: Mapping[str, Any]) -> None:
    """Check the document's envelope fields and its checksum.

    Raises:
        ShareError: wrong format or version, bad or mismatching checksum.
    """
    for key in _TOP_REQUIRED:
        if key not in document:
            raise ShareError.at("missing-field", f"missing required field '{key}'", f"/{key}")
    if document["format"] != FORMAT:
        raise ShareError.at("bad-value", f"format must be {FORMAT!r}", "/format")
    version = document["version"]
    if type(version) is not int or version != VERSION:
        raise ShareError.at("unsupported-version", f"version must be {VERSION}", "/version")
    claimed = document["sha256"]
    if not isinstance(claimed, str) or not _HEX64.fullmatch(claimed):
        raise ShareError.at("bad-checksum", "sha256 must be 64 lower-case hex digits", "/sha256")
    body = {k: v for k, v in document.items() if k != "sha256"}
    if digest(body) != claimed:
        raise ShareError.at(
            "bad-checksum",
            "the payload's SHA-256 does not match its content (corrupted)",
            "/sha256",
        )


def _mib(size: int) -> str:
    return f"{size / 2**20:.0f} MiB" if size >= 2**20 else f"{size:,} bytes"
