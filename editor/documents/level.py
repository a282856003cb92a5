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
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

import engine
from editor.commands import AuthoredDataCommand, LevelPropertiesCommand, PaintCellsCommand
from editor.documents.values import (
    EMPTY,
    OBJECT,
    TOP_LEFT,
    WORD,
    Anchor,
    LevelProperties,
    Piece,
    Pos,
    Stack,
    Stamp,
    grid_size,
    is_token,
    text,
    whole_number,
)

#: Level keys the editor edits itself; every other key is carried through unchanged.
_OWN_KEYS = ("id", "title", "author", "width", "height", "entities")


class LevelDocument(QObject):
    """One level being edited. Views read and listen; tools call the edit API."""

    cells_changed = Signal(object)  # frozenset[Pos]
    properties_changed = Signal()
    authored_changed = Signal(str)  # the authored key that changed ("automata", ...)
    refused = Signal(str)  # an edit was refused; the reason, for the author

    def __init__(
        self,
        properties: LevelProperties,
        stacks: Mapping[Pos, Stack] | None = None,
        extra: Mapping[str, Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._props = properties
        self._cells: dict[Pos, Stack] = {p: s for p, s in (stacks or {}).items() if s}
        self._extra = dict(extra or {})
        self._next_id = 1 + max((pc.id for s in self._cells.values() for pc in s), default=0)
        self._history = QUndoStack(self)

    @property
    def undo_stack(self) -> QUndoStack:
        """Where this level's edits go: the pack's history once the level is in a pack."""
        return self._history

    def attach_history(self, stack: QUndoStack) -> None:
        """Push this level's edits on ``stack`` (a pack's one history) from now on."""
        self._history = stack

    # ----------------------------------------------------------------- reading
    @classmethod
    def from_data(cls, data: Mapping[str, Any], notes: list[str] | None = None) -> LevelDocument:
        """Build from a level document (``engine.Level.to_data()`` form).

        Entities are stacked in list order, bottom first. With ``notes`` the
        reader repairs what the editor cannot hold (pieces off the grid or with a
        noun or text that is no token are dropped, repeated ids renumbered) and
        says so in ``notes``; without it such input raises ``ValueError``. Values
        the editor can never hold (a width of 10**9, a number that is no whole
        number, a kind it does not know) raise ``ValueError`` naming where they
        are, in both modes; the pack reader has already refused what no JSON
        text can hold (``engine.structure_problems``).
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a level is an object, not {type(data).__name__}")
        level_id = data.get("id")
        if not isinstance(level_id, str):
            raise ValueError("a level's id must be text")
        where = f"level {level_id[:40]!r}"
        width = grid_size(data.get("width"), f"{where}: the width")
        height = grid_size(data.get("height"), f"{where}: the height")
        props = LevelProperties(
            level_id,
            text(data.get("title"), f"{where}: the title"),
            text(data.get("author"), f"{where}: the author"),
            width,
            height,
        )
        entities = data.get("entities", [])
        if not isinstance(entities, list) or len(entities) > engine.MAX_ENTITIES:
            raise ValueError(
                f"{where}: the entities must be a list of at most {engine.MAX_ENTITIES:,}"
            )
        stacks: dict[Pos, list[Piece]] = {}
        seen: set[int] = set()
        pending: list[tuple[Pos, int, str, str]] = []
        dropped = renumbered = bad_tokens = 0
        for index, raw in enumerate(entities):
            here = f"{where}: entity {index}"
            if not isinstance(raw, Mapping):
                raise ValueError(f"{here} is not an object")
            kind = raw.get("kind")
            if kind not in (OBJECT, WORD):
                raise ValueError(f"{here}: unknown entity kind {str(kind)[:30]!r}")
            token = raw.get("noun" if kind == OBJECT else "text")
            if not is_token(token):
                if notes is None:
                    raise ValueError(f"{here}: {str(token)[:30]!r} is not a token")
                bad_tokens += 1
                continue
            assert isinstance(token, str)
            big = 2**63  # the engine refuses anything past this; the editor never holds it
            pos = Pos(
                whole_number(raw.get("x"), f"{here}: x", -big, big),
                whole_number(raw.get("y"), f"{here}: y", -big, big),
            )
            entity_id = whole_number(raw.get("id"), f"{here}: the id", -big, big)
            if not (0 <= pos.x < width and 0 <= pos.y < height):
                if notes is None:
                    raise ValueError(f"entity {entity_id} at {tuple(pos)} is outside the grid")
                dropped += 1
                continue
            if entity_id in seen or entity_id < 1:
                if notes is None:
                    raise ValueError(f"entity id {entity_id} is used twice")
                renumbered += 1
                entity_id = 0  # assigned below, after every kept id is known
            seen.add(entity_id)
            pending.append((pos, entity_id, kind, token))
        next_id = max(seen, default=0) + 1
        for pos, entity_id, kind, token in pending:
            if entity_id == 0:
                entity_id, next_id = next_id, next_id + 1
            stacks.setdefault(pos, []).append(Piece(entity_id, kind, token))
        if notes is not None and dropped:
            notes.append(
                f"level {props.level_id}: {dropped} entities outside the grid were dropped"
            )
        if notes is not None and renumbered:
            notes.append(
                f"level {props.level_id}: {renumbered} repeated entity ids were renumbered"
            )
        if notes is not None and bad_tokens:
            notes.append(
                f"level {props.level_id}: {bad_tokens} entities whose noun or text is not a "
                "token were dropped"
            )
        extra = {k: v for k, v in data.items() if k not in _OWN_KEYS}
        return cls(props, {p: tuple(s) for p, s in stacks.items()}, extra)

    def to_data(self) -> dict[str, Any]:
        """The level document: entities row-major, each stack bottom first."""
        p = self._props
        data: dict[str, Any] = {"id": p.level_id}
        if p.title:
            data["title"] = p.title
        if p.author:
            data["author"] = p.author
        data["width"], data["height"] = p.width, p.height
        data["entities"] = [
            {
                "id": pc.id,
                "kind": pc.kind,
                ("noun" if pc.kind == OBJECT else "text"): pc.token,
                "x": pos.x,
                "y": pos.y,
            }
            for pos in sorted(self._cells, key=lambda q: (q.y, q.x))
            for pc in self._cells[pos]
        ]
        data.update(copy.deepcopy(self._extra))  # callers may mutate what they get
        return data

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

    def automaton_properties(self) -> frozenset[str]:
        return frozenset(
            str(a["property"]) for a in self._extra.get("automata", []) if isinstance(a, Mapping)
        )

    def has_frail(self) -> bool:
        return any(
            isinstance(m, Mapping) and m.get("type") == "frail"
            for m in self._extra.get("mechanics", [])
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
        if (after.width, after.height) != (before.width, before.height):
            ox = (after.width - before.width) * anchor.ax // 2
            oy = (after.height - before.height) * anchor.ay // 2
            cells = {}
            for pos, stack in self._cells.items():
                moved = Pos(pos.x + ox, pos.y + oy)
                if 0 <= moved.x < after.width and 0 <= moved.y < after.height:
                    cells[moved] = stack
        text = "Resize Level" if cells is not None else "Level Properties"
        self.undo_stack.push(LevelPropertiesCommand(self, after, cells, text=text))
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
        self.cells_changed.emit(frozenset(changes))

    def write_properties(self, props: LevelProperties, cells: Mapping[Pos, Stack] | None) -> None:
        touched = set(self._cells)
        self._props = props
        if cells is not None:
            self._cells = {p: s for p, s in cells.items() if s}
        self.properties_changed.emit()
        if cells is not None:
            self.cells_changed.emit(frozenset(touched | set(self._cells)))

    def write_authored(self, key: str, value: Any) -> None:
        if value is None:
            self._extra.pop(key, None)
        else:
            self._extra[key] = value
        self.authored_changed.emit(key)
