"""Every planted mistake in one pass, each once, and the same list everywhere (issue 34).

``tests/data/broken/`` holds small packs broken by hand: schema and semantic
mistakes mixed in one level, across levels, pack-wide, in automata, in FRAIL maps
and in solutions. Beside each, ``NAME.mistakes.json`` lists what was planted, each
mistake by a JSON Pointer prefix and its code (``errors``, and ``warnings`` for
lints), and a sentence saying what the pack shows. One pass must report every
planted mistake exactly once and nothing else, and every way of checking a pack
(``load_pack``, ``check_pack`` level by level as the editor does, ``rulegrid
validate --json``, share import's preview) must give the same list.

A property test plants k independent mistakes (k up to 8, one in each of k levels
of the tutorial pack) and checks that one pass reports all k and nothing else.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cli import main as cli
from engine.errors import TOO_MANY_PROBLEMS
from engine.share import codec
from tests.engine.test_validation_fuzz import TUTORIAL
from tests.support import ROOT

BROKEN = ROOT / "tests" / "data" / "broken"
PACKS = sorted(p for p in BROKEN.glob("*.json") if not p.name.endswith(".mistakes.json"))

Planted = list[tuple[str, str]]


def planted(pack: Path) -> tuple[Planted, Planted, str]:
    side = json.loads(pack.with_suffix(".mistakes.json").read_text(encoding="utf-8"))
    errors = [(m["pointer"], m["code"]) for m in side["errors"]]
    warnings = [(m["pointer"], m["code"]) for m in side["warnings"]]
    return errors, warnings, side["story"]


def matches(problem: engine.Problem, mistake: tuple[str, str]) -> bool:
    prefix, code = mistake
    return problem.code == code and (
        problem.pointer == prefix or problem.pointer.startswith(prefix + "/")
    )


def assert_each_once(found: list[engine.Problem], expected: Planted) -> None:
    """Each planted mistake is reported exactly once, and nothing else is."""
    for mistake in expected:
        hits = [p for p in found if matches(p, mistake)]
        assert len(hits) == 1, f"{mistake}: reported {len(hits)} times: {hits}"
    extra = [p for p in found if not any(matches(p, m) for m in expected)]
    assert extra == [], f"reported but not planted: {extra}"


def test_the_corpus_covers_what_issue_34_asks() -> None:
    assert len(PACKS) >= 25
    codes = {code for pack in PACKS for code in (c for _, c in planted(pack)[0])}
    places = {
        "schema and semantics in one level": any(
            {"out-of-range", "unknown-noun"} <= {c for _, c in planted(p)[0]} for p in PACKS
        ),
        "pack-wide": any(m.startswith("/nouns") for p in PACKS for m, _ in planted(p)[0]),
        "automata": any("/automata/" in m for p in PACKS for m, _ in planted(p)[0]),
        "FRAIL maps": any("/leaves/" in m for p in PACKS for m, _ in planted(p)[0]),
        "solutions": any(m.endswith("/solution") for p in PACKS for m, _ in planted(p)[0]),
        "across levels": any(
            len({m.split("/")[2] for m, _ in planted(p)[0] if m.startswith("/levels/")}) > 2
            for p in PACKS
        ),
    }
    assert all(places.values()), places
    assert len(codes) >= 25


@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_one_pass_reports_every_planted_mistake_once_and_nothing_else(pack: Path) -> None:
    errors, warnings, _story = planted(pack)
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(pack)
    found = caught.value.errors
    assert TOO_MANY_PROBLEMS not in {p.code for p in found}
    assert_each_once(found, errors)
    report = engine.check_pack(json.loads(pack.read_text(encoding="utf-8")), name=pack.stem)
    assert list(report.errors) == found
    assert_each_once(list(report.warnings), warnings)


@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_every_way_of_checking_gives_the_same_list(
    pack: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """load_pack, the editor's level-by-level check, validate (text and --json, with and
    without --lint) and share import's preview: the same problems, from the same functions."""
    doc = json.loads(pack.read_text(encoding="utf-8"))
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(pack)
    expected = [p.to_dict() for p in caught.value.errors]

    shell = {**doc, "levels": []}
    nouns = engine.declared_nouns(shell)
    levels = doc["levels"] if isinstance(doc.get("levels"), list) else []
    reports = [engine.report_level(copy.deepcopy(lv), nouns=nouns) for lv in levels]
    in_parts = engine.check_pack(shell, name=pack.stem, levels=reports)
    assert [p.to_dict() for p in in_parts.errors] == expected
    assert engine.check_pack(doc, name=pack.stem) == in_parts

    assert cli(["validate", "--json", str(pack)]) == 1
    assert json.loads(capsys.readouterr().out) == expected
    assert cli(["validate", "--lint", "--json", str(pack)]) == 1
    linted = json.loads(capsys.readouterr().out)
    assert [
        {k: v for k, v in r.items() if k != "severity"} for r in linted if r["severity"] == "error"
    ] == expected
    assert cli(["validate", str(pack)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [str(p) for p in caught.value.errors]

    payload = codec.to_text(codec.seal({"pack": doc}))
    preview = engine.share.decode(payload)
    if isinstance(doc.get("id"), str) and doc.get("id") == caught.value.errors[0].pack:
        assert [p.to_dict() for p in preview.problems] == expected


# ------------------------------------------------------------- planted at random

Mutation = tuple[str, str]  # what to do, and to which kind of record


def _mistake(level: dict[str, Any], index: int, how: str, n: int) -> tuple[str, str]:
    """Plant one mistake ``how`` in entity ``index`` of ``level``; its (pointer, code)."""
    entity = level["entities"][index]
    where = f"/entities/{index}"
    if how == "off-grid":
        entity["x"] = level["width"] + n
        return where + "/x", "out-of-bounds"
    if how == "negative":
        entity["x"] = -1 - n
        return where + "/x", "out-of-range"
    if how == "not-a-token":
        field = "noun" if entity["kind"] == "object" else "text"
        entity[field] = f"zz{n}"
        return f"{where}/{field}", "bad-format"
    if how == "unknown-noun":
        field = "noun" if entity["kind"] == "object" else "text"
        entity[field] = f"ZZ{n}"
        return f"{where}/{field}", "unknown-noun"
    if how == "unknown-field":
        entity[f"extra{n}"] = n
        return f"{where}/extra{n}", "unknown-field"
    if how == "unknown-kind":
        entity["kind"] = f"crate{n}"
        return where + "/kind", "unknown-kind"
    if how == "no-id":
        del entity["id"]
        return where + "/id", "missing-field"
    if how == "zero-id":
        entity["id"] = 0
        return where + "/id", "out-of-range"
    if how == "title":
        level["title"] = n
        return "/title", "wrong-type"
    raise AssertionError(how)


KINDS = [
    "off-grid",
    "negative",
    "not-a-token",
    "unknown-noun",
    "unknown-field",
    "unknown-kind",
    "no-id",
    "zero-id",
    "title",
]


@st.composite
def planted_packs(draw: st.DrawFn) -> tuple[dict[str, Any], Planted]:
    """The tutorial pack with k independent mistakes, one in each of k levels."""
    doc = copy.deepcopy(TUTORIAL)
    count = draw(st.integers(1, min(8, len(doc["levels"]))))
    chosen = draw(
        st.lists(
            st.integers(0, len(doc["levels"]) - 1), min_size=count, max_size=count, unique=True
        )
    )
    expected: Planted = []
    for n, level_index in enumerate(chosen):
        level = doc["levels"][level_index]
        entity = draw(st.integers(0, len(level["entities"]) - 1))
        how = draw(st.sampled_from(KINDS))
        pointer, code = _mistake(level, entity, how, n)
        expected.append((f"/levels/{level_index}{pointer}", code))
    return doc, expected


@settings(max_examples=150, deadline=None)
@given(planted_packs())
def test_k_independent_mistakes_are_all_reported_in_one_pass(
    case: tuple[dict[str, Any], Planted],
) -> None:
    doc, expected = case
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(doc)
    assert_each_once(caught.value.errors, expected)
