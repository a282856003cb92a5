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

import re
from dataclasses import dataclass
from typing import Any

from engine.errors import ValidationError
from engine.interop.keke_key import COLORS
from engine.interop.keke_read import (
    MAX_TEXT,
    KekeSource,
    KekeUnsupported,
    Record,
    read_records,
)
from engine.limits import MAX_ID_LENGTH
from engine.model import ID_PATTERN, Level, Pack
from engine.packs.load import load_pack
from engine.play.game import Game

_ID_JUNK = re.compile(r"[^A-Za-z0-9._-]+")


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
    records, label = read_records(source, name)
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


# ---------------------------------------------------------------- building


def _pack_document(
    records: list[Record], label: str, prefix: str, pack_id: str | None, title: str | None
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


def _level_id(prefix: str, record: Record) -> str:
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
