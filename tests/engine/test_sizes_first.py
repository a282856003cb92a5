"""Every list and map has a cap checked before anything walks it (issue 20, finding 2).

Each test puts one container just past its cap and checks that the problem is one
``bad-size`` at that container, found before the schema runs at all (the schema
check is replaced by one that fails the test if it is called).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine.packs.parts as parts_module
from engine import ValidationError, load_level, load_pack, share
from engine.limits import (
    MAX_AUTOMATA,
    MAX_LEAVES,
    MAX_MECHANICS,
    MAX_NOUNS,
    MAX_PATTERN_STEPS,
    MAX_RECORD_FIELDS,
)
from engine.share.codec import seal, to_text
from tests.support import grid_level, pack_document

WAIT = {"action": "wait"}
FRAIL = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}


@pytest.fixture
def no_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema must not run: sizes come first."""

    def refuse(*_args: object) -> Any:
        raise AssertionError("the schema walked a document with an oversized container")

    # a pack's schema runs in parts (its shell, each level): none may run; a level
    # on its own is checked as a pack's level is
    monkeypatch.setattr(parts_module, "pack_shell_problems", refuse)
    monkeypatch.setattr(parts_module, "explain_level", refuse)


def pack_problems(doc: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        load_pack(doc)
    return [(p.pointer, p.code) for p in caught.value.errors]


def level_with(**extra: Any) -> dict[str, Any]:
    return grid_level(["baba . .", "BABA IS YOU"], "one", **extra)


def oversized() -> list[tuple[str, dict[str, Any], str]]:
    steps = [WAIT] * (MAX_PATTERN_STEPS + 1)
    many_leaves = {f"N{i}": "ROCK" for i in range(MAX_LEAVES + 1)}
    return [
        (
            "pattern",
            level_with(automata=[{"id": "a", "property": "TICK", "pattern": steps}]),
            "/levels/0/automata/0/pattern",
        ),
        (
            "automata",
            level_with(
                automata=[
                    {"id": f"a{i}", "property": "TICK", "pattern": [WAIT]}
                    for i in range(MAX_AUTOMATA + 1)
                ]
            ),
            "/levels/0/automata",
        ),
        ("mechanics", level_with(mechanics=[FRAIL] * (MAX_MECHANICS + 1)), "/levels/0/mechanics"),
        (
            "leaves",
            level_with(mechanics=[{**FRAIL, "leaves": many_leaves}]),
            "/levels/0/mechanics/0/leaves",
        ),
        (
            "entity fields",
            level_with(entities=[{f"junk{i}": i for i in range(MAX_RECORD_FIELDS + 1)}]),
            "/levels/0/entities/0",
        ),
        (
            "step fields",
            level_with(
                automata=[
                    {
                        "id": "a",
                        "property": "TICK",
                        "pattern": [{f"k{i}": 0 for i in range(MAX_RECORD_FIELDS + 1)}],
                    }
                ]
            ),
            "/levels/0/automata/0/pattern/0",
        ),
        (
            "level fields",
            {**level_with(), **{f"x{i}": 0 for i in range(MAX_RECORD_FIELDS)}},
            "/levels/0",
        ),
    ]


@pytest.mark.parametrize(("name", "level", "where"), oversized(), ids=lambda v: str(v)[:20])
def test_an_oversized_container_is_one_problem_found_before_the_schema(
    no_schema: None, name: str, level: dict[str, Any], where: str
) -> None:
    assert pack_problems(pack_document(level, nouns=["BABA", "ROCK"])) == [(where, "bad-size")]
    with pytest.raises(ValidationError) as alone:
        load_level(level)
    assert [(p.pointer, p.code) for p in alone.value.errors] == [
        (where.removeprefix("/levels/0"), "bad-size")
    ]


def test_a_pack_declares_at_most_max_nouns(no_schema: None) -> None:
    doc = pack_document(level_with(), nouns=[f"N{i}" for i in range(MAX_NOUNS + 1)])
    assert pack_problems(doc) == [("/nouns", "bad-size")]
    doc["nouns"] = {"BABA": {"color": "#ffffff", **{f"k{i}": 1 for i in range(40)}}}
    assert pack_problems(doc) == [("/nouns/BABA", "bad-size")]
    doc["nouns"] = {}
    doc.update({f"x{i}": 0 for i in range(MAX_RECORD_FIELDS)})
    assert pack_problems(doc) == [("", "bad-size")]


def test_containers_at_their_caps_load() -> None:
    nouns = [f"N{i}" for i in range(MAX_NOUNS - 1)]
    level = level_with(
        automata=[{"id": "a", "property": "TICK", "pattern": [WAIT] * MAX_PATTERN_STEPS}],
        mechanics=[{**FRAIL, "leaves": {n: "BABA" for n in nouns[:MAX_LEAVES]}}],
    )
    pack = load_pack(pack_document(level, nouns=["BABA", *nouns]))
    assert len(pack.nouns) == MAX_NOUNS
    assert len(pack.levels[0].automata[0].pattern) == MAX_PATTERN_STEPS


def test_a_payload_of_many_nouns_is_refused_and_installs_nothing(tmp_path: Any) -> None:
    """Before the fix a 2.2 MB payload installed a pack of 700,000 nouns."""
    doc = pack_document(level_with(), nouns=[f"N{i}" for i in range(MAX_NOUNS + 1)])
    preview = share.decode(to_text(seal({"pack": doc})))
    assert [(p.pointer, p.code) for p in preview.problems] == [("/nouns", "bad-size")]
    with pytest.raises(share.ShareError):
        preview.install(tmp_path, confirm=True)
    assert list(tmp_path.iterdir()) == []


def test_a_payload_with_a_long_pattern_is_refused_before_the_schema(no_schema: None) -> None:
    steps = [WAIT] * (MAX_PATTERN_STEPS * 40)
    level = level_with(automata=[{"id": "a", "property": "TICK", "pattern": steps}])
    text = to_text(seal({"level": level}))
    preview = share.decode(text)
    assert [(p.pointer, p.code) for p in preview.problems] == [("/automata/0/pattern", "bad-size")]


def test_docs_validation_lists_every_cap() -> None:
    """docs/validation.md lists every limit of engine/limits.py, by name, with its reason."""
    import engine.limits
    from tests.support import ROOT

    text = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    names = [n for n in vars(engine.limits) if n.isupper() and not n.startswith("_")]
    assert len(names) > 30
    assert [n for n in names if f"`{n}`" not in text] == []


def test_structure_problems_say_what_no_tool_can_hold_and_nothing_else() -> None:
    """engine.structure_problems: sizes, then values no JSON text holds; no schema."""
    from engine import structure_problems

    deep: Any = 0
    for _ in range(1_000):
        deep = [deep]
    doc = pack_document(level_with(), nouns=["BABA"])
    assert structure_problems(doc) == []
    doc["levels"][0]["automata"] = deep
    doc["levels"][0]["title"] = "odd \ud800"
    doc["levels"][0]["width"] = float("inf")
    found = [(p.pointer, p.code) for p in structure_problems(doc)]
    assert ("/levels/0/title", "bad-text") in found
    assert ("/levels/0/width", "wrong-type") in found
    assert any(code == "too-deep" for _, code in found)
    wide = pack_document(level_with(), nouns=[f"N{i}" for i in range(MAX_NOUNS + 1)])
    assert [(p.pointer, p.code) for p in structure_problems(wide)] == [("/nouns", "bad-size")]
    level = level_with(entities="not a list", junk={"a": 1})  # the schema's business
    assert structure_problems(level, kind="level") == []
