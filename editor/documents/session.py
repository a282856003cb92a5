"""``Session``: which pack and level are open, and what the author has picked.

This is view state shared by the canvas, the palette, the inspector and the
tools (the current level, the stamp the brush paints, the cell the inspector
shows). It holds no level data of its own: that lives in the documents.
"""

from __future__ import annotations

from functools import partial

import shiboken6
from PySide6.QtCore import QObject, Signal

from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.values import Pos, Stamp


class _Held:
    """The session's open pack, reachable after the session's own wrapper is gone."""

    __slots__ = ("pack",)

    def __init__(self) -> None:
        self.pack: PackDocument | None = None


def _delete_pack(held: _Held, *_: object) -> None:
    pack, held.pack = held.pack, None
    if pack is not None and shiboken6.isValid(pack):
        pack.deleteLater()  # once the window's children (its undo actions) are gone too


class Session(QObject):
    pack_changed = Signal(object)  # PackDocument
    level_changed = Signal(object)  # LevelDocument | None
    stamp_changed = Signal(object)  # Stamp | None
    inspected_changed = Signal(object)  # Pos | None
    message = Signal(str)  # a short note for the status bar

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pack: PackDocument | None = None
        self._level: LevelDocument | None = None
        self._stamp: Stamp | None = None
        self._inspected: Pos | None = None
        self._pack_links = Connections()
        self._level_links = Connections()
        self._held = _Held()

    @property
    def pack(self) -> PackDocument | None:
        return self._pack

    @property
    def level(self) -> LevelDocument | None:
        return self._level

    @property
    def stamp(self) -> Stamp | None:
        return self._stamp

    @property
    def inspected(self) -> Pos | None:
        return self._inspected

    def release_pack_with(self, owner: QObject) -> None:
        """Delete the open pack once ``owner`` (the window) and all its children are gone.

        Panels connect closures over themselves to the pack's signals; a pack held
        only through such connections is a cycle the collector cannot see, so a
        closed window's pack would stay. It cannot go with the session itself: the
        window's undo actions, still alive then, would hear its history go away;
        nor at once when the window is destroyed, which comes before its children.
        """
        owner.destroyed.connect(partial(_delete_pack, self._held))

    def set_pack(self, pack: PackDocument) -> None:
        old = self._pack
        self._pack = pack
        self._held.pack = pack
        self._pack_links.follow(
            [
                (pack.level_removed, self._on_pack_level_removed),
                (pack.level_inserted, self._on_pack_level_inserted),
                (pack.level_edited, self._on_pack_level_edited),
            ]
        )
        self._level = None
        self.pack_changed.emit(pack)
        self.set_level(pack.levels[0] if pack.levels else None)
        if old is not None and old is not pack:
            old.deleteLater()

    def set_level(self, level: LevelDocument | None) -> None:
        if level is self._level:
            return
        self._level = level
        self._inspected = None
        self._level_links.follow([] if level is None else [(level.refused, self.message.emit)])
        self.level_changed.emit(level)
        self.inspected_changed.emit(None)

    def set_stamp(self, stamp: Stamp | None) -> None:
        if stamp != self._stamp:
            self._stamp = stamp
            self.stamp_changed.emit(stamp)

    def inspect(self, pos: Pos | None) -> None:
        if pos != self._inspected:
            self._inspected = pos
            self.inspected_changed.emit(pos)

    def _on_pack_level_inserted(self, index: int) -> None:
        assert self._pack is not None
        self.set_level(self._pack.level_at(index))

    def _on_pack_level_removed(self, index: int) -> None:
        pack = self._pack
        assert pack is not None
        if self._level is not None and not pack.has_level(self._level):  # not a list copy
            count = pack.level_count()
            self.set_level(pack.level_at(min(index, count - 1)) if count else None)

    def _on_pack_level_edited(self, level: LevelDocument) -> None:
        """Show the level an edit just changed: undo and redo may reach any level."""
        if level is not self._level and self._pack is not None and self._pack.has_level(level):
            self.set_level(level)
