"""Reading a level document into what the editor holds, without losing the author's work.

A valid level maps one to one onto the board. A broken one (opened "for repair")
must still keep everything the author wrote, so the reader sorts each entity
record into one of three places:

- **on the board**: a record the board can hold as written (an object or a word
  with an integer id, a token as the engine spells it and a position inside the
  grid); fields beyond those are kept beside it and written back;
- **not shown**: a record the board cannot hold (off the grid, an unknown kind, a
  noun or text that is not a token, a missing or mistyped field). It is kept verbatim and written back after the board's
  entities; validation lists it, and a resize that brings it inside the grid puts
  it on the board;
- **changed**: what the editor cannot keep as written at all — an id used twice on
  the board (renumbered), a missing size (the smallest that holds the entities), an
  id or a title that is not text (replaced). Each change is a note, and a pack with
  notes opens unsaved, so closing asks.

A size the grid does not allow (a width of 10**9, ``"12"``, ``true``) is not
guessed at: it is a ``ValueError`` naming the level and the field, and the pack
does not open for repair (issue 20: a size kept as written would overflow the
canvas; one replaced would change the level behind the author's back).

Notes are :class:`engine.Problem` records with pointers relative to the level;
changes carry the engine's code for what was wrong (``duplicate-entity-id``,
``wrong-type``), so they line up with the problem validation reported on open.
Reading nothing is silent: a comparison of what was read with what will be written
(:func:`unexplained_changes`) adds a note for any difference the rules above did
not already explain.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, TypeGuard

import engine
from editor.documents.values import (
    OBJECT,
    WORD,
    LevelProperties,
    Piece,
    Pos,
    grid_size,
    is_token,
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
    """Sort a level document into board, not-shown records, kept fields and notes.

    Raises:
        ValueError: the document has no list of entities to read.
    """
    notes: list[engine.Problem] = []
    props = _properties(data, fallback_id, notes)
    entities = data.get("entities", [])
    if not isinstance(entities, list):
        raise ValueError(f"level {props.level_id}: 'entities' is not a list")
    if len(entities) > engine.MAX_ENTITIES:
        raise ValueError(
            f"level {props.level_id}: a level holds at most {engine.MAX_ENTITIES:,} entities"
        )
    parts = LevelParts(props, notes=notes)
    placed: list[tuple[int, Pos, Piece, dict[str, Any]]] = []
    for index, record in enumerate(entities):
        found = board_piece(record, props.width, props.height)
        if found is None:
            parts.unshown.append(copy.deepcopy(record))
            notes.append(_not_shown(index, record, props))
            continue
        pos, piece = found
        assert isinstance(record, Mapping)
        fields = _fields_of(piece)
        if record.keys() == _FIELD_SETS[piece.kind]:  # the usual record: nothing extra
            extra: dict[str, Any] = {}
        else:
            extra = {k: copy.deepcopy(v) for k, v in record.items() if k not in fields}
        placed.append((index, pos, piece, extra))
    taken = {p.id for _i, _pos, p, _e in placed} | {
        r["id"] for r in parts.unshown if isinstance(r, Mapping) and is_int(r.get("id"))
    }
    seen: set[int] = set()
    free = 1
    for index, pos, piece, extra in placed:
        if piece.id in seen:
            while free in taken:
                free += 1
            taken.add(free)
            notes.append(
                engine.Problem(
                    f"/entities/{index}/id",
                    "duplicate-entity-id",
                    f"entity id {piece.id} was used twice; the editor renumbered this "
                    f"{piece.kind} {piece.token} at ({pos.x}, {pos.y}) to {free}",
                )
            )
            piece = Piece(free, piece.kind, piece.token)
        seen.add(piece.id)
        parts.stacks.setdefault(pos, []).append(piece)
        if extra:
            parts.entity_extra[piece.id] = extra
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


def _not_shown(index: int, record: object, props: LevelProperties) -> engine.Problem:
    kind = record.get("kind") if isinstance(record, Mapping) else None
    token = (
        record.get("noun" if kind == OBJECT else "text") if isinstance(record, Mapping) else None
    )
    if kind in (OBJECT, WORD) and isinstance(token, str) and not is_token(token):
        why = f"{_quote(token)} is not a token"
    elif isinstance(record, Mapping) and is_int(record.get("x")) and is_int(record.get("y")):
        why = f"({record['x']}, {record['y']}) is outside the grid of {props.width}x{props.height}"
    else:
        why = "it is not a complete object or word"
    return engine.Problem(
        f"/entities/{index}",
        NOT_SHOWN,
        f"this entity is not shown on the board ({why}); it is kept as written",
    )


def _properties(
    data: Mapping[str, Any], fallback_id: str, notes: list[engine.Problem]
) -> LevelProperties:
    level_id = data.get("id")
    if not isinstance(level_id, str):
        scalar = isinstance(level_id, int | float) and not isinstance(level_id, bool)
        level_id = str(level_id) if scalar else fallback_id
        notes.append(_changed("/id", data, "id", f"the level's id is now {level_id!r}"))
    texts = []
    for key in ("title", "author"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            notes.append(
                _changed(f"/{key}", data, key, f"the {key} is now the text {str(value)!r}")
            )
        texts.append("" if value is None else str(value))
    width, height = (
        _size(data, key, default, notes)
        for key, default in zip(("width", "height"), _DEFAULT_SIZE, strict=True)
    )
    return LevelProperties(level_id, texts[0], texts[1], width, height)


def _size(data: Mapping[str, Any], key: str, default: int, notes: list[engine.Problem]) -> int:
    """The width or height as written; a missing one is the smallest that holds the entities.

    Raises:
        ValueError: a size is written but the grid does not allow it.
    """
    if key in data:
        level_id = data.get("id")
        where = f"level {str(level_id)[:40]!r}" if isinstance(level_id, str) else "a level"
        return grid_size(data[key], f"{where}: the {key}")
    size = _needed(data, key) or default
    notes.append(_changed(f"/{key}", data, key, f"the {key} is now {size}"))
    return size


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


def _changed(ptr: str, data: Mapping[str, Any], key: str, outcome: str) -> engine.Problem:
    if key not in data:
        return engine.Problem(ptr, "missing-field", f"missing '{key}'; {outcome}")
    return engine.Problem(
        ptr,
        "wrong-type",
        f"'{key}' was {_quote(data[key])}, which the editor cannot hold; {outcome}",
    )


def _quote(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:40] + "…"


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
