"""Checking a pack level by level keeps issue 20's bounds (the merge of issues 15 and 20).

The editor and ``engine.lint`` re-check one level at a time and combine the parts
(``check_pack(doc, levels=reports)``); ``load_pack`` and ``rulegrid validate``
run the same parts in one bounded pass. On hostile packs both must give exactly
the same problems: the first 1,000 and a count of the rest, failing levels named
once the list is full, sizes alone, and one ``too-much-work`` where the pack's
total of rule reading runs out (later levels' rules unread, whichever way).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
import engine.packs.parts as parts_module
from engine import check_pack, declared_nouns, report_level
from engine.errors import TOO_MANY_PROBLEMS
from engine.limits import MAX_NOUNS, MAX_PROBLEMS, MAX_RECORD_FIELDS
from tests.engine.test_problem_floods import flood, flood_level
from tests.hostile import pack_of, stacked_bomb
from tests.support import grid_level, pack_document


def level_by_level(doc: dict[str, Any]) -> engine.PackReport:
    """What the editor does: the shell alone, each level checked alone, then combined."""
    shell = {**doc, "levels": []}
    nouns = declared_nouns(shell)
    reports = [report_level(copy.deepcopy(level), nouns=nouns) for level in doc["levels"]]
    return check_pack(shell, name="test", levels=reports)


def load_errors(doc: dict[str, Any]) -> list[engine.Problem]:
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(doc)
    return caught.value.errors


def assert_one_answer(doc: dict[str, Any]) -> list[engine.Problem]:
    whole = check_pack(doc, name="test")
    assert level_by_level(doc) == whole
    assert list(whole.errors) == load_errors(doc)
    return list(whole.errors)


def test_a_flood_of_semantic_problems_is_capped_the_same_level_by_level() -> None:
    doc = flood(*(flood_level(f"l{n}", 500) for n in range(6)))
    errors = assert_one_answer(doc)
    assert len(errors) == MAX_PROBLEMS + 1
    assert errors[-1].code == TOO_MANY_PROBLEMS
    assert "2,000 more problems are not listed (3,000 in all)" in errors[-1].message


def test_levels_failing_the_schema_past_the_cap_are_named_the_same_level_by_level() -> None:
    bad = [{"id": f"l{n}", "width": "wide", "height": 1, "entities": []} for n in range(1_200)]
    errors = assert_one_answer(pack_document(*bad, nouns=[]))
    assert len(errors) == MAX_PROBLEMS + 1
    assert "200 more levels have schema problems that are not counted" in errors[-1].message
    assert "(the first is /levels/1000)" in errors[-1].message


def test_a_duplicate_id_among_a_flood_takes_its_place_in_document_order() -> None:
    levels = [flood_level("same", 400), flood_level("same", 400)]
    levels.append(flood_level("last", 400))
    errors = assert_one_answer(flood(*levels))
    assert ("/levels/1/id", "duplicate-level-id") in [(p.pointer, p.code) for p in errors]
    assert "201 more problems are not listed (1,201 in all)" in errors[-1].message


@pytest.mark.parametrize(
    "oversize",
    ["nouns", "pack fields", "level fields", "entities"],
)
def test_sizes_are_the_whole_answer_level_by_level_too(oversize: str) -> None:
    level = grid_level(["baba . .", "BABA IS YOU"], "one")
    doc = pack_document(level, grid_level(["BABA IS YOU"], "two"))
    if oversize == "nouns":
        doc["nouns"].update({f"N{i}": {"color": "#ffffff"} for i in range(MAX_NOUNS)})
    elif oversize == "pack fields":
        doc.update({f"x{i}": 0 for i in range(MAX_RECORD_FIELDS)})
    elif oversize == "level fields":
        doc["levels"][1].update({f"x{i}": 0 for i in range(MAX_RECORD_FIELDS)})
    else:
        doc["levels"][0]["entities"] *= 6_000  # 24,000 entities
    errors = assert_one_answer(doc)
    assert [p.code for p in errors] == ["bad-size"]


def test_the_packs_total_of_rule_reading_runs_out_at_the_same_level_by_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the total runs out there is one too-much-work; later levels are not read:
    a board over its own budget there is no problem of its own, and nothing is linted."""
    small = grid_level(["BABA IS YOU", "baba . flag", "FLAG IS WIN"], "small")
    per_level = engine.check_pack(pack_of(small)).errors == ()
    assert per_level
    monkeypatch.setattr(parts_module, "PACK_PARSE_BUDGET", 40)  # about three small boards
    doc = pack_of(small, small, small, small, small, stacked_bomb(260), small)
    whole = check_pack(doc, name="test")
    assert level_by_level(doc) == whole
    assert list(whole.errors) == load_errors(doc)
    [problem] = whole.errors
    assert problem.code == "too-much-work"
    stop = int(problem.pointer.split("/")[2])
    assert 0 < stop < 5
    assert {p.level for p in whole.warnings} <= {f"small-{n}" for n in range(stop)}
    monkeypatch.setattr(parts_module, "PACK_PARSE_BUDGET", 10**9)  # the bomb is read again
    assert [p.code for p in load_errors(doc)] == ["rule-complexity"]
