"""Snapshots and share replay records carry the automata declaration (issue 37, item 1).

A phase counts steps of one pattern: restored under another pattern it means
another step. ``Game.from_snapshot`` refuses a snapshot whose normalized
automata records differ from the level's, at the pointer of the first
difference; a share replay record carries a digest of the records it was made
under and is refused when the payload's level declares others.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine import Game, ValidationError, load_level, share
from tests.engine.test_share import armour, sha, unpack
from tests.support import grid_level

WAIT: dict[str, Any] = {"action": "wait"}
LEFT: dict[str, Any] = {"action": "move", "dx": -1, "dy": 0}
RIGHT: dict[str, Any] = {"action": "move", "dx": 1, "dy": 0}
ROWS = [
    "baba . . . . . .",
    ". . . mouse . . .",
    ". . . . . . .",
    "BABA IS YOU . . . .",
    "MOUSE IS TICK . . . .",
    "BELL IS TOCK . . . .",
]


def clock(pattern: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return grid_level(
        ROWS,
        "clock",
        automata=[{"id": "clock", "property": "TICK", "pattern": pattern, **fields}],
    )


def snapshot_at_phase_two(**fields: Any) -> dict[str, Any]:
    """The issue's measurement: phase 2 of ``[wait, wait, wait]``, two accepted turns in."""
    game = Game(clock([WAIT, WAIT, WAIT], **fields))
    game.step("down")
    game.step("up")
    snapshot = game.snapshot()
    assert snapshot["current"]["automata"] == [{"id": "clock", "phase": 2, "active": True}]
    return snapshot


def refused(level: dict[str, Any], snapshot: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert all(p.level == "clock" for p in caught.value.errors)
    return [(p.pointer, p.code) for p in caught.value.errors]


def test_a_snapshot_carries_the_normalized_automata_records_once() -> None:
    level = load_level(clock([RIGHT, WAIT], subject="MOUSE"))
    game = Game(level)
    game.step("down")
    snapshot = json.loads(json.dumps(game.snapshot()))  # JSON-ready
    assert snapshot["version"] == 2
    assert snapshot["automata"] == level.to_data()["automata"]
    assert snapshot["automata"] == [
        {
            "id": "clock",
            "subject": "MOUSE",
            "property": "TICK",
            "pattern": [RIGHT, WAIT],
            "phase": 0,  # the declared start phase; each position has its own below
        }
    ]
    for position in (snapshot["current"], *snapshot["history"]):
        assert set(position["automata"][0]) == {"id", "phase", "active"}
    assert snapshot["current"]["automata"][0]["phase"] == 1
    assert Game.from_snapshot(level, snapshot).snapshot() == snapshot


def test_a_changed_pattern_is_refused_at_its_first_different_step() -> None:
    """The issue's case: restored under ``[←, →, ←]`` the old code played the new
    pattern from phase 2; now the first different field is named."""
    snapshot = snapshot_at_phase_two()
    assert refused(clock([LEFT, RIGHT, LEFT]), snapshot) == [
        ("/automata/0/pattern/0/action", "automata-mismatch")
    ]
    assert refused(clock([WAIT, WAIT, LEFT]), snapshot) == [
        ("/automata/0/pattern/2/action", "automata-mismatch")
    ]
    cued = [WAIT, {"action": "wait", "sound": "tock"}, WAIT]
    assert refused(clock(cued), snapshot) == [("/automata/0/pattern/1/sound", "automata-mismatch")]


def test_a_changed_subject_is_refused() -> None:
    snapshot = snapshot_at_phase_two()
    assert refused(clock([WAIT, WAIT, WAIT], subject="MOUSE"), snapshot) == [
        ("/automata/0/subject", "automata-mismatch")
    ]
    restricted = snapshot_at_phase_two(subject="MOUSE")
    assert refused(clock([WAIT, WAIT, WAIT], subject="BELL"), restricted) == [
        ("/automata/0/subject", "automata-mismatch")
    ]
    assert refused(clock([WAIT, WAIT, WAIT]), restricted) == [
        ("/automata/0/subject", "automata-mismatch")
    ]


def test_a_changed_property_is_refused() -> None:
    snapshot = snapshot_at_phase_two()
    level = grid_level(
        ROWS,
        "clock",
        automata=[{"id": "clock", "property": "TOCK", "pattern": [WAIT, WAIT, WAIT]}],
    )
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    (problem,) = caught.value.errors
    assert (problem.pointer, problem.code) == ("/automata/0/property", "automata-mismatch")
    assert problem.message == (
        'the snapshot was taken under another automata declaration: the level has "TOCK", '
        'the snapshot "TICK"'
    )
    assert str(problem) == f"clock/automata/0/property: {problem.message}"


@pytest.mark.parametrize(
    ("pattern", "pointer", "detail"),
    [
        ([WAIT, WAIT], "/automata/0/pattern/2", "the level has 2 items here, the snapshot 3"),
        (
            [WAIT, WAIT, WAIT, WAIT],
            "/automata/0/pattern/3",
            "the level has 4 items here, the snapshot 3",
        ),
    ],
)
def test_a_changed_phase_count_is_refused(
    pattern: list[dict[str, Any]], pointer: str, detail: str
) -> None:
    snapshot = snapshot_at_phase_two()
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(clock(pattern), snapshot)
    (problem,) = caught.value.errors
    assert (problem.pointer, problem.code) == (pointer, "automata-mismatch")
    assert problem.message.endswith(detail)


def test_a_changed_start_phase_an_added_and_a_removed_automaton_are_refused() -> None:
    snapshot = snapshot_at_phase_two()
    assert refused(clock([WAIT, WAIT, WAIT], phase=1), snapshot) == [
        ("/automata/0/phase", "automata-mismatch")
    ]
    two = clock([WAIT, WAIT, WAIT])
    two["automata"].append({"id": "bell", "property": "TOCK", "pattern": [WAIT]})
    assert refused(two, snapshot) == [("/automata/1", "automata-mismatch")]
    assert refused(grid_level(ROWS, "clock"), snapshot) == [("/automata/0", "automata-mismatch")]


def test_the_declaration_check_is_exact_and_bounded_by_the_level() -> None:
    snapshot = snapshot_at_phase_two()
    level = clock([WAIT, WAIT, WAIT])
    snapshot["automata"][0]["phase"] = False  # JSON false is not 0
    assert refused(level, snapshot) == [("/automata/0/phase", "automata-mismatch")]
    snapshot["automata"][0]["phase"] = 0
    snapshot["automata"][0]["pattern"][1]["cue"] = "rest"  # a field the level has not
    assert refused(level, snapshot) == [("/automata/0/pattern/1/cue", "automata-mismatch")]
    snapshot["automata"] = [{}] * 1_000_000  # a stranger's list: the walk stops at its first item
    assert refused(level, snapshot) == [("/automata/0/id", "automata-mismatch")]
    snapshot["automata"] = "clock"
    assert refused(level, snapshot) == [("/automata", "automata-mismatch")]
    del snapshot["automata"]
    assert ("/automata", "missing-field") in refused(level, snapshot)


def test_a_level_without_automata_carries_an_empty_declaration() -> None:
    level = grid_level(["baba . .", "BABA IS YOU"], "plain")
    game = Game(level)
    game.step("right")
    snapshot = game.snapshot()
    assert snapshot["automata"] == []
    assert Game.from_snapshot(level, snapshot).state() == game.state()


# ------------------------------------------------------------------- sharing


def test_replay_records_carry_a_digest_of_the_automata_records() -> None:
    level = load_level(clock([RIGHT, WAIT], subject="MOUSE"))
    record = share.record_replay(level, "DU")
    assert record.automata == sha(level.to_data()["automata"])
    document = unpack(share.encode(level, replays=[record]))
    assert document["replays"][0]["automata"] == record.automata
    given = share.ReplayRecord(record.level, record.moves, record.events, record.final)
    document = unpack(share.encode(level, replays=[given]))  # encode fills it in
    assert document["replays"][0]["automata"] == record.automata
    preview = share.decode(share.encode(level, replays=["DU"]))
    assert preview.ok
    assert [c.matches for c in preview.replays] == [True]


def test_a_replay_recorded_under_another_declaration_is_a_problem() -> None:
    recorded = share.record_replay(load_level(clock([WAIT, WAIT, WAIT])), "DUD")
    preview = share.decode(share.encode(clock([LEFT, RIGHT, LEFT]), replays=[recorded]))
    assert not preview.ok  # install is blocked
    assert [(p.pointer, p.code, p.level) for p in preview.problems] == [
        ("/replays/0/automata", "automata-mismatch", "clock")
    ]
    assert preview.replays == ()  # it was not replayed


def test_a_replay_record_without_the_digest_is_still_read() -> None:
    """Payloads written before the digest existed: the events digest still covers the
    automata entries, so a changed declaration shows as a mismatch warning."""
    level = load_level(clock([WAIT, WAIT, WAIT]))
    record = share.record_replay(level, "DU").to_dict()
    del record["automata"]
    content = {"level": level.to_data(), "replays": [record]}
    preview = share.decode(armour(content))
    assert preview.ok
    assert [c.matches for c in preview.replays] == [True]
    content["level"] = clock([LEFT, RIGHT, LEFT])
    preview = share.decode(armour(content))
    assert [w.code for w in preview.warnings] == ["replay-mismatch", "replay-mismatch"]


def test_a_malformed_replay_digest_is_a_problem() -> None:
    level = load_level(clock([WAIT, WAIT, WAIT]))
    record = share.record_replay(level, "DU").to_dict()
    record["automata"] = "not a digest"
    preview = share.decode(armour({"level": level.to_data(), "replays": [record]}))
    assert [(p.pointer, p.code) for p in preview.problems] == [("/replays/0/automata", "bad-value")]


def test_a_shared_snapshot_under_another_declaration_is_a_problem() -> None:
    snapshot = snapshot_at_phase_two()
    preview = share.decode(armour({"level": clock([LEFT, RIGHT, LEFT]), "snapshot": snapshot}))
    assert not preview.ok
    assert [(p.pointer, p.code) for p in preview.problems] == [
        ("/snapshot/automata/0/pattern/0/action", "automata-mismatch")
    ]
    with pytest.raises(engine.ValidationError):
        share.encode(clock([LEFT, RIGHT, LEFT]), snapshot=snapshot)
