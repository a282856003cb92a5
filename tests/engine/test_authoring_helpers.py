"""The engine's helpers for authoring tools, as the automata and FRAIL panels use
them: ``check_level`` on a candidate level (the problems the panels refuse a value
for), ``leaves_chains`` / ``leaves_problems`` (FRAIL chains, self-maps and cycles)
and ``Game.preview_automata`` (the ghost preview)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import AutomatonPath, Game, PathStep, check_level, leaves_chains, leaves_problems
from tests.support import grid_level, ids_of, pack_document

CLOCK = {"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}


# ----------------------------------------------------------------- check_level


def test_check_level_is_empty_for_a_valid_level() -> None:
    level = grid_level(["baba BABA IS YOU"], automata=[CLOCK])
    assert check_level(level) == ()
    assert check_level(level, nouns=["BABA"]) == ()


def test_check_level_reports_what_load_level_raises() -> None:
    level = grid_level(["baba BABA IS YOU"])
    level["automata"] = [
        {**CLOCK, "pattern": [{"action": "move", "dx": 1, "dy": 1}]},
        {**CLOCK, "property": "TOCK"},
    ]
    with pytest.raises(engine.ValidationError) as raised:
        engine.load_level(level)
    found = list(check_level(level))
    key = [(p.pointer, p.code, p.message) for p in found]
    assert key == [(p.pointer, p.code, p.message) for p in raised.value.errors]
    assert [(p.pointer, p.code) for p in found] == [
        ("/automata/0/pattern/0/dx", "non-cardinal-move"),
        ("/automata/1/id", "duplicate-automaton-id"),
    ]
    assert found[0].message == (
        "move (dx=1, dy=1) is diagonal; use one of (1,0), (-1,0), (0,1), (0,-1)"
    )


def test_check_level_with_nouns_reports_unknown_nouns_as_a_pack_would() -> None:
    level = grid_level(["baba BABA IS YOU"], automata=[{**CLOCK, "subject": "MOUSE"}])
    level["mechanics"] = [
        {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {"BABA": "X"}}
    ]
    assert check_level(level) == ()
    found = [(p.pointer, p.code) for p in check_level(level, nouns={"BABA"})]
    assert found == [
        ("/automata/0/subject", "unknown-noun"),
        ("/mechanics/0/leaves/BABA", "unknown-noun"),
    ]
    pack = pack_document(level, nouns=["BABA"])
    with pytest.raises(engine.ValidationError) as raised:
        engine.load_pack(pack)
    assert [(p.pointer.removeprefix("/levels/0"), p.code) for p in raised.value.errors] == found


def test_check_level_reports_schema_problems_located() -> None:
    level = grid_level(
        ["baba"], automata=[{**CLOCK, "pattern": [{"action": "wait", "cue": "Bad!"}]}]
    )
    (problem,) = check_level(level)
    assert problem.pointer == "/automata/0/pattern/0/cue"


# ----------------------------------------------------------------- FRAIL chains


def test_leaves_chains_read_each_chain_from_its_first_noun() -> None:
    chains = leaves_chains({"SAND": "SHOAL", "SHOAL": "WATER", "DRIFT": "WATER"})
    assert [c.text() for c in chains] == ["SAND → SHOAL → WATER", "DRIFT → WATER"]
    assert [c.nouns for c in chains] == [("SAND", "SHOAL", "WATER"), ("DRIFT", "WATER")]
    assert all(c.loops_to is None and c.problem is None for c in chains)
    assert leaves_problems({"SAND": "SHOAL", "SHOAL": "WATER"}) == []


def test_a_self_map_is_flagged() -> None:
    (chain,) = leaves_chains({"DRIFT": "DRIFT"})
    assert chain.text() == "DRIFT → DRIFT"
    assert chain.loop == ("DRIFT",)
    (problem,) = leaves_problems({"DRIFT": "DRIFT"})
    assert (problem.pointer, problem.code) == ("/leaves/DRIFT", "frail-self-map")
    assert problem.message == (
        "DRIFT leaves DRIFT: crumbling changes nothing, so a FRAIL DRIFT never goes away"
    )


def test_a_cycle_is_flagged_once_whichever_chains_lead_into_it() -> None:
    leaves = {"ROCK": "SAND", "SAND": "MUD", "MUD": "SAND", "REED": "MUD"}
    chains = leaves_chains(leaves)
    assert [c.text() for c in chains] == ["ROCK → SAND → MUD → SAND", "REED → MUD …"]
    assert chains[1].joins == "MUD"
    (problem,) = leaves_problems(leaves)
    assert (problem.pointer, problem.code) == ("/leaves/SAND", "frail-cycle")
    assert (
        problem.message == "SAND → MUD → SAND is a cycle: objects crumbling along it never run out"
    )


def test_a_loop_no_chain_leads_into_is_listed_from_its_first_key() -> None:
    chains = leaves_chains({"A": "B", "B": "A", "C": "D"})
    assert [c.text() for c in chains] == ["C → D", "A → B → A"]
    assert [p.code for p in leaves_problems({"A": "B", "B": "A"})] == ["frail-cycle"]


def test_cycles_and_self_maps_stay_valid_levels() -> None:
    """Spec 04 allows any map of nouns: the shapes are warnings, not validation errors."""
    mechanics = [
        {
            "id": "frail",
            "type": "frail",
            "version": 1,
            "state": "derived",
            "leaves": {"DRIFT": "DRIFT", "SAND": "MUD", "MUD": "SAND"},
        }
    ]
    assert check_level(grid_level(["baba"], mechanics=mechanics)) == ()


def test_leaves_chains_walk_a_long_shared_tail_once() -> None:
    tail = {f"T{i}": f"T{i + 1}" for i in range(2_000)}
    heads = {f"H{i}": "T0" for i in range(2_000)}
    chains = leaves_chains({**heads, **tail})
    assert len(chains[0].nouns) == 2_002  # H0, T0 … T2000
    assert all(c.joins == "T0" and c.nouns == (f"H{i}",) for i, c in enumerate(chains[1:], 1))


# --------------------------------------------------------------- ghost preview

PATTERN = [
    {"action": "move", "dx": 1, "dy": 0},
    {"action": "move", "dx": 1, "dy": 0},
    {"action": "wait"},
    {"action": "move", "dx": 0, "dy": -1},
]


def clock_game(rows: list[str], *, phase: int = 0, subject: str | None = None) -> Game:
    automaton: dict[str, Any] = {"id": "clock", "property": "TICK", "pattern": PATTERN}
    if phase:
        automaton["phase"] = phase
    if subject:
        automaton["subject"] = subject
    return Game(grid_level(rows, automata=[automaton]))


def cells(path: AutomatonPath) -> list[tuple[int, int]]:
    return [s.cell for s in path.steps]


def test_the_preview_walks_each_carrier_through_its_next_beats() -> None:
    rows = [
        ". . . . . .",
        "mouse . . . . .",
        "MOUSE IS TICK . . .",
    ]
    game = clock_game(rows)
    (path,) = game.preview_automata(6)
    assert (path.automaton, path.carrier, path.start) == ("clock", 1, (0, 1))
    assert cells(path) == [(1, 1), (2, 1), (2, 1), (2, 0), (3, 0), (4, 0)]
    assert [s.index for s in path.steps] == [0, 1, 2, 3, 0, 1]
    assert [s.action for s in path.steps] == ["move", "move", "wait", "move", "move", "move"]
    assert not any(s.blocked for s in path.steps)
    assert game.state()["entities"][0]["x"] == 0  # a preview never moves the game


def test_the_preview_marks_blocked_beats_and_keeps_the_carrier_in_place() -> None:
    rows = [
        "mouse . wall",
        "MOUSE IS TICK",
        "WALL IS STOP",
    ]
    game = clock_game(rows)
    (path,) = game.preview_automata(5)
    assert cells(path) == [(1, 0), (1, 0), (1, 0), (1, 0), (1, 0)]
    blocked = path.steps[1]
    assert blocked == PathStep(2, 1, "move", (1, 0), (2, 0), "stop", ids_of_wall(rows))
    assert path.steps[3] == PathStep(4, 3, "move", (1, 0), (1, -1), "bounds", None)
    assert [s.blocked for s in path.steps] == [False, True, False, True, True]


def ids_of_wall(rows: list[str]) -> int:
    return ids_of(grid_level(rows), "wall")[0]


def test_the_preview_pushes_with_the_turns_rules_and_puts_the_board_back() -> None:
    rows = [
        "mouse rock . wall",
        "MOUSE IS TICK .",
        "ROCK IS PUSH .",
        "WALL IS STOP .",
    ]
    game = clock_game(rows)
    (path,) = game.preview_automata(2)
    assert cells(path) == [(1, 0), (1, 0)]  # pushes the rock once, then the wall stops both
    assert path.steps[1].reason == "stop"
    assert clock_game(rows).preview_automata(2) == game.preview_automata(2)


def test_the_preview_starts_at_the_phase_and_follows_only_carriers() -> None:
    rows = [
        ". . . . .",
        "mouse . bell . .",
        "MOUSE IS TICK . .",
        "BELL IS TICK . .",
    ]
    game = clock_game(rows, phase=2, subject="BELL")
    (path,) = game.preview_automata(3)
    assert path.carrier == ids_of(grid_level(rows), "bell")[0]
    assert [s.index for s in path.steps] == [2, 3, 0]
    assert cells(path) == [(2, 1), (2, 0), (3, 0)]


def test_an_inactive_automaton_has_no_preview_and_beats_are_bounded() -> None:
    assert clock_game(["mouse MOUSE IS . TICK"]).preview_automata(8) == ()
    game = clock_game(["mouse . . . . . . . . . .", "MOUSE IS TICK . . . . . . . ."])
    (path,) = game.preview_automata(10_000)
    assert len(path.steps) == engine.MAX_PREVIEW_BEATS
    assert game.preview_automata(0) == ()
    with pytest.raises(ValueError, match="0 or more"):
        game.preview_automata(-1)


def test_the_preview_walks_at_most_the_carrier_cap() -> None:
    row = " ".join(["mouse"] * 70)
    game = clock_game([row, "MOUSE IS TICK" + " ." * 67])
    paths = game.preview_automata(1)
    assert len(paths) == 64
    assert [p.carrier for p in paths] == list(range(1, 65))
