"""Every interactive widget and action of the full window has an accessible name and
description; every dock can be reached from the keyboard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QHeaderView,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tests.support import PACKS_DIR

INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QAbstractItemView,
    QComboBox,
    QAbstractSpinBox,
    QAbstractSlider,
    QTextEdit,
    QPlainTextEdit,
)


def _inside_combo(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QComboBox):
            return True
        parent = parent.parentWidget()
    return False


def _qt_part(widget: QWidget) -> bool:
    """Parts Qt builds and names itself (scroll bars, a toolbar's overflow button, dock
    tabs, a combo box's popup list); Qt's accessibility describes those."""
    parent = widget.parentWidget()
    return _inside_combo(widget) or (
        widget.objectName().startswith("qt_")
        or isinstance(widget, QScrollBar | QHeaderView)
        or (isinstance(widget, QTabBar) and isinstance(parent, QMainWindow))
        or isinstance(parent, QTabBar | QLineEdit | QAbstractSpinBox)
    )


def _interactive(widget: QWidget) -> bool:
    return isinstance(widget, INTERACTIVE) or widget.focusPolicy() != Qt.FocusPolicy.NoFocus


def test_every_interactive_widget_has_an_accessible_name_and_description(make_window) -> None:
    window = make_window(PACKS_DIR / "tutorial.json")
    window.session.set_level(window.pack.levels[6])  # clockwork: automata panels have rows
    lacking = []
    for widget in window.findChildren(QWidget):
        if _qt_part(widget) or not _interactive(widget):
            continue
        face = QAccessible.queryAccessibleInterface(widget)
        name = face.text(QAccessible.Text.Name) if face is not None else ""
        description = face.text(QAccessible.Text.Description) if face is not None else ""
        if not name.strip() or not description.strip():
            lacking.append(
                f"{type(widget).__name__} {widget.objectName()!r}: {name!r} / {description!r}"
            )
    assert lacking == [], "\n".join(lacking)


def test_every_action_has_a_name_and_a_description(make_window) -> None:
    window = make_window()
    lacking = [
        action.objectName()
        for action in window.actions_by_id.values()
        if not action.text().replace("&", "").strip() or not action.statusTip().strip()
    ]
    assert lacking == [], "\n".join(lacking)


def test_every_dock_is_reachable_by_a_shortcut(make_window) -> None:
    window = make_window()
    for dock in window.findChildren(QDockWidget):
        if dock.objectName() == "welcomeDock":
            continue  # shown once, on the first start; Help > Getting Started has its text
        dock_id = dock.objectName().removesuffix("Dock")
        assert not window.docks.show_action(dock_id).shortcut().isEmpty(), dock.objectName()
