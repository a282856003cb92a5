"""Spec 01 (engine core): one test per scenario, named after it."""

from __future__ import annotations

import pytest

from engine import Game, load_level
from tests.support import grid_level, ids_of


def game(rows: list[str], **extra: object) -> Game:
    return Game(load_level(grid_level(rows, **extra)))


def rule_texts(g: Game) -> list[str]:
    return [f"{r.subject} IS {r.predicate}" for r in g.rules]


def positions(g: Game) -> dict[int, tuple[int, int]]:
    return {e["id"]: (e["x"], e["y"]) for e in g.state()["entities"]}


# Requirement: a deterministic stacked grid state


def test_multiple_words_share_a_cell() -> None:
    rows = ["BABA IS YOU+WIN", ". baba . ."]
    g = game(rows)
    state = g.state()
    stacked = [e for e in state["entities"] if (e["x"], e["y"]) == (2, 0)]
    assert [(e["id"], e["text"]) for e in stacked] == [(3, "YOU"), (4, "WIN")]
    assert rule_texts(g) == ["BABA IS YOU", "BABA IS WIN"]
    assert [r.source_ids for r in g.rules] == [(1, 2, 3), (1, 2, 4)]


@pytest.mark.parametrize("intent", [(1, 1), (0, 0), "north", "diagonal", None, 7, (1,), "up"])
def test_invalid_movement_is_rejected(intent: object) -> None:
    # baba stands on the top edge, so "up" is an out-of-bounds move
    g = game([". baba .", "BABA IS YOU"])
    before_state, before_snapshot = g.state(), g.snapshot()
    event = g.step(intent).to_dict()  # type: ignore[arg-type]
    assert event["kind"] == "step"
    assert event["accepted"] is False
    assert event["moved"] == []
    assert g.state() == before_state
    assert g.snapshot() == before_snapshot
    if intent == "up":
        assert event["direction"] == "up"
        assert event["blocked"] == [{"id": 1, "dir": "up", "blockerId": None, "reason": "bounds"}]
    else:
        assert event["direction"] is None
        assert event["blocked"] == []


def test_invalid_movement_is_rejected_after_the_level_is_won() -> None:
    g = game(["baba flag .", "BABA IS YOU", "FLAG IS WIN"])
    assert g.step("right").won is True
    before_state, before_snapshot = g.state(), g.snapshot()
    event = g.step("right").to_dict()
    assert event["accepted"] is False
    assert event["won"] is True
    assert g.state() == before_state
    assert g.snapshot() == before_snapshot


# Requirement: the MVP rule vocabulary from movable words


def test_an_and_sentence_expands_to_multiple_properties() -> None:
    g = game(["BABA IS YOU AND PUSH", ". baba . . ."])
    assert [r.to_dict() for r in g.rules] == [
        {"subject": "BABA", "predicate": "YOU", "sourceIds": [1, 2, 3, 4, 5], "axis": "horizontal"},
        {
            "subject": "BABA",
            "predicate": "PUSH",
            "sourceIds": [1, 2, 3, 4, 5],
            "axis": "horizontal",
        },
    ]


def test_a_moved_word_changes_the_active_rules() -> None:
    rows = [
        ". . . . .",
        "BABA IS YOU . .",
        "ROCK IS PUSH . .",
        ". . baba . .",
    ]
    g = game(rows)
    assert rule_texts(g) == ["BABA IS YOU", "ROCK IS PUSH"]
    event = g.step("up").to_dict()
    # baba pushes PUSH into YOU's place: the row now reads BABA IS PUSH, ROCK IS lost its value
    assert event["accepted"] is True
    assert [r.to_dict() for r in g.rules] == [
        {"subject": "BABA", "predicate": "PUSH", "sourceIds": [1, 2, 6], "axis": "horizontal"}
    ]
    assert event["rulesRemoved"] == [
        {"subject": "BABA", "predicate": "YOU", "sourceIds": [1, 2, 3], "axis": "horizontal"},
        {"subject": "ROCK", "predicate": "PUSH", "sourceIds": [4, 5, 6], "axis": "horizontal"},
    ]
    assert event["rulesAdded"] == [
        {"subject": "BABA", "predicate": "PUSH", "sourceIds": [1, 2, 6], "axis": "horizontal"}
    ]


@pytest.mark.parametrize(
    "line",
    [
        "BABA YOU . baba",  # no IS
        "IS YOU . baba",  # no noun before IS
        "BABA IS . baba",  # no value after IS
        "AND IS AND baba",  # operators only
        "YOU IS BABA baba",  # a property cannot be a subject
    ],
)
def test_a_malformed_line_is_ignored(line: str) -> None:
    rows = [line, "BABA . . .", "IS . . .", "YOU . . ."]
    g = game(rows)
    # only the vertical BABA IS YOU on the left (or nothing) is a rule
    assert [(r.to_dict()["axis"], str(r)) for r in g.rules] == [("vertical", "BABA IS YOU")]
    assert g.step("left").kind == "step"  # the turn does not fail


# Requirement: controlled movement and pushes, atomically


def test_a_legal_push_moves_the_complete_chain() -> None:
    rows = ["baba rock rock ROCK .", "BABA IS YOU . .", "ROCK IS PUSH . ."]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["accepted"] is True
    assert event["moves"] == 1
    assert event["moved"] == [
        {"id": 1, "from": [0, 0], "to": [1, 0], "pushedBy": None},
        {"id": 2, "from": [1, 0], "to": [2, 0], "pushedBy": 1},
        {"id": 3, "from": [2, 0], "to": [3, 0], "pushedBy": 2},
        {"id": 4, "from": [3, 0], "to": [4, 0], "pushedBy": 3},
    ]
    assert positions(g)[4] == (4, 0)


@pytest.mark.parametrize(
    ("rows", "blocker", "reason"),
    [
        (["baba rock wall .", "BABA IS YOU .", "ROCK IS PUSH .", "WALL IS STOP ."], 3, "stop"),
        (["baba rock ROCK", "BABA IS YOU", "ROCK IS PUSH"], None, "bounds"),
    ],
)
def test_stop_blocks_a_push(rows: list[str], blocker: int | None, reason: str) -> None:
    g = game(rows)
    before = g.snapshot()
    event = g.step("right").to_dict()
    assert event["accepted"] is False
    assert event["moved"] == []
    assert event["blocked"] == [{"id": 1, "dir": "right", "blockerId": blocker, "reason": reason}]
    assert event["moves"] == 0
    assert g.snapshot() == before


def test_several_you_entities_use_stable_ordering() -> None:
    # Front-first along the intent: keke (in front) moves before baba pushes the rock into
    # keke's old cell. Rear-first would have been blocked by keke, which is STOP.
    rows = [
        "baba rock keke . .",
        "BABA IS YOU . .",
        "KEKE IS YOU . .",
        "KEKE IS STOP . .",
        "ROCK IS PUSH . .",
        "keke . . . .",
    ]
    level = load_level(grid_level(rows))
    first, second = Game(level), Game(level)
    a, b = first.step("right").to_dict(), second.step("right").to_dict()
    assert a == b
    assert first.state() == second.state()
    keke_front, keke_rear = ids_of(grid_level(rows), "keke")
    # keke 3 is furthest right; baba 1 and keke 16 tie on x and go by id
    assert [m["id"] for m in a["moved"]] == [keke_front, 1, 2, keke_rear]
    assert positions(first)[1] == (1, 0)
    assert positions(first)[2] == (2, 0)
    assert positions(first)[3] == (3, 0)


def test_several_you_entities_tie_by_ascending_id() -> None:
    rows = [". baba .", ". baba .", "BABA IS YOU"]
    g = game(rows)
    event = g.step("left").to_dict()
    assert [m["id"] for m in event["moved"]] == [1, 2]


# Requirement: transformations and contact effects


def test_a_noun_transforms() -> None:
    rows = [
        "BABA IS . KEKE keke",
        "KEKE IS YOU . .",
        "baba . baba . .",
    ]
    g = game(rows)
    event = g.step("left").to_dict()
    rule = {"subject": "BABA", "predicate": "KEKE", "sourceIds": [1, 2, 3], "axis": "horizontal"}
    babas = ids_of(grid_level(rows), "baba")
    assert event["transformed"] == [
        {"id": babas[0], "from": "BABA", "to": "KEKE", "rule": rule},
        {"id": babas[1], "from": "BABA", "to": "KEKE", "rule": rule},
    ]
    nouns = {e["id"]: e.get("noun") for e in g.state()["entities"]}
    assert [nouns[i] for i in babas] == ["KEKE", "KEKE"]


def test_sink_removes_contact_occupants() -> None:
    rows = ["baba water rock", "BABA IS YOU", "WATER IS SINK"]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["destroyed"] == [
        {"id": 1, "noun": "BABA", "at": [1, 0], "cause": "sink"},
        {"id": 2, "noun": "WATER", "at": [1, 0], "cause": "sink"},
    ]
    assert {1, 2}.isdisjoint(positions(g))
    assert 3 in positions(g)


def test_defeat_removes_you() -> None:
    rows = ["baba skull+flag .", "BABA IS YOU", "SKULL IS DEFEAT", "FLAG IS WIN"]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["destroyed"] == [{"id": 1, "noun": "BABA", "at": [1, 0], "cause": "defeat"}]
    assert event["won"] is False
    assert 2 in positions(g)  # the skull stays


def test_win_marks_the_level_complete() -> None:
    rows = ["baba flag .", "BABA IS YOU", "FLAG IS WIN"]
    g = game(rows)
    event = g.step("right").to_dict()
    assert event["won"] is True
    assert g.state()["won"] is True
    assert g.step("left").accepted is False
    g.reset()
    assert g.won is False
    assert g.step("right").accepted is True


# Requirement: complete turn undo and reset


def test_undo_restores_a_rule_edit() -> None:
    rows = [
        ". . . . .",
        ". BABA IS YOU .",
        ". FLAG IS WIN .",
        ". . . baba .",
    ]
    g = game(rows)
    before = g.state()
    event = g.step("up").to_dict()
    # WIN pushes YOU out: the row reads BABA IS WIN, so baba is no longer YOU
    assert event["accepted"] is True
    assert [str(r) for r in g.rules] == ["BABA IS WIN"]
    assert event["controlLost"] is True
    undo = g.undo().to_dict()
    assert undo["accepted"] is True
    after = g.state()
    assert after == before
    for key in ("entities", "rules", "moves", "won"):
        assert after[key] == before[key]


def test_undo_with_no_history_is_harmless() -> None:
    g = game(["baba . .", "BABA IS YOU"])
    before = g.snapshot()
    event = g.undo().to_dict()
    assert event["kind"] == "undo"
    assert event["accepted"] is False
    assert event["moved"] == []
    assert g.snapshot() == before


def test_reset_returns_to_the_level_start() -> None:
    rows = ["baba rock water FLAG", "BABA IS YOU .", "ROCK IS PUSH .", "WATER IS SINK ."]
    g = game(rows)
    start = g.state()
    g.step("right")  # rock sinks with the water
    g.step("right")
    assert g.moves == 2
    assert g.state()["entities"] != start["entities"]
    event = g.reset().to_dict()
    assert event["kind"] == "reset"
    assert event["accepted"] is True
    state = g.state()
    assert state["entities"] == start["entities"]
    assert state["rules"] == start["rules"]
    assert state["moves"] == 0
    assert state["won"] is False
    assert state["historyDepth"] == 0
    assert g.undo().accepted is False


# Requirement: active rules identify their source words


def test_a_horizontal_sentence_reports_its_source() -> None:
    g = game([". . . .", ". MIAU IS YOU", "miau . . ."])
    [rule] = g.rules
    assert rule.to_dict() == {
        "subject": "MIAU",
        "predicate": "YOU",
        "sourceIds": [1, 2, 3],
        "axis": "horizontal",
    }


def test_a_vertical_sentence_reports_its_source() -> None:
    g = game([". ROCK", ". IS", "rock PUSH"])
    [rule] = g.rules
    assert rule.source_ids == (1, 2, 4)
    assert rule.axis == "vertical"
    assert (rule.subject, rule.predicate) == ("ROCK", "PUSH")


def test_duplicate_sentences_keep_deterministic_sources() -> None:
    rows = ["BABA IS YOU . .", ". . . . .", ". . BABA IS YOU"]
    first = game(rows)
    shuffled = grid_level(rows)
    shuffled["entities"].reverse()
    second = Game(load_level(shuffled))
    assert [r.to_dict() for r in first.rules] == [r.to_dict() for r in second.rules]
    assert [r.source_ids for r in first.rules] == [(1, 2, 3), (4, 5, 6)]


# Requirement: settled turn events


BREAKABLE = [
    "BABA IS YOU .",
    ". . baba .",
    "FLAG IS WIN .",
    ". . . .",
]


def test_breaking_a_rule_produces_a_rule_delta() -> None:
    g = game(BREAKABLE)
    event = g.step("down").to_dict()
    assert event["accepted"] is True
    assert event["moved"] == [
        {"id": 4, "from": [2, 1], "to": [2, 2], "pushedBy": None},
        {"id": 7, "from": [2, 2], "to": [2, 3], "pushedBy": 4},
    ]
    assert event["rulesRemoved"] == [
        {"subject": "FLAG", "predicate": "WIN", "sourceIds": [5, 6, 7], "axis": "horizontal"}
    ]
    assert event["rulesAdded"] == []


def test_a_blocked_push_produces_no_state_change() -> None:
    rows = ["baba ROCK wall", "BABA IS YOU", "WALL IS STOP"]
    g = game(rows)
    g_before = g.snapshot()
    event = g.step("right").to_dict()
    assert event == {
        "kind": "step",
        "accepted": False,
        "direction": "right",
        "moved": [],
        "blocked": [{"id": 1, "dir": "right", "blockerId": 3, "reason": "stop"}],
        "rulesAdded": [],
        "rulesRemoved": [],
        "transformed": [],
        "destroyed": [],
        "crumbled": [],
        "automated": [],
        "automata": [],
        "controlLost": False,
        "won": False,
        "moves": 0,
    }
    assert g.snapshot() == g_before
    assert g.history_depth == 0


def test_undo_reports_a_restored_state() -> None:
    g = game(BREAKABLE)
    state_before = g.state()
    pushed = g.step("down").to_dict()
    event = g.undo().to_dict()
    assert event == {
        "kind": "undo",
        "accepted": True,
        "direction": None,
        "moved": [
            {"id": 4, "from": [2, 2], "to": [2, 1], "pushedBy": None},
            {"id": 7, "from": [2, 3], "to": [2, 2], "pushedBy": None},
        ],
        "blocked": [],
        "rulesAdded": pushed["rulesRemoved"],
        "rulesRemoved": [],
        "transformed": [],
        "destroyed": [],
        "crumbled": [],
        "automated": [],
        "automata": [],
        "controlLost": False,
        "won": False,
        "moves": 0,
    }
    assert g.state() == state_before


def test_contact_destruction_includes_presentation_details() -> None:
    rows = [
        "baba skull . .",
        "baba ROCK water .",
        "BABA IS YOU .",
        "WATER IS SINK .",
        "SKULL IS DEFEAT .",
    ]
    g = game(rows)
    event = g.step("right").to_dict()
    # SINK before DEFEAT even though the DEFEAT cell comes first in reading order
    assert event["destroyed"] == [
        {"id": 4, "text": "ROCK", "at": [2, 1], "cause": "sink"},
        {"id": 5, "noun": "WATER", "at": [2, 1], "cause": "sink"},
        {"id": 1, "noun": "BABA", "at": [1, 0], "cause": "defeat"},
    ]


def test_control_loss_is_explicit() -> None:
    g = game(["baba water .", "BABA IS YOU", "WATER IS SINK"])
    event = g.step("right").to_dict()
    assert event["accepted"] is True
    assert event["controlLost"] is True
    state = g.state()
    assert state["controlLost"] is True
    assert [e["id"] for e in state["entities"]] == [3, 4, 5, 6, 7, 8]  # words remain inspectable
    assert g.step("left").accepted is False
    assert g.undo().to_dict()["controlLost"] is False


def test_event_arrays_preserve_resolution_order() -> None:
    rows = [
        "BABA IS YOU . . . .",
        "KEKE IS WIN . . . .",
        "WATER IS SINK . . . .",
        "ROCK IS . KEKE baba . .",
        ". rock baba . . . .",
        ". . water baba . . .",
    ]
    g = game(rows)
    event = g.step("left").to_dict()
    assert event["moved"] == [
        {"id": 15, "from": [2, 4], "to": [1, 4], "pushedBy": None},
        {"id": 17, "from": [3, 5], "to": [2, 5], "pushedBy": None},
        {"id": 13, "from": [4, 3], "to": [3, 3], "pushedBy": None},
        {"id": 12, "from": [3, 3], "to": [2, 3], "pushedBy": 13},
    ]
    assert event["transformed"] == [
        {
            "id": 14,
            "from": "ROCK",
            "to": "KEKE",
            "rule": {
                "subject": "ROCK",
                "predicate": "KEKE",
                "sourceIds": [10, 11, 12],
                "axis": "horizontal",
            },
        }
    ]
    assert event["destroyed"] == [
        {"id": 16, "noun": "WATER", "at": [2, 5], "cause": "sink"},
        {"id": 17, "noun": "BABA", "at": [2, 5], "cause": "sink"},
    ]
    assert event["won"] is True
    assert event["controlLost"] is False
    assert list(event) == [
        "kind",
        "accepted",
        "direction",
        "moved",
        "blocked",
        "rulesAdded",
        "rulesRemoved",
        "transformed",
        "destroyed",
        "crumbled",
        "automated",
        "automata",
        "controlLost",
        "won",
        "moves",
    ]
