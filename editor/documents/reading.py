"""Reading a level document into what the editor holds, without losing the author's work.

A valid level maps one to one onto the board. A broken one (opened "for repair":
any pack file that is JSON within the caps) must still keep everything the author
wrote, so the reader sorts what it reads into three places:

- **on the board**: a record the board can hold as written (an object or a word
  with an integer id not used before on the board, a token as the engine spells
  it and a position inside the grid); fields beyond those are kept beside it and
  written back;
- **not shown**: a record the board cannot hold (off the grid, an unknown kind, a
  noun or text that is not a token, a missing or mistyped field, an id the board
  already holds). It is kept verbatim and written back after the board's
  entities; validation lists it, and a resize that brings it inside the grid puts
  it on the board;
- **kept as written**: a field of the level the editor cannot hold (a width of
  ``"9"``, an id or a title that is not text, a size left out, an entity list
  that is not a list). The editor works with a stand-in (the smallest grid that
  holds the entities; the id as text) and saves the field exactly as the file
  has it until the author sets it in the form that owns it
  (:func:`editor.values.written_over`). Validation lists it, so the
  Problems panel shows its pointer and what is wrong.

Notes say what the dialog that opens the pack for repair should tell the author:
:class:`engine.Problem` records with pointers relative to the level, code
``not-shown`` for what is kept (nothing of the author's is changed). Reading
nothing is silent: a comparison of what was read with what will be written
(:func:`unexplained_changes`) adds a ``changed-on-open`` note for any difference
the rules above did not explain.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Any, TypeGuard

import engine
from editor.values import (
    ABSENT,
    OBJECT,
    WORD,
    LevelProperties,
    Piece,
    Pos,
    grid_size,
    is_token,
    written_note,
)

#: The code of a note about a record kept as written but not shown on the board.
NOT_SHOWN = "not-shown"
#: The code of a note about a difference between the file and the editor found by comparison.
CHANGED_ON_OPEN = "changed-on-open"
#: Fields of an entity record the board holds itself.
BOARD_FIELDS = ("id", "kind", "noun", "text", "x", "y")
_DEFAULT_SIZE = (12, 9)


@dataclass(slots=True)
class LevelParts:
    """What a level document becomes in the editor (see the module docstring)."""

    properties: LevelProperties
    stacks: dict[Pos, list[Piece]] = field(default_factory=dict)
    unshown: list[Any] = field(default_factory=list)
    entity_extra: dict[int, dict[str, Any]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    notes: list[engine.Problem] = field(default_factory=list)
    #: ``(value,)`` when the file's level is not an object: the editor shows an empty
    #: level in its place and saves the value as written until the author edits it.
    whole: tuple[Any, ...] = ()


def is_int(value: object) -> TypeGuard[int]:
    """An integer as JSON means it (``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def board_piece(record: object, width: int, height: int) -> tuple[Pos, Piece] | None:
    """The record as a piece at a cell, or ``None`` when the board cannot hold it as written."""
    if not isinstance(record, Mapping):
        return None
    kind = record.get("kind")
    token = record.get("noun" if kind == OBJECT else "text")
    x, y, entity_id = record.get("x"), record.get("y"), record.get("id")
    if kind not in (OBJECT, WORD) or not is_token(token):
        return None
    assert isinstance(token, str)
    if not (is_int(x) and is_int(y) and is_int(entity_id)):
        return None
    if not (0 <= x < width and 0 <= y < height) or entity_id < 1:
        return None
    return Pos(x, y), Piece(entity_id, str(kind), token)


def place_unshown(
    records: Sequence[Any],
    cells: dict[Pos, tuple[Piece, ...]],
    width: int,
    height: int,
    ox: int = 0,
    oy: int = 0,
) -> tuple[list[Any], dict[int, dict[str, Any]]]:
    """Put on the board (``cells``, changed in place) the records a grid can now hold.

    Each record moves by ``(ox, oy)`` with the board (a resize's anchor) and lands on
    top of its cell. Returns the records that stay off the board and the extra
    fields of the placed ones, by id. A record whose id the board already uses
    stays off it: ids are never changed behind the author's back.
    """
    used = {pc.id for stack in cells.values() for pc in stack}
    kept: list[Any] = []
    extras: dict[int, dict[str, Any]] = {}
    for record in records:
        if not isinstance(record, Mapping):
            kept.append(record)
            continue
        shifted = dict(record)
        if is_int(record.get("x")) and is_int(record.get("y")):
            shifted["x"], shifted["y"] = record["x"] + ox, record["y"] + oy
        found = board_piece(shifted, width, height)
        if found is None or found[1].id in used:
            kept.append(record)
            continue
        pos, piece = found
        used.add(piece.id)
        cells[pos] = (*cells.get(pos, ()), piece)
        extra = {k: copy.deepcopy(v) for k, v in record.items() if k not in _fields_of(piece)}
        if extra:
            extras[piece.id] = extra
    return kept, extras


def read_level(data: Mapping[str, Any], *, fallback_id: str = "level") -> LevelParts:
    """Sort a level document into board, not-shown records, kept fields and notes."""
    notes: list[engine.Problem] = []
    props = _properties(data, fallback_id, notes)
    entities = data.get("entities", ABSENT)
    if not isinstance(entities, list):
        if entities is ABSENT:
            notes.append(
                engine.Problem(
                    "/entities",
                    NOT_SHOWN,
                    "the level has no 'entities'; it is saved without them while the board "
                    "is empty",
                )
            )
        else:
            notes.append(
                _kept("/entities", entities, "it is kept as written while the board is empty")
            )
        kept = ("entities", copy.deepcopy(entities), 0)
        props = replace(props, written=(*props.written, kept))
        entities = []
    parts = LevelParts(props, notes=notes)
    on_board: set[int] = set()
    # One note per reason: twenty thousand incomplete entities are one note that
    # counts them (issue 34: one mistake, one problem; also in the open dialog).
    not_shown: dict[str, list[Any]] = {}
    for index, record in enumerate(entities):
        found = board_piece(record, props.width, props.height)
        if found is not None and found[1].id in on_board:
            found = None  # the id is on the board already: kept as written, not shown
        if found is None:
            parts.unshown.append(copy.deepcopy(record))
            note = _not_shown(index, record, props, on_board)
            group = not_shown.setdefault(note.message, [note, 0])
            group[1] += 1
            continue
        pos, piece = found
        on_board.add(piece.id)
        assert isinstance(record, Mapping)
        if record.keys() != _FIELD_SETS[piece.kind]:  # the usual record: nothing extra
            fields = _fields_of(piece)
            extra = {k: copy.deepcopy(v) for k, v in record.items() if k not in fields}
            if extra:
                parts.entity_extra[piece.id] = extra
        parts.stacks.setdefault(pos, []).append(piece)
    for note, count in not_shown.values():
        if count > 1:
            more = engine.counted(count - 1, "more entity", "more entities")
            note = engine.Problem(note.pointer, note.code, f"{note.message} (and {more})")
        notes.append(note)
    parts.extra = {k: copy.deepcopy(v) for k, v in data.items() if k not in _OWN_KEYS}
    notes.sort(key=lambda n: _path_key(n.pointer))
    return parts


def _path_key(pointer: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in pointer.split("/")[1:]]


_OWN_KEYS = ("id", "title", "author", "width", "height", "entities")


def _fields_of(piece: Piece) -> tuple[str, ...]:
    return ("id", "kind", "noun" if piece.kind == OBJECT else "text", "x", "y")


_FIELD_SETS = {
    OBJECT: frozenset(("id", "kind", "noun", "x", "y")),
    WORD: frozenset(("id", "kind", "text", "x", "y")),
}


def _not_shown(
    index: int, record: object, props: LevelProperties, on_board: set[int]
) -> engine.Problem:
    kind = record.get("kind") if isinstance(record, Mapping) else None
    token = (
        record.get("noun" if kind == OBJECT else "text") if isinstance(record, Mapping) else None
    )
    entity_id = record.get("id") if isinstance(record, Mapping) else None
    if kind in (OBJECT, WORD) and isinstance(token, str) and not is_token(token):
        why = f"{_quote(token)} is not a token"
    elif (
        is_int(entity_id)
        and entity_id in on_board
        and board_piece(record, props.width, props.height)
    ):
        why = f"its id {entity_id} is already used on the board"
    elif (  # a whole object or word, just not on this grid
        isinstance(record, Mapping)
        and kind in (OBJECT, WORD)
        and is_token(token)
        and is_int(entity_id)
        and entity_id >= 1
        and is_int(record.get("x"))
        and is_int(record.get("y"))
    ):
        why = f"({record['x']}, {record['y']}) is outside the grid of {props.width}x{props.height}"
    else:
        why = "it is not a complete object or word"
    return engine.Problem(
        f"/entities/{index}",
        NOT_SHOWN,
        f"this entity is not shown on the board ({why}); it is kept as written",
    )


def _kept(ptr: str, raw: object, what: str) -> engine.Problem:
    """The note of a field kept as written (nothing of the author's is changed)."""
    key = ptr.rsplit("/", 1)[-1]
    return engine.Problem(ptr, NOT_SHOWN, f"'{key}' is {_quote(raw)}; {what}")


def _properties(
    data: Mapping[str, Any], fallback_id: str, notes: list[engine.Problem]
) -> LevelProperties:
    """The level's properties as the editor works with them; a field it cannot hold is
    kept as written (``written``) and noted."""
    written: list[tuple[str, Any, Any]] = []
    level_id = data.get("id", ABSENT)
    if not isinstance(level_id, str):
        scalar = isinstance(level_id, int | float) and not isinstance(level_id, bool)
        working = str(level_id) if scalar else fallback_id
        written.append(("id", copy.deepcopy(level_id), working))
        notes.append(_kept_field("/id", level_id, working))
        level_id = working
    texts = []
    for key in ("title", "author"):
        value = data.get(key, ABSENT)
        if value is not ABSENT and not isinstance(value, str):
            written.append((key, copy.deepcopy(value), ""))
            notes.append(_kept_field(f"/{key}", value, ""))
        elif value == "":
            written.append((key, "", ""))  # written empty: saved empty, not left out
        texts.append(value if isinstance(value, str) else "")
    sizes = []
    for key, default in zip(("width", "height"), _DEFAULT_SIZE, strict=True):
        value = data.get(key, ABSENT)
        try:
            size = grid_size(value, key)
        except ValueError:
            size = _needed(data, key) or default
            written.append((key, copy.deepcopy(value), size))
            notes.append(_kept_field(f"/{key}", value, size))
        else:
            if type(value) is not int:  # 12.0: a whole number, written back as written
                written.append((key, value, size))
        sizes.append(size)
    return LevelProperties(level_id, texts[0], texts[1], sizes[0], sizes[1], tuple(written))


def _kept_field(ptr: str, raw: object, working: object) -> engine.Problem:
    key = ptr.rsplit("/", 1)[-1]
    return engine.Problem(ptr, NOT_SHOWN, written_note(key, raw, working))


def _needed(data: Mapping[str, Any], key: str) -> int:
    """The smallest width (or height) that holds every entity with a usable position."""
    axis = "x" if key == "width" else "y"
    entities = data.get("entities")
    positions = [
        e[axis]
        for e in (entities if isinstance(entities, list) else [])
        if isinstance(e, Mapping) and is_int(e.get(axis)) and 0 <= e[axis] < engine.MAX_GRID_SIZE
    ]
    return max(positions, default=-1) + 1


def _quote(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return engine.clipped(text)


def unexplained_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], notes: Sequence[engine.Problem]
) -> list[engine.Problem]:
    """A note for each top-level field that differs between the file and what will be saved.

    Fields a note already explains are left out; entities are compared as a
    multiset (the editor writes them row by row, which is not a change).
    """
    explained = {n.pointer.split("/")[1] for n in notes if n.code != NOT_SHOWN and n.pointer}
    found = []
    for key in sorted(set(before) | set(after), key=str):
        if key in explained:
            continue
        one, two = before.get(key, _ABSENT), after.get(key, _ABSENT)
        if key == "entities" and isinstance(one, list) and isinstance(two, list):
            same = _same_records(one, two)
        else:
            same = _canonical(one) == _canonical(two)
        if not same:
            what = (
                "is added"
                if one is _ABSENT
                else "is left out"
                if two is _ABSENT
                else f"becomes {_quote(two)}"
            )
            found.append(
                engine.Problem(
                    "/" + str(key).replace("~", "~0").replace("/", "~1"),
                    CHANGED_ON_OPEN,
                    f"'{key}' {what} when the pack is saved: the editor cannot keep it as written",
                )
            )
    return found


_ABSENT = object()


def _same_records(one: list[Any], two: list[Any]) -> bool:
    """Whether two entity lists hold the same records in any order, as JSON compares them.

    Records of text, whole numbers, booleans and nulls (every record a valid file
    holds) are compared by key, type and value, a few times faster than their
    canonical JSON and with the same answer (``true`` is not ``1``); anything else
    is compared by canonical JSON.
    """
    if len(one) != len(two):
        return False
    flat_one, flat_two = _flat_keys(one), _flat_keys(two)
    if flat_one is not None and flat_two is not None:
        return flat_one == flat_two
    return sorted(map(_canonical, one)) == sorted(map(_canonical, two))


_FLAT = (str, int, bool, type(None))


def _flat_keys(records: list[Any]) -> Counter[tuple[Any, ...]] | None:
    """Each record as ``((key, type, value), ...)`` by key, counted; ``None`` if one is not flat."""
    out: Counter[tuple[Any, ...]] = Counter()
    for record in records:
        if type(record) is not dict:
            return None
        items = []
        for key, value in record.items():
            if type(key) is not str or type(value) not in _FLAT:
                return None
            items.append((key, type(value), value))
        items.sort(key=itemgetter(0))
        out[tuple(items)] += 1
    return out


def _canonical(value: object) -> str:
    if value is _ABSENT:
        return "\0absent"
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
