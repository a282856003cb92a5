"""A large JSON file is parsed a piece at a time, with the whole-text parser's answers.

``parse_json_text`` reads bytes over ``PIECE`` a piece at a time (so no single step
holds the interpreter for long, see ``engine/packs/jsonpieces.py``). These tests
shrink the piece to a few bytes, so every value straddles pieces, and check that
every document, valid or not, gets exactly what the whole-text parser gives it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.packs.jsonpieces as pieces_module
import engine.packs.jsontext as jsontext
from engine.errors import ValidationError
from engine.packs.jsonpieces import parse_in_pieces

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=25,
)
DOCUMENTS = st.dictionaries(st.text(max_size=8), VALUES | st.lists(VALUES, max_size=6), max_size=6)


def outcome(raw: bytes, piece: int) -> tuple[str, Any]:
    """What ``parse_json_text`` answers for ``raw`` with pieces of ``piece`` bytes."""
    saved = jsontext.PIECE
    jsontext.PIECE = piece
    try:
        return "value", jsontext.parse_json_text(raw, source="p")
    except ValidationError as exc:
        return "errors", [(e.code, e.pointer, e.message) for e in exc.errors]
    finally:
        jsontext.PIECE = saved


def whole(raw: bytes) -> tuple[str, Any]:
    return outcome(raw, 1 << 40)


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS, st.integers(1, 9), st.data())
def test_a_document_read_in_pieces_is_the_document(
    doc: dict[str, Any], piece: int, data: st.DataObject
) -> None:
    text = json.dumps(
        doc,
        ensure_ascii=data.draw(st.booleans()),
        indent=data.draw(st.sampled_from([None, 0, 1, "\t", " \r"])),
        separators=data.draw(st.sampled_from([None, (",", ":"), (" ,", " : ")])),
    )
    raw = text.encode("utf-8")
    assert outcome(raw, piece) == ("value", json.loads(raw))


@settings(max_examples=200, deadline=None)
@given(
    DOCUMENTS,
    st.integers(1, 9),
    st.integers(0, 10_000),
    st.sampled_from(["cut", "byte", "drop"]),
    st.data(),
)
def test_a_broken_document_gets_the_whole_parsers_error(
    doc: dict[str, Any], piece: int, where: int, how: str, data: st.DataObject
) -> None:
    raw = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    at = where % (len(raw) + 1)
    if how == "cut":
        broken = raw[:at]
    elif how == "drop":
        broken = raw[:at] + raw[at + 1 :]
    else:
        byte = data.draw(st.sampled_from([b"}", b"]", b",", b'"', b"\xff", b"x", b"1", b"\\"]))
        broken = raw[:at] + byte + raw[at:]
    assert outcome(broken, piece) == whole(broken)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2, "levels": [{"b": 1, "b": 2}]}',  # repeated keys, at the top and inside
        '{"t": "\\ud800", "levels": ["ok", "\\udc00x"]}',  # lone surrogates
        '{"t": "\\ud83d\\ude00"}',  # an escaped pair: fine
        '{"x": NaN}',
        '{"x": 1e400}',
        '{"x": ' + "1" * 5000 + "}",
        '{"x": ' + "[" * 100_000 + "]" * 100_000 + "}",  # nested past the parser
        '{"x": 12}',  # a number at the very end of a piece must not be read short
        '{"x": [1, 2, 3] } extra',
        '{"x": 1,}',
        '[{"levels": []}]',  # an array at the top: read whole
        "\ufeff{}",
        "{}",
        "  {  }  ",
        '{" spaced key ": [ ]}',
        "",
    ],
)
@pytest.mark.parametrize("piece", [1, 2, 3, 7, 64])
def test_odd_documents_get_the_whole_parsers_answer(text: str, piece: int) -> None:
    raw = text.encode("utf-8")
    assert outcome(raw, piece) == whole(raw)


def test_a_large_pack_is_never_decoded_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of the pieces: no step decodes (or searches) more than one piece."""
    decoded: list[int] = []
    real = pieces_module.codecs.getincrementaldecoder("utf-8")

    class Counting(real):  # type: ignore[misc,valid-type]
        def decode(self, data: Any, final: bool = False) -> str:
            decoded.append(len(data))
            return super().decode(data, final)

    monkeypatch.setattr(pieces_module.codecs, "getincrementaldecoder", lambda _name: Counting)
    monkeypatch.setattr(jsontext, "PIECE", 4096)
    levels = [
        {"id": f"l{n}", "entities": [{"x": i, "y": i, "noun": "ROCK"} for i in range(20)]}
        for n in range(200)
    ]
    raw = json.dumps(
        {"format": "rulegrid-pack", "title": "\u00e9t\u00e9", "levels": levels}, ensure_ascii=False
    ).encode()
    assert len(raw) > 30 * 4096
    assert jsontext.parse_json_text(raw) == json.loads(raw)
    assert sum(decoded) == len(raw)
    assert max(decoded) <= 4096


def test_the_pieces_say_when_they_cannot_answer() -> None:
    decoder = json.JSONDecoder()
    escape = jsontext._SURROGATE_ESCAPE
    assert parse_in_pieces(b"[1, 2]", decoder, dict, escape, piece=2) is None
    assert parse_in_pieces(b'{"a": [1, 2}', decoder, dict, escape, piece=2) is None
    assert parse_in_pieces(b'{"a": "\\ud800"}', decoder, dict, escape, piece=2) == (
        {"a": "\ud800"},
        True,
    )
