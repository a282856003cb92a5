"""Help inside the app, and help that is true: generated from the actions, in native key
names, the whole loop, the open pack, and only menu paths that exist (issue 35)."""

from __future__ import annotations

import re

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget, QPushButton

from editor.panels.play.page import KEYS as PLAY_KEYS
from editor.resources import TUTORIAL_PACK
from editor.values import OBJECT, Pos, Stamp
from editor.views.help import WelcomePanel
from tests.editor.menu_paths import menu_tree, source_strings, wrong_paths
from tests.editor.window_driver import click, tokens, trigger, use
from tests.support import PACKS_DIR, ROOT

#: Panels by the names their tabs carry, with their keys.
PANELS = {
    "Levels": "Alt+1",
    "Palette": "Alt+2",
    "Stack": "Alt+3",
    "History": "Alt+4",
    "Rules": "Alt+5",
    "Problems": "Alt+6",
    "Automata": "Alt+7",
    "FRAIL": "Alt+8",
    "Solver": "Alt+9",
}


def native(text: str) -> str:
    return QKeySequence(text).toString(QKeySequence.SequenceFormat.NativeText)


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


def test_the_shortcuts_page_names_the_panel_keys_play_keys_and_space_pan(make_window) -> None:
    window = make_window()
    page = window.show_help("shortcuts").browser.toPlainText()
    lines = page.splitlines()
    for panel, key in PANELS.items():
        at = lines.index(panel, lines.index("View ▸ Panels"))
        assert lines[at + 1] == native(key), panel
    assert "Command Palette" in page
    assert "Space + drag, or middle-button drag" in page
    playing = page[page.index("While playing") :]
    for key in PLAY_KEYS:
        assert QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) in playing
    assert native("Esc") in playing


def test_the_shortcuts_page_names_keys_natively_without_platform_alternates(make_window) -> None:
    window = make_window()
    page = window.show_help("shortcuts").browser.toPlainText()
    assert "Ctrl+Ins" not in page  # X11's second key for Copy
    assert not re.search(r"Ctrl\+C, .*Copy", page)
    lines = page.splitlines()
    for name, key in (
        ("Copy", "Ctrl+C"),
        ("Cut", "Ctrl+X"),
        ("Paste", "Ctrl+V"),
        ("Undo", "Ctrl+Z"),
    ):
        assert lines[lines.index(name) + 1] == native(key), name  # not "Ctrl+X, Shift+Del, Cut"
    zoom_at = page.splitlines().index("Zoom In")
    assert page.splitlines()[zoom_at + 1] == f"{native('Ctrl+=')}, {native('Ctrl++')}"  # ours


def test_getting_started_covers_the_whole_loop_with_real_names_and_keys(make_window) -> None:
    window = make_window()
    trigger(window, "actionGettingStarted")
    dialog = window.show_help("gettingStarted")
    text = dialog.browser.toPlainText()
    steps = ["Start a pack", "Paint a sentence", "See the rules", "Play it", "Solve it"]
    steps += ["Fix the problems", "Save", "Share"]
    places = [text.index(f"{step}.") for step in steps]
    assert places == sorted(places)  # in the order an author works
    for panel in ("Levels", "Palette", "Stack", "Rules", "Solver", "Problems"):
        assert f"{panel} panel ({native(PANELS[panel])})" in text, panel
    assert "Validation" not in text
    for action, words in (
        ("actionNewPack", "New Pack"),
        ("actionAddLevel", "Add Level"),
        ("actionPlay", "Play Level"),
        ("actionSolve", "Solve Level"),
        ("actionSave", "Save"),
        ("actionExportShare", "Level to Clipboard"),
    ):
        assert f"{words} ({window.key_name(action)})" in text, action
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


def test_the_welcome_panel_follows_the_open_pack(make_window, qtbot, dialogs) -> None:
    window = make_window(TUTORIAL_PACK)
    welcome = window.findChild(WelcomePanel, "welcomePanel")
    assert welcome is not None
    text = welcome.browser.toPlainText
    assert "The tutorial pack is open: 8 levels" in text()

    trigger(window, "actionNewPack")
    qtbot.waitUntil(lambda: "A new pack is open (1 level)" in text())
    assert "tutorial" not in text()

    dialogs.open_path = PACKS_DIR / "keke-classics.json"
    trigger(window, "actionOpenPack")
    qtbot.waitUntil(lambda: "is open (113 levels, keke-classics.json)" in text(), timeout=10_000)


def test_every_menu_path_the_help_and_the_docs_name_is_in_the_menus(make_window) -> None:
    window = make_window()
    tree = menu_tree(window.menuBar())
    assert tree["View"]["Panels"]["Solver"] is None  # type: ignore[index]
    wrong: list[str] = []
    for page in ("gettingStarted", "shortcuts", "about"):
        wrong += wrong_paths(window.show_help(page).browser.toPlainText(), tree)
    welcome = window.findChild(WelcomePanel, "welcomePanel")
    assert welcome is not None
    wrong += wrong_paths(welcome.browser.toPlainText(), tree)
    named = 0
    for path, text in source_strings(ROOT / "editor"):  # labels, tooltips, messages
        wrong += [f"{path.name}: {w}" for w in wrong_paths(text, tree)]
        named += 1
    for doc in ("README.md", "docs/editor.md", "docs/keke.md", "docs/install.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        wrong += [f"{doc}: {w}" for w in wrong_paths(text, tree)]
        named += text.count(" ▸ ")
    assert wrong == []
    assert named > 40


def test_a_menu_path_that_does_not_exist_is_found(make_window) -> None:
    tree = menu_tree(make_window().menuBar())
    assert wrong_paths("Import one (File ▸ Import ▸ Shared Payload) first", tree) != []
    assert wrong_paths("see Help ▸ About for versions", tree) != []
    assert wrong_paths("see Help ▸ About Rulegrid for versions", tree) == []
    assert wrong_paths("**View ▸ Panels ▸\n  Solver** (Alt+9)", tree) == []


def test_space_and_drag_pans_the_board_and_paints_nothing(make_window) -> None:
    """The board keys help names: Space + drag pans (the others: test_canvas and
    test_keyboard_authoring)."""
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    canvas = window.canvas
    canvas.setFocus()
    origin = canvas.origin
    start = canvas.cell_center(Pos(2, 2))
    QTest.keyPress(canvas, Qt.Key.Key_Space)
    QTest.mousePress(canvas, Qt.MouseButton.LeftButton, pos=start)
    QTest.mouseMove(canvas, start + QPoint(40, 25))
    QTest.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 25))
    QTest.keyRelease(canvas, Qt.Key.Key_Space)
    assert canvas.origin == origin + QPoint(40, 25)
    assert tokens(window, Pos(2, 2)) == []
    click(window, Pos(3, 3), button=Qt.MouseButton.LeftButton)
    assert tokens(window, Pos(3, 3)) == ["ROCK"]
    click(window, Pos(3, 3), button=Qt.MouseButton.RightButton)  # the right button erases
    assert tokens(window, Pos(3, 3)) == []
