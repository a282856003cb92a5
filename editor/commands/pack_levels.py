"""Pack-level edits: the level list (insert, remove, move), nouns and pack properties.

They share the pack's one history with the level edits. A removed level document
is kept alive inside its command for undo; the level edits before it in the
history still point at it, so undoing past the removal finds it whole.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from editor.commands.targets import PackTarget
from editor.values import NounSpec, PackProperties


class InsertLevelCommand(QUndoCommand):
    def __init__(self, pack: PackTarget, index: int, level: Any, *, text: str) -> None:
        super().__init__(text)
        self._pack, self._index, self._level = pack, index, level

    def redo(self) -> None:
        self._pack.write_insert_level(self._index, self._level)

    def undo(self) -> None:
        self._pack.write_remove_level(self._index)


class RemoveLevelCommand(QUndoCommand):
    def __init__(self, pack: PackTarget, index: int) -> None:
        super().__init__(f"Delete Level {pack.level_id_at(index)}")
        self._pack, self._index = pack, index
        self._level = pack.level_at(index)

    def redo(self) -> None:
        self._pack.write_remove_level(self._index)

    def undo(self) -> None:
        self._pack.write_insert_level(self._index, self._level)


class MoveLevelCommand(QUndoCommand):
    def __init__(self, pack: PackTarget, source: int, target: int) -> None:
        super().__init__(f"Move Level {pack.level_id_at(source)}")
        self._pack, self._source, self._target = pack, source, target

    def redo(self) -> None:
        self._pack.write_move_level(self._source, self._target)

    def undo(self) -> None:
        self._pack.write_move_level(self._target, self._source)


class AddNounCommand(QUndoCommand):
    def __init__(self, pack: PackTarget, name: str, spec: NounSpec) -> None:
        super().__init__(f"Add Noun {name}")
        self._pack, self._name, self._spec = pack, name, spec

    def redo(self) -> None:
        self._pack.write_noun(self._name, self._spec)

    def undo(self) -> None:
        self._pack.write_noun(self._name, None)


class NounStyleCommand(QUndoCommand):
    """A noun's colour and glyph; a style the file wrote so the editor could not show
    it (kept as written until now) is replaced, and comes back on undo."""

    def __init__(self, pack: PackTarget, name: str, spec: NounSpec) -> None:
        super().__init__(f"Noun Style {name}")
        self._pack, self._name, self._after = pack, name, spec
        self._before = pack.noun_style(name)

    def redo(self) -> None:
        self._pack.write_noun_style(self._name, self._after, None)

    def undo(self) -> None:
        self._pack.write_noun_style(self._name, *self._before)


class PackPropertiesCommand(QUndoCommand):
    def __init__(self, pack: PackTarget, after: PackProperties) -> None:
        super().__init__("Pack Properties")
        self._pack, self._before, self._after = pack, pack.properties, after

    def redo(self) -> None:
        self._pack.write_properties(self._after)

    def undo(self) -> None:
        self._pack.write_properties(self._before)
