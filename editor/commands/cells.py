"""The one command for board edits: replace some cells' stacks.

Brush, eraser, rectangle, fill, move, paste and the stack inspector all reduce
to "these cells now hold these stacks", so one command with before/after maps
covers them, and a continuing brush or eraser stroke merges into one undo step.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CommandId, LevelCommand
from editor.commands.targets import LevelTarget
from editor.values import Pos, Stack


class PaintCellsCommand(LevelCommand):
    """Replace the stacks of some cells; a mergeable one joins the previous stroke."""

    def __init__(
        self,
        document: LevelTarget,
        changes: Mapping[Pos, Stack],
        *,
        text: str,
        mergeable: bool = False,
    ) -> None:
        super().__init__(document, text)
        self._after = dict(changes)
        self._before = {pos: document.stack_at(pos) for pos in changes}
        self._mergeable = mergeable

    def id(self) -> int:
        return int(CommandId.PAINT_CELLS)

    def redo(self) -> None:
        self.level.write_cells(self._after)

    def undo(self) -> None:
        self.level.write_cells(self._before)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PaintCellsCommand) or not other._mergeable:
            return False
        if other.level is not self.level or other.text() != self.text():
            return False
        for pos, stack in other._before.items():
            self._before.setdefault(pos, stack)  # keep the oldest "before"
        self._after.update(other._after)  # and the newest "after"
        self.setObsolete(self._after == self._before)  # the stroke undid itself
        return True
