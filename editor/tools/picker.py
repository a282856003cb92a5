"""The picker (eyedropper): take the palette's stamp from the board.

Clicking the same cell again walks down its stack, so every entity of a stack
can be picked, not only the top one.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from editor.documents.session import Session
from editor.tools.base import Mods, Tool
from editor.values import Pos


class PickerTool(Tool):
    name, action_id, shortcut, icon_name = "Picker", "actionToolPicker", "I", "picker"
    tip = "Pick the entity under the pointer; click again to cycle down the stack (Alt-click with any tool)"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._cell: Pos | None = None
        self._depth = 0

    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        self.pick(pos)

    def pick(self, pos: Pos) -> None:
        level = self.level
        if level is None or not level.contains(pos):
            return
        stack = level.stack_at(pos)
        self.session.inspect(pos)
        if not stack:
            self._cell = None
            return
        if pos == self._cell:
            self._depth = (self._depth + 1) % len(stack)
        else:
            self._cell, self._depth = pos, 0
        piece = stack[-1 - self._depth]
        self.session.set_stamp(piece.stamp)
        where = f" ({self._depth + 1} from the top of {len(stack)})" if len(stack) > 1 else ""
        self.session.message.emit(f"Picked {piece.kind} {piece.token}{where}")

    def cancel(self) -> None:
        self._cell = None
