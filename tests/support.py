"""Helpers for tests: compact level notation and the Keke corpus.

``grid_level`` builds a level document from rows of cells separated by spaces.
A cell is ``.`` (empty) or tokens joined by ``+`` (a stack, bottom first):
lower-case tokens are objects (``baba`` → noun BABA), upper-case tokens are
words. Ids are assigned in row-major order, then stack order, from 1.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKS_DIR = ROOT / "packs"
KEKE_PATH = ROOT / "tests" / "data" / "keke" / "levels.json"


def grid_level(rows: list[str], level_id: str = "test", **extra: Any) -> dict[str, Any]:
    entities: list[dict[str, Any]] = []
    width = 0
    for y, row in enumerate(rows):
        cells = row.split()
        width = max(width, len(cells))
        for x, cell in enumerate(cells):
            if cell == ".":
                continue
            for token in cell.split("+"):
                entity_id = len(entities) + 1
                if token.islower():
                    entities.append(
                        {"id": entity_id, "kind": "object", "noun": token.upper(), "x": x, "y": y}
                    )
                else:
                    entities.append(
                        {"id": entity_id, "kind": "word", "text": token, "x": x, "y": y}
                    )
    return {"id": level_id, "width": width, "height": len(rows), "entities": entities, **extra}


def bomb_rows(stacked: int = 17) -> list[str]:
    """A board where pushing IS down into the gap completes one line of ``stacked``
    stacked subjects (ROCK+FLAG AND ...): 2**stacked readings, over the parse budget."""
    cells = " AND ".join(["ROCK+FLAG"] * stacked).split()
    width = len(cells) + 2
    return [
        " ".join(["."] * len(cells) + ["baba", "."]),
        " ".join(["."] * len(cells) + ["IS", "."]),
        " ".join([*cells, ".", "YOU"]),
        " ".join(["BABA", "IS", "YOU"] + ["."] * (width - 3)),
    ]


def ids_of(level: dict[str, Any], name: str) -> list[int]:
    """Ids of the entities whose noun (objects) or text (words) is ``name``; objects by lower case."""
    if name.islower():
        return [
            e["id"]
            for e in level["entities"]
            if e["kind"] == "object" and e["noun"] == name.upper()
        ]
    return [e["id"] for e in level["entities"] if e["kind"] == "word" and e["text"] == name]


def keke_level(record: dict[str, Any]) -> dict[str, Any]:
    """One corpus record as a level document (ids 1.. in list order, as its README says)."""
    entities = [dict(e, id=i) for i, e in enumerate(record["entities"], start=1)]
    return {
        "id": record["id"],
        "title": record["name"],
        "width": record["width"],
        "height": record["height"],
        "entities": entities,
    }


@cache
def keke_corpus() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(KEKE_PATH.read_text(encoding="utf-8"))
    return data


def pack_document(
    *levels: dict[str, Any], pack_id: str = "test", nouns: list[str] | None = None
) -> dict[str, Any]:
    """A pack document around level documents.

    ``nouns`` defaults to every object noun and every word that names one in the
    levels (words that are not operators, base properties, FRAIL or an automaton
    property of their level), each with a colour. The levels are copied, so a test
    may change the document without touching its inputs.
    """
    import copy

    from engine.tokens import RESERVED

    levels = copy.deepcopy(levels)
    if nouns is None:
        found: set[str] = set()
        for level in levels:
            properties = {a["property"] for a in level.get("automata", [])}
            for e in level["entities"]:
                name = e.get("noun") if e.get("kind") == "object" else e.get("text")
                if isinstance(name, str) and (
                    e.get("kind") == "object" or name not in RESERVED | properties
                ):
                    found.add(name)
            for mechanic in level.get("mechanics", []):
                found.update(mechanic["leaves"])
                found.update(mechanic["leaves"].values())
        nouns = sorted(found)
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": pack_id,
        "title": pack_id.title(),
        "nouns": {noun: {"color": "#808080"} for noun in nouns},
        "levels": list(levels),
    }
