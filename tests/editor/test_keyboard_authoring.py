"""Authoring without a mouse: a cell cursor on the board, the palette from the keyboard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QWidget

from editor.values import OBJECT, WORD, Pos, Stamp
from tests.editor.window_driver import tokens

ALT, CTRL, NO = (
    Qt.KeyboardModifier.AltModifier,
    Qt.KeyboardModifier.ControlModifier,
    Qt.KeyboardModifier.NoModifier,
)


def _rules(window) -> list[tuple[str, str]]:
    panel = window.findChild(QWidget, "rulesPanel")
    model = panel.findChildren(QAbstractItemView)[0].model()
    found = []
    for row in range(model.rowCount()):
        data = model.index(row, 0).data(Qt.ItemDataRole.UserRole)
        if isinstance(data, dict) and "subject" in data:
            found.append((data["subject"], data["predicate"]))
    return found


def _choose(window, qtbot, text: str, downs: int = 0) -> None:
    """Ctrl+F, type, Down to the entry, Enter: focus goes back to the board."""
    QTest.keyClick(window, Qt.Key.Key_F, CTRL)
    search = window.palette_panel.search
    qtbot.waitUntil(search.hasFocus)
    search.selectAll()
    QTest.keyClicks(search, text)
    for _ in range(downs):
        QTest.keyClick(search, Qt.Key.Key_Down)
    QTest.keyClick(search, Qt.Key.Key_Return)
    qtbot.waitUntil(window.canvas.hasFocus)


def test_a_sentence_painted_with_the_keyboard_only_forms_its_rule(make_window, qtbot) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    canvas = window.canvas
    QTest.keyClick(window, Qt.Key.Key_0, ALT)  # go to the board
    qtbot.waitUntil(canvas.hasFocus)
    assert canvas.cursor_cell == Pos(0, 0)
    for text, downs in (("BABA", 1), ("IS", 0), ("YOU", 0)):
        _choose(window, qtbot, text, downs)
        QTest.keyClick(canvas, Qt.Key.Key_Return)
        QTest.keyClick(canvas, Qt.Key.Key_Right)
    assert [tokens(window, Pos(x, 0)) for x in range(3)] == [["BABA"], ["IS"], ["YOU"]]
    QTest.keyClick(canvas, Qt.Key.Key_Down)
    QTest.keyClick(canvas, Qt.Key.Key_Left)
    QTest.keyClick(canvas, Qt.Key.Key_Left)
    _choose(window, qtbot, "baba")  # the object comes first
    QTest.keyClick(canvas, Qt.Key.Key_Space)  # Space taps paint too
    assert window.level.stack_at(Pos(1, 1))[-1].stamp == Stamp(OBJECT, "BABA")
    qtbot.waitUntil(lambda: ("BABA", "YOU") in _rules(window), timeout=5000)


def test_arrows_move_the_cursor_and_ctrl_arrows_pan(make_window, qtbot) -> None:
    window = make_window()
    canvas = window.canvas
    canvas.setFocus()
    canvas.set_cursor_cell(Pos(3, 3))
    QTest.keyClick(canvas, Qt.Key.Key_Right)
    QTest.keyClick(canvas, Qt.Key.Key_Down)
    assert canvas.cursor_cell == Pos(4, 4)
    assert "cell (4, 4)" in canvas.accessibleDescription()
    for _ in range(40):
        QTest.keyClick(canvas, Qt.Key.Key_Left)
    assert canvas.cursor_cell == Pos(0, 4)  # clamped to the level
    origin = canvas.origin
    QTest.keyClick(canvas, Qt.Key.Key_Right, CTRL)
    assert canvas.origin != origin
    assert canvas.cursor_cell == Pos(0, 4)


def test_delete_erases_the_top_entity_at_the_cursor(make_window, qtbot) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    canvas = window.canvas
    level = window.level
    level.add_on_top([Pos(2, 2)], Stamp(OBJECT, "ROCK"))
    level.add_on_top([Pos(2, 2)], Stamp(WORD, "YOU"))
    canvas.setFocus()
    qtbot.waitUntil(canvas.hasFocus)
    canvas.set_cursor_cell(Pos(2, 2))
    QTest.keyClick(canvas, Qt.Key.Key_Delete)
    assert tokens(window, Pos(2, 2)) == ["ROCK"]


def test_the_picker_works_at_the_cursor(make_window, qtbot) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    canvas = window.canvas
    window.level.add_on_top([Pos(1, 1)], Stamp(OBJECT, "FLAG"))
    canvas.setFocus()
    QTest.keyClick(canvas, Qt.Key.Key_I)  # the picker tool's key
    canvas.set_cursor_cell(Pos(1, 1))
    QTest.keyClick(canvas, Qt.Key.Key_Return)
    assert window.session.stamp == Stamp(OBJECT, "FLAG")
