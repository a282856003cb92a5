"""Select, move, copy and paste rectangular regions; stacks always travel whole.

Drag on the board to select. Drag inside the selection to move it (hold Ctrl to
move a copy); moved stacks land on top of what is already there, so nothing is
ever overwritten. A pasted region floats under the pointer until a click places
it (Escape drops it).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt

from editor.documents.session import Session
from editor.io.clipboard import Region
from editor.tools.base import Mods, Overlay, Tool, clip_to_level, rect_between, rect_cells
from editor.values import Pos, Stamp, signature

CTRL = Qt.KeyboardModifier.ControlModifier


class SelectTool(Tool):
    name, action_id, shortcut, icon_name = "Select", "actionToolSelect", "S", "select"
    tip = "Select a region; drag it to move (Ctrl: copy); Ctrl+C / Ctrl+X / Ctrl+V"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._selection: QRect | None = None
        self._mode: str | None = None  # "select" or "move" while the button is down
        self._anchor = Pos(0, 0)
        self._offset = (0, 0)
        self._copying = False
        self._floating: Region | None = None
        self._hover: Pos | None = None

    # ---------------------------------------------------------------- queries
    @property
    def selection(self) -> QRect | None:
        return self._selection

    @property
    def floating(self) -> Region | None:
        return self._floating

    def selected_region(self) -> Region | None:
        level, rect = self.level, self._selection
        if level is None or rect is None:
            return None
        stacks: dict[Pos, tuple[Stamp, ...]] = {}
        for pos in rect_cells(rect):
            if level.stack_at(pos):
                stacks[Pos(pos.x - rect.x(), pos.y - rect.y())] = signature(level.stack_at(pos))
        return Region(rect.width(), rect.height(), stacks)

    # --------------------------------------------------------------- commands
    def select(self, rect: QRect | None) -> None:
        level = self.level
        rect = clip_to_level(rect, level) if rect is not None and level is not None else None
        self._selection = rect if rect is not None and not rect.isEmpty() else None
        self.overlay_changed.emit()

    def select_all(self) -> None:
        if self.level is not None:
            self.select(QRect(0, 0, self.level.width, self.level.height))

    def delete_selection(self) -> bool:
        if self.level is None or self._selection is None:
            return False
        return self.level.clear(rect_cells(self._selection))

    def begin_paste(self, region: Region) -> None:
        """Float ``region`` under the pointer; the next click places it."""
        self._floating = region
        self.overlay_changed.emit()

    def place(self, pos: Pos) -> bool:
        """Place the floating region with its top-left corner at ``pos``."""
        level, region = self.level, self._floating
        if level is None or region is None:
            return False
        self._floating = None
        stacks = {Pos(p.x + pos.x, p.y + pos.y): s for p, s in region.stacks.items()}
        changed = level.paste(stacks)
        self.select(QRect(pos.x, pos.y, region.width, region.height))
        return changed

    # ------------------------------------------------------------ pointer I/O
    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        if button != Qt.MouseButton.LeftButton or self.level is None:
            return
        if self._floating is not None:
            self.place(pos)
            return
        self._anchor, self._offset = pos, (0, 0)
        if self._selection is not None and self._selection.contains(pos.x, pos.y):
            self._mode, self._copying = "move", bool(mods & CTRL)
        else:
            self._mode = "select"
            self.select(rect_between(pos, pos))
        self.session.inspect(pos if self.level.contains(pos) else None)

    def drag(self, pos: Pos, mods: Mods) -> None:
        level, rect = self.level, self._selection
        if level is None:
            return
        if self._mode == "select":
            self.select(rect_between(self._anchor, pos))
        elif self._mode == "move" and rect is not None:
            # Clamp so the whole region stays on the grid: a move never drops pieces.
            dx = max(-rect.left(), min(pos.x - self._anchor.x, level.width - 1 - rect.right()))
            dy = max(-rect.top(), min(pos.y - self._anchor.y, level.height - 1 - rect.bottom()))
            if (dx, dy) != self._offset:
                self._offset = (dx, dy)
                self.overlay_changed.emit()

    def release(self, pos: Pos, mods: Mods) -> None:
        mode, self._mode = self._mode, None
        level, rect = self.level, self._selection
        if mode != "move" or level is None or rect is None or self._offset == (0, 0):
            return
        dx, dy = self._offset
        self._offset = (0, 0)
        level.move_region(rect_cells(rect), dx, dy, copy=self._copying)
        self.select(rect.translated(dx, dy))

    def hover(self, pos: Pos | None) -> None:
        if pos != self._hover:
            self._hover = pos
            if self._floating is not None:
                self.overlay_changed.emit()

    def cancel(self) -> None:
        self._mode, self._offset, self._floating = None, (0, 0), None
        self.overlay_changed.emit()

    def reset(self) -> None:
        """Forget the selection too (the level changed)."""
        self._selection = None
        self.cancel()

    def overlay(self) -> Overlay | None:
        if self._floating is not None:
            at = self._hover or Pos(0, 0)
            region = self._floating
            stacks = {Pos(p.x + at.x, p.y + at.y): s for p, s in region.stacks.items()}
            return Overlay(QRect(at.x, at.y, region.width, region.height), "floating", stacks)
        if self._selection is None:
            return None
        if self._mode == "move" and self._offset != (0, 0):
            moved = self.selected_region()
            dx, dy = self._offset
            rect = self._selection.translated(dx, dy)
            stacks = {
                Pos(p.x + rect.x(), p.y + rect.y()): s
                for p, s in (moved.stacks.items() if moved else [])
            }
            return Overlay(rect, "floating", stacks)
        return Overlay(self._selection, "selection")
