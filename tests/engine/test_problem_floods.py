"""A document with thousands of faults lists the first 1,000 and counts the rest
(issue 20, finding 3).

Every checker stops collecting at ``MAX_PROBLEMS``; one last problem,
``too-many-problems``, says how many more there were and that the listed ones are
the first found. Explaining schema errors is the costly part, so once the list is
full the remaining failing levels are only named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Game, ValidationError, load_level, load_pack, share
from engine.cli import main
from engine.errors import TOO_MANY_PROBLEMS
from engine.limits import MAX_PROBLEMS
from engine.share.codec import seal, to_text
from tests.support import grid_level, pack_document


def out_of_bounds_level(level_id: str, count: int) -> dict[str, Any]:
    """A 1x1 level whose ``count`` objects all lie outside it: one mistake, one problem."""
    entities = [
        {"id": i + 1, "kind": "object", "noun": "ROCK", "x": 5, "y": 0} for i in range(count)
    ]
    return {"id": level_id, "width": 1, "height": 1, "entities": entities}


def flood_level(level_id: str, count: int) -> dict[str, Any]:
    """A level of ``count`` objects, each of its own noun: in a pack that declares
    none of them, ``count`` distinct problems (each noun is a mistake of its own)."""
    entities = [
        {"id": i + 1, "kind": "object", "noun": f"N{i}", "x": 0, "y": 0} for i in range(count)
    ]
    return {"id": level_id, "width": 1, "height": 1, "entities": entities}


def flood(*levels: dict[str, Any]) -> dict[str, Any]:
    """A pack of flood levels declaring none of their nouns."""
    return pack_document(*levels, nouns=["ROCK"])


def errors_of(source: Any) -> list[Any]:
    with pytest.raises(ValidationError) as caught:
        load_pack(source)
    return caught.value.errors


def test_a_pack_with_thousands_of_semantic_problems_lists_the_first_thousand() -> None:
    doc = flood(*(flood_level(f"l{n}", 500) for n in range(6)))
    errors = errors_of(doc)
    assert len(errors) == MAX_PROBLEMS + 1
    *listed, summary = errors
    assert all(p.code == "unknown-noun" for p in listed)
    assert listed[0].pointer == "/levels/0/entities/0/noun"
    assert {p.level for p in listed} == {"l0", "l1"}  # the first found, in document order
    assert (summary.code, summary.pointer, summary.pack) == (TOO_MANY_PROBLEMS, "", "test")
    assert "2,000 more problems are not listed (3,000 in all)" in summary.message


def test_schema_problems_past_the_limit_are_named_not_explained() -> None:
    bad = [{"id": f"l{n}", "width": "wide", "height": 1, "entities": []} for n in range(1_500)]
    errors = errors_of(pack_document(*bad, nouns=[]))
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[0].pointer == "/levels/0/width"
    summary = errors[-1]
    assert summary.code == TOO_MANY_PROBLEMS
    assert "500 more levels have schema problems that are not counted" in summary.message
    assert "(the first is /levels/1000)" in summary.message


def test_one_mistake_repeated_thousands_of_times_is_one_problem() -> None:
    """Equal records are explained once, and an equal problem of each is counted."""
    entities = [
        {"id": i + 1, "kind": "object", "noun": "rock", "x": 0, "y": 0} for i in range(3_000)
    ]
    with pytest.raises(ValidationError) as caught:
        load_level({"id": "flood", "width": 1, "height": 1, "entities": entities})
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code) == ("/entities/0/noun", "bad-format")
    assert problem.message.endswith("(and 2,999 more entities)")


def test_a_single_level_with_thousands_of_schema_problems_stops_explaining() -> None:
    """Distinct failing records: the first 1,000 are explained, the rest counted."""
    entities = [
        {"id": i + 1, "kind": "object", "noun": f"rock{i}", "x": 0, "y": 0} for i in range(3_000)
    ]
    with pytest.raises(ValidationError) as caught:
        load_level({"id": "flood", "width": 1, "height": 1, "entities": entities})
    errors = caught.value.errors
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[-1].code == TOO_MANY_PROBLEMS
    assert (
        "2,000 more records fail the schema but are not explained (the first is /entities/1000)"
        in errors[-1].message
    )


def test_objects_outside_the_grid_are_one_problem_with_their_count() -> None:
    errors = errors_of(pack_document(out_of_bounds_level("l0", 500)))
    assert [(p.pointer, p.code, p.message) for p in errors] == [
        (
            "/levels/0/entities/0/x",
            "out-of-bounds",
            "x=5 is outside the 1x1 grid (and 499 more entities outside it)",
        )
    ]


def test_a_snapshot_with_thousands_of_bad_records_lists_the_first_thousand() -> None:
    level = load_level(grid_level(["baba . .", "BABA IS YOU"], "walk"))
    snapshot = Game(level).snapshot()
    snapshot["current"]["entities"] = [{"id": 10_000 + n} for n in range(2_500)]
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    errors = caught.value.errors
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[0].pointer == "/current/entities/0/id"
    assert "1,500 more problems are not listed (2,500 in all)" in errors[-1].message


def test_a_payload_flood_is_listed_up_to_the_limit() -> None:
    doc = flood(*(flood_level(f"l{n}", 500) for n in range(4)))
    preview = share.decode(to_text(seal({"pack": doc})))
    assert len(preview.problems) == MAX_PROBLEMS + 1
    assert preview.problems[-1].code == TOO_MANY_PROBLEMS
    assert not preview.ok


def test_rulegrid_validate_prints_at_most_the_limit_and_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    path = tmp_path / "flood.json"
    doc = flood(*(flood_level(f"l{n}", 500) for n in range(4)))
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == MAX_PROBLEMS + 1
    assert lines[-1].startswith("test: 1,000 more problems are not listed (2,000 in all)")
