"""The command palette (Ctrl+Shift+P): every action by name with its key, run on Enter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.views.command_palette import CommandPalette
from editor.views.keys import menu_entries, plain_text

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def open_palette(qtbot: Any, window: MainWindow) -> CommandPalette:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.canvas.setFocus()
    QTest.keyClick(window.canvas, Qt.Key.Key_P, CTRL_SHIFT)
    palette = window.findChild(CommandPalette, "commandPalette")
    assert palette is not None
    qtbot.waitUntil(palette.isVisible)
    qtbot.waitUntil(palette.search.hasFocus)
    return palette


def rows(palette: CommandPalette) -> list[tuple[str, str, str]]:
    items = [palette.list.topLevelItem(i) for i in range(palette.list.topLevelItemCount())]
    return [(i.text(0), i.text(1), i.text(2)) for i in items if i is not None and not i.isHidden()]


def test_ctrl_shift_p_finds_an_action_by_name_and_enter_runs_it(qtbot, make_window) -> None:
    window = make_window()
    before = window.pack.level_count()
    palette = open_palette(qtbot, window)
    QTest.keyClicks(palette.search, "add level")
    assert rows(palette)[0] == ("Add Level", "Level", "Ctrl+Shift+N")
    QTest.keyClick(palette.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.pack.level_count() == before + 1)
    assert not palette.isVisible()


def test_every_menu_action_is_listed_with_its_key(qtbot, make_window) -> None:
    window = make_window()
    palette = open_palette(qtbot, window)
    listed = {(menu, name.split(" (o")[0]): keys for name, menu, keys in rows(palette)}
    for path, action in menu_entries(window.menuBar()):
        name = plain_text(action.text())
        if not name or not action.isVisible():
            continue
        assert (" ▸ ".join(path), name) in listed, (path, name)
    assert listed[("View ▸ Panels", "Solver")] == "Alt+9"
    assert listed[("Edit", "Copy")] == "Ctrl+C"  # the key, not "Ctrl+C, Ctrl+Ins, Copy"
    assert listed[("View", "Command Palette")] == "Ctrl+Shift+P"


def test_words_in_any_order_match_menu_and_name_and_arrows_pick(qtbot, make_window) -> None:
    window = make_window()
    palette = open_palette(qtbot, window)
    QTest.keyClicks(palette.search, "panels sol")
    assert [r[:2] for r in rows(palette)] == [("Solver (on)", "View ▸ Panels")]  # it is shown
    palette.search.clear()
    QTest.keyClicks(palette.search, "level")
    first = palette.list.currentItem()
    assert first is not None
    assert first.text(0).lower().startswith("level")  # names that begin so come first
    QTest.keyClick(palette.search, Qt.Key.Key_Down)
    assert palette.list.currentItem() is not first
    QTest.keyClicks(palette.search, " zzz")
    assert rows(palette) == []
    assert palette.note.text() == "No action matches."


def test_an_action_that_is_off_does_not_run_and_says_so(qtbot, make_window) -> None:
    window = make_window()
    undo = window.actions_by_id["actionUndo"]
    assert not undo.isEnabled()  # nothing was edited yet
    ran: list[bool] = []
    undo.triggered.connect(lambda: ran.append(True))
    palette = open_palette(qtbot, window)
    QTest.keyClicks(palette.search, "undo")
    QTest.keyClick(palette.search, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert ran == []
    assert palette.isVisible()
    assert "not available" in palette.note.text()
    QTest.keyClick(palette.search, Qt.Key.Key_Escape)
    assert not palette.isVisible()
