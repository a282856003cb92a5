"""``PackDocument``: a pack being edited — its properties, nouns and levels.

The pack keeps ONE undo history (``undo_stack``) for every edit: the level
list, nouns, pack properties, and every level's board and authored data, so
Ctrl+Z always undoes the most recent edit, whatever it was. The pack is *dirty*
while that history is away from its clean (saved) index.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

import engine
from editor.commands import (
    AddNounCommand,
    InsertLevelCommand,
    MoveLevelCommand,
    PackPropertiesCommand,
    RemoveLevelCommand,
)
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.values import LevelProperties, NounSpec, PackProperties, text

FORMAT, VERSION = "rulegrid-pack", 1

#: Nouns a new pack starts with, so an author can paint at once (Baba's colours).
STARTER_NOUNS: dict[str, str] = {  # colours from engine.NOUN_COLORS: safe for colour blindness
    "BABA": "#cc79a7",
    "ROCK": "#9c6b30",
    "FLAG": "#f0e442",
    "WALL": "#6e6e6e",
    "WATER": "#56b4e9",
    "SKULL": "#1f3a93",
    "KEKE": "#d55e00",
    "LAVA": "#e69f00",
}


class PackDocument(QObject):
    """The open pack. Views listen; edits go through the methods below."""

    level_about_to_be_inserted = Signal(int)
    level_inserted = Signal(int)
    level_about_to_be_removed = Signal(int)
    level_removed = Signal(int)
    level_about_to_be_moved = Signal(int, int)
    level_moved = Signal(int, int)  # source, target (index after the move)
    level_changed = Signal(int)  # id, title or size of the level at this index
    level_edited = Signal(object)  # LevelDocument: any edit of it (board, properties, data)
    nouns_changed = Signal()
    properties_changed = Signal()
    dirty_changed = Signal(bool)

    def __init__(
        self,
        properties: PackProperties,
        nouns: Mapping[str, NounSpec],
        levels: list[LevelDocument],
        *,
        path: Path | None = None,
        folder: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._props = properties
        self._nouns = dict(nouns)
        self._levels: list[LevelDocument] = []
        self.path = path
        self.folder = folder  # saved as a folder holding pack.json
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._update_dirty)
        self._dirty = False
        self._watched: dict[LevelDocument, Connections] = {}
        for level in levels:
            self._adopt(level)
            self._levels.append(level)

    # ------------------------------------------------------------ construction
    @classmethod
    def untitled(cls) -> PackDocument:
        level = LevelDocument(LevelProperties("level-1", "Level 1", "", 12, 9))
        nouns = {name: NounSpec(color) for name, color in STARTER_NOUNS.items()}
        return cls(PackProperties("untitled", "Untitled pack"), nouns, [level])

    @classmethod
    def from_pack(
        cls, pack: engine.Pack, *, path: Path | None = None, folder: bool = False
    ) -> PackDocument:
        return cls.from_data(pack.to_data(), path=path, folder=folder)

    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        *,
        path: Path | None = None,
        folder: bool = False,
        notes: list[str] | None = None,
    ) -> PackDocument:
        """Build from a pack document; with ``notes`` repair what can be repaired (see LevelDocument).

        With ``notes`` the document is one the engine refused (opened for repair, a
        backup, recovered work), so first the engine says whether it can be held
        at all (``engine.structure_problems``: lists and maps within their caps,
        no deep nesting, no NaN or huge number, no lone surrogate); if not, a
        ``ValueError`` names the first place. A value the editor cannot hold is a
        ``ValueError`` too, never another exception.
        """
        if notes is not None:
            problems = engine.structure_problems(data)
            if problems:
                more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                first = problems[0]
                raise ValueError(f"{first.pointer or '/'}: {first.message}{more}")
        if not isinstance(data, Mapping):
            raise ValueError(f"a pack is an object, not {type(data).__name__}")
        pack_id = data.get("id")
        if not isinstance(pack_id, str):
            raise ValueError("the pack's id must be text")
        props = PackProperties(
            pack_id,
            text(data.get("title"), "the pack's title"),
            text(data.get("author"), "the pack's author"),
            text(data.get("description"), "the pack's description"),
        )
        styles = data.get("nouns", {})
        if not isinstance(styles, Mapping):
            raise ValueError("the pack's nouns must be an object")
        nouns: dict[str, NounSpec] = {}
        for name, style in styles.items():
            if not isinstance(style, Mapping):
                raise ValueError(f"the style of noun {str(name)[:30]!r} must be an object")
            nouns[str(name)] = NounSpec(
                text(style.get("color"), f"noun {name[:30]!r}: the colour"),
                text(style.get("glyph"), f"noun {name[:30]!r}: the glyph"),
            )
        levels = data.get("levels", [])
        if not isinstance(levels, list):
            raise ValueError("the pack's levels must be a list")
        documents = [LevelDocument.from_data(level, notes) for level in levels]
        return cls(props, nouns, documents, path=path, folder=folder)

    def to_data(self) -> dict[str, Any]:
        p = self._props
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "id": p.pack_id,
            "title": p.title,
        }
        if p.author:
            data["author"] = p.author
        if p.description:
            data["description"] = p.description
        data["nouns"] = {
            name: ({"color": s.color, "glyph": s.glyph} if s.glyph else {"color": s.color})
            for name, s in self._nouns.items()
        }
        data["levels"] = [level.to_data() for level in self._levels]
        return data

    # ----------------------------------------------------------------- reading
    @property
    def properties(self) -> PackProperties:
        return self._props

    @property
    def nouns(self) -> Mapping[str, NounSpec]:
        return dict(self._nouns)

    @property
    def levels(self) -> list[LevelDocument]:
        return list(self._levels)

    def index_of(self, level: LevelDocument) -> int:
        return self._levels.index(level)

    def level_at(self, index: int) -> LevelDocument:
        return self._levels[index]

    def level_id_at(self, index: int) -> str:
        return self._levels[index].level_id

    def is_dirty(self) -> bool:
        return self._dirty

    def display_name(self) -> str:
        if self.path is None:
            return "untitled"
        return self.path.name

    def mark_unsaved(self) -> None:
        """Count as changed against the file on disk (restored work): no undo reaches "saved"."""
        self.undo_stack.resetClean()
        self._update_dirty()

    def mark_saved(self, path: Path, *, folder: bool) -> None:
        self.path, self.folder = path, folder
        self.undo_stack.setClean()
        self._update_dirty()

    # ---------------------------------------------------------------- edit API
    def unique_level_id(self, base: str) -> str:
        taken = {level.level_id for level in self._levels}
        stem = base.rstrip("0123456789-") or "level"
        if base not in taken:
            return base
        n = 2
        while f"{stem}-{n}" in taken:
            n += 1
        return f"{stem}-{n}"

    def add_level(self, index: int, *, width: int = 12, height: int = 9) -> LevelDocument:
        level_id = self.unique_level_id(f"level-{len(self._levels) + 1}")
        title = f"Level {len(self._levels) + 1}"
        level = LevelDocument(LevelProperties(level_id, title, "", width, height))
        self.undo_stack.push(InsertLevelCommand(self, index, level, text="Add Level"))
        return level

    def duplicate_level(self, index: int) -> LevelDocument:
        source = self._levels[index]
        copy = LevelDocument.from_data(source.to_data())
        props = replace(
            copy.properties,
            level_id=self.unique_level_id(f"{source.level_id}-copy"),
            title=f"{source.title or source.level_id} (copy)",
        )
        copy.write_properties(props, None)
        self.undo_stack.push(InsertLevelCommand(self, index + 1, copy, text="Duplicate Level"))
        return copy

    def remove_level(self, index: int) -> None:
        self.undo_stack.push(RemoveLevelCommand(self, index))

    def move_level(self, source: int, target: int) -> bool:
        if source == target or not (0 <= target < len(self._levels)):
            return False
        self.undo_stack.push(MoveLevelCommand(self, source, target))
        return True

    def add_noun(self, name: str, spec: NounSpec) -> None:
        if name in self._nouns:
            raise ValueError(f"the pack already has a noun {name}")
        self.undo_stack.push(AddNounCommand(self, name, spec))

    def set_properties(self, after: PackProperties) -> bool:
        if after == self._props:
            return False
        self.undo_stack.push(PackPropertiesCommand(self, after))
        return True

    # --------------------------------------------------- writes (commands only)
    def write_insert_level(self, index: int, level: LevelDocument) -> None:
        self.level_about_to_be_inserted.emit(index)
        self._levels.insert(index, level)
        self._adopt(level)
        self.level_inserted.emit(index)
        self._update_dirty()

    def write_remove_level(self, index: int) -> None:
        self.level_about_to_be_removed.emit(index)
        level = self._levels.pop(index)
        level.properties_changed.disconnect(self._on_level_properties_changed)
        self.level_removed.emit(index)
        self._update_dirty()

    def write_move_level(self, source: int, target: int) -> None:
        self.level_about_to_be_moved.emit(source, target)
        self._levels.insert(target, self._levels.pop(source))
        self.level_moved.emit(source, target)

    def write_noun(self, name: str, spec: NounSpec | None) -> None:
        if spec is None:
            self._nouns.pop(name, None)
        else:
            self._nouns[name] = spec
        self.nouns_changed.emit()

    def write_properties(self, props: PackProperties) -> None:
        self._props = props
        self.properties_changed.emit()

    # ---------------------------------------------------------------- internal
    def _adopt(self, level: LevelDocument) -> None:
        level.setParent(self)
        level.attach_history(self.undo_stack)
        level.properties_changed.connect(self._on_level_properties_changed)
        links = self._watched.setdefault(level, Connections())
        links.follow(
            [
                (level.cells_changed, lambda _cells, lv=level: self.level_edited.emit(lv)),
                (level.properties_changed, lambda lv=level: self.level_edited.emit(lv)),
                (level.authored_changed, lambda _key, lv=level: self.level_edited.emit(lv)),
            ]
        )

    def _on_level_properties_changed(self) -> None:
        sender = self.sender()
        if isinstance(sender, LevelDocument) and sender in self._levels:
            self.level_changed.emit(self._levels.index(sender))

    def _update_dirty(self, *_: object) -> None:
        dirty = not self.undo_stack.isClean()
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)
