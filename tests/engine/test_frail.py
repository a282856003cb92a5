"""Spec 04 (the derived FRAIL mechanic): one test per scenario, named after it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import Game, ValidationError, load_level, load_pack
from tests.support import grid_level, ids_of


def frail(**leaves: str) -> list[dict[str, Any]]:
    return [{"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}]


def game(rows: list[str], leaves: dict[str, str], **extra: Any) -> Game:
    return Game(load_level(grid_level(rows, mechanics=frail(**leaves), **extra)))


def entity(g: Game, entity_id: int) -> dict[str, Any] | None:
    return next((e for e in g.state()["entities"] if e["id"] == entity_id), None)


PLANK = [
    "baba+drift . .",
    "BABA IS YOU",
    "DRIFT IS FRAIL",
]


# Requirement: levels support a derived FRAIL mechanic


def test_a_valid_derived_declaration_is_normalized() -> None:
    data = grid_level(PLANK, mechanics=frail(DRIFT="WATER"))
    level = load_level(data)
    assert level.to_data()["mechanics"] == frail(DRIFT="WATER")
    g = Game(level)
    state = g.state()
    assert state["mechanics"] == frail(DRIFT="WATER")
    assert entity(g, 2) == {"id": 2, "kind": "object", "noun": "DRIFT", "x": 0, "y": 0}
    assert [e["id"] for e in state["entities"]] == [e["id"] for e in data["entities"]]


def _pack(
    level: dict[str, Any], nouns: tuple[str, ...] = ("BABA", "DRIFT", "WATER")
) -> dict[str, Any]:
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "planks",
        "title": "Planks",
        "nouns": {n: {"color": "#336699"} for n in nouns},
        "levels": [grid_level(["baba . .", "BABA IS YOU"], level_id="fine"), level],
    }


@pytest.mark.parametrize(
    ("mutate", "pointer", "code"),
    [
        (
            lambda d: d["mechanics"][0]["leaves"].update(DRIFT="LAVA"),
            "/levels/1/mechanics/0/leaves/DRIFT",
            "unknown-noun",
        ),
        (
            lambda d: d["mechanics"][0]["leaves"].update(DRIFT=print),
            "/levels/1/mechanics/0/leaves/DRIFT",
            "wrong-type",
        ),
        (
            lambda d: d["mechanics"][0]["leaves"].update(DRIFT=3),
            "/levels/1/mechanics/0/leaves/DRIFT",
            "wrong-type",
        ),
        (
            lambda d: d["mechanics"][0]["leaves"].update(drift="WATER"),
            "/levels/1/mechanics/0/leaves/drift",
            "invalid-token",
        ),
        (
            lambda d: d["mechanics"][0]["leaves"].update(DRIFT="YOU"),
            "/levels/1/mechanics/0/leaves/DRIFT",
            "invalid-noun",
        ),
        (
            lambda d: d["mechanics"].append(copy.deepcopy(d["mechanics"][0])),
            "/levels/1/mechanics/1",
            "duplicate-mechanic",
        ),
        (
            lambda d: d["entities"][1].update(leaves={"DRIFT": "WATER"}),
            "/levels/1/entities/1/leaves",
            "per-object-leaves",
        ),
        (
            lambda d: d["mechanics"][0].update(version=2),
            "/levels/1/mechanics/0/version",
            "bad-value",
        ),
        (
            lambda d: d["mechanics"][0].update(type="gravity"),
            "/levels/1/mechanics/0/type",
            "unknown-mechanic",
        ),
        (lambda d: d.pop("mechanics"), "/levels/1/entities/7/text", "frail-not-declared"),
    ],
)
def test_invalid_frail_metadata_is_rejected(mutate: Any, pointer: str, code: str) -> None:
    level = grid_level(PLANK, level_id="plank", mechanics=frail(DRIFT="WATER"))
    mutate(level)
    with pytest.raises(ValidationError) as caught:
        load_pack(_pack(level))
    found = [(p.pack, p.level, p.pointer, p.code) for p in caught.value.errors]
    assert ("planks", "plank", pointer, code) in found
    assert all(p.level == "plank" for p in caught.value.errors)


# Requirement: frail objects crumble after distinct departure


def test_standing_on_a_plank_is_safe() -> None:
    # The baba on the plank is blocked by the wall while the other baba pushes a word.
    rows = [
        "wall baba+drift . . .",
        ". . ROCK baba .",
        "BABA IS YOU . .",
        "WALL IS STOP . .",
        "DRIFT IS FRAIL . .",
    ]
    g = game(rows, {"DRIFT": "WATER"})
    event = g.step("left").to_dict()
    assert event["accepted"] is True
    assert [m["id"] for m in event["moved"]] == [5, 4]  # the other baba and the ROCK word
    assert event["blocked"] == [{"id": 2, "dir": "left", "blockerId": 1, "reason": "stop"}]
    assert event["crumbled"] == []
    assert entity(g, 3)["noun"] == "DRIFT"  # type: ignore[index]


def test_a_handover_is_safe() -> None:
    rows = ["baba ROCK+drift . .", "BABA IS YOU .", "DRIFT IS FRAIL ."]
    g = game(rows, {"DRIFT": "WATER"})
    event = g.step("right").to_dict()
    assert [(m["id"], m["to"]) for m in event["moved"]] == [(1, [1, 0]), (2, [2, 0])]
    assert event["crumbled"] == []
    assert entity(g, 3)["noun"] == "DRIFT"  # type: ignore[index]


DEPARTURES = {
    # the mouse pushes the word out (a handover), then its automaton beat takes it away
    "word": (
        [
            ". . . .",
            "mouse ROCK+drift . .",
            "MOUSE IS YOU .",
            "MOUSE IS TICK .",
            "DRIFT IS FRAIL .",
        ],
        "right",
        3,
    ),
    # the same with a pushable thing
    "thing": (
        [
            ". . . .",
            "mouse rock+drift . .",
            "MOUSE IS YOU .",
            "MOUSE IS TICK .",
            "DRIFT IS FRAIL .",
            "ROCK IS PUSH .",
        ],
        "right",
        3,
    ),
    # the player walks off the plank
    "player": (
        [". baba+drift . .", "BABA IS YOU .", "DRIFT IS FRAIL .", "MOUSE IS TICK ."],
        "right",
        2,
    ),
    # an automaton carrier leaves while the player walks elsewhere
    "automaton": (
        [". . . .", ". mouse+drift . baba", "BABA IS YOU .", "DRIFT IS FRAIL .", "MOUSE IS TICK ."],
        "down",
        2,
    ),
}


@pytest.mark.parametrize("who", sorted(DEPARTURES))
def test_a_distinct_departure_crumbles_the_cell(who: str) -> None:
    rows, direction, drift = DEPARTURES[who]
    automata = [
        {"id": "lift", "property": "TICK", "pattern": [{"action": "move", "dx": 0, "dy": -1}]}
    ]
    g = game(rows, {"DRIFT": "WATER"}, automata=automata)
    cell = entity(g, drift)
    event = g.step(direction).to_dict()
    assert event["accepted"] is True
    assert event["crumbled"] == [{"id": drift, "from": "DRIFT", "to": "WATER"}]
    after = entity(g, drift)
    assert after is not None
    assert (after["x"], after["y"], after["noun"]) == (cell["x"], cell["y"], "WATER")  # type: ignore[index]
    assert g.step("left").to_dict()["crumbled"] == []  # exactly once


def test_a_different_frail_mover_can_trigger_crumble() -> None:
    rows = [". baba+drift . .", "BABA IS YOU .", "BABA IS FRAIL", "DRIFT IS FRAIL ."]
    g = game(rows, {"DRIFT": "WATER", "BABA": "KEKE"})
    event = g.step("right").to_dict()
    assert event["crumbled"] == [{"id": 2, "from": "DRIFT", "to": "WATER"}]
    assert entity(g, 1) == {"id": 1, "kind": "object", "noun": "BABA", "x": 2, "y": 0}


@pytest.mark.parametrize("mover", ["pushed", "automaton"])
def test_moving_frail_is_not_self_crumbling(mover: str) -> None:
    if mover == "pushed":
        rows = ["baba drift . .", "BABA IS YOU .", "DRIFT IS FRAIL", "DRIFT IS PUSH"]
        automata: list[dict[str, Any]] = []
        drift, direction, expected = 2, "right", (2, 0)
    else:
        rows = [". . . baba", ". drift . .", "BABA IS YOU .", "DRIFT IS FRAIL", "DRIFT IS TICK"]
        automata = [
            {"id": "drifter", "property": "TICK", "pattern": [{"action": "move", "dx": 1, "dy": 0}]}
        ]
        drift, direction, expected = 2, "left", (2, 1)
    g = game(rows, {"DRIFT": "WATER"}, automata=automata)
    event = g.step(direction).to_dict()
    assert event["accepted"] is True
    assert event["crumbled"] == []
    after = entity(g, drift)
    assert after is not None
    assert ((after["x"], after["y"]), after["noun"]) == (expected, "DRIFT")


def test_frail_must_hold_at_the_start_of_the_turn_and_at_the_checkpoint() -> None:
    # baba leaves the plank by pushing FRAIL into DRIFT IS FRAIL: not FRAIL at the start
    forming = [". . baba+drift .", ". . FRAIL .", "DRIFT IS . .", "BABA IS YOU ."]
    g = game(forming, {"DRIFT": "WATER"})
    event = g.step("down").to_dict()
    assert [str(r) for r in g.rules] == ["DRIFT IS FRAIL", "BABA IS YOU"]
    assert event["crumbled"] == []
    # baba leaves the plank by pushing FRAIL out of DRIFT IS FRAIL: not FRAIL at the checkpoint
    breaking = [". . . .", "DRIFT IS FRAIL .", ". . baba+drift .", "BABA IS YOU ."]
    g = game(breaking, {"DRIFT": "WATER"})
    event = g.step("up").to_dict()
    assert [r["predicate"] for r in event["rulesRemoved"]] == ["FRAIL"]
    assert event["crumbled"] == []
    # the control: FRAIL before and after, the same departure crumbles
    steady = [". . . .", ". . baba+drift .", "BABA IS YOU .", "DRIFT IS FRAIL"]
    g = game(steady, {"DRIFT": "WATER"})
    assert g.step("up").to_dict()["crumbled"] == [{"id": 2, "from": "DRIFT", "to": "WATER"}]


# Requirement: leftovers preserve identity and chain through nouns


def test_a_drift_plank_becomes_water() -> None:
    g = game(PLANK, {"DRIFT": "WATER"})
    event = g.step("right").to_dict()
    assert event["crumbled"] == [{"id": 2, "from": "DRIFT", "to": "WATER"}]
    assert entity(g, 2) == {"id": 2, "kind": "object", "noun": "WATER", "x": 0, "y": 0}


def test_a_two_link_chain_advances_over_two_departures() -> None:
    rows = ["baba sand .", "BABA IS YOU", "SAND IS FRAIL", "SHOAL IS FRAIL"]
    g = game(rows, {"SAND": "SHOAL", "SHOAL": "WATER"})
    crumbles = [g.step(d).to_dict()["crumbled"] for d in ("right", "right", "left", "left")]
    assert crumbles == [
        [],
        [{"id": 2, "from": "SAND", "to": "SHOAL"}],
        [],
        [{"id": 2, "from": "SHOAL", "to": "WATER"}],
    ]
    assert entity(g, 2) == {"id": 2, "kind": "object", "noun": "WATER", "x": 1, "y": 0}


def test_no_leftover_removes_the_object() -> None:
    g = game(["baba+rock . .", "BABA IS YOU", "ROCK IS FRAIL"], {"DRIFT": "WATER"})
    event = g.step("right").to_dict()
    assert event["crumbled"] == [{"id": 2, "from": "ROCK", "to": None}]
    assert entity(g, 2) is None


def test_crumbled_records_are_sorted_by_id() -> None:
    rows = ["baba+drift . .", "baba+drift . .", "BABA IS YOU", "DRIFT IS FRAIL"]
    g = game(rows, {"DRIFT": "WATER"})
    event = g.step("right").to_dict()
    assert [c["id"] for c in event["crumbled"]] == [2, 4]


def test_settled_events_expose_a_cloned_crumbled_array() -> None:
    """Spec 04, "Settled events and snapshots expose crumble results": the ``crumbled``
    array is cloned. Editing the records ``to_dict`` returns (or the list holding
    them) changes neither the event nor the game; editing the event's own lists
    leaves the game's state, snapshot and undo as they were."""
    rows = ["baba+drift . .", "baba+drift . .", "BABA IS YOU", "DRIFT IS FRAIL"]
    g = game(rows, {"DRIFT": "WATER"})
    event = g.step("right")
    record = event.to_dict()
    expected = copy.deepcopy(record)
    state, snapshot = g.state(), g.snapshot()
    assert record["crumbled"] == [
        {"id": 2, "from": "DRIFT", "to": "WATER"},
        {"id": 4, "from": "DRIFT", "to": "WATER"},
    ]
    first, second = record["crumbled"]
    first["to"], first["id"] = "ROCK", 99  # the records
    del second["from"]
    record["crumbled"].append({"id": 5, "from": "WATER", "to": None})  # the list
    record["crumbled"].reverse()
    assert event.to_dict() == expected
    assert g.state() == state
    again = event.to_dict()["crumbled"]
    assert again == expected["crumbled"]
    assert again is not event.to_dict()["crumbled"]  # every read is a new clone
    assert again[0] is not event.to_dict()["crumbled"][0]

    event.crumbled[0]["to"] = "ROCK"  # the event's own lists and records
    event.crumbled.clear()
    event.moved.clear()
    assert g.state() == state
    assert g.snapshot() == snapshot
    undone = g.undo().to_dict()
    assert undone["crumbled"] == []
    assert [e["noun"] for e in g.state()["entities"] if e["id"] in (2, 4)] == ["DRIFT", "DRIFT"]
    assert g.step("right").to_dict() == expected  # the same turn, the same record


# Requirement: crumbling precedes existing contacts


def test_water_leftover_uses_sink() -> None:
    rows = [". baba+drift .", "BABA IS YOU", "WATER IS SINK", "DRIFT IS FRAIL"]
    leftover = game(rows, {"DRIFT": "WATER"})
    leftover.step("right")
    final_leftover = leftover.step("left").to_dict()
    # the same board with an authored WATER where the plank was (same ids)
    authored_rows = [". water baba", "BABA IS YOU", "WATER IS SINK", "DRIFT IS FRAIL"]
    authored_data = grid_level(authored_rows, mechanics=frail(DRIFT="WATER"))
    authored_data["entities"][0]["id"], authored_data["entities"][1]["id"] = 2, 1
    authored = Game(load_level(authored_data))
    final_authored = authored.step("left").to_dict()
    assert (
        final_leftover["destroyed"]
        == final_authored["destroyed"]
        == [
            {"id": 1, "noun": "BABA", "at": [1, 0], "cause": "sink"},
            {"id": 2, "noun": "WATER", "at": [1, 0], "cause": "sink"},
        ]
    )
    assert leftover.state()["entities"] == authored.state()["entities"]


def test_crumbling_precedes_contacts_in_the_same_turn() -> None:
    # The leftover FLAG is YOU and WIN on its own: the contact phase of the same turn sees it.
    rows = ["baba+drift . .", "BABA IS YOU", "FLAG IS YOU", "FLAG IS WIN", "DRIFT IS FRAIL"]
    g = game(rows, {"DRIFT": "FLAG"})
    event = g.step("right").to_dict()
    assert event["crumbled"] == [{"id": 2, "from": "DRIFT", "to": "FLAG"}]
    assert event["won"] is True


def test_initial_water_contact_remains_destructive() -> None:
    rows = [
        "rock+water baba+drift .",
        "BABA IS YOU",
        "WATER IS SINK",
        "DRIFT IS FRAIL",
        "WATER IS FRAIL",
    ]
    g = game(rows, {"DRIFT": "WATER", "WATER": "DRIFT"})
    alive = [e["id"] for e in g.state()["entities"]]
    assert 1 not in alive
    assert 2 not in alive
    g.step("right")
    event = g.reset().to_dict()
    assert event["crumbled"] == []
    alive = [e["id"] for e in g.state()["entities"]]
    assert 1 not in alive
    assert 2 not in alive
    assert entity(g, 4)["noun"] == "DRIFT"  # type: ignore[index]


# Requirement: settled events and snapshots expose crumble results


def test_undo_restores_the_plank() -> None:
    g = game(PLANK, {"DRIFT": "WATER"})
    before = g.state()
    g.step("right")
    assert entity(g, 2)["noun"] == "WATER"  # type: ignore[index]
    event = g.undo().to_dict()
    assert event["crumbled"] == []
    after = g.state()
    assert after == before
    assert after["mechanics"] == frail(DRIFT="WATER")
    assert g.history_depth == 0


def test_restore_preserves_derived_frail_parity() -> None:
    rows = ["baba sand .", "BABA IS YOU", "SAND IS FRAIL", "SHOAL IS FRAIL"]
    level = load_level(grid_level(rows, mechanics=frail(SAND="SHOAL", SHOAL="WATER")))
    for played in ("RR", "RRL"):
        original = Game(level)
        for letter in played:
            original.step(letter)
        restored = Game.from_snapshot(level, json.loads(json.dumps(original.snapshot())))
        assert restored.state() == original.state()
        for direction in ("left", "right", "left"):
            assert restored.step(direction).to_dict() == original.step(direction).to_dict()


@pytest.mark.parametrize(
    ("tamper", "pointer", "code"),
    [
        (lambda s: s["current"].update(crumbles=1), "/current/crumbles", "unknown-field"),
        (
            lambda s: s["current"]["entities"][1].update(leaves={"DRIFT": "WATER"}),
            "/current/entities/1/leaves",
            "per-object-leaves",
        ),
        (
            lambda s: s["current"]["entities"][1].update(exists=True),
            "/current/entities/1/exists",
            "unknown-field",
        ),
        (lambda s: s.update(frail={"counter": 2}), "/frail", "unknown-field"),
        (
            lambda s: s["current"]["entities"][1].update(noun="LAVA"),
            "/current/entities/1/noun",
            "unknown-noun",
        ),
    ],
)
def test_hidden_frail_state_fails_closed(tamper: Any, pointer: str, code: str) -> None:
    level = load_level(grid_level(PLANK, mechanics=frail(DRIFT="WATER")))
    g = Game(level)
    g.step("right")
    snapshot = g.snapshot()
    tamper(snapshot)
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert (pointer, code) in [(p.pointer, p.code) for p in caught.value.errors]


def test_hidden_frail_state_fails_closed_in_authored_levels() -> None:
    data = grid_level(PLANK, mechanics=frail(DRIFT="WATER"))
    data["entities"][1]["leaves"] = {"DRIFT": "WATER"}
    with pytest.raises(ValidationError) as caught:
        load_level(data)
    assert [(p.pointer, p.code) for p in caught.value.errors] == [
        ("/entities/1/leaves", "per-object-leaves")
    ]
    assert ids_of(data, "drift") == [2]
