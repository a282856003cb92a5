"""Authored level data beyond the board: automata, mechanics, the intended solution.

Each such value is a top-level key of the level document (docs/contract.md section 2), so
one command replaces one key's value, keeping deep copies of before and after.
``None`` removes the key. Continuous edits of one field (a spin box, a typed
name) merge into one undo step when both commands say so.
"""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from editor.commands.base import CommandId, LevelCommand
from editor.commands.targets import LevelTarget


class AuthoredDataCommand(LevelCommand):
    """Replace the value of one authored key of a level (``None`` removes it)."""

    def __init__(
        self, level: LevelTarget, key: str, after: Any, *, text: str, mergeable: bool = False
    ) -> None:
        super().__init__(level, text)
        self.key = key
        self._before = copy.deepcopy(level.authored(key))
        self._after = copy.deepcopy(after)
        self._mergeable = mergeable

    def id(self) -> int:
        return int(CommandId.AUTHORED_DATA)

    def redo(self) -> None:
        self.level.write_authored(self.key, copy.deepcopy(self._after))

    def undo(self) -> None:
        self.level.write_authored(self.key, copy.deepcopy(self._before))

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, AuthoredDataCommand) or not (self._mergeable and other._mergeable):
            return False
        if other.level is not self.level or other.key != self.key or other.text() != self.text():
            return False
        self._after = other._after
        self.setObsolete(self._after == self._before)
        return True
