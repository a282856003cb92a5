"""``LevelDocument``: the single gate for changes to one level.

It owns the level's cells and its authored data (automata, mechanics, the
intended solution: ``authored(key)``). Views read ``stack_at``, ``cells()`` and
``authored()`` and listen to ``cells_changed`` / ``properties_changed`` /
``authored_changed``; they never write. Tools and panels call the edit API
(``add_on_top``, ``remove_top``, ``move_region``, ``set_authored`` ...), which
turns a request into a command and pushes it on ``undo_stack``; only commands
call the ``write_*`` methods. Inside a pack, ``undo_stack`` is the pack's one
history; a level on its own keeps a stack of its own.

Entity ids are assigned here, from a counter that only grows, so an id never
changes while the level is open and is never reused.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any, cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

import engine
from editor.commands import (
    AuthoredDataCommand,
    LevelPropertiesCommand,
    PaintCellsCommand,
    UnshownEntitiesCommand,
)
from editor.documents.reading import (
    LevelParts,
    is_int,
    place_unshown,
    read_level,
    unexplained_changes,
)
from editor.values import (
    EMPTY,
    OBJECT,
    TOP_LEFT,
    Anchor,
    LevelProperties,
    Piece,
    Pos,
    Stack,
    Stamp,
    written_over,
)

#: Level keys the editor edits itself; every other key is carried through unchanged.
_OWN_KEYS = ("id", "title", "author", "width", "height", "entities")


class LevelDocument(QObject):
    """One level being edited. Views read and listen; tools call the edit API."""

    cells_changed = Signal(object)  # frozenset[Pos]
    properties_changed = Signal()
    authored_changed = Signal(str)  # the authored key that changed ("automata", ...)
    refused = Signal(str)  # an edit was refused; the reason, for the author
    #: Before each of the three signals above: this level, and ``"cells"``,
    #: ``"properties"`` or the authored key. For its pack, which follows thousands of
    #: levels: ``QObject.sender()`` walks every connection made to its receiver
    #: (9 ms per edit in a pack of 10,000 levels).
    edited = Signal(object, str)

    def __init__(
        self,
        properties: LevelProperties,
        stacks: Mapping[Pos, Stack] | None = None,
        extra: Mapping[str, Any] | None = None,
        parent: QObject | None = None,
        *,
        unshown: Iterable[Any] = (),
        entity_extra: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        super().__init__(parent)
        self._props = properties
        self._cells: dict[Pos, Stack] = {p: s for p, s in (stacks or {}).items() if s}
        self._extra = dict(extra or {})
        #: Entity records the board cannot show (off the grid, malformed), kept as written.
        self._unshown: tuple[Any, ...] = tuple(copy.deepcopy(list(unshown)))
        #: Fields of board entities beyond id, kind, token and position, kept by id.
        self._entity_extra = {i: dict(e) for i, e in (entity_extra or {}).items()}
        ids = [pc.id for s in self._cells.values() for pc in s]
        ids += [r["id"] for r in self._unshown if isinstance(r, Mapping) and is_int(r.get("id"))]
        self._next_id = 1 + max(ids, default=0)
        self._history = QUndoStack(self)
        #: ``(value,)``: the file's level was not an object (see :meth:`written`).
        self._whole: tuple[Any, ...] = ()
        self._whole_props = properties

    @property
    def undo_stack(self) -> QUndoStack:
        """Where this level's edits go: the pack's history once the level is in a pack."""
        return self._history

    def attach_history(self, stack: QUndoStack) -> None:
        """Push this level's edits on ``stack`` (a pack's one history) from now on."""
        self._history = stack

    # ----------------------------------------------------------------- reading
    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        notes: list[engine.Problem] | None = None,
        *,
        fallback_id: str = "level",
    ) -> LevelDocument:
        """Build from a level document (``engine.Level.to_data()`` form).

        Entities are stacked in list order, bottom first. With ``notes`` the reader
        keeps what the board cannot show, repairs what the editor cannot hold, and
        lists both in ``notes`` (``editor.documents.reading``); without it such
        input raises ``ValueError``. A size the grid does not allow (a width of
        10**9, ``"12"``, ``true``) is a ``ValueError`` naming it in both modes: the
        editor never guesses what the author meant, and never keeps a size a later
        paint would overflow on. The pack reader has already refused what no JSON
        text can hold (``engine.structure_problems``).
        """
        return cls.from_parts(read_level_parts(data, notes, fallback_id=fallback_id))

    @classmethod
    def from_parts(cls, parts: LevelParts) -> LevelDocument:
        """The document of parts :func:`read_level_parts` made (on any thread)."""
        level = cls(
            parts.properties,
            cast("dict[Pos, Stack]", parts.stacks),  # read_level_parts made them tuples
            parts.extra,
            unshown=parts.unshown,
            entity_extra=parts.entity_extra,
        )
        level._whole = parts.whole
        return level

    def written(self) -> Any:
        """What saving writes: :meth:`to_data`, or, for a level the file did not write
        as an object, that value as written until the author edits the level.

        The paths that write the pack or check it as it will be written use this;
        everything that reads a level (play, solve, pictures) uses :meth:`to_data`.
        """
        parts = LevelSnapshot(
            self._props, self._cells, self._entity_extra, self._unshown, self._extra, self._kept()
        )
        return parts.written()

    def snapshot(self) -> LevelSnapshot:
        """The level's parts as they are now, to be made a document on any thread.

        Well under a millisecond on the UI thread: the cell map is copied (stacks are
        tuples), the authored data copied deeply; the document itself is built from
        the snapshot by :func:`level_data` wherever it is needed (a worker), the one
        builder saving, checking and every panel's reading share.
        """
        return LevelSnapshot(
            self._props,
            dict(self._cells),
            dict(self._entity_extra),
            self._unshown,
            copy.deepcopy(self._extra),
            self._kept(),
        )

    def _kept(self) -> tuple[Any, ...]:
        """``(value,)`` while the level is the file's non-object value, untouched; else ``()``."""
        untouched = not (self._cells or self._unshown or self._extra)
        return self._whole if untouched and self._props == self._whole_props else ()

    def copy(self, properties: LevelProperties) -> LevelDocument:
        """A new document with this one's content and ``properties`` (Duplicate Level).

        Its content was read and checked when it came in and has been kept valid
        by every edit since, so nothing is written out and read again (that round
        trip was 1-2 ms of every Duplicate Level). Stacks are tuples of tuples and
        are shared; what can hold lists and maps is copied.
        """
        return LevelDocument(
            properties,
            self._cells,
            copy.deepcopy(self._extra),
            unshown=self._unshown,
            entity_extra=copy.deepcopy(self._entity_extra),
        )

    def to_data(self) -> dict[str, Any]:
        """The level document: entities row-major, each stack bottom first."""
        return level_data(self._props, self._cells, self._entity_extra, self._unshown, self._extra)

    @property
    def properties(self) -> LevelProperties:
        return self._props

    @property
    def level_id(self) -> str:
        return self._props.level_id

    @property
    def title(self) -> str:
        return self._props.title

    @property
    def width(self) -> int:
        return self._props.width

    @property
    def height(self) -> int:
        return self._props.height

    @property
    def extra(self) -> Mapping[str, Any]:
        """Authored data beyond the board (automata, mechanics, solution, unknown keys)."""
        return MappingProxyType(self._extra)

    def authored(self, key: str) -> Any:
        """A copy of the authored value of ``key`` (``None`` when absent)."""
        return copy.deepcopy(self._extra.get(key))

    def automaton_records(self) -> Sequence[Any]:
        """The authored automata as written (read-only by convention; no copy is made)."""
        automata = self._extra.get("automata")
        return automata if isinstance(automata, list) else ()

    def automaton_properties(self) -> frozenset[str]:
        automata = self._extra.get("automata")
        return frozenset(
            a["property"]
            for a in (automata if isinstance(automata, list) else [])
            if isinstance(a, Mapping) and isinstance(a.get("property"), str)
        )

    def unshown(self) -> tuple[Any, ...]:
        """Copies of the entity records the board cannot show, kept as written."""
        return copy.deepcopy(self._unshown)

    def has_frail(self) -> bool:
        mechanics = self._extra.get("mechanics")
        return any(
            isinstance(m, Mapping) and m.get("type") == "frail"
            for m in (mechanics if isinstance(mechanics, list) else [])
        )

    def stack_at(self, pos: Pos) -> Stack:
        return self._cells.get(pos, EMPTY)

    def cells(self) -> Mapping[Pos, Stack]:
        """Every non-empty cell; a read-only view that follows later edits."""
        return MappingProxyType(self._cells)

    def entity_count(self) -> int:
        return sum(len(s) for s in self._cells.values())

    def contains(self, pos: Pos) -> bool:
        return 0 <= pos.x < self._props.width and 0 <= pos.y < self._props.height

    def allocate_ids(self, count: int) -> list[int]:
        first = self._next_id
        self._next_id += count
        return list(range(first, first + count))

    # ---------------------------------------------------------------- edit API
    def add_on_top(
        self,
        cells: Iterable[Pos],
        stamp: Stamp,
        *,
        text: str = "Brush",
        continues_stroke: bool = False,
    ) -> bool:
        """Put one new ``stamp`` entity on top of each cell's stack."""
        targets = [p for p in dict.fromkeys(cells) if self.contains(p)]
        ids = self.allocate_ids(len(targets))
        changes = {
            p: (*self.stack_at(p), Piece(i, stamp.kind, stamp.token))
            for p, i in zip(targets, ids, strict=True)
        }
        return self._apply(changes, text, continues_stroke)

    def remove_top(
        self,
        cells: Iterable[Pos],
        *,
        whole_stack: bool = False,
        text: str = "Erase",
        continues_stroke: bool = False,
    ) -> bool:
        """Remove the top entity (or the whole stack) of each cell."""
        changes = {
            p: (EMPTY if whole_stack else self.stack_at(p)[:-1]) for p in cells if self.stack_at(p)
        }
        return self._apply(changes, text, continues_stroke)

    def set_stack(self, pos: Pos, stack: Stack, *, text: str) -> bool:
        """Replace one cell's stack with a reordering or a subset of its own pieces."""
        if not set(stack) <= set(self.stack_at(pos)) or len(set(stack)) != len(stack):
            raise ValueError("a stack can only be reordered or reduced here")
        return self._apply({pos: stack}, text, False)

    def move_region(self, cells: Iterable[Pos], dx: int, dy: int, *, copy: bool = False) -> bool:
        """Move (or copy) whole stacks by (dx, dy), on top of what is already there.

        Moved pieces keep their ids; copies get new ones. Every target must be
        inside the grid (the select tool clamps), so nothing is lost.
        """
        sources = [p for p in dict.fromkeys(cells) if self.stack_at(p)]
        if not sources or (dx, dy) == (0, 0):
            return False
        if not all(self.contains(Pos(p.x + dx, p.y + dy)) for p in sources):
            raise ValueError("the moved region would leave the grid")
        after: dict[Pos, Stack] = {} if copy else {p: EMPTY for p in sources}
        for p in sources:
            target = Pos(p.x + dx, p.y + dy)
            moved = self.stack_at(p)
            if copy:
                ids = self.allocate_ids(len(moved))
                moved = tuple(Piece(i, pc.kind, pc.token) for i, pc in zip(ids, moved, strict=True))
            after[target] = (*after.get(target, self.stack_at(target)), *moved)
        return self._apply(after, "Copy Region" if copy else "Move Region", False)

    def paste(self, stamps: Mapping[Pos, tuple[Stamp, ...]], *, text: str = "Paste") -> bool:
        """Add stacks of new entities on top of the given cells; cells off the grid are skipped."""
        changes: dict[Pos, Stack] = {}
        for pos, column in stamps.items():
            if self.contains(pos) and column:
                ids = self.allocate_ids(len(column))
                new = tuple(Piece(i, s.kind, s.token) for i, s in zip(ids, column, strict=True))
                changes[pos] = (*self.stack_at(pos), *new)
        return self._apply(changes, text, False)

    def clear(self, cells: Iterable[Pos], *, text: str = "Delete") -> bool:
        return self.remove_top(cells, whole_stack=True, text=text)

    def set_properties(self, after: LevelProperties, anchor: Anchor = TOP_LEFT) -> bool:
        """Change id/title/author/size; a resize shifts the contents by ``anchor``."""
        before = self._props
        if after == before:
            return False
        cells: dict[Pos, Stack] | None = None
        ox = oy = 0
        if (after.width, after.height) != (before.width, before.height):
            ox, oy = self._resize_offset(after.width, after.height, anchor)
            cells = {}
            for pos, stack in self._cells.items():
                moved = Pos(pos.x + ox, pos.y + oy)
                if 0 <= moved.x < after.width and 0 <= moved.y < after.height:
                    cells[moved] = stack
        text = "Resize Level" if cells is not None else "Level Properties"
        kept = self._placed_by_resize(cells, after, ox, oy) if cells is not None else None
        if kept is None:
            self.undo_stack.push(LevelPropertiesCommand(self, after, cells, text=text))
            return True
        self.undo_stack.beginMacro(text)  # the resize, and the records it put on the board
        self.undo_stack.push(LevelPropertiesCommand(self, after, cells, text=text))
        self.undo_stack.push(UnshownEntitiesCommand(self, kept, text=text))
        self.undo_stack.endMacro()
        return True

    def removed_by_resize(self, width: int, height: int, anchor: Anchor = TOP_LEFT) -> list[Piece]:
        """The entities a resize to ``width x height`` would push off the board, bottom
        first per cell (an author is told how many before they go)."""
        ox, oy = self._resize_offset(width, height, anchor)
        return [
            piece
            for pos, stack in self._cells.items()
            if not (0 <= pos.x + ox < width and 0 <= pos.y + oy < height)
            for piece in stack
        ]

    def _resize_offset(self, width: int, height: int, anchor: Anchor) -> tuple[int, int]:
        """How far the contents move when the board becomes ``width x height``."""
        return (
            (width - self._props.width) * anchor.ax // 2,
            (height - self._props.height) * anchor.ay // 2,
        )

    def _placed_by_resize(
        self, cells: dict[Pos, Stack], after: LevelProperties, ox: int, oy: int
    ) -> list[Any] | None:
        """Put the not-shown records the resized grid can hold into ``cells`` (see
        :func:`place_unshown`); ``None`` when none moved."""
        if not self._unshown:
            return None
        kept, extras = place_unshown(self._unshown, cells, after.width, after.height, ox, oy)
        self._entity_extra.update(extras)  # fields beyond the board's, by the pieces' ids
        return None if len(kept) == len(self._unshown) else kept

    def remove_unshown(self, index: int, *, text: str = "Delete Entity Off the Board") -> bool:
        """Delete one of the records the board cannot show (``unshown()[index]``)."""
        if not 0 <= index < len(self._unshown):
            return False
        kept = [r for i, r in enumerate(self._unshown) if i != index]
        self.undo_stack.push(UnshownEntitiesCommand(self, kept, text=text))
        return True

    def set_authored(self, key: str, value: Any, *, text: str, mergeable: bool = False) -> bool:
        """Set one authored key (``None`` removes it) as one undoable edit.

        ``key`` must be authored data beyond the board; the board and the level's
        properties have their own edits. ``mergeable`` joins a run of edits of one
        field (a spin box) into one undo step.
        """
        if key in _OWN_KEYS:
            raise ValueError(f"{key!r} is edited through the board or the level properties")
        if self._extra.get(key) == value:
            return False
        self.undo_stack.push(AuthoredDataCommand(self, key, value, text=text, mergeable=mergeable))
        return True

    def _apply(self, changes: Mapping[Pos, Stack], text: str, continues_stroke: bool) -> bool:
        real = {p: s for p, s in changes.items() if s != self.stack_at(p)}
        if not real:
            return False
        count = self.entity_count() + sum(len(s) - len(self.stack_at(p)) for p, s in real.items())
        if count > engine.MAX_ENTITIES and count > self.entity_count():
            self.refused.emit(
                f"{text} refused: the level would hold {count:,} entities, "
                f"and a level holds at most {engine.MAX_ENTITIES:,}"
            )
            return False
        self.undo_stack.push(PaintCellsCommand(self, real, text=text, mergeable=continues_stroke))
        return True

    # --------------------------------------------------- writes (commands only)
    def write_cells(self, changes: Mapping[Pos, Stack]) -> None:
        for pos, stack in changes.items():
            if stack:
                self._cells[pos] = stack
            else:
                self._cells.pop(pos, None)
        self.edited.emit(self, "cells")
        self.cells_changed.emit(frozenset(changes))

    def write_properties(self, props: LevelProperties, cells: Mapping[Pos, Stack] | None) -> None:
        touched = set(self._cells)
        self._props = props
        if cells is not None:
            self._cells = {p: s for p, s in cells.items() if s}
        self.edited.emit(self, "properties")
        self.properties_changed.emit()
        if cells is not None:
            self.edited.emit(self, "cells")
            self.cells_changed.emit(frozenset(touched | set(self._cells)))

    def write_unshown(self, records: tuple[Any, ...]) -> None:
        """Replace the not-shown records; ``cells_changed`` with no cell tells listeners."""
        self._unshown = tuple(records)
        self.edited.emit(self, "cells")
        self.cells_changed.emit(frozenset())

    def write_authored(self, key: str, value: Any) -> None:
        if value is None:
            self._extra.pop(key, None)
        else:
            self._extra[key] = value
        self.edited.emit(self, key)
        self.authored_changed.emit(key)


def read_level_parts(
    data: Mapping[str, Any],
    notes: list[engine.Problem] | None = None,
    *,
    fallback_id: str = "level",
) -> LevelParts:
    """:meth:`LevelDocument.from_data` without the QObject: plain data, safe off the UI thread.

    Opening a large pack reads every level on a worker and makes the documents on
    the UI thread, where QObjects belong (a QObject made on a worker, with its
    Python-connected signals, risks a deadlock between the interpreter lock and
    Qt's own locks).
    """
    parts = read_level(data, fallback_id=fallback_id)
    if notes is None and parts.notes:
        raise ValueError(f"level {parts.properties.level_id}: {parts.notes[0].message}")
    stacks: dict[Pos, Stack] = {p: tuple(s) for p, s in parts.stacks.items() if s}
    parts.stacks = cast("dict[Pos, list[Piece]]", stacks)  # read-only from here: tuples
    if notes is not None:
        found = parts.notes
        written = level_data(
            parts.properties,
            stacks,
            parts.entity_extra,
            parts.unshown,
            parts.extra,
        )
        found += unexplained_changes(data, written, found)
        notes += [n.located(pack=None, level=parts.properties.level_id) for n in found]
    return parts


_PROPERTIES = attrgetter("_props")
_NAME = attrgetter("title", "level_id")


def list_names(levels: Iterable[LevelDocument]) -> list[str]:
    """Each level's name as the level list shows it: its title, or its id when untitled.

    The list shows a new pack's names in one go; read through the properties a level
    at a time, 10,000 names were 2-4 ms of the UI thread, read by ``attrgetter`` 1 ms.
    """
    return [title or level_id for title, level_id in map(_NAME, map(_PROPERTIES, levels))]


@dataclass(frozen=True, slots=True)
class LevelSnapshot:
    """A level's parts at one moment (:meth:`LevelDocument.snapshot`), read-only.

    Nothing in it is changed in place afterwards: stacks and records are tuples,
    and the document replaces (never edits) the maps' values.
    """

    properties: LevelProperties
    cells: Mapping[Pos, Stack]
    entity_extra: Mapping[int, Mapping[str, Any]]
    unshown: tuple[Any, ...]
    extra: Mapping[str, Any]
    #: ``(value,)``: the file's level was not an object and is still untouched.
    whole: tuple[Any, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The level document (:meth:`LevelDocument.to_data`): what play and solve read."""
        return level_data(self.properties, self.cells, self.entity_extra, self.unshown, self.extra)

    def written(self) -> Any:
        """What saving writes (:meth:`LevelDocument.written`): what every check reads."""
        return copy.deepcopy(self.whole[0]) if self.whole else self.to_data()


def level_data(
    props: LevelProperties,
    cells: Mapping[Pos, Sequence[Piece]],
    entity_extra: Mapping[int, Mapping[str, Any]],
    unshown: Iterable[Any],
    extra: Mapping[str, Any],
) -> dict[str, Any]:
    """A level document from its parts: entities row-major, each stack bottom first.

    The editor's one level-to-JSON builder: saving, the Problems panel's check, the
    shared reading of the current level (rules, automata, FRAIL panels) and play all
    read what it makes, so they see the same document (the records the board cannot
    show and the fields beyond a board entity's own included)."""
    data: dict[str, Any] = {"id": props.level_id}
    if props.title:
        data["title"] = props.title
    if props.author:
        data["author"] = props.author
    data["width"], data["height"] = props.width, props.height
    data["entities"] = [
        {
            "id": pc.id,
            "kind": pc.kind,
            ("noun" if pc.kind == OBJECT else "text"): pc.token,
            "x": pos.x,
            "y": pos.y,
            **(copy.deepcopy(entity_extra[pc.id]) if pc.id in entity_extra else {}),
        }
        for pos in sorted(cells, key=lambda q: (q.y, q.x))
        for pc in cells[pos]
    ]
    data["entities"] += copy.deepcopy(list(unshown))  # kept, after the board's
    data.update(copy.deepcopy(dict(extra)))  # callers may mutate what they get
    if props.written:  # fields kept as the file wrote them (a width of "9")
        current = {**props.values(), "entities": len(data["entities"])}
        written_over(data, props.written, current)
    return data
