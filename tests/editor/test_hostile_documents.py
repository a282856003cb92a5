"""Hostile values in documents and pasted regions (issue 20, finding 4, editor/documents
and editor/io/clipboard.py).

A pack opened for repair, a backup, recovered work and a pasted region come from
files and other programs. What the editor cannot hold is refused with a message
that says where, as a ``ValueError`` the callers already turn into a located
problem, never an ``OverflowError`` or a ``RecursionError``, and never kept to
overflow later (a level 10**9 cells wide).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QApplication

import engine
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.io.clipboard import MAX_REGION_BYTES, MIME_TYPE, Region
from editor.values import OBJECT, Pos, Stamp
from tests.editor.window_driver import click, tokens, trigger
from tests.support import grid_level, pack_document


def level(**change: Any) -> dict[str, Any]:
    return {**grid_level(["baba . .", "BABA IS YOU"], "one"), **change}


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"width": 10**9}, "width"),
        ({"height": -3}, "height"),
        ({"width": True}, "width"),
        ({"width": "12"}, "width"),
        ({"width": float("inf")}, "width"),
    ],
)
def test_a_size_the_grid_does_not_allow_is_kept_as_written_beside_a_usable_grid(
    qapp, change: dict[str, Any], where: str
) -> None:
    """Before issue 20 a width of 10**9 was the board's (painting then overflowed) and
    inf raised OverflowError; issue 20 refused such a level. Issue 34: read for repair,
    the board is the smallest grid that holds the entities and the file's value is
    saved as written until the author sets the size; read as valid, it is refused."""
    with pytest.raises(ValueError, match=where):
        LevelDocument.from_data(level(**change))
    notes: list[engine.Problem] = []
    document = LevelDocument.from_data(level(**change), notes)
    assert (document.width, document.height) == (3, 2)
    assert document.to_data()[where] == change[where]
    assert [(n.pointer, n.code) for n in notes] == [(f"/{where}", "not-shown")]


@pytest.mark.parametrize(
    "hostile",
    [
        {"automata": nested(100_000)},  # RecursionError before the fix (deepcopy, str)
        {"title": "odd \ud800"},  # UnicodeEncodeError at the next save before the fix
        {"entities": [{"id": 1, "kind": "object", "noun": "BABA", "x": 10**10_000, "y": 0}]},
        {"entities": [{"id": 1, "kind": "object", "noun": "BABA", "x": float("nan"), "y": 0}]},
    ],
    ids=["deep", "surrogate", "huge-int", "nan"],
)
def test_values_no_json_text_holds_are_refused_for_repair(hostile: dict[str, Any]) -> None:
    doc = pack_document(level())
    doc["levels"][0].update(hostile)  # after the helper's deep copy, which would recurse
    with pytest.raises(ValueError, match=r"^/levels/0/"):
        PackDocument.from_data(doc, notes=[])


def test_a_token_that_is_no_token_is_kept_off_the_board_for_repair_and_refused_otherwise() -> None:
    bad = level()
    bad["entities"].append({"id": 99, "kind": "word", "text": "not a token!", "x": 2, "y": 0})
    notes: list[engine.Problem] = []
    document = LevelDocument.from_data(bad, notes)
    assert [(n.pointer, n.code, n.level) for n in notes] == [("/entities/4", "not-shown", "one")]
    assert "is not a token" in notes[0].message
    assert all(p.token != "not a token!" for stack in document.cells().values() for p in stack)
    assert document.unshown() == (bad["entities"][-1],)  # repair without loss: kept as written
    with pytest.raises(ValueError, match="is not a token"):
        LevelDocument.from_data(bad)


def test_a_file_with_a_huge_width_opens_for_repair_on_a_usable_grid(
    make_window, dialogs, tmp_path: Path
) -> None:
    """Issue 20 kept such a pack out; issue 34 opens it for repair: the board is the
    smallest grid that holds the entities, painting works, and the width is saved
    as written until the author sets it."""
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(pack_document(level(width=10**9))), encoding="utf-8")
    window = make_window()
    dialogs.open_anyway, dialogs.open_path = True, path
    trigger(window, "actionOpenPack")
    source, can_repair, _notes = next(v for k, v in dialogs.asked if k == "problems")
    assert (source, can_repair) == ("wide.json", True)
    assert ("/levels/0/width", "out-of-range") in [
        (p.pointer, p.code) for p in dialogs.problems_shown[-1]
    ]
    assert (window.level.width, window.level.height) == (3, 2)
    click(window, Pos(0, 1))  # the editor goes on painting on a grid it can hold
    assert window.isVisible()
    assert window.pack.to_data()["levels"][0]["width"] == 10**9


# ------------------------------------------------------------------- pasting


def paste_payload(window: Any, payload: bytes) -> str:
    mime = QMimeData()
    mime.setData(MIME_TYPE, payload)
    QApplication.clipboard().setMimeData(mime)
    before = window.level.cells()
    trigger(window, "actionPaste")
    assert window.level.cells() == before
    message: str = window.statusBar().currentMessage()
    QApplication.clipboard().clear()
    return message


def region(width: object = 2, height: object = 1, **cell: Any) -> bytes:
    one = {"x": 0, "y": 0, "stack": [{"kind": "object", "token": "BABA"}], **cell}
    return json.dumps({"width": width, "height": height, "cells": [one]}).encode()


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        (region(stack=[{"kind": "word", "token": "not a token!"}]), "which is no token"),
        (region(stack=[{"kind": "ghost", "token": "BABA"}]), "which is no token"),
        (region(width=-2), "its width must be a whole number from 1 to 128"),
        (region(width=10**9), "its width must be a whole number from 1 to 128"),
        (region(x=5), "cell 0: x must be a whole number from 0 to 1"),
        (region(y=-1), "cell 0: y must be a whole number from 0 to 0"),
        (b"[" * 50_000 + b"]" * 50_000, "cannot be pasted"),
        (b"\xff\xfe{", "cannot be pasted"),
        (b" " * (MAX_REGION_BYTES + 1), "larger than 4 MiB"),
    ],
    ids=["token", "kind", "negative", "huge", "x-outside", "y-outside", "deep", "bytes", "big"],
)
def test_a_hostile_region_is_refused_with_a_reason(make_window, payload: bytes, why: str) -> None:
    """Before the fix a region of "not a token!" words or a negative size was pasted."""
    window = make_window()
    message = paste_payload(window, payload)
    assert why in message
    assert window.select_tool.floating is None


def test_a_good_region_still_pastes(make_window) -> None:
    window = make_window()
    QApplication.clipboard().setMimeData(
        Region(1, 1, {Pos(0, 0): (Stamp(OBJECT, "ROCK"),)}).to_mime()
    )
    trigger(window, "actionPaste")
    click(window, Pos(2, 2))
    assert tokens(window, Pos(2, 2)) == ["ROCK"]
    QApplication.clipboard().clear()
