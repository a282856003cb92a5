"""``PackDocument``: a pack being edited — its properties, nouns and levels.

The pack keeps ONE undo history (``undo_stack``) for every edit: the level
list, nouns, pack properties, and every level's board and authored data, so
Ctrl+Z always undoes the most recent edit, whatever it was. The pack is *dirty*
while that history is away from its clean (saved) index.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

import engine
from editor.commands import (
    AddNounCommand,
    InsertLevelCommand,
    MoveLevelCommand,
    NounStyleCommand,
    PackPropertiesCommand,
    RemoveLevelCommand,
)
from editor.connections import Connections
from editor.documents.level import LevelDocument, level_data, read_level_parts
from editor.documents.level_index import LevelIndex
from editor.documents.reading import NOT_SHOWN, LevelParts, unexplained_changes
from editor.values import (
    ABSENT,
    LevelProperties,
    NounSpec,
    PackProperties,
    Written,
    written_note,
    written_over,
)

FORMAT, VERSION = "rulegrid-pack", 1
#: Pack keys the editor edits itself; every other key is carried through unchanged.
_OWN_KEYS = ("id", "title", "author", "description", "nouns", "levels")
#: How the palette shows a noun whose style the editor cannot read.
UNSHOWN_NOUN_COLOR = "#808080"

#: Nouns a new pack starts with, so an author can paint at once (Baba's colours); the
#: engine's, whose lint knows them (an unused starter noun is not the author's mistake).
STARTER_NOUNS: dict[str, str] = dict(engine.STARTER_NOUNS)


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
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self._props = properties
        self._nouns = dict(nouns)
        #: Pack fields beyond the editor's own (format, version, unknown ones), kept as read.
        self._extra = dict(extra or {})
        self._kept_styles: dict[str, Any] = {}  # noun styles the editor cannot show
        self._written: Written = ()  # nouns or levels kept as the file wrote them
        self._changed_on_open: tuple[engine.Problem, ...] = ()
        self._levels: list[LevelDocument] = []
        #: What is kept beside the levels only for speed (rows, names, ids, automata).
        self._index = LevelIndex(self._levels)
        self.path = path
        self.folder = folder  # saved as a folder holding pack.json
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._update_dirty)
        self._dirty = False
        self._watched: dict[LevelDocument, Connections] = {}
        for level in levels:
            self._append_built(level)

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
        notes: list[engine.Problem] | None = None,
    ) -> PackDocument:
        """Build from a pack document; with ``notes`` keep or repair what is broken (see
        ``editor.documents.reading``) and list it in ``notes``, located in the pack.

        With ``notes`` the document is one the engine refused (opened for repair, a
        backup, recovered work), so first the engine says whether it can be held
        at all (``engine.structure_problems``: lists and maps within their caps,
        no deep nesting, no NaN or huge number, no lone surrogate).

        Raises:
            ValueError: without ``notes``, anything the editor cannot hold as written;
                with them, a pack that cannot be held at all (naming the first place),
                whose nouns or levels are not there to read, or with a size the grid
                does not allow.
        """
        return cls.from_plan(read_pack_plan(data, path=path, folder=folder, notes=notes))

    @classmethod
    def from_plan(cls, plan: PackPlan) -> PackDocument:
        """The document of a plan, at once (:class:`PackBuilder` can do it a level at a time)."""
        built = PackBuilder(plan)
        for _ in built.steps():
            pass
        assert built.document is not None
        return built.document

    def to_data(self) -> dict[str, Any]:
        """The pack document as saving writes it (each level's :meth:`LevelDocument.written`)."""
        data = self.shell_data()
        if self._levels or isinstance(data.get("levels"), list):
            data["levels"] = [level.written() for level in self._levels]
        return data

    def shell_data(self) -> dict[str, Any]:
        """The pack document with an empty ``levels`` list: what pack-wide checks read.

        A ``levels`` (or ``nouns``) the file did not write as a list (a map) is there
        as written while the pack has none of its own.
        """
        return shell_data(
            self._props,
            self._nouns,
            self._kept_styles,
            self._extra,
            self._written,
            len(self._levels),
        )

    @property
    def changed_on_open(self) -> tuple[engine.Problem, ...]:
        """What the editor had to change when it opened the pack (until the next save)."""
        return self._changed_on_open

    def mark_changed_on_open(self, notes: list[engine.Problem]) -> None:
        """Record what opening changed: the pack differs from its file, so it is unsaved."""
        self._changed_on_open = tuple(notes)
        if notes:
            self.mark_unsaved()  # unsaved even after undoing every edit

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

    def level_count(self) -> int:
        """How many levels (without copying the list, as ``levels`` does)."""
        return len(self._levels)

    def index_of(self, level: LevelDocument) -> int:
        row = self.row_of(level)
        if row is None:
            raise ValueError(f"{level.level_id} is not a level of this pack")
        return row

    def row_of(self, level: LevelDocument) -> int | None:
        """The level's position, or None when it is not (or no longer) in the pack."""
        return self._index.row_of(level)

    def level_names(self) -> list[str]:
        """Each level's name as the level list shows it (``list_names``), in play order."""
        return self._index.names()

    def has_level(self, level: LevelDocument) -> bool:
        return self._index.has(level)

    def automata_version(self) -> int:
        """Changes whenever the automata of any level may have: a key for caches."""
        return self._index.automata_version()

    def levels_with_automata(self) -> list[LevelDocument]:
        """The levels whose authored automata are a non-empty list, in pack order."""
        return self._index.with_automata()

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
        self._changed_on_open = ()  # the file now holds what the editor changed
        self.undo_stack.setClean()
        self._update_dirty()

    # ---------------------------------------------------------------- edit API
    def unique_level_id(self, base: str) -> str:
        taken = self._index.id_taken
        stem = base.rstrip("0123456789-") or "level"
        if not taken(base):
            return base
        n = 2
        while taken(f"{stem}-{n}"):
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
        props = replace(
            source.properties,
            level_id=self.unique_level_id(f"{source.level_id}-copy"),
            title=f"{source.title or source.level_id} (copy)",
        )
        duplicate = source.copy(props)  # not-shown records too
        self.undo_stack.push(InsertLevelCommand(self, index + 1, duplicate, text="Duplicate Level"))
        return duplicate

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

    def kept_style(self, name: str) -> Any:
        """The style of ``name`` as the file wrote it when the editor cannot show it,
        else ``None``."""
        return copy.deepcopy(self._kept_styles.get(name))

    def set_noun_style(self, name: str, spec: NounSpec) -> bool:
        """Give a noun a colour and glyph (a style kept as written is replaced)."""
        if name not in self._nouns:
            raise ValueError(f"the pack has no noun {name}")
        if self._nouns[name] == spec and name not in self._kept_styles:
            return False
        self.undo_stack.push(NounStyleCommand(self, name, spec))
        return True

    def set_properties(self, after: PackProperties) -> bool:
        if after == self._props:
            return False
        self.undo_stack.push(PackPropertiesCommand(self, after))
        return True

    # --------------------------------------------------- writes (commands only)
    def write_insert_level(self, index: int, level: LevelDocument) -> None:
        self.level_about_to_be_inserted.emit(index)
        self._levels.insert(index, level)
        self._index.inserted(level, index)
        self._adopt(level)
        self.level_inserted.emit(index)
        self._update_dirty()

    def write_remove_level(self, index: int) -> None:
        self.level_about_to_be_removed.emit(index)
        level = self._levels.pop(index)
        self._index.removed(level, index)
        self.level_removed.emit(index)
        self._update_dirty()

    def write_move_level(self, source: int, target: int) -> None:
        self.level_about_to_be_moved.emit(source, target)
        self._levels.insert(target, self._levels.pop(source))
        self._index.moved(source, target)
        self.level_moved.emit(source, target)

    def write_noun(self, name: str, spec: NounSpec | None) -> None:
        if spec is None:
            self._nouns.pop(name, None)
        else:
            self._nouns[name] = spec
        self.nouns_changed.emit()

    def noun_style(self, name: str) -> tuple[NounSpec, Any]:
        """A noun's spec and its style as the file wrote it (``None``: shown as it is)."""
        return self._nouns[name], copy.deepcopy(self._kept_styles.get(name))

    def write_noun_style(self, name: str, spec: NounSpec, kept: Any) -> None:
        self._nouns[name] = spec
        if kept is None:
            self._kept_styles.pop(name, None)
        else:
            self._kept_styles[name] = copy.deepcopy(kept)
        self.nouns_changed.emit()

    def write_properties(self, props: PackProperties) -> None:
        self._props = props
        self.properties_changed.emit()

    # ---------------------------------------------------------------- internal
    def _append_built(self, level: LevelDocument) -> None:
        """Add a level while the document is being built (no history, no signals)."""
        self._adopt(level)
        self._levels.append(level)
        self._index.built(level)

    def _adopt(self, level: LevelDocument) -> None:
        # Bound methods, never lambdas holding ``self``: a level is this document's
        # child, and a Qt connection's strong hold on a closure over its parent is a
        # cycle the collector cannot see, which kept every closed window's pack alive.
        level.setParent(self)
        level.attach_history(self.undo_stack)
        # One connection, whose arguments name the level: ``sender()`` would walk all
        # of this document's connections (thousands of levels') at every edit.
        links = self._watched.setdefault(level, Connections())
        links.follow([(level.edited, self._on_level_edited)])

    def _on_level_edited(self, level: LevelDocument, what: str) -> None:
        if what == "properties":
            self._index.properties_changed()  # its id or title may have changed
            row = self.row_of(level)
            if row is not None:  # not for a level removed from the pack
                self.level_changed.emit(row)
        elif what == "automata":
            self._index.automata_changed(level)
        self.level_edited.emit(level)

    def _update_dirty(self, *_: object) -> None:
        dirty = not self.undo_stack.isClean()
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)


def _pack_properties(
    data: Mapping[str, Any], path: Path | None, notes: list[engine.Problem]
) -> PackProperties:
    """The pack's properties as the editor works with them; a field it cannot hold is
    kept as written (an id left out, a title that is not text) and noted."""
    texts = {}
    written: list[tuple[str, Any, Any]] = []
    for key in ("id", "title", "author", "description"):
        value = data.get(key, ABSENT)
        if isinstance(value, str) or (value is ABSENT and key in ("author", "description")):
            texts[key] = value if isinstance(value, str) else ""
            if value == "" and key in ("author", "description"):
                written.append((key, "", ""))  # written empty: saved empty, not left out
            continue
        if key == "id":
            named = path.stem if path is not None and path.suffix == ".json" else None
            scalar = isinstance(value, int | float) and not isinstance(value, bool)
            fallback = named or (path.name if path is not None else "") or "pack"
            texts[key] = str(value) if scalar else fallback
        else:
            texts[key] = ""
        written.append((key, copy.deepcopy(value), texts[key]))
        notes.append(engine.Problem(f"/{key}", NOT_SHOWN, written_note(key, value, texts[key])))
    return PackProperties(
        texts["id"], texts["title"], texts["author"], texts["description"], tuple(written)
    )


#: A colour as the format writes it (the schema's pattern): anything else, even a name
#: Qt would draw ("yellow"), is kept as written and shown grey (issue 34).
_COLOR = re.compile(r"#[0-9a-fA-F]{6}\Z")


def _noun_spec(style: object) -> NounSpec | None:
    """The style as the editor holds it, or ``None`` when it is not a colour and a glyph."""
    if not isinstance(style, Mapping) or not isinstance(style.get("color"), str):
        return None
    if _COLOR.match(style["color"]) is None:
        return None
    glyph = style.get("glyph", "")
    if not isinstance(glyph, str) or set(style) - {"color", "glyph"}:
        return None
    return NounSpec(style["color"], glyph)


def shell_data(
    props: PackProperties,
    nouns: Mapping[str, NounSpec],
    kept_styles: Mapping[str, Any],
    extra: Mapping[str, Any],
    written: Written = (),
    levels: int = 0,
) -> dict[str, Any]:
    """A pack document with an empty ``levels`` list, from its parts.

    ``written``: the pack's ``nouns`` or ``levels`` as the file had them when they
    were not a map or a list, kept while the pack has none of its own (``levels``:
    how many levels it has).
    """
    data: dict[str, Any] = {
        "format": extra.get("format", FORMAT),
        "version": extra.get("version", VERSION),
        "id": props.pack_id,
        "title": props.title,
    }
    if props.author:
        data["author"] = props.author
    if props.description:
        data["description"] = props.description
    data["nouns"] = {
        name: copy.deepcopy(kept_styles[name])
        if name in kept_styles
        else ({"color": s.color, "glyph": s.glyph} if s.glyph else {"color": s.color})
        for name, s in nouns.items()
    }
    data["levels"] = []
    data.update({k: copy.deepcopy(v) for k, v in extra.items() if k not in data})
    written_over(data, props.written, props.values())
    written_over(data, written, {"nouns": len(nouns), "levels": levels})
    return data


@dataclass(slots=True)
class PackPlan:
    """A pack document read into plain parts, with no QObject in it.

    Reading is the slow part of opening and is pure Python, so it can run on a
    worker; making the documents (QObjects, with signals connected to Python) must
    happen on the UI thread: :class:`PackBuilder` does it a level at a time.
    """

    properties: PackProperties
    nouns: dict[str, NounSpec]
    kept_styles: dict[str, Any]
    levels: list[LevelParts]
    extra: dict[str, Any]
    path: Path | None = None
    folder: bool = False
    #: ``nouns`` or ``levels`` kept as the file wrote them (see :func:`shell_data`).
    written: Written = ()

    def level_data(self, index: int) -> dict[str, Any]:
        """Level ``index`` as its document will write it (``LevelDocument.to_data()``)."""
        parts = self.levels[index]
        return level_data(
            parts.properties, parts.stacks, parts.entity_extra, parts.unshown, parts.extra
        )


def read_pack_plan(
    data: Mapping[str, Any],
    *,
    path: Path | None = None,
    folder: bool = False,
    notes: list[engine.Problem] | None = None,
) -> PackPlan:
    """:meth:`PackDocument.from_data`'s reading, safe off the UI thread (same errors)."""
    if notes is not None:
        problems = engine.structure_problems(data)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            first = problems[0]
            raise ValueError(f"{first.pointer or '/'}: {first.message}{more}")
    found: list[engine.Problem] = []
    props = _pack_properties(data, path, found)
    written: list[tuple[str, Any, Any]] = []
    raw_nouns = data.get("nouns", ABSENT)
    if not isinstance(raw_nouns, Mapping):
        if notes is None and raw_nouns is not ABSENT:
            raise ValueError("the pack's 'nouns' is not an object")
        written.append(("nouns", copy.deepcopy(raw_nouns), 0))
        if raw_nouns is not ABSENT:
            found.append(_kept_whole("/nouns", raw_nouns, "while the pack declares no noun"))
        raw_nouns = {}
    nouns: dict[str, NounSpec] = {}
    kept_styles: dict[str, Any] = {}
    for name, style in raw_nouns.items():
        spec = _noun_spec(style)
        if spec is None:  # shown grey; the style is written back as the author wrote it
            kept_styles[str(name)] = copy.deepcopy(style)
            spec = NounSpec(UNSHOWN_NOUN_COLOR)
        nouns[str(name)] = spec
    raw_levels = data.get("levels", [])
    if not isinstance(raw_levels, list):
        if notes is None:
            raise ValueError("the pack's 'levels' is not a list")
        written.append(("levels", copy.deepcopy(raw_levels), 0))
        found.append(_kept_whole("/levels", raw_levels, "while the pack has no level"))
        raw_levels = []
    levels = []
    for index, raw in enumerate(raw_levels):
        level_notes: list[engine.Problem] = []
        if not isinstance(raw, Mapping):
            if notes is None:
                raise ValueError(f"level {index + 1} of the pack is not an object")
            parts = read_level_parts({}, [], fallback_id=f"level-{index + 1}")
            parts.whole = (copy.deepcopy(raw),)
            levels.append(parts)
            found.append(
                _kept_whole(
                    f"/levels/{index}", raw, "an empty level stands for it until you edit it"
                )
            )
            continue
        levels.append(read_level_parts(raw, level_notes, fallback_id=f"level-{index + 1}"))
        found += [
            n.located(pack=None, level=n.level, prefix=f"/levels/{index}") for n in level_notes
        ]
    extra = {k: copy.deepcopy(v) for k, v in data.items() if k not in _OWN_KEYS}
    found += [
        engine.Problem(
            f"/nouns/{name}",
            NOT_SHOWN,
            f"the style of {name} is not one the editor can show; it is kept as written",
        )
        for name in kept_styles
    ]
    for key, default in (("format", FORMAT), ("version", VERSION)):
        if key not in data:  # left out: kept left out (the schema says what is missing)
            written.append((key, ABSENT, default))
    if "levels" not in data:
        written.append(("levels", ABSENT, 0))
        found.append(
            engine.Problem(
                "/levels",
                NOT_SHOWN,
                "the pack has no levels; it is saved without them until you add one",
            )
        )
    if notes is not None:  # a repair: say what differs from the file, whatever it is
        shell = {k: v for k, v in data.items() if k != "levels"}
        after = shell_data(props, nouns, kept_styles, extra, tuple(written), len(levels))
        after.pop("levels", None)
        found += unexplained_changes(shell, after, found)
    located = [n.located(pack=props.pack_id, level=n.level) for n in found]
    if notes is None:
        if located:
            raise ValueError(located[0].message)
    else:
        notes += located
    return PackPlan(props, nouns, kept_styles, levels, extra, path, folder, tuple(written))


def _kept_whole(ptr: str, raw: object, until: str) -> engine.Problem:
    """The note of a part of the pack kept as the file wrote it."""
    shown = engine.clipped(json.dumps(raw, ensure_ascii=False, default=str))
    return engine.Problem(
        ptr,
        NOT_SHOWN,
        f"'{ptr.rsplit('/', 1)[-1]}' is written as {shown}; it is kept as written {until}",
    )


class PackBuilder:
    """Makes a plan's documents on the UI thread, one level per step of :meth:`steps`.

    Each step costs a few hundredths of a millisecond, so a caller can slice the
    work between turns of the event loop (``editor.io.waiting.Busy.slices``).
    It consumes the plan: a document copies its level's cells, so each level's
    parts are freed in the step that built it. Freed all at once with the plan
    they were 15 ms of UI work after a 10,000-level pack was shown.
    """

    def __init__(self, plan: PackPlan) -> None:
        self.plan = plan
        self.document: PackDocument | None = None

    def steps(self) -> Iterator[None]:
        plan = self.plan
        pack = PackDocument(
            plan.properties, plan.nouns, [], path=plan.path, folder=plan.folder, extra=plan.extra
        )
        pack._kept_styles = plan.kept_styles
        pack._written = plan.written
        waiting = plan.levels
        waiting.reverse()  # popped from the end, in play order
        while waiting:
            pack._append_built(LevelDocument.from_parts(waiting.pop()))
            yield
        self.document = pack
