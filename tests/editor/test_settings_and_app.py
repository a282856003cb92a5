from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QByteArray

from editor.app import default_pack, parse_args
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK, icon, icon_names
from editor.settings import MAX_RECENT, EditorSettings


def test_recent_packs_are_most_recent_first_unique_and_bounded(settings: EditorSettings) -> None:
    for i in range(MAX_RECENT + 3):
        settings.add_recent_pack(f"/p/{i}.json")
    settings.add_recent_pack("/p/5.json")
    recent = settings.recent_packs
    assert recent[0] == "/p/5.json"
    assert len(recent) == MAX_RECENT
    assert len(set(recent)) == MAX_RECENT
    settings.remove_recent_pack("/p/5.json")
    assert "/p/5.json" not in settings.recent_packs


def test_settings_survive_a_new_store_on_the_same_file(settings: EditorSettings) -> None:
    settings.theme = "dark"
    settings.show_grid = False
    settings.window_state = QByteArray(b"\x01\x02")
    settings.add_recent_pack("/only.json")
    settings.sync()
    from PySide6.QtCore import QSettings

    again = EditorSettings(QSettings(settings.store.fileName(), QSettings.Format.IniFormat))
    assert (again.theme, again.show_grid, again.recent_packs) == ("dark", False, ["/only.json"])
    assert again.window_state == QByteArray(b"\x01\x02")
    with pytest.raises(ValueError, match="unknown theme"):
        settings.theme = "neon"


def test_the_window_remembers_its_geometry(make_window, settings, dialogs, qtbot) -> None:
    window = make_window()
    # inside the offscreen screen (restoring clamps to it), above the window's least height
    window.resize(760, 600)
    window.close()
    again = MainWindow(None, settings=settings, dialogs=dialogs)
    qtbot.addWidget(again)
    assert (again.width(), again.height()) == (window.width(), window.height())


def test_with_no_argument_the_editor_opens_the_tutorial_when_present() -> None:
    assert default_pack("x.json").name == "x.json"
    assert default_pack(None) == TUTORIAL_PACK
    assert parse_args(["a.json"]).pack == "a.json"


def test_python_m_editor_has_a_command_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "editor", "--help"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0
    assert "rulegrid-editor" in out.stdout
    assert "PACK" in out.stdout.upper()


def test_every_icon_loads(qapp) -> None:
    names = icon_names()
    assert {"brush", "eraser", "rectangle", "fill", "picker", "select", "undo", "redo"} <= set(
        names
    )
    for name in names:
        assert not icon(name).pixmap(16, 16).isNull(), name


def test_the_qt_binding_keeps_none_alive(qapp) -> None:
    """PySide6 6.12.0 drops a reference to None on every void call under Python 3.11,
    which later kills the process ("deallocating None"); pyproject excludes it."""
    from PySide6.QtCore import QPoint

    point = QPoint()
    gc.collect()  # a collection during the loop frees earlier tests' garbage, and its Nones
    gc.disable()
    try:
        before = sys.getrefcount(None)
        for _ in range(1000):
            point.setX(1)
        after = sys.getrefcount(None)
    finally:
        gc.enable()
    assert after >= before - 10


def test_the_editor_command_comes_up_and_says_so(tmp_path) -> None:
    """What CI checks with the README's editor command: the window comes up on the tutorial."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "RULEGRID_EDITOR_SMOKE_SECONDS": "0.5",
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "editor"], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("rulegrid-editor: up, tutorial.json with 8 levels")
