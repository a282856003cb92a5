"""Spec 03 (property-carried automata): one test per scenario, named after it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, ValidationError, load_level, load_pack
from tests.support import grid_level, ids_of

LEFT = {"action": "move", "dx": -1, "dy": 0}
RIGHT = {"action": "move", "dx": 1, "dy": 0}
UP = {"action": "move", "dx": 0, "dy": -1}
WAIT = {"action": "wait"}


def automaton(pattern: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return {"id": "clock", "property": "TICK", "pattern": pattern, **fields}


def game(rows: list[str], *automata: dict[str, Any], **extra: Any) -> Game:
    return Game(load_level(grid_level(rows, automata=list(automata), **extra)))


def where(g: Game, entity_id: int) -> tuple[int, int] | None:
    for e in g.state()["entities"]:
        if e["id"] == entity_id:
            return (e["x"], e["y"])
    return None


# A carrier (mouse) next to a free player (baba) that can always step down and up.
CLOCK_ROWS = [
    ". . mouse . baba",
    "MOUSE IS TICK . .",
    "BABA IS YOU . .",
    ". . . . .",
]
MOUSE, BABA = 1, 2


# Requirement: levels may declare a deterministic property automaton


def test_a_property_carried_automaton_starts_at_phase_zero() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT]))
    [entry] = g.state()["automata"]
    assert entry == {
        "id": "clock",
        "subject": None,
        "property": "TICK",
        "pattern": [LEFT, WAIT],
        "phase": 0,
        "active": True,
        "carriers": [{"noun": "MOUSE", "instanceIds": [MOUSE]}],
        "instanceIds": [MOUSE],
        "next": LEFT,
    }


def test_a_subject_restricts_the_carrier() -> None:
    rows = [
        ". . mouse bell baba",
        "MOUSE IS TICK . .",
        "BELL IS TICK . .",
        "BABA IS YOU . .",
        ". . . . .",
    ]
    g = game(rows, automaton([LEFT], id="mouse-clock", subject="MOUSE"))
    bell = ids_of(grid_level(rows), "bell")[0]
    event = g.step("down").to_dict()
    assert [a["id"] for a in event["automated"]] == [MOUSE]
    assert where(g, MOUSE) == (1, 0)
    assert where(g, bell) == (3, 0)
    assert event["automata"][0]["carriers"] == [{"noun": "MOUSE", "instanceIds": [MOUSE]}]


def test_a_legacy_level_remains_compatible() -> None:
    data = grid_level(CLOCK_ROWS)
    level = load_level(data)
    assert level.automata == []
    assert "automata" not in level.to_data()
    g = Game(level)
    assert g.state()["automata"] == []
    event = g.step("down").to_dict()
    assert event["accepted"] is True
    assert event["automata"] == []
    assert event["automated"] == []
    assert where(g, MOUSE) == (2, 0)


# Requirement: board rules activate and transfer property-carried automata


def test_a_visible_property_rule_activates_a_carrier() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT]))
    assert g.state()["automata"][0]["active"] is True
    g.step("down")
    assert where(g, MOUSE) == (1, 0)


TRANSFER_ROWS = [
    ". . baba . . .",
    "MOUSE IS TICK . . .",
    "BELL IS . . . .",
    ". . . . . .",
    ". mouse . bell . .",
    "BABA IS YOU . . .",
]
T_MOUSE, T_BELL = 7, 8


def test_pushing_the_property_word_transfers_the_carrier() -> None:
    g = game(TRANSFER_ROWS, automaton([RIGHT]))
    assert g.state()["automata"][0]["instanceIds"] == [T_MOUSE]
    event = g.step("down").to_dict()
    assert [str(r) for r in g.rules] == ["BELL IS TICK", "BABA IS YOU"]
    assert where(g, T_MOUSE) == (1, 4)  # no longer a carrier: did not move
    assert where(g, T_BELL) == (4, 4)  # the new carrier acted in the same turn
    assert event["automata"][0]["instanceIds"] == [T_BELL]


# Requirement: turns resolve player and automaton actions deterministically


def test_player_movement_precedes_automaton_movement() -> None:
    g = game(TRANSFER_ROWS, automaton([RIGHT]))
    event = g.step("down").to_dict()
    assert [m["id"] for m in event["moved"]] == [1, 4, T_BELL]  # baba, the TICK word, then bell
    assert event["automated"] == [
        {
            "automaton": "clock",
            "action": "move",
            "id": T_BELL,
            "from": [3, 4],
            "to": [4, 4],
            "blocked": None,
            "cue": None,
            "sound": None,
        }
    ]


def test_automaton_movement_uses_front_first_pushing() -> None:
    # Both mice carry TICK and are STOP: the rear one could not move first.
    rows = [
        "mouse mouse rock . . .",
        "MOUSE IS TICK . . .",
        "MOUSE IS STOP . . .",
        "ROCK IS PUSH . . .",
        "BABA IS YOU . baba .",
    ]
    g = game(rows, automaton([{**RIGHT, "cue": "step"}]))
    event = g.step("up").to_dict()
    assert event["moved"][1:] == [
        {"id": 2, "from": [1, 0], "to": [2, 0], "pushedBy": None},
        {"id": 3, "from": [2, 0], "to": [3, 0], "pushedBy": 2},
        {"id": 1, "from": [0, 0], "to": [1, 0], "pushedBy": None},
    ]
    assert [(a["id"], a["from"], a["to"]) for a in event["automated"]] == [
        (2, [1, 0], [2, 0]),
        (1, [0, 0], [1, 0]),
    ]
    again = game(rows, automaton([{**RIGHT, "cue": "step"}])).step("up").to_dict()
    assert again == event


def test_contacts_settle_after_both_movement_phases() -> None:
    # The player walks onto water that is harmless; the automaton then pushes SINK
    # into WATER IS SINK, and only the contacts after that second parse sink baba.
    rows = [
        "WATER IS . .",
        ". . SINK .",
        ". . mouse .",
        "baba water . .",
        "BABA IS YOU .",
        "MOUSE IS TICK .",
    ]
    g = game(rows, automaton([UP]))
    event = g.step("right").to_dict()
    assert event["rulesAdded"] == [
        {"subject": "WATER", "predicate": "SINK", "sourceIds": [1, 2, 3], "axis": "horizontal"}
    ]
    assert event["destroyed"] == [
        {"id": 5, "noun": "BABA", "at": [1, 3], "cause": "sink"},
        {"id": 6, "noun": "WATER", "at": [1, 3], "cause": "sink"},
    ]
    assert event["controlLost"] is True


def test_contacts_settle_after_both_movement_phases_for_win_and_defeat() -> None:
    win = game(["mouse . flag", "MOUSE IS YOU", "MOUSE IS TICK", "FLAG IS WIN"], automaton([RIGHT]))
    assert win.step("right").won is True
    rows = ["baba . .", "mouse skull .", "MOUSE IS TICK", "SKULL IS DEFEAT", "BABA IS YOU"]
    harmless = game(rows, automaton([RIGHT]))
    event = harmless.step("right").to_dict()
    assert event["destroyed"] == []  # a carrier is not YOU unless a rule makes it so
    assert where(harmless, 2) == (1, 1)
    rows = ["mouse . .", ". skull .", "MOUSE IS YOU", "MOUSE IS TICK", "SKULL IS DEFEAT"]
    deadly = game(rows, automaton([RIGHT]))
    event = deadly.step("down").to_dict()
    assert event["moved"] == [
        {"id": 1, "from": [0, 0], "to": [0, 1], "pushedBy": None},
        {"id": 1, "from": [0, 1], "to": [1, 1], "pushedBy": None},
    ]
    assert event["destroyed"] == [{"id": 1, "noun": "MOUSE", "at": [1, 1], "cause": "defeat"}]


# Requirement: phase advances on active accepted turns


def test_an_active_entity_advances_phase() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT, UP]))
    event = g.step("down").to_dict()
    assert event["automata"][0]["phase"] == 1
    assert event["automata"][0]["next"] == WAIT
    event = g.step("up").to_dict()
    assert event["automated"][0]["action"] == "wait"
    assert event["automata"][0]["phase"] == 2


@pytest.mark.parametrize(
    ("rows", "blocker", "reason"),
    [
        (
            ["wall mouse . baba", "MOUSE IS TICK .", "WALL IS STOP .", "BABA IS YOU .", ". . . ."],
            1,
            "stop",
        ),
        (["mouse . . baba", "MOUSE IS TICK .", "BABA IS YOU .", ". . . ."], None, "bounds"),
    ],
)
def test_a_blocked_automaton_action_still_consumes_the_beat(
    rows: list[str], blocker: int | None, reason: str
) -> None:
    g = game(rows, automaton([LEFT, WAIT]))
    mouse = ids_of(grid_level(rows), "mouse")[0]
    start = where(g, mouse)
    event = g.step("down").to_dict()
    assert event["accepted"] is True
    assert where(g, mouse) == start
    assert event["automated"] == [
        {
            "automaton": "clock",
            "action": "move",
            "id": mouse,
            "from": None,
            "to": None,
            "blocked": {"blockerId": blocker, "reason": reason},
            "cue": None,
            "sound": None,
        }
    ]
    assert event["automata"][0]["phase"] == 1
    assert event["blocked"] == []  # the player's own move was not blocked


def test_explicit_wait_is_a_beat() -> None:
    g = game(CLOCK_ROWS, automaton([{"action": "wait", "cue": "pulse", "sound": "tick"}, LEFT]))
    event = g.step("down").to_dict()
    assert [m["id"] for m in event["moved"]] == [BABA]
    assert event["automated"] == [
        {
            "automaton": "clock",
            "action": "wait",
            "id": MOUSE,
            "from": None,
            "to": None,
            "blocked": None,
            "cue": "pulse",
            "sound": "tick",
        }
    ]
    assert event["automata"][0]["phase"] == 1


def test_no_active_entity_pauses_the_automaton() -> None:
    rows = [". . mouse . baba", "MOUSE IS . TICK .", "BABA IS YOU . .", ". . . . ."]
    g = game(rows, automaton([LEFT, WAIT]))
    before = g.state()["automata"]
    assert before[0]["active"] is False
    event = g.step("down").to_dict()
    assert event["accepted"] is True
    assert event["automated"] == []
    assert event["automata"] == before
    assert where(g, MOUSE) == (2, 0)


def test_a_blocked_player_input_does_not_advance_the_phase() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT]))
    before = g.snapshot()
    event = g.step("up").to_dict()  # baba is on the top edge
    assert event["accepted"] is False
    assert event["automated"] == []
    assert g.snapshot() == before


# Requirement: state and events expose automated movement and beat feedback


def test_an_automated_move_is_observable() -> None:
    g = game(CLOCK_ROWS, automaton([{**LEFT, "cue": "step", "sound": "tock"}, WAIT]))
    event = g.step("down").to_dict()
    assert event["automated"] == [
        {
            "automaton": "clock",
            "action": "move",
            "id": MOUSE,
            "from": [2, 0],
            "to": [1, 0],
            "blocked": None,
            "cue": "step",
            "sound": "tock",
        }
    ]
    entry = event["automata"][0]
    assert entry["carriers"] == [{"noun": "MOUSE", "instanceIds": [MOUSE]}]
    assert entry["instanceIds"] == [MOUSE]
    assert entry["next"] == WAIT
    assert {"id": MOUSE, "from": [2, 0], "to": [1, 0], "pushedBy": None} in event["moved"]


def test_a_blocked_automated_action_is_observable() -> None:
    rows = ["wall mouse . baba", "MOUSE IS TICK .", "WALL IS STOP .", "BABA IS YOU .", ". . . ."]
    g = game(rows, automaton([LEFT, UP]))
    event = g.step("down").to_dict()
    [entry] = event["automated"]
    assert (entry["action"], entry["id"], entry["blocked"]) == (
        "move",
        2,
        {"blockerId": 1, "reason": "stop"},
    )
    assert where(g, 2) == (1, 0)
    state_entry = g.state()["automata"][0]
    assert state_entry["carriers"] == [{"noun": "MOUSE", "instanceIds": [2]}]
    assert state_entry["instanceIds"] == [2]
    assert state_entry["next"] == UP


def test_derived_carrier_fields_follow_active_rules() -> None:
    data = grid_level(TRANSFER_ROWS, automata=[automaton([RIGHT, WAIT])])
    assert set(data["automata"][0]) == {"id", "property", "pattern"}  # nothing derived authored
    g = Game(load_level(data))
    event = g.step("down").to_dict()
    expected = {
        "carriers": [{"noun": "BELL", "instanceIds": [T_BELL]}],
        "instanceIds": [T_BELL],
        "next": WAIT,
        "active": True,
    }
    for source in (event["automata"][0], g.state()["automata"][0]):
        assert {k: source[k] for k in expected} == expected


def _beat_labels(
    previous: dict[str, Any], event: dict[str, Any]
) -> list[tuple[str, str | None, dict[str, Any]]]:
    """What a stage shows per automaton: the step that just ran, its cue, and the next step."""
    labels = []
    for before, after in zip(previous["automata"], event["automata"], strict=True):
        ran = [a for a in event["automated"] if a["automaton"] == after["id"]]
        if ran:
            labels.append((ran[0]["action"], ran[0]["cue"], after["next"]))
        else:
            labels.append(("paused", None, before["next"]))
    return labels


def test_reduced_motion_keeps_beat_feedback_readable() -> None:
    pattern = [{**LEFT, "cue": "step"}, {"action": "wait", "cue": "rest", "sound": "hum"}]
    g = game(CLOCK_ROWS, automaton(pattern))
    previous = g.state()
    first = g.step("down").to_dict()
    assert _beat_labels(previous, first) == [("move", "step", pattern[1])]
    previous = g.state()
    second = g.step("up").to_dict()
    assert _beat_labels(previous, second) == [("wait", "rest", pattern[0])]
    # the records alone determine the feedback: a replay gives identical labels
    replayed = game(CLOCK_ROWS, automaton(pattern))
    assert replayed.step("down").to_dict() == first


# Requirement: automata are validated in local and shared pack paths


def _pack(levels: list[dict[str, Any]]) -> dict[str, Any]:
    nouns = {n: {"color": "#808080"} for n in ("MOUSE", "BABA", "WALL", "BELL", "ROCK")}
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "clocks",
        "title": "Clocks",
        "nouns": nouns,
        "levels": levels,
    }


def test_a_valid_local_automaton_is_registered(tmp_path: Path) -> None:
    level = grid_level(CLOCK_ROWS, level_id="tick", automata=[automaton([LEFT, WAIT])])
    (tmp_path / "pack.py").write_text(
        "import json\n"
        f"DATA = json.loads({json.dumps(json.dumps(_pack([level])))})\n"
        "def build():\n"
        "    return DATA\n",
        encoding="utf-8",
    )
    with pytest.raises(ValidationError) as refused:
        load_pack(tmp_path)
    assert refused.value.errors[0].code == "untrusted-module"
    pack = load_pack(tmp_path, trust=True)
    [registered] = pack.level("tick").automata
    assert registered.to_data() == {
        "id": "clock",
        "property": "TICK",
        "pattern": [LEFT, WAIT],
        "phase": 0,
    }


def test_invalid_automaton_data_is_rejected_atomically() -> None:
    good = grid_level(CLOCK_ROWS, level_id="good", automata=[automaton([LEFT])])
    bad = grid_level(
        CLOCK_ROWS,
        level_id="bad",
        automata=[
            automaton([{"action": "jump"}]),
            automaton([{"action": "move", "dx": 1, "dy": 1}], id="diagonal"),
            automaton([WAIT], id="prop", property="IS"),
            automaton([WAIT]),
        ],
    )
    with pytest.raises(ValidationError) as caught:
        load_pack(_pack([good, bad]))
    found = [(p.pack, p.level, p.pointer, p.code) for p in caught.value.errors]
    assert ("clocks", "bad", "/levels/1/automata/0/pattern/0/action", "unknown-action") in found
    assert {p.level for p in caught.value.errors} == {"bad"}
    fixed = dict(bad, automata=[*bad["automata"][1:], automaton([WAIT], id="diagonal")])
    with pytest.raises(ValidationError) as semantic:
        load_pack(_pack([good, fixed]))
    assert [(p.level, p.pointer, p.code) for p in semantic.value.errors] == [
        ("bad", "/levels/1/automata/0/pattern/0/dx", "non-cardinal-move"),
        ("bad", "/levels/1/automata/1/property", "invalid-property"),
        ("bad", "/levels/1/automata/3/id", "duplicate-automaton-id"),
    ]


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        ({"subject": "IS"}, "/automata/0/subject", "invalid-subject"),
        ({"subject": "mouse"}, "/automata/0/subject", "bad-format"),
        ({"property": "FRAIL"}, "/automata/0/property", "invalid-property"),
        ({"property": "YOU"}, "/automata/0/property", "invalid-property"),
        ({"pattern": []}, "/automata/0/pattern", "bad-size"),
        ({"pattern": [WAIT] * 257}, "/automata/0/pattern", "bad-size"),
        ({"phase": 2}, "/automata/0/phase", "phase-out-of-range"),
        ({"phase": -1}, "/automata/0/phase", "out-of-range"),
        (
            {"pattern": [{"action": "move", "dx": 0, "dy": 0}]},
            "/automata/0/pattern/0/dx",
            "non-cardinal-move",
        ),
        (
            {"pattern": [{"action": "move", "dx": 2, "dy": 0}]},
            "/automata/0/pattern/0/dx",
            "out-of-range",
        ),
        ({"pattern": [{"action": "move", "dx": 1}]}, "/automata/0/pattern/0/dy", "missing-field"),
        (
            {"pattern": [{"action": "wait", "cue": "Big Bang!"}]},
            "/automata/0/pattern/0/cue",
            "bad-format",
        ),
        (
            {"pattern": [{"action": "wait", "sound": "x" * 40}]},
            "/automata/0/pattern/0/sound",
            "bad-size",
        ),
        ({"carriers": []}, "/automata/0/carriers", "unknown-field"),
    ],
)
def test_automaton_validation_names_the_json_path(
    change: dict[str, Any], pointer: str, code: str
) -> None:
    data = grid_level(CLOCK_ROWS, automata=[{**automaton([LEFT, WAIT]), **change}])
    with pytest.raises(ValidationError) as caught:
        load_level(data)
    assert (pointer, code) in [(p.pointer, p.code) for p in caught.value.errors]


# Requirement: automata state is part of undo, reset, replay and solver state


def test_undo_restores_a_phase_transition() -> None:
    g = game(CLOCK_ROWS, automaton([WAIT] * 6))
    for direction in ("down", "up", "down"):
        g.step(direction)
    before = g.state()
    assert before["automata"][0]["phase"] == 3
    event = g.step("up").to_dict()
    assert event["automata"][0]["phase"] == 4
    undo = g.undo().to_dict()
    assert undo["automata"][0]["phase"] == 3
    assert undo["automata"][0]["active"] is True
    assert g.state() == before


def test_reset_restores_native_automata_state() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT, WAIT], phase=1))
    assert g.state()["automata"][0]["phase"] == 1
    g.step("down")
    g.step("up")
    assert g.state()["automata"][0]["phase"] == 0
    event = g.reset().to_dict()
    assert event["automated"] == []
    assert event["automata"][0]["phase"] == 1
    assert g.state()["automata"][0]["phase"] == 1


def test_a_replay_reproduces_automated_entries_and_phases() -> None:
    from engine import replay

    level = load_level(grid_level(TRANSFER_ROWS, automata=[automaton([RIGHT, WAIT, LEFT])]))
    first = [e.to_dict() for e in replay(level, "DRLUD")]
    second = [e.to_dict() for e in replay(level, "DRLUD")]
    assert first == second
    assert [e["automata"][0]["phase"] for e in first] == [1, 2, 0, 1, 2]


# Requirement: automata provide a visual feedback handoff


def test_a_pattern_step_is_ready_for_visual_review() -> None:
    pattern = [{**LEFT, "cue": "slide", "sound": "swish"}, WAIT]
    g = game(CLOCK_ROWS, automaton(pattern))
    entry = g.state()["automata"][0]
    current = entry["pattern"][entry["phase"]]
    event = g.step("down").to_dict()
    [beat] = event["automated"]
    assert (beat["action"], beat["cue"], beat["sound"]) == (
        current["action"],
        current["cue"],
        current["sound"],
    )
    dx, dy = beat["to"][0] - beat["from"][0], beat["to"][1] - beat["from"][1]
    assert (dx, dy) == (current["dx"], current["dy"])
    assert event["automata"][0]["next"] == entry["pattern"][1]


def test_missing_optional_cue_does_not_block_play() -> None:
    g = game(CLOCK_ROWS, automaton([LEFT, WAIT]))
    entry = g.state()["automata"][0]
    assert "cue" not in entry["pattern"][0]
    assert "sound" not in entry["pattern"][0]
    event = g.step("down").to_dict()
    assert (event["automated"][0]["cue"], event["automated"][0]["sound"]) == (None, None)
    assert event["automata"][0]["phase"] == 1
    assert where(g, MOUSE) == (1, 0)
