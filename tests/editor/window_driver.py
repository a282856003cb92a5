"""Helpers that drive the real main window the way an author does: actions by
objectName, the palette by entry, and the canvas by mouse events at cell centres."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor.main_window import MainWindow
from editor.values import Pos, Stamp

NO = Qt.KeyboardModifier.NoModifier


def trigger(window: MainWindow, action_id: str) -> None:
    action = window.actions_by_id[action_id]
    assert action.isEnabled(), f"{action_id} is disabled"
    action.trigger()


def use(window: MainWindow, tool_action: str, stamp: Stamp | None = None) -> None:
    trigger(window, tool_action)
    if stamp is not None:
        window.palette_panel.choose(stamp)


def drag(
    window: MainWindow, cells: list[Pos], *, button=Qt.MouseButton.LeftButton, mods=NO
) -> None:
    """Press on the first cell, move through the others, release on the last."""
    canvas = window.canvas
    QTest.mousePress(canvas, button, mods, canvas.cell_center(cells[0]))
    for pos in cells[1:]:
        QTest.mouseMove(canvas, canvas.cell_center(pos))
    QTest.mouseRelease(canvas, button, mods, canvas.cell_center(cells[-1]))


def click(window: MainWindow, pos: Pos, *, button=Qt.MouseButton.LeftButton, mods=NO) -> None:
    drag(window, [pos], button=button, mods=mods)


def tokens(window: MainWindow, pos: Pos) -> list[str]:
    assert window.level is not None
    return [p.token for p in window.level.stack_at(pos)]
