"""Editor test fixtures: offscreen Qt, isolated settings, scripted dialogs, and a
window factory that owns cleanup."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

import engine
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.io.clipboard import release_clipboard
from editor.main_window import MainWindow
from editor.settings import EditorSettings
from editor.tasks import background
from editor.views.theme import LIGHT, apply_theme
from tests.editor.scripted_dialogs import ScriptedDialogs


@pytest.fixture(autouse=True)
def _isolated_default_settings(tmp_path: Path) -> None:
    """Even code that builds ``QSettings()`` itself writes under tmp_path, never the real profile."""
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "user-settings"))


@pytest.fixture(autouse=True)
def packs_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Installed packs go under tmp_path (``engine.share.user_pack_folder``), never the user's."""
    folder = tmp_path / "installed-packs"
    monkeypatch.setenv(engine.share.PACKS_DIR_VARIABLE, str(folder))
    return folder


@pytest.fixture(autouse=True)
def _isolated_solver_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's verdict cache lives under tmp_path, never in the user's cache folder."""
    monkeypatch.setenv("RULEGRID_CACHE_DIR", str(tmp_path / "solver-cache"))


@pytest.fixture(autouse=True)
def _clipboard_released(qapp: QApplication) -> Iterator[None]:
    """Do what the application does on quit: a region left on the clipboard crashes PySide6 at exit."""
    yield
    release_clipboard()


@pytest.fixture(autouse=True)
def _no_dangling_tasks() -> Iterator[None]:
    """Fail a test that leaves a background task running (they cause flaky crashes)."""
    yield
    assert background.wait_idle(5.0), "background task still running"


@pytest.fixture(autouse=True)
def _light_theme_after(qapp: QApplication) -> Iterator[None]:
    """Themes are application-wide; put the default back for the next test."""
    yield
    apply_theme(qapp, LIGHT)


@pytest.fixture
def settings(tmp_path: Path) -> EditorSettings:
    """Settings backed by a throwaway INI file: tests never see real preferences or data."""
    settings = EditorSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    settings.data_folder = tmp_path / "data"
    return settings


@pytest.fixture
def dialogs() -> ScriptedDialogs:
    return ScriptedDialogs()


@pytest.fixture
def make_window(
    qtbot, settings: EditorSettings, dialogs: ScriptedDialogs
) -> Callable[..., MainWindow]:
    """Build a shown main window; qtbot closes it after the test (answering "discard")."""

    def make(pack_path: Path | str | None = None) -> MainWindow:
        window = MainWindow(pack_path, settings=settings, dialogs=dialogs)
        qtbot.addWidget(window)
        window.resize(1200, 800)
        window.show()
        qtbot.waitExposed(window)
        return window

    return make


@pytest.fixture
def session(qapp: QApplication) -> Session:
    """A session on a new untitled pack, its first (12x9) level current."""
    session = Session()
    session.set_pack(PackDocument.untitled())
    return session
