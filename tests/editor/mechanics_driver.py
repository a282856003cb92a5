"""Helpers that drive the automata and FRAIL panels of the real window the way an
author does: toolbar buttons, keys in the pattern strip, typing into fields, and
editing leaves cells in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QToolBar,
    QWidget,
)

from editor.main_window import MainWindow
from editor.panels.automata.panel import AutomataPanel
from editor.panels.frail.panel import FrailPanel

ROLE = Qt.ItemDataRole.UserRole


def automata_panel(window: MainWindow) -> AutomataPanel:
    panel = window.findChild(QWidget, "automataPanel")
    assert isinstance(panel, AutomataPanel)
    window.docks["automata"].raise_()
    return panel


def frail_panel(window: MainWindow) -> FrailPanel:
    panel = window.findChild(QWidget, "frailPanel")
    assert isinstance(panel, FrailPanel)
    window.docks["frail"].raise_()
    return panel


def view_items(panel: QWidget) -> list[Any]:
    """The ``Qt.UserRole`` of every row of the panel's item view (its first one)."""
    view = panel.findChildren(QAbstractItemView)[0]
    model = view.model()
    return [model.index(row, 0).data(ROLE) for row in range(model.rowCount())]


def wait_for_facts(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.move_zero.pending and window.move_zero.facts is not None)


def press_tool(toolbar: QToolBar, action_name: str) -> None:
    """Click the toolbar button of the action named ``action_name``."""
    action = next(a for a in toolbar.actions() if a.objectName() == action_name)
    assert action.isEnabled(), action_name
    button = toolbar.widgetForAction(action)
    assert button is not None
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def click(widget: QWidget) -> None:
    """Click a button (a check box on its box, where a click toggles it)."""
    assert widget.isEnabled(), widget.objectName()
    if isinstance(widget, QCheckBox):
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(8, widget.height() // 2))
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def key(widget: QWidget, key: Qt.Key, mods=Qt.KeyboardModifier.NoModifier) -> None:
    widget.setFocus()
    QTest.keyClick(widget, key, mods)


def type_into(field: QLineEdit | QComboBox, text: str) -> None:
    """Select the field's text, type ``text`` and press Enter."""
    line = field.lineEdit() if isinstance(field, QComboBox) else field
    assert line is not None
    line.setFocus()
    line.selectAll()
    if text:
        QTest.keyClicks(line, text)
    else:
        QTest.keyClick(line, Qt.Key.Key_Backspace)
    QTest.keyClick(line, Qt.Key.Key_Return)


def edit_cell(panel: FrailPanel, row: int, column: int, text: str) -> None:
    """Double-click a leaves cell, type into its editor, press Enter; wait for the edit."""
    table = panel.table
    item = table.topLevelItem(row)
    assert item is not None
    rect = table.visualItemRect(item)
    x = table.header().sectionViewportPosition(column) + 5
    point = QPoint(x, rect.center().y())
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=point)
    QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=point)
    editors = [
        e for e in table.viewport().findChildren(QComboBox, "frailNounEditor") if e.isVisible()
    ]
    assert len(editors) == 1, "one cell editor opens"
    type_into(editors[0], text)
    settle()  # the panel stores the value once the editor has closed


def settle() -> None:
    """Run what the view left for later: the stored value, the closed editor's deletion."""
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def choose_in_cell(panel: FrailPanel, row: int, column: int, entry: str) -> None:
    """Open a leaves cell's editor and pick one of its entries (such as "Add noun…")."""
    table = panel.table
    item = table.topLevelItem(row)
    assert item is not None
    table.editItem(item, column)
    editor = table.viewport().findChild(QComboBox, "frailNounEditor")
    assert editor is not None
    index = editor.findText(entry)
    assert index >= 0, entry
    editor.setCurrentIndex(index)
    editor.activated.emit(index)
    settle()


def saved_level(path: Path, index: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return dict(data["levels"][index])
