"""Documented limits and hostile documents: a clear located error, never a hang or a crash.

Limits (docs/decisions.md): grid at most 128x128, 20,000 entities per level,
10,000 levels per pack. Inputs at a limit load; one past it is refused before any
validator walks the oversized part (the refused parts below are junk that would
otherwise produce thousands of problems).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from engine import ValidationError, load_level, load_pack
from tests.support import grid_level, pack_document

SMALL = grid_level(["baba . flag", "BABA IS YOU"], "small")


def problems_of(source: Any, **kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        load_pack(source, **kwargs)
    return [(p.pointer, p.code) for p in caught.value.errors]


def rocks(count: int, width: int = 128) -> list[dict[str, Any]]:
    return [
        {"id": i + 1, "kind": "object", "noun": "ROCK", "x": i % width, "y": (i // width) % 128}
        for i in range(count)
    ]


def test_the_largest_grid_loads_and_one_more_column_does_not() -> None:
    corner = {"id": 1, "kind": "object", "noun": "ROCK", "x": 127, "y": 127}
    biggest = {"id": "big", "width": 128, "height": 128, "entities": [corner]}
    assert load_pack(pack_document(biggest)).levels[0].width == 128
    assert problems_of(pack_document({**biggest, "width": 129})) == [
        ("/levels/0/width", "out-of-range")
    ]
    assert problems_of(pack_document({**biggest, "height": 10**9})) == [
        ("/levels/0/height", "out-of-range")
    ]


def test_twenty_thousand_entities_load() -> None:
    level = {"id": "crowd", "width": 128, "height": 128, "entities": rocks(20_000)}
    assert len(load_pack(pack_document(level)).levels[0].entities) == 20_000


def test_one_entity_too_many_is_refused_before_any_entity_is_read() -> None:
    junk: list[Any] = [{"kind": "?"}] * 20_001
    too_many = {"id": "crowd", "width": 128, "height": 128, "entities": junk}
    with pytest.raises(ValidationError) as caught:
        load_pack(pack_document(SMALL, too_many, nouns=["ROCK"]))
    [problem] = caught.value.errors
    assert (problem.level, problem.pointer, problem.code) == (
        "crowd",
        "/levels/1/entities",
        "bad-size",
    )
    assert "at most 20,000 entities" in problem.message
    with pytest.raises(ValidationError) as alone:
        load_level(too_many)
    assert [(p.pointer, p.code) for p in alone.value.errors] == [("/entities", "bad-size")]


def test_ten_thousand_levels_load_and_one_more_is_refused() -> None:
    tiny = [{"id": f"l{i}", "width": 1, "height": 1, "entities": []} for i in range(10_000)]
    assert len(load_pack(pack_document(*tiny, nouns=[])).levels) == 10_000
    junk: list[Any] = [None] * 10_001
    assert problems_of(pack_document(*junk, nouns=[])) == [("/levels", "bad-size")]


def test_other_lists_and_maps_are_bounded_by_the_schema() -> None:
    wait = {"action": "wait"}
    many_steps = grid_level(
        ["baba"], "steps", automata=[{"id": "a", "property": "TICK", "pattern": [wait] * 257}]
    )
    assert problems_of(pack_document(many_steps)) == [("/levels/0/automata/0/pattern", "bad-size")]
    automata = [{"id": f"a{i}", "property": "TICK", "pattern": [wait]} for i in range(65)]
    assert problems_of(pack_document(grid_level(["baba"], "many", automata=automata))) == [
        ("/levels/0/automata", "bad-size")
    ]
    long_solution = grid_level(["baba"], "long", solution="R" * 100_001)
    assert problems_of(pack_document(long_solution)) == [("/levels/0/solution", "bad-size")]


def test_malformed_json_reports_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "rulegrid-pack",\n  "levels": [,]\n}\n', encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        load_pack(path)
    [problem] = caught.value.errors
    assert (problem.pack, problem.pointer, problem.code) == ("broken", "", "invalid-json")
    assert "line 3 column 14" in problem.message
    assert str(problem).startswith("broken: not valid JSON")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\x89PNG\r\n\x1a\n\x00\x00",
        b"\xff\xfe\x00junk",
        b"[" * 100_000,
        b'{"a": 1} trailing',
        b"\x00" * 64,
    ],
    ids=["empty", "png", "bom-junk", "deep", "trailing", "zeros"],
)
def test_junk_files_are_invalid_json(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(raw)
    assert problems_of(path) == [("", "invalid-json")]


def test_deep_nesting_is_refused_at_its_pointer() -> None:
    deep: Any = "x"
    for _ in range(5_000):
        deep = [deep]
    doc = pack_document(SMALL)
    doc["levels"][0]["entities"][0] = deep
    found = problems_of(doc)
    assert len(found) == 1
    pointer, code = found[0]
    assert code == "too-deep"
    assert pointer.startswith("/levels/0/entities/0/0/0/")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (10**5000, "out-of-range"),
        (math.nan, "wrong-type"),
        (math.inf, "wrong-type"),
        ({1, 2}, "wrong-type"),
        (object(), "wrong-type"),
        (lambda: "WATER", "wrong-type"),
    ],
    ids=["huge-int", "nan", "inf", "set", "object", "function"],
)
def test_values_no_json_text_can_hold_are_located(value: Any, code: str) -> None:
    level = grid_level(
        ["baba drift"],
        "planks",
        mechanics=[
            {
                "id": "frail",
                "type": "frail",
                "version": 1,
                "state": "derived",
                "leaves": {"DRIFT": value},
            }
        ],
    )
    with pytest.raises(ValidationError) as caught:
        load_pack(pack_document(level, nouns=["BABA", "DRIFT"]))
    assert [(p.level, p.pointer, p.code) for p in caught.value.errors] == [
        ("planks", "/levels/0/mechanics/0/leaves/DRIFT", code)
    ]


def test_a_field_name_that_is_not_text_is_located() -> None:
    doc = pack_document(SMALL)
    doc["nouns"][7] = {"color": "#000000"}
    assert problems_of(doc) == [("/nouns/7", "wrong-type")]


def test_a_huge_id_is_out_of_range_not_a_crash() -> None:
    level = grid_level(["baba"], "huge")
    level["entities"][0]["id"] = 2**40
    assert problems_of(pack_document(level)) == [("/levels/0/entities/0/id", "out-of-range")]
