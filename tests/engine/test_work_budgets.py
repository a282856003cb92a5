"""Issue 39, one notion of work: every path that runs the rules for a check or a stranger
is budgeted in the same unit (engine.play.work), and stops with one located line.

B1 payload replays (counted before replaying, then under a budget, events hashed as
they come), B3 the lint's replay of an intended solution, B4 ``rulegrid play`` (a
budget and a cap on the move string). The tests count work (turns played, units
charged) instead of timing it; bench/bench_hostile.py times the full-size inputs.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import engine
from bench.hostile_work import (
    blocked_chain_level,
    crowd_level,
    pack,
    small_level,
    swarm_level,
    swarm_payload,
    walk_moves,
)
from engine import share
from engine.cli import main
from engine.limits import (
    LINT_WORK_BUDGET,
    MAX_PAYLOAD_WORK,
    MAX_PLAY_MOVES,
    TURN_WORK_BASE,
    TURN_WORK_CAP,
)
from engine.play.game import Game
from engine.play.work import WorkBudget, WorkBudgetError, budgeted, spend
from engine.share.checks import run_replay
from engine.share.codec import digest, seal, to_text
from tests.support import keke_corpus, keke_level

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def turns(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every ``Game.step`` (one entry per turn played, anywhere)."""
    played: list[int] = []
    step = Game.step

    def counted(self: Game, direction: Any) -> engine.TurnEvent:
        played.append(1)
        return step(self, direction)

    monkeypatch.setattr(Game, "step", counted)
    return played


# ------------------------------------------------------------------ the unit itself


def test_without_a_budget_nothing_is_counted_and_nothing_stops() -> None:
    game = Game(engine.load_level(blocked_chain_level(40, 40)))
    assert not game.step("R").accepted  # blocked: every mover walks the stack
    spend(10**12)  # no budget open: a charge is nothing


def test_a_turn_charges_its_movers_pushes_contacts_and_base() -> None:
    level = engine.load_level(small_level())
    budget = WorkBudget(10**9, "a test")
    with budgeted(budget):
        game = Game(level)
        settled = budget.units
        game.step("R")
    turn = budget.units - settled
    # the base, the mover and its one move, the cells the contact check looked at
    assert TURN_WORK_BASE + 1 + 8 <= turn < TURN_WORK_BASE + 60
    assert budget.turn == turn


def test_each_turn_and_each_settle_counts_against_the_cap_afresh() -> None:
    level = engine.load_level(small_level())
    budget = WorkBudget(10**9, "a test", turn_cap=150)
    with budgeted(budget):
        game = Game(level)
        for direction in "RLRL":
            game.step(direction)
            assert budget.turn < 150
        budget.turn = 140  # a turn that spent nearly its cap...
        Game(level)  # ...is not charged for the next level's settle


def test_the_units_of_many_movers_in_front_of_a_stack_grow_as_movers_times_stack() -> None:
    """The push bomb: nothing moves, yet each mover walks the whole stack."""
    counts = []
    for movers in (50, 100, 200):
        budget = WorkBudget(10**12, "a test")
        game = Game(engine.load_level(blocked_chain_level(movers, 200)))
        with budgeted(budget):
            game.step("R")
        counts.append(budget.units)
    assert counts[1] > 1.9 * counts[0]
    assert counts[2] > 1.9 * counts[1]
    assert counts[2] > 200 * 200


def test_a_turn_over_the_cap_stops_mid_turn_and_the_game_stays_before_it() -> None:
    level = engine.load_level(swarm_level(500, 8))  # about 50,000 units a turn
    game = Game(level)
    before = game.state()
    budget = WorkBudget(10**12, "a test", turn_cap=10_000)
    with budgeted(budget), pytest.raises(WorkBudgetError) as caught:
        game.step("R")
    assert caught.value.per_turn
    # it stopped before the rest of the turn: within one automaton's carriers of the cap
    assert budget.turn <= 10_000 + 1 + 500
    assert game.state() == before
    # the game plays on (its board rebuilt) exactly as a fresh one does
    fresh = Game(level)
    assert game.step("R").to_dict() == fresh.step("R").to_dict()
    assert game.state() == fresh.state()


def test_budgets_nest_and_a_refusal_names_the_budget_and_how_to_raise_it() -> None:
    outer = WorkBudget.of(10**9, "the outer budget")
    inner = WorkBudget.of(50, "the lint budget", "raise it with --budget")
    with budgeted(outer), pytest.raises(WorkBudgetError) as caught, budgeted(inner):
        Game(engine.load_level(small_level())).step("R")
    assert outer.units == inner.units > 50
    error = caught.value.at_move(7)
    assert str(error) == (
        "needs more than 50 units of work (the lint budget, stopped at move 7); "
        "raise it with --budget"
    )
    assert "\n" not in str(error)
    assert isinstance(error, engine.WorkBudgetError)
    assert isinstance(error, WorkBudgetError)


def test_a_raised_total_raises_the_cap_of_a_turn_with_it() -> None:
    assert WorkBudget.of(10, "x").turn_cap == TURN_WORK_CAP
    assert WorkBudget.of(40 * TURN_WORK_CAP, "x").turn_cap == 10 * TURN_WORK_CAP


def test_every_keke_solution_costs_far_less_than_each_default_budget() -> None:
    budget = WorkBudget(10**12, "the Keke classics")
    with budgeted(budget):
        for record in keke_corpus()["levels"]:
            level = engine.load_level(keke_level(record))
            game = Game(level)
            for direction in engine.parse_moves(record["solution"]):
                game.step(direction)
            assert game.won, record["id"]
    assert budget.units < MAX_PAYLOAD_WORK / 2  # and every other budget is larger
    assert budget.units < LINT_WORK_BUDGET / 10


# --------------------------------------------------------------- B1: payload replays


def test_a_payload_of_automata_over_carriers_is_refused_before_a_move_is_played(
    turns: list[int],
) -> None:
    """Issue 39, B1: 64 automata over thousands of carriers counted as entity moves only."""
    text = swarm_payload(carriers=2_000, automata=64, moves="RLRLRL")
    with pytest.raises(share.ShareError) as caught:
        share.decode(text)
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code) == ("/replays", "too-much-work")
    assert "automata" in problem.message
    assert "\n" not in problem.message
    assert turns == []


def test_payload_replays_run_under_a_budget_and_stop_at_the_move_that_passes_it(
    turns: list[int],
) -> None:
    """Few entities, few moves, but every turn walks movers times a stack (354,000
    units): the count before replaying passes; the replay stops at its second move."""
    level = blocked_chain_level(600, 590)
    record = {"level": level["id"], "moves": "R" * 90, "events": "0" * 64, "final": "0" * 64}
    nouns = {
        "BABA": {"color": "#ffffff"},
        "ROCK": {"color": "#808080"},
        "WALL": {"color": "#000000"},
    }
    text = to_text(seal({"level": level, "nouns": nouns, "replays": [record]}))
    preview = share.decode(text)
    [problem] = preview.problems
    assert (problem.pointer, problem.code) == ("/replays/0", "too-much-work")
    assert "stopped at move 2" in problem.message
    assert "a payload cannot ask for more" in problem.message
    assert len(turns) == 2
    assert not preview.ok


def test_streamed_event_digests_equal_the_digest_of_the_whole_list() -> None:
    for record in keke_corpus()["levels"][:12]:
        level = engine.load_level(keke_level(record))
        moves = record["solution"] + "UDLR"  # a few rejected moves too
        events = [event.to_dict() for event in engine.replay(level, moves)]
        game = Game(level)
        for direction in engine.parse_moves(moves):
            game.step(direction)
        assert run_replay(level, moves)[:2] == (digest(events), digest(game.state()))


def test_an_encoded_payload_never_asks_an_importer_for_more_than_its_budget() -> None:
    level = engine.load_level(small_level())
    with pytest.raises(share.ShareError) as caught:
        share.encode(level, replays=[walk_moves(15_000)], nouns={"BABA": {"color": "#ffffff"}})
    [problem] = caught.value.errors
    assert (problem.pointer, problem.code) == ("/replays/0", "too-much-work")
    fits = share.encode(level, replays=[walk_moves(2_000)], nouns={"BABA": {"color": "#ffffff"}})
    assert share.decode(fits).ok


# ------------------------------------------------------------------------ B3: lint


def _lint(doc: dict[str, Any], **options: Any) -> list[engine.Problem]:
    return list(engine.check_pack(doc, **options).warnings)


def test_lint_replays_an_intended_solution_under_a_budget(turns: list[int]) -> None:
    """Issue 39, B3: a crowd of YOU objects and a long intended solution."""
    doc = pack(crowd_level(1_000, moves=1_000, size=40))
    [warning] = _lint(doc)
    assert (warning.pointer, warning.code) == ("/levels/0/solution", "solution-unchecked")
    assert "lint budget" in warning.message
    assert "--budget" in warning.message
    assert "stopped at move" in warning.message
    assert len(turns) < 300  # not the 1,000 moves, twice


def test_a_raised_lint_budget_replays_it_to_its_end() -> None:
    doc = pack(crowd_level(300, moves=400, size=30))
    [unchecked] = _lint(doc, lint_budget=100_000)
    assert unchecked.code == "solution-unchecked"
    [fails] = _lint(doc, lint_budget=10**9)
    assert fails.code == "solution-fails"
    assert "the level is not won after 400 moves" in fails.message


def test_one_check_of_a_pack_shares_its_budget_and_warns_once(turns: list[int]) -> None:
    costly = crowd_level(300, moves=400, size=30)
    levels = [
        {**costly, "id": f"c{n}", "solution": costly["solution"][: 399 - n]} for n in range(5)
    ]
    warnings = _lint(pack(*levels), lint_budget=3_000_000)
    codes = [(w.pointer, w.code) for w in warnings]
    unchecked = [pointer for pointer, code in codes if code == "solution-unchecked"]
    assert len(unchecked) == 1  # where the pack's budget ran out; later levels are not replayed
    assert codes.count(("/levels/0/solution", "solution-fails")) == 1
    assert len(turns) < 2 * 400 * 5


def test_validate_lint_takes_a_budget(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "crowd.json"
    path.write_text(json.dumps(pack(crowd_level(300, moves=400, size=30))), encoding="utf-8")
    assert main(["validate", "--lint", "--budget", "100000", str(path)]) == 0
    out = capsys.readouterr().out
    assert "solution-unchecked" not in out  # codes are not printed, messages are
    assert "not replayed to its end" in out
    assert "100,000 units" in out
    assert main(["validate", "--lint", "--budget", "1e9", str(path)]) == 0
    assert "no longer wins" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["validate", "--lint", "--budget", "lots", str(path)])


# ------------------------------------------------------------------------ B4: play


def _pack_file(tmp_path: Path, level: dict[str, Any]) -> str:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack(level)), encoding="utf-8")
    return str(path)


def test_play_refuses_a_move_string_longer_than_a_solution_may_be(
    tmp_path: Path, capsys: Capture, turns: list[int]
) -> None:
    path = _pack_file(tmp_path, small_level())
    assert main(["play", path, "walk", walk_moves(MAX_PLAY_MOVES + 1)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert turns == []
    assert "longer than 100,000 moves" in err
    assert len(err.splitlines()) == 1


class _Stdin(io.StringIO):
    """Standard input that counts what was read from it."""

    taken = 0

    def read(self, size: int | None = -1) -> str:
        text = super().read(size)
        self.taken += len(text)
        return text


def test_play_reads_standard_input_no_further_than_a_move_string_may_be(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, turns: list[int]
) -> None:
    path = _pack_file(tmp_path, small_level())
    stdin = _Stdin(walk_moves(3_000_000))
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["play", path, "walk", "-"]) == 1
    assert stdin.taken < MAX_PLAY_MOVES + 10_000
    assert "longer than 100,000 moves" in capsys.readouterr().err
    assert turns == []
    monkeypatch.setattr("sys.stdin", _Stdin("\n  RRL \n"))
    assert main(["play", path, "walk", "-"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_play_stops_at_its_budget_with_one_located_line(
    tmp_path: Path, capsys: Capture, turns: list[int]
) -> None:
    """Issue 39, B4: 16 automata over 1,000 carriers, every move about 200,000 units."""
    path = _pack_file(tmp_path, swarm_level(1_000, 16))
    assert main(["play", path, "swarm", "RL" * 20, "--budget", "1000000"]) == 1
    out, err = capsys.readouterr()
    [line] = err.splitlines()
    assert line.startswith('hostile (level "swarm"): playing the moves needs more than 1,000,000')
    assert "the play budget, stopped at move 6" in line
    assert line.endswith("--budget")
    assert len(out.splitlines()) == 5  # the events played before it
    assert len(turns) == 6


def test_play_stops_a_turn_over_its_cap_before_printing_it(tmp_path: Path, capsys: Capture) -> None:
    path = _pack_file(tmp_path, blocked_chain_level(2_000, 1_000))
    assert main(["play", path, "chain", "R"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"more than {TURN_WORK_CAP:,} units of work in one turn" in err
    assert "stopped at move 1" in err


def test_a_raised_play_budget_plays_every_move(tmp_path: Path, capsys: Capture) -> None:
    level = crowd_level(100, size=20)  # 100 YOU objects: about 2,000 units a move
    del level["solution"]
    path = _pack_file(tmp_path, level)
    moves = "RL" * 100
    assert main(["play", path, "crowd", moves, "--budget", "200000"]) == 1
    assert "needs more than 200,000 units of work (the play budget, stopped at move " in (
        capsys.readouterr().err
    )
    assert main(["play", path, "crowd", moves, "--budget", "1_000_000", "--state"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 201
    assert json.loads(lines[-1])["moves"] == 200
