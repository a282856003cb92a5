"""Validation benchmark: a generated pack of 1,000 levels (16x16, 60 entities each).

Run: ``python bench/bench_validate.py`` (``--reference`` also times jsonschema on
the whole pack, the way validation worked before the compiled check; it takes
seconds). Prints the median and worst of several runs in seconds:

- ``load_pack(dict)``: the whole validation of a valid pack (goal: under 2 s);
- ``load_pack(file)``: the same from a ``.json`` file, JSON parsing included;
- the parts: the compiled check of the checked-in schema, building the models, and
  the semantic validators (settle of each initial board included);
- ``one bad level``: a pack whose level 500 has an error, where jsonschema explains
  only the failing level.
"""

from __future__ import annotations

import copy
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import ValidationError, load_pack  # noqa: E402
from engine.model import Level  # noqa: E402
from engine.packs.schema import schema_problems, validator  # noqa: E402
from engine.packs.semantic import level_problems  # noqa: E402

LEVELS, SIZE, ENTITIES, RUNS = 1_000, 16, 60, 5
NOUNS = {
    "BABA": "#d9396a",
    "ROCK": "#c29e46",
    "FLAG": "#ede285",
    "WALL": "#737373",
    "WATER": "#4a90d9",
    "SKULL": "#8e1d1d",
    "KEY": "#e0b030",
    "DOOR": "#b05030",
}
RULES = [
    ("BABA", "YOU"),
    ("ROCK", "PUSH"),
    ("FLAG", "WIN"),
    ("WALL", "STOP"),
    ("WATER", "SINK"),
    ("SKULL", "DEFEAT"),
    ("KEY", "PUSH"),
    ("DOOR", "STOP"),
]


def generated_level(index: int, rng: random.Random) -> dict[str, Any]:
    """Six rules along the left columns, then objects scattered over the rest."""
    entities: list[dict[str, Any]] = []
    for row, (noun, prop) in enumerate(rng.sample(RULES, 6)):
        for column, text in enumerate((noun, "IS", prop)):
            entities.append(
                {"id": len(entities) + 1, "kind": "word", "text": text, "x": column, "y": row * 2}
            )
    while len(entities) < ENTITIES:
        entities.append(
            {
                "id": len(entities) + 1,
                "kind": "object",
                "noun": rng.choice(list(NOUNS)),
                "x": rng.randrange(4, SIZE),
                "y": rng.randrange(SIZE),
            }
        )
    return {
        "id": f"level-{index:04d}",
        "title": f"Level {index}",
        "width": SIZE,
        "height": SIZE,
        "entities": entities,
        "solution": "RRUL",
    }


def generated_pack() -> dict[str, Any]:
    rng = random.Random(2024)
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "bench",
        "title": "Benchmark",
        "nouns": {noun: {"color": color} for noun, color in NOUNS.items()},
        "levels": [generated_level(i, rng) for i in range(LEVELS)],
    }


def timed(label: str, action: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"{label:<44} median {median:7.3f} s   worst {max(times):7.3f} s")
    return median


def rejected(doc: dict[str, Any], code: str) -> None:
    """Validate a pack that must fail with exactly one problem (the benchmark checks itself)."""
    try:
        load_pack(doc)
    except ValidationError as exc:
        found = [(p.pointer, p.code) for p in exc.errors]
    else:
        raise AssertionError("the broken pack was accepted")
    if found != [("/levels/500/entities/7/x", code)]:
        raise AssertionError(f"unexpected problems: {found}")


def main() -> None:
    doc = generated_pack()
    entities = sum(len(lv["entities"]) for lv in doc["levels"])
    print(f"pack: {LEVELS} levels of {SIZE}x{SIZE}, {entities:,} entities\n")
    load_pack(doc)  # warm caches: schemas read and compiled once per process

    total = timed("load_pack(dict)  [goal < 2 s]", lambda: load_pack(doc))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        timed("load_pack(file)  (JSON parsing included)", lambda: load_pack(path))

    assert schema_problems("pack", doc) == []
    timed("  compiled check of the checked-in schema", lambda: schema_problems("pack", doc))
    timed("  pydantic models", lambda: [Level.model_validate(lv) for lv in doc["levels"]])
    nouns = frozenset(doc["nouns"])
    docs = doc["levels"]
    timed("  semantic validators", lambda: [level_problems(lv, nouns) for lv in docs])

    broken = copy.deepcopy(doc)
    broken["levels"][500]["entities"][7]["x"] = SIZE
    timed("one level out of bounds (semantic problem)", lambda: rejected(broken, "out-of-bounds"))
    broken["levels"][500]["entities"][7]["x"] = "far"
    timed("one malformed level (jsonschema explains it)", lambda: rejected(broken, "wrong-type"))

    if "--reference" in sys.argv:
        timed(
            "reference: jsonschema on the whole pack",
            lambda: list(validator("pack").iter_errors(doc)),
            runs=1,
        )
    print(
        f"\nresult: {total:.3f} s for {LEVELS} levels ({'meets' if total < 2 else 'MISSES'} the 2 s goal)"
    )


if __name__ == "__main__":
    main()
