"""``import_keke``: a Keke level-set file or a single ASCII map, read into a pack.

The Keke AI Competition (``MasterMilkX/KekeCompetition``) publishes levels as
``{"levels": [{id, name, author, ascii, solution}]}``. Each level becomes one of
ours: the map through :mod:`engine.interop.keke_key`, ``name`` as the title, the
author, and the recorded solution normalised to ``UDLR``. Ids are
``PREFIX-KEKEID``, made unique.

The two engines differ in places (docs/keke.md), so every imported solution is
replayed here and the result says which win under our rules; a solution that
does not win is kept as data, with a warning, because it is still the author's
intent. A level using what we lack (KILL, MOVE, HOT, MELT, a wait) is reported
by level, character and place; the whole import is refused unless the caller
asks to skip such levels. A malformed file is always refused, naming the level,
the JSON Pointer and the row and column. The input is a stranger's: its size, its
level count and its solutions' lengths are capped before anything walks them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import Problem, ValidationError, pointer
from engine.interop.keke_key import COLORS, KekeMap, MapError, read_map
from engine.model import ID_PATTERN, MAX_ID_LENGTH, Level, Pack
from engine.packs.load import load_pack
from engine.packs.validate import parse_json_text
from engine.play.game import Game

MAX_FILE_BYTES = 8 * 2**20
MAX_LEVELS = 2_000
MAX_SOLUTION = 10_000
#: Replays are the costly part; their total length bounds the time an import may take.
MAX_TOTAL_MOVES = 200_000
MAX_TEXT = 200
_WAITS = frozenset("sS")
_MOVES = frozenset("udlrUDLR")
_ID_JUNK = re.compile(r"[^A-Za-z0-9._-]+")

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


@dataclass(frozen=True, slots=True)
class KekeReplay:
    """How a level's recorded solution plays under our rules."""

    level: str  # our level id
    keke_id: str
    moves: int
    won_at: int | None  # the move that won (0: won as it loads); None: it never wins

    @property
    def wins(self) -> bool:
        return self.won_at is not None


@dataclass(frozen=True, slots=True)
class KekeImport:
    """A validated pack, the replay of every solution, and what was left out."""

    pack: Pack
    replays: tuple[KekeReplay, ...]
    unsupported: tuple[KekeUnsupported, ...]  # empty unless skip_unsupported was given
    skipped: tuple[str, ...]  # Keke ids of the levels left out, in file order

    @property
    def winning(self) -> tuple[str, ...]:
        return tuple(r.level for r in self.replays if r.wins)

    @property
    def warnings(self) -> list[str]:
        return [
            f"level {r.level} (Keke {r.keke_id}): its recorded solution ({r.moves} moves) "
            "does not win under Rulegrid's rules; kept as data"
            for r in self.replays
            if not r.wins
        ]


class KekeUnsupportedError(ValidationError):
    """Some levels use what Rulegrid lacks; nothing was imported.

    ``unsupported`` lists every use; ``importable`` counts the levels that
    ``skip_unsupported=True`` would import.
    """

    def __init__(self, source: str, unsupported: tuple[KekeUnsupported, ...], importable: int):
        self.source = source
        self.unsupported = unsupported
        self.importable = importable
        super().__init__(u.problem(source) for u in unsupported)

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.level for u in self.unsupported))


@dataclass(slots=True)
class _Record:
    index: int
    label: str
    title: str | None
    author: str | None
    map: KekeMap
    solution: str | None
    unsupported: list[KekeUnsupported]


def import_keke(
    source: KekeSource,
    *,
    name: str | None = None,
    skip_unsupported: bool = False,
    id_prefix: str = "keke",
    pack_id: str | None = None,
    title: str | None = None,
) -> KekeImport:
    """Read Keke levels into a validated pack and replay their solutions.

    Args:
        source: a path to a file; the text of a level-set file or of one ASCII map;
            or a level-set document already parsed.
        name: what errors call the source (default: the file name, or ``<keke>``).
        skip_unsupported: import the other levels when some use what we lack.
        id_prefix: level ids are ``PREFIX-KEKEID``; empty keeps the Keke id alone.
        pack_id, title: the pack's id and title (default: from ``name``).

    Raises:
        KekeUnsupportedError: some levels use what we lack and ``skip_unsupported``
            is false.
        ValidationError: the source is malformed; every problem is located.
    """
    if id_prefix and not (re.fullmatch(ID_PATTERN, id_prefix) and len(id_prefix) < 32):
        raise ValidationError.single(
            "", "bad-option", f"the id prefix {id_prefix!r} is not a plain short identifier"
        )
    data, label = _read_source(source, name)
    records = _parse(data, label)
    unsupported = tuple(u for r in records for u in r.unsupported)
    kept = [r for r in records if not r.unsupported]
    if unsupported and not skip_unsupported:
        raise KekeUnsupportedError(label, unsupported, len(kept))
    document = _pack_document(kept, label, id_prefix, pack_id, title)
    pack = load_pack(document)
    replays = tuple(
        _replay(level, record.label)
        for level, record in zip(pack.levels, kept, strict=True)
        if level.solution
    )
    skipped = tuple(r.label for r in records if r.unsupported)
    return KekeImport(pack, replays, unsupported, skipped)


# ----------------------------------------------------------------- reading


def _read_source(source: KekeSource, name: str | None) -> tuple[str | Mapping[str, Any], str]:
    if isinstance(source, Mapping):
        return source, name or "<keke>"
    if isinstance(source, os.PathLike):
        path = Path(source)
        label = name or path.name or str(path)
        return _decode(_read_file(path, label), label), label
    label = name or "<keke>"
    if isinstance(source, bytes):
        return _decode(source, label), label
    if isinstance(source, str):
        if len(source) > MAX_FILE_BYTES:
            raise _too_large(label)
        return source, label
    raise TypeError(f"import_keke reads a path, text or a document, not {type(source).__name__}")


def _read_file(path: Path, label: str) -> bytes:
    try:
        if not path.is_file():
            reason = "it does not exist" if not path.exists() else "not a regular file"
            raise ValidationError.single(
                "", "unreadable", f"cannot read {path}: {reason}", pack=label
            )
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ValidationError.single(
            "", "unreadable", f"cannot read {path}: {exc.strerror or exc}", pack=label
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise _too_large(label)
    return raw


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


def _parse(data: str | Mapping[str, Any], label: str) -> list[_Record]:
    if isinstance(data, str):
        if not data.lstrip().startswith(("{", "[")):
            return [_single_map(data, label)]
        data = parse_json_text(data, source=label)
    return _level_set(data, label)


def _single_map(text: str, label: str) -> _Record:
    try:
        kmap = read_map(text.strip("\r\n"))
    except MapError as exc:
        raise ValidationError.single("", "keke-map", str(exc), pack=label) from None
    return _Record(0, "1", None, None, kmap, None, _lacking(0, "1", kmap, ""))


def _level_set(doc: object, label: str) -> list[_Record]:
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
    records: list[_Record] = []
    total = 0
    for index, item in enumerate(levels):
        record, found = _level(index, item, label)
        problems.extend(found)
        if record is None:
            continue
        total += len(record.solution or "")
        if total > MAX_TOTAL_MOVES:
            message = f"the solutions hold more than {MAX_TOTAL_MOVES:,} moves in total"
            problems.append(_problem(index, "solution", "too-many", message, label, record.label))
            break
        records.append(record)
    if problems:
        raise ValidationError(problems)
    return records


def _level(index: int, item: object, label: str) -> tuple[_Record | None, list[Problem]]:
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
    return _Record(index, name, title, author, kmap, moves, unsupported), []


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


# ---------------------------------------------------------------- building


def _pack_document(
    records: list[_Record], label: str, prefix: str, pack_id: str | None, title: str | None
) -> dict[str, Any]:
    levels = []
    taken: set[str] = set()
    used: set[str] = set()
    for record in records:
        level_id = _unique(_level_id(prefix, record), taken)
        taken.add(level_id)
        kmap = record.map
        entities = [
            {"id": n, "kind": kind, ("noun" if kind == "object" else "text"): token, "x": x, "y": y}
            for n, (kind, token, x, y) in enumerate(kmap.pieces, start=1)
        ]
        used.update(token for _kind, token, _x, _y in kmap.pieces if token in COLORS)
        level: dict[str, Any] = {"id": level_id, "width": kmap.width, "height": kmap.height}
        if record.title:
            level["title"] = record.title
        if record.author:
            level["author"] = record.author
        if record.solution:
            level["solution"] = record.solution
        level["entities"] = entities
        levels.append(level)
    named = not label.startswith("<")  # "<keke>", "<stdin>": no file name to go by
    stem = re.sub(r"\.(json|txt)$", "", label, flags=re.IGNORECASE) if named else ""
    default_id = _ID_JUNK.sub("-", stem).strip("-._").lower()[:MAX_ID_LENGTH]
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": pack_id or (default_id if re.fullmatch(ID_PATTERN, default_id) else "keke-import"),
        "title": title or (f"Keke levels from {label}"[:MAX_TEXT] if named else "Keke levels"),
        "description": f"Imported from the Keke AI Competition level file {label}.",
        "nouns": {noun: {"color": color} for noun, color in COLORS.items() if noun in used},
        "levels": levels,
    }


def _level_id(prefix: str, record: _Record) -> str:
    fragment = _ID_JUNK.sub("-", record.label).strip("-._")
    if not fragment or not fragment[0].isalnum():
        fragment = str(record.index + 1)
    return (f"{prefix}-{fragment}" if prefix else fragment)[:MAX_ID_LENGTH]


def _unique(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base[: MAX_ID_LENGTH - 8]}-{n}" in taken:
        n += 1
    return f"{base[: MAX_ID_LENGTH - 8]}-{n}"


def _replay(level: Level, keke_id: str) -> KekeReplay:
    solution = level.solution or ""
    game = Game(level)
    won_at: int | None = 0 if game.won else None
    for n, letter in enumerate(solution, start=1):
        if won_at is not None:
            break
        if game.step(letter).won:
            won_at = n
    return KekeReplay(level.id, keke_id, len(solution), won_at)
