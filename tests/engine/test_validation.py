"""Semantic validators: one test per code, each proving the pointer, the code and the place.

Levels are checked inside a pack, where pointers start at the pack
(``/levels/N/...``) and every problem names its pack and level; a few checks of
``load_level`` show the same problems relative to a level loaded on its own.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import PARSE_BUDGET, Pack, ValidationError, load_level, load_pack
from tests.support import grid_level, pack_document

ROWS = ["baba . rock . flag", "BABA IS YOU . .", "FLAG IS WIN . ."]
FRAIL_MECHANIC = {
    "id": "frail",
    "type": "frail",
    "version": 1,
    "state": "derived",
    "leaves": {"DRIFT": "WATER"},
}
CLOCK = {
    "id": "clock",
    "property": "TICK",
    "pattern": [{"action": "move", "dx": -1, "dy": 0}, {"action": "wait"}],
}


def level(level_id: str = "one", rows: list[str] = ROWS, **extra: Any) -> dict[str, Any]:
    return grid_level(rows, level_id, **extra)


def pack_errors(doc: dict[str, Any]) -> list[tuple[str | None, str | None, str, str]]:
    """(pack, level, pointer, code) of every problem of a pack that must be rejected."""
    with pytest.raises(ValidationError) as caught:
        load_pack(doc)
    return [(p.pack, p.level, p.pointer, p.code) for p in caught.value.errors]


def only_problem(*levels: dict[str, Any], **pack: Any) -> tuple[str, str]:
    """The single (pointer, code) a pack with these levels is rejected for."""
    found = pack_errors(pack_document(*levels, **pack))
    assert len(found) == 1, found
    return found[0][2], found[0][3]


def test_a_valid_pack_loads() -> None:
    pack = load_pack(pack_document(level("one"), level("two")))
    assert isinstance(pack, Pack)
    assert [lv.id for lv in pack.levels] == ["one", "two"]


def test_duplicate_entity_id() -> None:
    bad = level()
    bad["entities"][3]["id"] = 2
    assert only_problem(level("first"), bad) == ("/levels/1/entities/3/id", "duplicate-entity-id")


@pytest.mark.parametrize(("field", "value"), [("x", 5), ("y", 3)])
def test_out_of_bounds(field: str, value: int) -> None:
    bad = level()
    bad["entities"][0][field] = value
    assert only_problem(bad) == (f"/levels/0/entities/0/{field}", "out-of-bounds")


@pytest.mark.parametrize("noun", ["IS", "YOU", "TICK"])
def test_an_object_cannot_carry_a_word_that_is_not_a_noun(noun: str) -> None:
    bad = level(automata=[CLOCK])
    bad["entities"][1]["noun"] = noun  # the rock
    assert only_problem(bad) == ("/levels/0/entities/1/noun", "invalid-noun")


def test_a_frail_map_noun_must_be_a_noun() -> None:
    bad = level(mechanics=[{**FRAIL_MECHANIC, "leaves": {"DRIFT": "YOU"}}])
    assert only_problem(bad, nouns=["BABA", "ROCK", "FLAG", "DRIFT"]) == (
        "/levels/0/mechanics/0/leaves/DRIFT",
        "invalid-noun",
    )


@pytest.mark.parametrize(("token", "field"), [("FRAIL", "text"), ("frail", "noun")])
def test_frail_needs_the_mechanic(token: str, field: str) -> None:
    bad = level(rows=[*ROWS, f"{token} . . . ."])
    assert only_problem(bad) == ("/levels/0/entities/9/" + field, "frail-not-declared")


def test_with_the_mechanic_frail_is_a_property_word_and_never_a_noun() -> None:
    load_pack(pack_document(level(rows=[*ROWS, "FRAIL . . . ."], mechanics=[FRAIL_MECHANIC])))
    bad = level(rows=[*ROWS, "frail . . . ."], mechanics=[FRAIL_MECHANIC])
    assert only_problem(bad) == ("/levels/0/entities/9/noun", "invalid-noun")


def test_duplicate_automaton_id() -> None:
    bad = level(automata=[CLOCK, {**CLOCK, "property": "TOCK"}])
    assert only_problem(bad) == ("/levels/0/automata/1/id", "duplicate-automaton-id")


@pytest.mark.parametrize("subject", ["YOU", "TICK", "AND"])
def test_an_automaton_subject_must_be_a_noun(subject: str) -> None:
    bad = level(automata=[{**CLOCK, "subject": subject}])
    assert only_problem(bad) == ("/levels/0/automata/0/subject", "invalid-subject")


@pytest.mark.parametrize("prop", ["PUSH", "IS", "FRAIL"])
def test_an_automaton_property_cannot_be_a_reserved_word(prop: str) -> None:
    bad = level(automata=[{**CLOCK, "property": prop}])
    assert ("/levels/0/automata/0/property", "invalid-property") in [
        (p, c) for _, _, p, c in pack_errors(pack_document(bad))
    ]


@pytest.mark.parametrize(("dx", "dy"), [(1, 1), (0, 0), (-1, 1)])
def test_automaton_moves_are_cardinal(dx: int, dy: int) -> None:
    steps = [{"action": "wait"}, {"action": "move", "dx": dx, "dy": dy}]
    bad = level(automata=[{**CLOCK, "pattern": steps}])
    assert only_problem(bad) == ("/levels/0/automata/0/pattern/1/dx", "non-cardinal-move")


def test_phase_must_index_the_pattern() -> None:
    bad = level(automata=[{**CLOCK, "phase": 2}])
    assert only_problem(bad) == ("/levels/0/automata/0/phase", "phase-out-of-range")
    load_pack(pack_document(level(automata=[{**CLOCK, "phase": 1}])))


def test_the_frail_mechanic_is_declared_once() -> None:
    bad = level(mechanics=[FRAIL_MECHANIC, FRAIL_MECHANIC])
    assert only_problem(bad) == ("/levels/0/mechanics/1", "duplicate-mechanic")


@pytest.mark.parametrize(
    ("leaves", "key"), [({"drift": "WATER"}, "drift"), ({"DRIFT": "water"}, "DRIFT")]
)
def test_frail_map_entries_are_tokens(leaves: dict[str, str], key: str) -> None:
    bad = level(mechanics=[{**FRAIL_MECHANIC, "leaves": leaves}])
    found = pack_errors(pack_document(bad, nouns=["BABA", "ROCK", "FLAG", "DRIFT", "WATER"]))
    assert found == [("test", "one", f"/levels/0/mechanics/0/leaves/{key}", "invalid-token")]


def test_the_initial_board_must_fit_the_parse_budget() -> None:
    # [ROCK+FLAG] AND [ROCK+FLAG] AND ... IS YOU: 2^k distinct sentences.
    cells = " AND ".join(["ROCK+FLAG"] * 17)
    bad = level(rows=[f"{cells} IS YOU", "baba" + " ." * 35])
    assert bad["width"] == 36
    assert only_problem(bad, nouns=["BABA", "ROCK", "FLAG"]) == (
        "/levels/0/entities",
        "rule-complexity",
    )
    # 2^17 sentences of 35 words, each word counted in the sentence and its rule
    assert PARSE_BUDGET < 2**17 * 35 * 2


def test_duplicate_level_id() -> None:
    found = pack_errors(pack_document(level("same"), level("other"), level("same")))
    assert found == [("test", "same", "/levels/2/id", "duplicate-level-id")]


@pytest.mark.parametrize(
    ("edit", "pointer"),
    [
        (lambda lv: lv["entities"][0].update(noun="GHOST"), "/levels/0/entities/0/noun"),
        (lambda lv: lv["entities"][3].update(text="GHOST"), "/levels/0/entities/3/text"),
        (
            lambda lv: lv.update(automata=[{**CLOCK, "subject": "GHOST"}]),
            "/levels/0/automata/0/subject",
        ),
        (
            lambda lv: lv.update(mechanics=[{**FRAIL_MECHANIC, "leaves": {"GHOST": "FLAG"}}]),
            "/levels/0/mechanics/0/leaves/GHOST",
        ),
        (
            lambda lv: lv.update(mechanics=[{**FRAIL_MECHANIC, "leaves": {"ROCK": "GHOST"}}]),
            "/levels/0/mechanics/0/leaves/ROCK",
        ),
    ],
)
def test_every_noun_must_be_in_the_pack_vocabulary(edit: Any, pointer: str) -> None:
    bad = level()
    edit(bad)
    assert only_problem(bad, nouns=["BABA", "ROCK", "FLAG"]) == (pointer, "unknown-noun")


def test_property_words_need_no_noun_entry() -> None:
    load_pack(
        pack_document(
            level(rows=[*ROWS, "ROCK IS TICK . ."], automata=[CLOCK]),
            nouns=["BABA", "ROCK", "FLAG"],
        )
    )


def test_one_bad_level_fails_the_pack_and_every_level_is_still_reported() -> None:
    good = level("good")
    twice = level("twice")
    twice["entities"][0]["x"] = 9
    twice["entities"][1]["id"] = 1
    broken = level("broken")
    broken["entities"][2]["kind"] = "thing"
    also = level("also", automata=[{**CLOCK, "phase": 5}])
    doc = pack_document(good, twice, level("fine"), broken, also)
    assert pack_errors(doc) == [
        ("test", "twice", "/levels/1/entities/0/x", "out-of-bounds"),
        ("test", "twice", "/levels/1/entities/1/id", "duplicate-entity-id"),
        ("test", "broken", "/levels/3/entities/2/kind", "unknown-kind"),
        ("test", "also", "/levels/4/automata/0/phase", "phase-out-of-range"),
    ]


def test_the_error_text_shows_pack_pointer_and_level() -> None:
    levels = [level(f"l{i}") for i in range(3)]
    steps = [{"action": "wait"}, {"action": "move", "dx": 2, "dy": 0}]
    levels.append(level("clockwork", automata=[{**CLOCK, "pattern": steps}]))
    with pytest.raises(ValidationError) as caught:
        load_pack(pack_document(*levels, pack_id="tutorial"))
    [problem] = caught.value.errors
    assert str(problem).startswith(
        'tutorial/levels/3/automata/0/pattern/1/dx (level "clockwork"): '
    )
    assert str(caught.value) == str(problem)
    assert problem.to_dict() == {
        "pack": "tutorial",
        "level": "clockwork",
        "pointer": "/levels/3/automata/0/pattern/1/dx",
        "code": "out-of-range",
        "message": problem.message,
    }


def test_a_level_on_its_own_is_named_by_its_id() -> None:
    bad = level("alone")
    bad["entities"][0]["x"] = 7
    with pytest.raises(ValidationError) as caught:
        load_level(bad)
    [problem] = caught.value.errors
    assert (problem.pack, problem.level, problem.pointer) == (None, "alone", "/entities/0/x")
    assert str(problem) == "alone/entities/0/x: x=7 is outside the 5x3 grid"


def test_a_malformed_id_never_becomes_a_label() -> None:
    bad = level("bad\nid")
    with pytest.raises(ValidationError) as caught:
        load_pack(pack_document(bad, pack_id="p"))
    assert [(p.level, p.pointer, p.code) for p in caught.value.errors] == [
        (None, "/levels/0/id", "bad-format")
    ]
    assert "\n" not in str(caught.value)


def test_validation_never_changes_the_document() -> None:
    bad = level("x")
    bad["entities"][0]["x"] = 9
    doc = pack_document(level("y", automata=[CLOCK]), bad)
    before = copy.deepcopy(doc)
    with pytest.raises(ValidationError):
        load_pack(doc)
    assert doc == before


def test_whole_numbers_written_as_floats_are_integers() -> None:
    doc = pack_document(level())
    doc["version"] = 1.0
    doc["levels"][0]["entities"][0]["x"] = 2.0
    pack = load_pack(doc)
    x = pack.levels[0].entities[0].x
    assert (x, type(x)) == (2, int)
    doc["levels"][0]["entities"][0]["x"] = True
    assert pack_errors(doc) == [("test", "one", "/levels/0/entities/0/x", "wrong-type")]


def test_errors_of_the_models_themselves_are_located() -> None:
    # The schema catches these first; model_problems keeps a model-only failure located.
    from pydantic import ValidationError as PydanticError

    from engine.model import Level
    from engine.packs.validate import model_problems

    bad = level()
    bad["entities"][0]["x"] = "far"
    bad["title"] = None
    with pytest.raises(PydanticError) as caught:
        Level.model_validate(bad)
    found = [(p.pointer, p.code) for p in model_problems(caught.value, bad, "/levels/4")]
    assert found == [("/levels/4/title", "invalid-value"), ("/levels/4/entities/0/x", "wrong-type")]
