"""Reading hostile packs costs bounded work and says so in short lines (issue 39: B2, B6, B9).

- B2: schema explanation stops at the problem cap, also inside one level: 17
  levels of 2,000 entities each failing the schema explain at most 1,000 records
  (equal records once), where every entity used to be explained.
- B6: a pack file is counted before the JSON parser builds anything: a file of
  more objects and lists (or values) than any pack holds is refused unparsed.
- B9: pointers and echoed text are clipped with their length, a repeated key is
  one problem with its count, and a rule bomb's message says the budget and where
  reading stopped.

Work is counted (explanations made, parses started, memory traced), never timed.
"""

from __future__ import annotations

import importlib
import json
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.limits import MAX_PACK_CONTAINERS, MAX_PACK_VALUES, MAX_PROBLEMS, PARSE_BUDGET
from engine.packs.jsonscan import count_structure
from engine.packs.jsontext import parse_json_text
from tests.hostile import failing_entities, pack_of, stacked_bomb
from tests.support import pack_document


@pytest.fixture
def explanations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts jsonschema errors explained, wherever the explaining module calls it."""
    calls = [0]
    explain = importlib.import_module("engine.packs.explain")
    original = explain.translate

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    for name in ("engine.packs.schema", "engine.packs.records", "engine.packs.explain"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        monkeypatch.setattr(module, "translate", counted, raising=False)
    return calls


@pytest.mark.parametrize("distinct", [False, True], ids=["equal records", "distinct records"])
def test_explaining_a_pack_stops_at_the_problem_cap(
    explanations: list[int], distinct: bool
) -> None:
    doc = failing_entities(17, 2_000, distinct=distinct)
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(doc)
    assert explanations[0] <= 2 * MAX_PROBLEMS  # was 34,000: every entity of every level
    errors = caught.value.errors
    assert errors[0].pointer == "/levels/0/entities/0/kind"
    if distinct:  # explaining stopped: the rest is counted and named
        assert errors[-1].code == "too-many-problems"
        assert "fail the schema but are not explained" in errors[-1].message
    else:  # one mistake, 2,000 times in each level: one problem a level, each explained once
        assert [p.pointer for p in errors] == [f"/levels/{n}/entities/0/kind" for n in range(17)]
        assert all(p.message.endswith("(and 1,999 more entities)") for p in errors)
        assert explanations[0] <= 17


def test_a_level_report_explains_at_most_the_cap(explanations: list[int]) -> None:
    """What the editor keeps per level is bounded too: 1,000 records explained at most."""
    doc = failing_entities(1, 3_000, distinct=True)
    report = engine.report_level(doc["levels"][0], nouns=frozenset({"BABA"}))
    assert explanations[0] <= MAX_PROBLEMS + 1
    assert len(report.errors) <= MAX_PROBLEMS
    assert report.check.unexplained == 2_000


def test_reports_of_one_pass_are_as_bounded_as_load_pack(explanations: list[int]) -> None:
    doc = failing_entities(17, 2_000, distinct=True)
    reports = list(engine.report_levels(doc))
    assert explanations[0] <= 2 * MAX_PROBLEMS
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(doc)
    assert list(engine.check_pack(doc, levels=reports).errors) == caught.value.errors


# ----------------------------------------------------------------- B6: pre-scan


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the JSON parses a pack read starts."""
    jsontext = importlib.import_module("engine.packs.jsontext")
    calls = [0]
    for name in ("loads", "JSONDecoder"):
        original = getattr(json, name)

        def counting(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            calls[0] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(jsontext.json, name, counting)
    return calls


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (b'{"levels": [' + b"{}," * MAX_PACK_CONTAINERS + b"{}]}", "objects and lists"),
        (b'{"x": [' + b"[]," * MAX_PACK_CONTAINERS + b"[]]}", "objects and lists"),
        (b'{"x": [' + b"0," * MAX_PACK_VALUES + b"0]}", "values"),
    ],
    ids=["levels of {}", "a list of []", "a list of numbers"],
)
def test_a_pack_file_holding_more_than_any_pack_is_refused_unparsed(
    tmp_path: Path, parses: list[int], text: bytes, what: str
) -> None:
    path = tmp_path / "many.json"
    path.write_bytes(text)
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(path)
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code) == ("", "bad-size")
    assert what in problem.message
    assert "nothing was read" in problem.message
    assert parses[0] == 0
    tracemalloc.start()  # what reading the bytes costs beyond the bytes themselves
    try:
        with pytest.raises(engine.ValidationError):
            parse_json_text(text, source="many")
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(text)  # a count of the bytes; no parsed object (was 20 times it)


def test_the_counts_allow_the_largest_ordinary_pack() -> None:
    """A pack at the level limit with ordinary levels (60 entities) stays under both caps."""
    level = json.dumps(
        {
            "id": "level-0001",
            "title": "Level 1",
            "width": 16,
            "height": 16,
            "entities": [
                {"id": i, "kind": "object", "noun": "ROCK", "x": i % 16, "y": i // 16}
                for i in range(1, 61)
            ],
            "solution": "RRUL",
        }
    ).encode()
    counts = count_structure(level)
    assert counts.containers * 10_000 < MAX_PACK_CONTAINERS
    assert counts.values * 10_000 < MAX_PACK_VALUES


# ------------------------------------------------------------ B9: short messages


def test_a_huge_field_name_is_clipped_in_pointer_and_message(tmp_path: Path) -> None:
    key = "k" * 10 * 2**20
    doc = pack_document({"id": "a", "width": 1, "height": 1, "entities": [], key: 1}, nouns=[])
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(path)
    [problem] = caught.value.errors
    assert problem.code == "unknown-field"
    assert len(str(problem)) < 300
    assert problem.pointer.endswith("…(10,485,760 characters)")
    assert "'kkkk" in problem.message
    assert "(10,485,760 characters)" in problem.message


def test_a_key_repeated_many_times_is_one_problem_with_its_count(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    path.write_bytes(b"{" + b'"a": 1, ' * 100_000 + b'"b": 2}')
    with pytest.raises(engine.ValidationError) as caught:
        engine.read_json_file(path)
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code) == ("/a", "duplicate-key")
    assert "(100,000 times)" in problem.message


def test_a_rule_bomb_says_its_budget_and_where_reading_stopped() -> None:
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(pack_of(stacked_bomb(400)))
    [problem] = caught.value.errors
    assert problem.code == "rule-complexity"
    assert f"budget of {PARSE_BUDGET:,} units" in problem.message
    assert "counted" not in problem.message  # never "counted 446,727,188 before stopping"
    stopped = re.search(
        r"reading stopped after ([\d,]+), at a step that would need", problem.message
    )
    assert stopped is not None
    assert int(stopped[1].replace(",", "")) <= PARSE_BUDGET
