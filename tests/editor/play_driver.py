"""Helpers for test-play tests: open a pack, press play keys on the real play view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from tests.editor.window_driver import trigger

LETTER_KEYS = {
    "U": Qt.Key.Key_Up,
    "D": Qt.Key.Key_Down,
    "L": Qt.Key.Key_Left,
    "R": Qt.Key.Key_Right,
}
NOUNS = {
    "BABA": {"color": "#d9396a"},
    "ROCK": {"color": "#c29e46"},
    "FLAG": {"color": "#ede285"},
    "WALL": {"color": "#737373"},
    "MOUSE": {"color": "#b9b9d9"},
    "WATER": {"color": "#5f9dd1"},
}


def tutorial_level(index: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(TUTORIAL_PACK).read_text())["levels"][index]
    return data


def write_pack(tmp_path: Path, *levels: dict[str, Any]) -> Path:
    path = tmp_path / "play-pack.json"
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "play",
        "title": "Play",
        "nouns": NOUNS,
        "levels": list(levels),
    }
    path.write_text(json.dumps(pack))
    return path


def open_level(make_window: Any, index: int, path: Path | str = TUTORIAL_PACK) -> MainWindow:
    window: MainWindow = make_window(path)
    window.session.set_level(window.pack.levels[index])
    return window


def play(window: MainWindow) -> None:
    trigger(window, "actionPlay")
    assert window.play_view.playing


def keys(window: MainWindow, moves: str) -> None:
    """Press one key per letter: UDLR move, Z undoes, X resets (R is a move here)."""
    view = window.play_view
    for letter in moves:
        if letter == "Z":
            QTest.keyClick(view, Qt.Key.Key_Z)
        elif letter == "X":
            QTest.keyClick(view, Qt.Key.Key_R)
        else:
            QTest.keyClick(view, LETTER_KEYS[letter])


def settle_animations(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.play_view.busy, timeout=10_000)
