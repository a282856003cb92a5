"""The base of every level edit, and the merge ids.

A pack keeps one undo history for all its levels (docs/decisions.md), so a level
command says which level it changed: undoing it from anywhere shows that level.
"""

from __future__ import annotations

from enum import IntEnum

from PySide6.QtGui import QUndoCommand

from editor.commands.targets import LevelTarget


class CommandId(IntEnum):
    """Merge ids: ``QUndoStack`` only offers a merge between equal ids."""

    PAINT_CELLS = 1
    AUTHORED_DATA = 2


class LevelCommand(QUndoCommand):
    """An edit of one level; ``level`` is the level document it writes to."""

    def __init__(self, level: LevelTarget, text: str) -> None:
        super().__init__(text)
        self.level = level
