"""Level properties: id, title, author and size (with contents shifted by an anchor)."""

from __future__ import annotations

from collections.abc import Mapping

from editor.commands.base import LevelCommand
from editor.commands.targets import LevelTarget
from editor.values import LevelProperties, Pos, Stack


class LevelPropertiesCommand(LevelCommand):
    """Swap the level's properties and, when it was resized, all of its cells."""

    def __init__(
        self,
        document: LevelTarget,
        after: LevelProperties,
        after_cells: Mapping[Pos, Stack] | None,
        *,
        text: str = "Level Properties",
    ) -> None:
        super().__init__(document, text)
        self._before = document.properties
        self._after = after
        # Cells are stored only when the edit moved or dropped pieces (a resize).
        self._before_cells = dict(document.cells()) if after_cells is not None else None
        self._after_cells = dict(after_cells) if after_cells is not None else None

    def redo(self) -> None:
        self.level.write_properties(self._after, self._after_cells)

    def undo(self) -> None:
        self.level.write_properties(self._before, self._before_cells)
