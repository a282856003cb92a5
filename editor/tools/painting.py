"""Painting tools: brush, eraser, rectangle and flood fill.

A brush or eraser stroke touches each cell once, however often the pointer
passes over it, and the whole stroke is one undo step (the first command of a
stroke is not mergeable, the rest merge into it).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt

from editor.documents.session import Session
from editor.tools.base import (
    Mods,
    Overlay,
    Tool,
    clip_to_level,
    flood_region,
    line_cells,
    rect_between,
    rect_cells,
)
from editor.values import Pos

SHIFT = Qt.KeyboardModifier.ShiftModifier


class _StrokeTool(Tool):
    """Shared stroke logic: visit cells along the pointer's path, once each."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._active = False
        self._recorded = False
        self._erasing = False
        self._whole = False
        self._visited: set[Pos] = set()
        self._last: Pos | None = None

    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        self._active, self._recorded, self._visited, self._last = True, False, set(), pos
        self._erasing = self._erases(button)
        self._whole = bool(mods & SHIFT)
        self._visit([pos])

    def drag(self, pos: Pos, mods: Mods) -> None:
        if self._active and self._last is not None:
            self._visit(list(line_cells(self._last, pos)))
            self._last = pos

    def release(self, pos: Pos, mods: Mods) -> None:
        self._active = False

    def cancel(self) -> None:
        self._active = False

    def _erases(self, button: Qt.MouseButton) -> bool:
        return button == Qt.MouseButton.RightButton

    def _visit(self, cells: list[Pos]) -> None:
        level = self.level
        if level is None:
            return
        fresh = [p for p in dict.fromkeys(cells) if p not in self._visited and level.contains(p)]
        if not fresh:
            return
        self._visited.update(fresh)
        # Merge only once this stroke has recorded a command of its own; otherwise
        # the first real edit would fold into the previous stroke.
        if self._erasing:
            changed = level.remove_top(
                fresh, whole_stack=self._whole, continues_stroke=self._recorded
            )
        elif self.session.stamp is not None:
            stamp = self.session.stamp
            changed = level.add_on_top(
                fresh, stamp, text=f"Brush {stamp.label()}", continues_stroke=self._recorded
            )
        else:
            self.session.message.emit("Pick something in the palette to paint with")
            changed = False
        self._recorded = self._recorded or changed
        self.session.inspect(fresh[-1])


class BrushTool(_StrokeTool):
    name, action_id, shortcut, icon_name = "Brush", "actionToolBrush", "B", "brush"
    tip = "Add the palette's entity on top of each cell's stack; right-drag erases"


class EraserTool(_StrokeTool):
    name, action_id, shortcut, icon_name = "Eraser", "actionToolEraser", "E", "eraser"
    tip = "Remove the top entity of each cell; hold Shift to clear whole stacks"

    def _erases(self, button: Qt.MouseButton) -> bool:
        return True


class RectangleTool(Tool):
    name, action_id, shortcut, icon_name = "Rectangle", "actionToolRectangle", "R", "rectangle"
    tip = "Drag a rectangle to add the entity on every cell; Shift draws only the outline"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._anchor: Pos | None = None
        self._rect: QRect | None = None

    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        if button == Qt.MouseButton.LeftButton:
            self._anchor = pos
            self._set_rect(rect_between(pos, pos))

    def drag(self, pos: Pos, mods: Mods) -> None:
        if self._anchor is not None:
            self._set_rect(rect_between(self._anchor, pos))

    def release(self, pos: Pos, mods: Mods) -> None:
        level, anchor = self.level, self._anchor
        self.cancel()
        if level is None or anchor is None:
            return
        if self.session.stamp is None:
            self.session.message.emit("Pick something in the palette to paint with")
            return
        rect = clip_to_level(rect_between(anchor, pos), level)
        if rect.isEmpty():
            return
        cells = list(rect_cells(rect, outline=bool(mods & SHIFT)))
        level.add_on_top(cells, self.session.stamp, text=f"Rectangle {self.session.stamp.label()}")
        self.session.inspect(pos if level.contains(pos) else None)

    def cancel(self) -> None:
        self._anchor = None
        self._set_rect(None)

    def overlay(self) -> Overlay | None:
        return Overlay(self._rect, "preview") if self._rect is not None else None

    def _set_rect(self, rect: QRect | None) -> None:
        if rect != self._rect:
            self._rect = rect
            self.overlay_changed.emit()


class FillTool(Tool):
    name, action_id, shortcut, icon_name = "Fill", "actionToolFill", "F", "fill"
    tip = "Add the entity on top of every connected cell that looks like the clicked one"

    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        level = self.level
        if level is None or not level.contains(pos) or button != Qt.MouseButton.LeftButton:
            return
        if self.session.stamp is None:
            self.session.message.emit("Pick something in the palette to paint with")
            return
        stamp = self.session.stamp
        level.add_on_top(flood_region(level, pos), stamp, text=f"Fill {stamp.label()}")
        self.session.inspect(pos)
