"""The one command for board edits: replace some cells' stacks.

Brush, eraser, rectangle, fill, move, paste and the stack inspector all reduce
to "these cells now hold these stacks", so one command with before/after maps
covers them, and a continuing brush or eraser stroke merges into one undo step.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from editor.documents.values import Pos, Stack

if TYPE_CHECKING:
    from editor.documents.level import LevelDocument


class CommandId(IntEnum):
    """Merge ids: ``QUndoStack`` only offers a merge between equal ids."""

    PAINT_CELLS = 1


class PaintCellsCommand(QUndoCommand):
    """Replace the stacks of some cells; a mergeable one joins the previous stroke."""

    def __init__(
        self,
        document: LevelDocument,
        changes: Mapping[Pos, Stack],
        *,
        text: str,
        mergeable: bool = False,
    ) -> None:
        super().__init__(text)
        self._document = document
        self._after = dict(changes)
        self._before = {pos: document.stack_at(pos) for pos in changes}
        self._mergeable = mergeable

    def id(self) -> int:
        return int(CommandId.PAINT_CELLS)

    def redo(self) -> None:
        self._document.write_cells(self._after)

    def undo(self) -> None:
        self._document.write_cells(self._before)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PaintCellsCommand) or not other._mergeable:
            return False
        if other._document is not self._document or other.text() != self.text():
            return False
        for pos, stack in other._before.items():
            self._before.setdefault(pos, stack)  # keep the oldest "before"
        self._after.update(other._after)  # and the newest "after"
        self.setObsolete(self._after == self._before)  # the stroke undid itself
        return True
