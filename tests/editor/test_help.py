"""Help inside the app: getting started, shortcuts made from the actions, about, welcome."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QPushButton

from tests.editor.window_driver import trigger


def test_the_shortcuts_page_lists_every_action_that_has_a_shortcut(make_window) -> None:
    window = make_window()
    trigger(window, "actionShortcuts")
    page = window.show_help("shortcuts").browser.toPlainText()
    listed = 0
    for action in window.actions_by_id.values():
        keys = [k for k in action.shortcuts() if not k.isEmpty()]
        if keys:
            name = action.text().replace("&", "").rstrip("…")
            assert name in page, name
            assert keys[0].toString(QKeySequence.SequenceFormat.NativeText) in page, name
            listed += 1
    assert listed > 30


def test_getting_started_is_illustrated_with_tiles(make_window) -> None:
    window = make_window()
    trigger(window, "actionGettingStarted")
    dialog = window.show_help("gettingStarted")
    text = dialog.browser.toPlainText()
    for step in ("Paint a sentence", "See the rules", "Play it", "Solve it", "Validate", "Share"):
        assert step in text
    assert "tile:word/BABA" in dialog.browser.toHtml()


def test_about_names_the_versions(make_window) -> None:
    window = make_window()
    trigger(window, "actionAbout")
    text = window.show_help("about").browser.toPlainText()
    for name in ("Rulegrid", "Python", "Qt", "PySide6"):
        assert name in text


def test_the_first_start_welcomes_until_dismissed(make_window, settings) -> None:
    window = make_window()
    dock = window.findChild(QDockWidget, "welcomeDock")
    assert dock is not None
    assert dock.isVisible()
    dock.widget().findChild(QPushButton, "welcomeDismiss").click()
    assert settings.welcomed
    assert not dock.isVisible()
    again = make_window()
    assert again.findChild(QDockWidget, "welcomeDock") is None
