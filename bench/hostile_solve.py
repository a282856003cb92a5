"""Valid levels that make the solver work hard: the solve and verify cases of issue 39.

Plain JSON builders (no engine import), shared by ``bench/bench_hostile.py``, which
runs ``rulegrid solve`` and ``rulegrid verify`` on them with their default budgets,
and by the tests, which run the same searches on small budgets.

* :func:`crowd`: one large board where thousands of BABA objects are all YOU, and
  nothing is WIN. Every move moves them all, so each position is a long key and each
  expansion slow (about 14 a second at 12,900 objects): issue 39's 446 KB level, which
  a default ``rulegrid solve`` took 1.95 GB and 355 s on before being killed.
* :func:`rock_rooms`: a pack of small rooms full of pushable rocks with no WIN. The
  reachable positions are far too many to search, every level runs its whole
  budget: issue 39's 30 KB, 4-level pack that ``rulegrid verify`` took 11.6 CPU
  minutes on.
"""

from __future__ import annotations

from typing import Any

Doc = dict[str, Any]

#: ``tests.support.grid_level`` rows of an 8x8 room: ten pushable rocks and no WIN. A
#: search fills memory fast here (about 70 bytes a position, 60,000 positions a second).
OPEN_ROOM = [
    "BABA IS YOU . . . . .",
    *[". rock . . rock . . ."] * 5,
    "baba . . . . . . .",
    "ROCK IS PUSH . . . . .",
]


def _numbered(entities: list[Doc]) -> list[Doc]:
    for number, entity in enumerate(entities, start=1):
        entity["id"] = number
    return entities


def crowd(movers: int = 7_200, size: int = 128, level_id: str = "crowd") -> Doc:
    """``movers`` BABA objects (all YOU) spread over a ``size`` x ``size`` board; no WIN.

    Four cells in five hold one, so most moves shift thousands of them a cell.
    """
    entities: list[Doc] = [
        {"kind": "word", "text": text, "x": x, "y": 0}
        for x, text in enumerate(("BABA", "IS", "YOU"))
    ]
    cells = ((x, y) for y in range(2, size) for x in range(size) if (7 * x + 3 * y) % 5)
    for _, (x, y) in zip(range(movers), cells, strict=False):
        entities.append({"kind": "object", "noun": "BABA", "x": x, "y": y})
    return {"id": level_id, "width": size, "height": size, "entities": _numbered(entities)}


def rock_room(level_id: str = "rooms", size: int = 20, rocks: int = 110) -> Doc:
    """A ``size`` x ``size`` room: BABA IS YOU, ROCK IS YOU, ROCK IS PUSH, ``rocks`` rocks, no WIN.

    The rocks walk with BABA and push one another, so nearly every turn is resolved
    in full, a few thousand a second.
    """
    sentences = ((0, ("BABA", "IS", "YOU")), (size - 1, ("ROCK", "IS", "PUSH", "AND", "YOU")))
    entities: list[Doc] = [
        {"kind": "word", "text": text, "x": x, "y": y}
        for y, sentence in sentences
        for x, text in enumerate(sentence)
    ]
    entities.append({"kind": "object", "noun": "BABA", "x": size // 2, "y": size // 2})
    free = [
        (x, y)
        for y in range(1, size - 1)
        for x in range(size)
        if (x, y) != (size // 2, size // 2) and (x * 5 + y * 3) % 7 in (0, 2, 4)
    ]
    for x, y in free[:rocks]:
        entities.append({"kind": "object", "noun": "ROCK", "x": x, "y": y})
    return {"id": level_id, "width": size, "height": size, "entities": _numbered(entities)}


def rock_rooms(levels: int = 4, size: int = 20, rocks: int = 110) -> Doc:
    """A pack of ``levels`` rock rooms (about 7 KB of JSON each)."""
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "rooms",
        "title": "Rooms",
        "nouns": {noun: {"color": "#808080"} for noun in ("BABA", "ROCK")},
        "levels": [rock_room(f"room{n}", size, rocks) for n in range(1, levels + 1)],
    }
