"""Hostile and extreme inputs, shared by the tests and bench/bench_hostile.py.

Each builder returns a plain JSON document (a level, or a pack) so the same input
can be validated, played, saved to a file or wrapped in a share payload. The rule
bombs are the boards of issue 20; the "ordinary" boards are the realistic worst
cases the parse budget must pass with a wide margin (docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

from tests.support import pack_document

Level = dict[str, Any]

NOUNS = ("BABA", "ROCK", "WALL", "FLAG", "KEKE", "WATER")
PROPERTIES = ("YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT")


def row_level(cells: list[list[str]], level_id: str = "bomb", *, height: int = 2) -> Level:
    """One row of word stacks (bottom first) and a BABA object below the first cell."""
    entities: list[dict[str, Any]] = []
    for x, stack in enumerate(cells):
        for text in stack:
            entities.append({"id": len(entities) + 1, "kind": "word", "text": text, "x": x, "y": 0})
    entities.append({"id": len(entities) + 1, "kind": "object", "noun": "BABA", "x": 0, "y": 1})
    return {"id": level_id, "width": len(cells), "height": height, "entities": entities}


def issue_bomb(left: int = 7, right: int = 8, singles: int = 12) -> Level:
    """``S0 AND … [A0+B0] AND … IS [C0+D0] AND … AND W0 …``: issue 20's rule bomb.

    ``2**left * 2**right`` sentences, each with ``left + singles/2`` subjects and
    ``right + singles/2`` values; at most two words per cell. The defaults are
    the issue's 48-word board (5.9 million rule records before the fix).
    """
    cells: list[list[str]] = []
    for i in range(singles // 2):
        cells += [[f"S{i}"], ["AND"]]
    for i in range(left):
        cells += [[f"A{i}", f"B{i}"], ["AND"]]
    cells[-1] = ["IS"]
    for i in range(right):
        cells += [[f"C{i}", f"D{i}"], ["AND"]]
    for i in range(singles - singles // 2):
        cells += [[f"W{i}"], ["AND"]]
    cells.pop()
    return row_level(cells)


def stacked_bomb(k: int) -> Level:
    """``[N0+…+Nk-1] IS [V0+…+Vk-1]``: k*k three-word sentences, one rule each."""
    return row_level([[f"N{i}" for i in range(k)], ["IS"], [f"V{i}" for i in range(k)]])


def search_bomb(depth: int, is_words: int = 1) -> Level:
    """``[A0+B0] AND … AND [IS x is_words]`` with nothing after IS: 2**depth subject
    paths to search and no sentence, so all of its cost is the search."""
    cells: list[list[str]] = []
    for i in range(depth):
        cells += [[f"A{i}", f"B{i}"], ["AND"]]
    cells[-1] = ["IS"] * is_words
    return row_level(cells)


def lattice_level(pattern: str, size: int = 64, level_id: str = "lattice") -> Level:
    """A size x size board of words, every row and every column full of sentences.

    ``pattern`` spells one sentence with N (a noun), I (IS), A (AND) and V (a
    property): ``"NIV"`` is ``BABA IS YOU``, ``"NANIVAV"`` is ``ROCK AND WALL IS
    STOP AND PUSH``. The word at (x, y) is ``pattern[(x + y) % len(pattern)]``, so
    rows and columns both read it over and over.
    """
    entities: list[dict[str, Any]] = []
    for y in range(size):
        for x in range(size):
            kind = pattern[(x + y) % len(pattern)]
            n = (x * 7 + y * 3) // len(pattern)
            text = {"N": NOUNS[n % 6], "V": PROPERTIES[n % 6], "I": "IS", "A": "AND"}[kind]
            entities.append({"id": len(entities) + 1, "kind": "word", "text": text, "x": x, "y": y})
    return {"id": level_id, "width": size, "height": size, "entities": entities}


def spaced_sentences_level(size: int = 64) -> Level:
    """A size x size board whose rows read ``BABA IS YOU . ROCK IS PUSH . …``."""
    entities: list[dict[str, Any]] = []
    for y in range(size):
        for x in range(size):
            slot, n = x % 4, x // 4 + y
            if slot == 3:
                continue
            text = (NOUNS[n % 6], "IS", PROPERTIES[n % 6])[slot]
            entities.append({"id": len(entities) + 1, "kind": "word", "text": text, "x": x, "y": y})
    return {"id": "spaced", "width": size, "height": size, "entities": entities}


def word_tiles(level: Level) -> list[tuple[int, str, int, int]]:
    """The word entities of a level document as parser input."""
    return [(e["id"], e["text"], e["x"], e["y"]) for e in level["entities"] if e["kind"] == "word"]


def pack_of(*levels: Level, pack_id: str = "hostile") -> dict[str, Any]:
    """A pack around the levels, with unique level ids and every noun declared."""
    named = [{**level, "id": f"{level['id']}-{n}"} for n, level in enumerate(levels)]
    return pack_document(*named, pack_id=pack_id)


def failing_entities(levels: int, per_level: int, *, distinct: bool = False) -> dict[str, Any]:
    """Issue 39's B2: levels whose every entity fails the schema (``{}``; with
    ``distinct``, ``{"id": n}``: no two equal, so none is explained for another)."""
    from tests.support import pack_document

    return pack_document(
        *(
            {
                "id": f"l{n}",
                "width": 4,
                "height": 4,
                "entities": [{"id": i + 1} if distinct else {} for i in range(per_level)],
            }
            for n in range(levels)
        ),
        nouns=["BABA"],
    )
