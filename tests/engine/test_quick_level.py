"""The quick way through a valid level says yes only where the full way does (issue 21 item 2).

``load_level`` first tries :func:`engine.packs.quick.quick_level` (one pass over
the entities) and otherwise takes :func:`engine.packs.validate.full_level`. The
quick way must never accept what the full way refuses, and where it accepts, its
model must equal the full way's, down to the key order of ``to_data()`` (what a
saved file holds).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import ValidationError, load_level
from engine.packs import parts
from engine.packs.parts import check_pack_level
from engine.packs.quick import quick_level
from engine.packs.validate import full_level, pack_problems
from tests.engine.strategies import any_level
from tests.support import PACKS_DIR, keke_corpus, keke_level


def agree(doc: dict[str, Any]) -> bool:
    """Both ways on ``doc``, asserting they agree; whether the quick way accepted it."""
    quick = quick_level(copy.deepcopy(doc))
    try:
        full = full_level(copy.deepcopy(doc))
    except ValidationError:
        assert quick is None, "the quick way accepted a level the full way refuses"
        return False
    if quick is None:
        return False
    assert quick == full
    assert json.dumps(quick.to_data()) == json.dumps(full.to_data())
    assert quick.model_dump() == full.model_dump()
    return True


def test_every_corpus_and_bundled_level_takes_the_quick_way_to_the_same_model() -> None:
    docs = [keke_level(record) for record in keke_corpus()["levels"]]
    for path in sorted(PACKS_DIR.glob("*.json")):
        docs += json.loads(path.read_text(encoding="utf-8"))["levels"]
    assert len(docs) > 113
    for doc in docs:
        assert agree(doc), doc["id"]


def test_load_level_gives_the_quick_model_or_the_full_problems() -> None:
    doc = keke_level(keke_corpus()["levels"][0])
    assert load_level(doc) == full_level(doc)
    doc["entities"][0]["x"] = 999
    with pytest.raises(ValidationError) as quick_way:
        load_level(doc)
    with pytest.raises(ValidationError) as full_way:
        full_level(doc)
    assert [str(p) for p in quick_way.value.errors] == [str(p) for p in full_way.value.errors]


#: (field, odd value) pairs: every way an entity can stray from the plain form
ODD = [
    *[("id", v) for v in (1.0, True, "1", 0, -1, 2**31, 2**31 - 1, None, [])],
    *[(axis, v) for axis in ("x", "y") for v in (1.0, 2.0, True, False, -1, 6, 7, 127, 128, "1")],
    *[("kind", v) for v in ("other", None, "OBJECT", "word", "object")],
    *[
        (name, v)
        for name in ("noun", "text")
        for v in ("baba", "IS", "AND", "YOU", "WIN", "FRAIL", "TICK", "BABA\n", "A" * 33, "", 1)
    ],
    *[(name, None) for name in ("noun", "text", "id", "x", "y", "kind")],
]


def stray(doc: dict[str, Any], index: int, field: str, value: object) -> dict[str, Any]:
    """``doc`` with entity ``index`` changed: ``field`` set to ``value`` (``None``: removed)."""
    doc = copy.deepcopy(doc)
    entity = doc["entities"][index]
    if value is None:
        entity.pop(field, None)
    else:
        entity[field] = value
    return doc


def test_each_odd_entity_gets_the_same_answer_both_ways() -> None:
    # 7 columns and rows, FRAIL opted in with TICK automaton: every odd value is judged
    # against a level where it could be fine or not
    doc = keke_level(keke_corpus()["levels"][0])
    doc["width"] = doc["height"] = 7
    doc["entities"] = [e for e in doc["entities"] if e["x"] < 7 and e["y"] < 7]
    objects = [n for n, e in enumerate(doc["entities"]) if e["kind"] == "object"]
    words = [n for n, e in enumerate(doc["entities"]) if e["kind"] == "word"]
    assert objects
    assert words
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}
    tick = {"id": "t", "property": "TICK", "pattern": [{"action": "wait"}]}
    for extra in ({}, {"mechanics": [frail], "automata": [tick]}):
        base = {**doc, **extra}
        assert agree(base)
        for index in (objects[0], words[0]):
            for field, value in ODD:
                agree(stray(base, index, field, value))
            for key in ("leaves", "color", "noun", "text"):
                if key not in base["entities"][index]:
                    agree(stray(base, index, key, "ROCK"))
        twin = copy.deepcopy(base)
        twin["entities"][1]["id"] = twin["entities"][0]["id"]
        assert not agree(twin)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """A valid random level with one entity changed in one odd way."""
    doc = draw(any_level)
    index = draw(st.integers(0, len(doc["entities"]) - 1))
    field, value = draw(st.sampled_from(ODD))
    return stray(doc, index, field, value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_level)
def test_random_valid_levels_take_the_quick_way(doc: dict[str, Any]) -> None:
    assert agree(doc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_random_levels_with_an_odd_entity_get_the_same_answer_both_ways(
    doc: dict[str, Any],
) -> None:
    agree(doc)


# ------------------------------------------------------------------ levels in a pack


def pack_of(levels: list[dict[str, Any]], nouns: list[str]) -> dict[str, Any]:
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "p",
        "title": "P",
        "nouns": {n: {"color": "#123456"} for n in nouns},
        "levels": levels,
    }


def pack_agree(doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> bool:
    """A pack checked with and without the quick way: the same levels, problems and model."""
    quick_checks = [
        check_pack_level(copy.deepcopy(lv), frozenset(doc["nouns"])) for lv in doc["levels"]
    ]
    quick = pack_problems(copy.deepcopy(doc), "p")
    with monkeypatch.context() as patch:
        patch.setattr(parts, "quick_parts", lambda *_args, **_kwargs: None)
        full_checks = [
            check_pack_level(copy.deepcopy(lv), frozenset(doc["nouns"])) for lv in doc["levels"]
        ]
        full = pack_problems(copy.deepcopy(doc), "p")
    assert quick_checks == full_checks
    assert [str(p) for p in quick[1]] == [str(p) for p in full[1]]
    assert quick[0] == full[0]
    if quick[0] is not None and full[0] is not None:
        assert json.dumps(quick[0].to_data()) == json.dumps(full[0].to_data())
    return quick[0] is not None


def test_bundled_packs_check_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for path in sorted(PACKS_DIR.glob("*.json")):
        assert pack_agree(json.loads(path.read_text(encoding="utf-8")), monkeypatch), path.name


def test_a_pack_level_with_odd_entities_and_missing_nouns_checks_the_same_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = keke_level(keke_corpus()["levels"][0])
    doc["width"] = doc["height"] = 7
    doc["entities"] = [e for e in doc["entities"] if e["x"] < 7 and e["y"] < 7]
    # an object whose noun no word names: only the object can miss the pack's nouns
    doc["entities"].append({"id": 999, "kind": "object", "noun": "SKULL", "x": 6, "y": 6})
    used = sorted({e.get("noun") or e["text"] for e in doc["entities"]})
    nouns = [n for n in used if n not in ("IS", "AND", "YOU", "WIN", "PUSH", "STOP")]
    assert pack_agree(pack_of([doc], nouns), monkeypatch)
    for missing in nouns:
        pack_agree(pack_of([doc], [n for n in nouns if n != missing]), monkeypatch)
    for index in (0, len(doc["entities"]) - 1):
        for field, value in ODD[::3]:
            pack_agree(pack_of([stray(doc, index, field, value), doc], nouns), monkeypatch)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(any_level, mutated()), min_size=1, max_size=3), st.data())
def test_random_packs_check_the_same_both_ways(
    levels: list[dict[str, Any]], data: st.DataObject
) -> None:
    for n, level in enumerate(levels):
        level["id"] = f"l{n}"
    known = ["BABA", "ROCK", "FLAG", "WATER", "DRIFT", "SAND", "KEKE", "MOUSE"]
    nouns = data.draw(st.lists(st.sampled_from(known), unique=True, min_size=1))
    with pytest.MonkeyPatch.context() as monkeypatch:
        pack_agree(pack_of(levels, nouns), monkeypatch)
