"""Reading a Keke file into records: caps, field types, maps, and what we lack.

A level set is checked level by level and every problem is collected, so one run
names them all (pointer, Keke id, row and column). Caps are checked before
anything is walked: the file's size, the level count, each map's length (in
:mod:`engine.interop.keke_key`) and the solutions' lengths, one by one and in
all (weighted by board size). Uses of what Rulegrid lacks are not problems here but
:class:`KekeUnsupported` records on the level; the caller decides.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import Problem, ValidationError, pointer
from engine.interop.keke_key import KekeMap, MapError, read_map
from engine.limits import (
    MAX_ID_LENGTH,
    MAX_KEKE_FILE_BYTES,
    MAX_KEKE_LEVELS,
    MAX_KEKE_REPLAY_WORK,
    MAX_KEKE_SOLUTION,
)
from engine.packs.jsontext import parse_json_text
from engine.packs.load import read_bounded

MAX_FILE_BYTES = MAX_KEKE_FILE_BYTES
MAX_LEVELS = MAX_KEKE_LEVELS
MAX_SOLUTION = MAX_KEKE_SOLUTION
MAX_REPLAY_WORK = MAX_KEKE_REPLAY_WORK
TURN_COST = 10  # a turn's fixed cost in entities' worth (see MAX_KEKE_REPLAY_WORK)
MAX_TEXT = 200
_WAITS = frozenset("sS")
_MOVES = frozenset("udlrUDLR")

KekeSource = str | bytes | os.PathLike[str] | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class KekeUnsupported:
    """One use of something Rulegrid lacks, placed so the author can find it.

    ``row``/``column`` are 1-based in the map as written (ring included) and
    ``cell`` is ``(x, y)`` in the imported grid; a wait has ``move`` instead, its
    1-based position in the solution.
    """

    index: int  # 0-based position of the level in the file
    level: str  # the level's Keke id as written ("#3" when it has none)
    character: str
    meaning: str
    pointer: str  # JSON Pointer into the file: /levels/3/ascii or /levels/3/solution
    row: int | None = None
    column: int | None = None
    cell: tuple[int, int] | None = None
    move: int | None = None

    def where(self) -> str:
        if self.move is not None:
            return f"move {self.move} of the solution"
        assert self.cell is not None
        return f"row {self.row}, column {self.column} (cell {self.cell[0]}, {self.cell[1]})"

    def message(self) -> str:
        return f"{self.where()}: {self.character!r} is {self.meaning}, which Rulegrid does not have"

    def problem(self, source: str) -> Problem:
        return Problem(self.pointer, "keke-unsupported", self.message(), source, self.level)

    def __str__(self) -> str:
        return f"level {self.level}: {self.message()}"


@dataclass(slots=True)
class Record:
    """One level as read: its place, texts, map, solution (UDLR) and unsupported uses."""

    index: int
    label: str
    title: str | None
    author: str | None
    map: KekeMap
    solution: str | None
    unsupported: list[KekeUnsupported]


def read_records(source: KekeSource, name: str | None) -> tuple[list[Record], str]:
    """The levels of ``source`` and the name its problems use; raises when malformed."""
    data, label = _read_source(source, name)
    return _parse(data, label), label


def _read_source(source: KekeSource, name: str | None) -> tuple[str | Mapping[str, Any], str]:
    if isinstance(source, Mapping):
        return source, name or "<keke>"
    if isinstance(source, os.PathLike):
        path = Path(source)
        label = name or path.name or str(path)
        return _decode(read_bounded(path, MAX_FILE_BYTES, label), label), label
    label = name or "<keke>"
    if isinstance(source, bytes):
        return _decode(source, label), label
    if isinstance(source, str):
        if len(source) > MAX_FILE_BYTES:
            raise _too_large(label)
        return source, label
    raise TypeError(f"import_keke reads a path, text or a document, not {type(source).__name__}")


def _too_large(label: str) -> ValidationError:
    limit = MAX_FILE_BYTES // 2**20
    return ValidationError.single("", "bad-size", f"larger than {limit} MiB", pack=label)


def _decode(raw: bytes, label: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError.single(
            "", "keke-format", f"not UTF-8 text (byte {exc.start})", pack=label
        ) from None


def _parse(data: str | Mapping[str, Any], label: str) -> list[Record]:
    if isinstance(data, str):
        if not data.lstrip().startswith(("{", "[")):
            return [_single_map(data, label)]
        data = parse_json_text(data, source=label)
    return _level_set(data, label)


def _single_map(text: str, label: str) -> Record:
    try:
        kmap = read_map(text.strip("\r\n"))
    except MapError as exc:
        raise ValidationError.single("", "keke-map", str(exc), pack=label) from None
    return Record(0, "1", None, None, kmap, None, _lacking(0, "1", kmap, ""))


def _level_set(doc: object, label: str) -> list[Record]:
    levels = doc.get("levels") if isinstance(doc, Mapping) else None
    if not isinstance(levels, list):
        raise ValidationError.single(
            "" if not isinstance(doc, Mapping) else "/levels",
            "keke-format",
            'expected a Keke level set: an object with a "levels" list',
            pack=label,
        )
    if len(levels) > MAX_LEVELS:
        raise ValidationError.single(
            "/levels", "too-many", f"{len(levels):,} levels; at most {MAX_LEVELS:,}", pack=label
        )
    problems: list[Problem] = []
    records: list[Record] = []
    work = 0
    for index, item in enumerate(levels):
        record, found = _level(index, item, label)
        problems.extend(found)
        if record is None:
            continue
        work += len(record.solution or "") * (len(record.map.pieces) + TURN_COST)
        if work > MAX_REPLAY_WORK:
            message = (
                f"replaying the solutions up to here takes {work:,} entity-moves, "
                f"more than {MAX_REPLAY_WORK:,}"
            )
            problems.append(_problem(index, "solution", "too-many", message, label, record.label))
            break
        records.append(record)
    if problems:
        raise ValidationError(problems)
    return records


def _level(index: int, item: object, label: str) -> tuple[Record | None, list[Problem]]:
    here = pointer("levels", index)
    if not isinstance(item, Mapping):
        message = "a level must be an object with id, name, author, ascii and solution"
        return None, [Problem(here, "keke-format", message, label)]
    problems: list[Problem] = []
    keke_id = item.get("id")
    if keke_id is None:
        name = f"#{index + 1}"
    elif isinstance(keke_id, str | int) and not isinstance(keke_id, bool):
        name = str(keke_id)[:MAX_ID_LENGTH]
    else:
        name = f"#{index + 1}"
        problems.append(
            _problem(index, "id", "keke-format", "the id must be text or a number", label, name)
        )
    (title, title_ok), (author, author_ok) = _text(item, "name"), _text(item, "author")
    for field, ok in (("name", title_ok), ("author", author_ok)):
        if not ok:
            message = f"the {field} must be text (or null)"
            problems.append(_problem(index, field, "keke-format", message, label, name))
    ascii_map = item.get("ascii")
    kmap = None
    if not isinstance(ascii_map, str):
        message = "the map (ascii) must be text, rows separated by \\n"
        problems.append(_problem(index, "ascii", "keke-format", message, label, name))
    else:
        try:
            kmap = read_map(ascii_map)
        except MapError as exc:
            problems.append(_problem(index, "ascii", "keke-map", str(exc), label, name))
    solution, found = _solution(index, item.get("solution"), label, name)
    problems.extend(found)
    if problems or kmap is None:
        return None, problems
    unsupported = _lacking(index, name, kmap, here + "/ascii")
    unsupported += [
        KekeUnsupported(index, name, char, "a wait", here + "/solution", move=n)
        for n, char in enumerate(solution or "", start=1)
        if char in _WAITS
    ]
    moves = solution.upper() if solution else None
    return Record(index, name, title, author, kmap, moves, unsupported), []


def _text(item: Mapping[str, Any], key: str) -> tuple[str | None, bool]:
    """The field's text (trimmed, capped; None when absent or empty) and whether it was text."""
    value = item.get(key)
    if value is None:
        return None, True
    if not isinstance(value, str):
        return None, False
    return value.strip()[:MAX_TEXT].strip() or None, True


def _solution(index: int, value: object, label: str, name: str) -> tuple[str | None, list[Problem]]:
    if value is None or value == "":
        return None, []
    if not isinstance(value, str):
        message = "the solution must be text (u, d, l, r; s waits)"
        return None, [_problem(index, "solution", "keke-format", message, label, name)]
    if len(value) > MAX_SOLUTION:
        message = f"the solution has {len(value):,} moves; at most {MAX_SOLUTION:,}"
        return None, [_problem(index, "solution", "too-many", message, label, name)]
    for n, char in enumerate(value, start=1):
        if char not in _MOVES and char not in _WAITS:
            message = f"move {n} is {char!r}; Keke solutions use u, d, l, r (and s to wait)"
            return None, [_problem(index, "solution", "keke-solution", message, label, name)]
    return value, []


def _lacking(index: int, name: str, kmap: KekeMap, where: str) -> list[KekeUnsupported]:
    return [
        KekeUnsupported(index, name, x.character, x.meaning, where, x.row, x.column, x.cell)
        for x in kmap.lacking
    ]


def _problem(
    index: int, field: str, code: str, message: str, label: str, level: str | None
) -> Problem:
    return Problem(pointer("levels", index, field), code, message, label, level)
