"""Spec 02 (precedence and stacked parsing): one test per scenario, named after it."""

from __future__ import annotations

import pytest

from engine import PARSE_BUDGET, Game, RuleComplexityError, ValidationError, load_level
from engine.rules import parse_rules
from engine.tokens import Vocabulary
from tests.support import grid_level, ids_of

VOCAB = Vocabulary.for_level(frail=False)


def game(rows: list[str], **extra: object) -> Game:
    return Game(load_level(grid_level(rows, **extra)))


def sentences(rows: list[str]) -> list[tuple[str, str, tuple[int, ...]]]:
    """Rules of a board given in grid notation (words only), as (subject, predicate, ids)."""
    level = grid_level(rows)
    words = [(e["id"], e["text"], e["x"], e["y"]) for e in level["entities"] if e["kind"] == "word"]
    return [(r.subject, r.predicate, r.source_ids) for r in parse_rules(words, VOCAB)]


def nouns(g: Game) -> dict[int, str]:
    return {e["id"]: e["noun"] for e in g.state()["entities"] if e["kind"] == "object"}


# Requirement: PUSH takes precedence over STOP on the same object


def test_rock_is_stop_and_push_can_be_pushed() -> None:
    g = game(["baba rock .", "BABA IS YOU .", "ROCK IS STOP AND PUSH"])
    event = g.step("right").to_dict()
    assert event["accepted"] is True
    assert event["blocked"] == []
    assert event["moved"] == [
        {"id": 1, "from": [0, 0], "to": [1, 0], "pushedBy": None},
        {"id": 2, "from": [1, 0], "to": [2, 0], "pushedBy": 1},
    ]


def test_a_distinct_stop_still_blocks() -> None:
    rows = ["baba rock wall .", "BABA IS YOU . .", "ROCK IS STOP AND PUSH", "WALL IS STOP . ."]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["accepted"] is False
    assert event["blocked"] == [{"id": 1, "dir": "right", "blockerId": 3, "reason": "stop"}]
    wall = next(e for e in g.state()["entities"] if e["id"] == 3)
    assert (wall["x"], wall["y"]) == (2, 0)


# Requirement: DEFEAT resolves before WIN, including singleton contacts


def test_a_singleton_you_and_defeat_entity_loses() -> None:
    # baba pushes DEFEAT under "BABA IS" in the column: baba becomes YOU and DEFEAT at once
    rows = [
        "BABA . . .",
        "IS . . .",
        ". DEFEAT baba .",
        "BABA IS YOU flag",
        "FLAG IS WIN .",
    ]
    g = game(rows)
    event = g.step("left").to_dict()
    assert event["accepted"] is True
    assert event["destroyed"] == [{"id": 4, "noun": "BABA", "at": [1, 2], "cause": "defeat"}]
    assert event["won"] is False
    assert event["controlLost"] is True


def test_a_singleton_you_and_defeat_entity_loses_at_the_settle() -> None:
    g = game(["baba . .", "BABA IS YOU", "BABA IS DEFEAT"])
    state = g.state()
    assert 1 not in [e["id"] for e in state["entities"]]
    assert state["won"] is False
    assert state["controlLost"] is True


def test_defeat_wins_the_precedence_race() -> None:
    rows = ["baba skull+flag .", "BABA IS YOU", "SKULL IS DEFEAT", "FLAG IS WIN"]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["destroyed"] == [{"id": 1, "noun": "BABA", "at": [1, 0], "cause": "defeat"}]
    assert event["won"] is False
    assert g.won is False


def test_defeat_wins_the_precedence_race_for_one_entity_that_is_you_win_and_defeat() -> None:
    g = game(["baba . . .", "BABA IS YOU .", "BABA IS WIN .", "BABA IS DEFEAT ."])
    assert g.won is False
    assert g.control_lost is True


# Requirement: self-transform rules suppress other transformations


def test_self_transform_is_ignored() -> None:
    rows = ["baba . . .", "BABA IS BABA .", "BABA IS YOU ."]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["accepted"] is True
    assert event["transformed"] == []
    assert nouns(g)[1] == "BABA"


@pytest.mark.parametrize("self_first", [True, False])
def test_self_transform_masks_another_target(self_first: bool) -> None:
    lines = ["ROCK IS ROCK", "ROCK IS FLAG"]
    if not self_first:
        lines.reverse()
    rows = ["rock baba .", *lines, "BABA IS YOU"]
    g = game(rows)
    assert nouns(g)[1] == "ROCK"
    event = g.step("right").to_dict()
    assert event["transformed"] == []
    assert nouns(g)[1] == "ROCK"


# Requirement: competing noun transformations use spatial reading order


@pytest.mark.parametrize(("first", "second"), [("ROCK", "FLAG"), ("FLAG", "ROCK")])
def test_earlier_first_word_wins(first: str, second: str) -> None:
    rows = [f"BABA IS {first}", ". baba .", f"BABA IS {second}", "KEKE IS YOU", "keke . ."]
    level = grid_level(rows)
    level["entities"].reverse()  # authored array order must not matter
    g = Game(load_level(level))
    baba = ids_of(grid_level(rows), "baba")[0]
    assert nouns(g)[baba] == first


@pytest.mark.parametrize(("upper", "lower"), [("ROCK", "FLAG"), ("FLAG", "ROCK")])
def test_earlier_first_word_wins_and_the_selected_rule_is_observable(
    upper: str, lower: str
) -> None:
    # BABA IS BABA suppresses both links until keke pushes its last word away.
    rows = [
        ". . keke",
        "BABA IS BABA",
        ". . .",
        f"BABA IS {upper}",
        ". . .",
        f"BABA IS {lower}",
        "KEKE IS YOU",
        "baba . .",
    ]
    level = grid_level(rows)
    level["entities"].reverse()
    g = Game(load_level(level))
    assert nouns(g)[14] == "BABA"
    event = g.step("down").to_dict()
    assert event["transformed"] == [
        {
            "id": 14,
            "from": "BABA",
            "to": upper,
            "rule": {
                "subject": "BABA",
                "predicate": upper,
                "sourceIds": [5, 6, 7],
                "axis": "horizontal",
            },
        }
    ]


def test_earlier_first_word_wins_for_a_vertical_and_a_horizontal_origin() -> None:
    # BABA IS FLAG (vertical) starts at (0,0); BABA IS ROCK (horizontal) starts at (1,1)
    rows = ["BABA . . .", "IS BABA IS ROCK", "FLAG . . .", "baba . keke .", "KEKE IS YOU ."]
    g = game(rows)
    assert nouns(g)[7] == "FLAG"


# Requirement: noun transformations apply one link per turn


def test_a_transformation_chain_stops_after_one_link() -> None:
    rows = ["baba . keke", "BABA IS ROCK", "ROCK IS FLAG", "KEKE IS YOU"]
    g = game(rows)
    assert nouns(g)[1] == "ROCK"  # the settle applies one link only
    event = g.step("left").to_dict()
    assert event["transformed"] == [
        {
            "id": 1,
            "from": "ROCK",
            "to": "FLAG",
            "rule": {
                "subject": "ROCK",
                "predicate": "FLAG",
                "sourceIds": [6, 7, 8],
                "axis": "horizontal",
            },
        }
    ]
    assert nouns(g)[1] == "FLAG"


def test_restoring_a_settled_snapshot_is_not_a_turn() -> None:
    rows = [
        "BABA IS . ROCK keke",
        "ROCK IS FLAG . .",
        "KEKE IS YOU . .",
        "KEKE IS TICK . .",
        "baba . . . .",
    ]
    automata = [{"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}] * 3}]
    level = load_level(grid_level(rows, automata=automata))
    g = Game(level)
    g.step("left")  # keke completes BABA IS ROCK: first link, and the clock beats once
    snapshot = g.snapshot()
    restored = Game.from_snapshot(level, snapshot)
    assert nouns(restored)[14] == "ROCK"
    assert restored.state()["automata"][0]["phase"] == 1
    assert restored.state() == g.state()
    # only a later accepted turn advances the chain (and the phase)
    event = restored.step("down").to_dict()
    assert [(t["id"], t["from"], t["to"]) for t in event["transformed"]] == [(14, "ROCK", "FLAG")]
    assert event["automata"][0]["phase"] == 2
    assert g.step("down").to_dict() == event


# Requirement: stacked rule reading picks one token per cell and enumerates alternatives


def test_a_stacked_operator_cell_yields_one_valid_rule() -> None:
    assert sentences(["ROCK AND+IS FLAG"]) == [("ROCK", "FLAG", (1, 3, 4))]


def test_a_stacked_noun_before_is_yields_the_valid_alternative() -> None:
    assert sentences(["MIAU AND+ROCK IS YOU"]) == [("ROCK", "YOU", (3, 4, 5))]


def test_a_stacked_predicate_enumerates_alternatives() -> None:
    assert sentences(["ROCK IS WIN+PUSH"]) == [
        ("ROCK", "WIN", (1, 2, 3)),
        ("ROCK", "PUSH", (1, 2, 4)),
    ]


def test_a_stacked_subject_enumerates_alternatives() -> None:
    assert sentences(["ROCK+FLAG IS WIN"]) == [
        ("ROCK", "WIN", (1, 3, 4)),
        ("FLAG", "WIN", (2, 3, 4)),
    ]


def test_a_stacked_and_path_starts_from_each_valid_subject() -> None:
    found = sentences(["ROCK AND FLAG+IS IS WIN"])
    assert found == [("ROCK", "WIN", (1, 2, 3, 5, 6)), ("FLAG", "WIN", (1, 2, 3, 5, 6))]


def test_only_maximal_sentences_count() -> None:
    assert sentences(["BABA IS YOU AND PUSH"]) == [
        ("BABA", "YOU", (1, 2, 3, 4, 5)),
        ("BABA", "PUSH", (1, 2, 3, 4, 5)),
    ]
    # A IS B IS C is two overlapping sentences
    assert sentences(["BABA IS KEKE IS YOU"]) == [
        ("BABA", "KEKE", (1, 2, 3)),
        ("KEKE", "YOU", (3, 4, 5)),
    ]


def test_a_sentence_stays_maximal_when_a_stacked_neighbour_can_break_the_longer_one() -> None:
    # With WALL chosen in the middle cell, BABA IS YOU is a sentence of its own;
    # with AND chosen, ROCK AND BABA IS YOU is. Both readings are reported.
    found = sentences(["ROCK AND+WALL BABA IS YOU"])
    assert found == [
        ("ROCK", "YOU", (1, 2, 4, 5, 6)),
        ("BABA", "YOU", (1, 2, 4, 5, 6)),
        ("BABA", "YOU", (4, 5, 6)),
    ]


# Requirement: stacked rule parsing has a deterministic complexity limit


def _dense_row(alternatives: int) -> list[str]:
    """[ROCK+FLAG] AND [ROCK+FLAG] AND … IS YOU: 2**alternatives subject lists."""
    cells = " AND ".join(["ROCK+FLAG"] * alternatives)
    return [f"{cells} IS YOU"]


def test_an_authored_board_exceeds_the_parser_budget() -> None:
    rows = _dense_row(17)
    with pytest.raises(RuleComplexityError) as caught:
        sentences(rows)
    assert caught.value.budget == PARSE_BUDGET
    with pytest.raises(ValidationError) as invalid:
        load_level(grid_level(rows))
    [problem] = invalid.value.errors
    assert (problem.code, problem.pointer) == ("rule-complexity", "/entities")


def test_a_board_below_the_budget_returns_every_rule() -> None:
    found = sentences(_dense_row(6))
    assert len({ids for _, _, ids in found}) == 2**6  # every choice of the six stacked cells
    # one rule per distinct subject of each sentence: all-ROCK and all-FLAG have one
    assert len(found) == 2 * 1 + (2**6 - 2) * 2


def test_a_push_would_exceed_the_parser_budget() -> None:
    cells = " AND ".join(["ROCK+FLAG"] * 17).split()
    width = len(cells) + 2
    top = ["."] * width
    top[len(cells)] = "baba"
    middle = ["."] * width
    middle[len(cells)] = "IS"
    bottom = [*cells, ".", "YOU"]
    rows = [
        " ".join(top),
        " ".join(middle),
        " ".join(bottom),
        " ".join(["BABA", "IS", "YOU", "BABA", "IS", "TICK"] + ["."] * (width - 6)),
    ]
    automata = [
        {"id": "beat", "property": "TICK", "pattern": [{"action": "wait"}, {"action": "wait"}]}
    ]
    level = load_level(grid_level(rows, automata=automata))
    g = Game(level)
    g.step("left")
    g.step("right")
    before = g.snapshot()
    assert before["current"]["automata"][0]["phase"] == 0
    event = g.step("down").to_dict()
    baba = ids_of(grid_level(rows), "baba")[0]
    assert event["accepted"] is False
    assert event["blocked"] == [
        {"id": baba, "dir": "down", "blockerId": None, "reason": "rule-complexity"}
    ]
    assert event["moves"] == 2
    assert g.snapshot() == before
    assert g.history_depth == 2
