"""Pack-level edits: the level list (insert, remove, move), nouns and pack properties.

These live on the pack's own undo stack: a level's stack goes away with the
level, so it cannot hold the edit that removed it. A removed level document is
kept alive inside its command, with its own history intact, for undo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

if TYPE_CHECKING:
    from editor.documents.level import LevelDocument
    from editor.documents.pack import NounSpec, PackDocument, PackProperties


class InsertLevelCommand(QUndoCommand):
    def __init__(self, pack: PackDocument, index: int, level: LevelDocument, *, text: str) -> None:
        super().__init__(text)
        self._pack, self._index, self._level = pack, index, level

    def redo(self) -> None:
        self._pack.write_insert_level(self._index, self._level)

    def undo(self) -> None:
        self._pack.write_remove_level(self._index)


class RemoveLevelCommand(QUndoCommand):
    def __init__(self, pack: PackDocument, index: int) -> None:
        super().__init__(f"Delete Level {pack.levels[index].level_id}")
        self._pack, self._index = pack, index
        self._level = pack.levels[index]

    def redo(self) -> None:
        self._pack.write_remove_level(self._index)

    def undo(self) -> None:
        self._pack.write_insert_level(self._index, self._level)


class MoveLevelCommand(QUndoCommand):
    def __init__(self, pack: PackDocument, source: int, target: int) -> None:
        super().__init__(f"Move Level {pack.levels[source].level_id}")
        self._pack, self._source, self._target = pack, source, target

    def redo(self) -> None:
        self._pack.write_move_level(self._source, self._target)

    def undo(self) -> None:
        self._pack.write_move_level(self._target, self._source)


class AddNounCommand(QUndoCommand):
    def __init__(self, pack: PackDocument, name: str, spec: NounSpec) -> None:
        super().__init__(f"Add Noun {name}")
        self._pack, self._name, self._spec = pack, name, spec

    def redo(self) -> None:
        self._pack.write_noun(self._name, self._spec)

    def undo(self) -> None:
        self._pack.write_noun(self._name, None)


class PackPropertiesCommand(QUndoCommand):
    def __init__(self, pack: PackDocument, after: PackProperties) -> None:
        super().__init__("Pack Properties")
        self._pack, self._before, self._after = pack, pack.properties, after

    def redo(self) -> None:
        self._pack.write_properties(self._after)

    def undo(self) -> None:
        self._pack.write_properties(self._before)
