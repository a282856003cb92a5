"""Entity records a level keeps but cannot show on its board (off the grid, malformed).

They are part of the author's level, so changing them is an edit like any other:
a resize that brings them onto the board, or deleting one the author gave up on.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from editor.commands.base import LevelCommand
from editor.commands.targets import LevelTarget


class UnshownEntitiesCommand(LevelCommand):
    """Replace the level's list of entity records that are not shown on the board."""

    def __init__(self, level: LevelTarget, after: Sequence[Any], *, text: str) -> None:
        super().__init__(level, text)
        self._before = level.unshown()
        self._after = tuple(copy.deepcopy(list(after)))

    def redo(self) -> None:
        self.level.write_unshown(copy.deepcopy(self._after))

    def undo(self) -> None:
        self.level.write_unshown(copy.deepcopy(self._before))
