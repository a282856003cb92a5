"""The incremental turn of ``Game`` agrees with the plain turn (issue 21 item 1).

``Game.step`` keeps a live board and pays for what a turn changes
(:func:`engine.play.turn.advance`); :func:`engine.play.turn.resolve_step` copies the
frame into a fresh board, reads the rules after the player phase, visits every
cell that can see a contact and freezes the whole frame. Every test here plays
the same intents both ways (with undo, reset and snapshot restores in between)
and compares the events, the settled state and the parse units charged to a
meter after every operation.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, load_level
from engine.context import LevelContext
from engine.play.board import Frame
from engine.play.events import TurnEvent
from engine.play.snapshot import entity_records
from engine.play.turn import automata_entries, finish_event, has_control, resolve_step, settle
from engine.rules import Meter, metered
from tests.engine.strategies import DIRECTIONS, any_level
from tests.support import bomb_rows, grid_level, ids_of, keke_corpus, keke_level

OPERATIONS = st.lists(
    st.sampled_from([*DIRECTIONS, *DIRECTIONS, "undo", "reset", "snapshot"]),
    min_size=1,
    max_size=30,
)


@st.composite
def word_soup(draw: st.DrawFn) -> dict[str, Any]:
    """A small board of half-made sentences, loose words and stacked objects.

    The player stands below a property word that completes ``NOUN IS _`` when pushed
    up, and other loose words lie about; stacks of two objects wait elsewhere. So
    rules form and break mid-game (SINK, DEFEAT, WIN, YOU, transformations) and a
    cell the turn did not touch can gain a contact: the case an incremental turn
    must not miss.
    """
    width, height = draw(st.integers(5, 7)), draw(st.integers(5, 7))
    nouns = ("BABA", "ROCK", "WATER", "FLAG")
    values = (*nouns, "SINK", "DEFEAT", "WIN", "YOU", "PUSH", "STOP")
    entities: list[dict[str, Any]] = []

    def add(kind: str, token: str, x: int, y: int) -> None:
        key = "noun" if kind == "object" else "text"
        entities.append({"kind": kind, key: token, "x": x, "y": y})

    for x, text in enumerate(("BABA", "IS", "YOU")):
        add("word", text, x, 0)
    x, y = draw(st.integers(0, width - 3)), draw(st.integers(1, height - 3))
    add("word", draw(st.sampled_from(nouns)), x, y)
    add("word", "IS", x + 1, y)
    add("word", draw(st.sampled_from(values)), x + 2, y + 1)
    add("object", "BABA", x + 2, y + 2)
    cells = st.tuples(st.integers(0, width - 1), st.integers(1, height - 1))
    for _ in range(draw(st.integers(0, 5))):
        add("word", draw(st.sampled_from(("IS", "AND", *values))), *draw(cells))
    for _ in range(draw(st.integers(1, 4))):
        cx, cy = draw(cells)
        for _ in range(2):
            add("object", draw(st.sampled_from(nouns)), cx, cy)
    for index, entity in enumerate(entities, start=1):
        entity["id"] = index
    return {"id": "soup", "width": width, "height": height, "entities": entities}


def frame_view(ctx: LevelContext, frame: Frame) -> dict[str, Any]:
    """A frame as the plain code reads it (whole pieces, no board)."""
    return {
        "entities": entity_records(frame),
        "rules": [r.to_dict() for r in frame.rules],
        "moves": frame.moves,
        "won": frame.won,
        "controlLost": not has_control(ctx, frame),
        "automata": automata_entries(ctx, frame),
    }


def game_view(game: Game) -> dict[str, Any]:
    state = game.state()
    keys = ("entities", "rules", "moves", "won", "controlLost", "automata")
    return {key: state[key] for key in keys}


def restore_event(ctx: LevelContext, kind: str, now: Frame, target: Frame) -> dict[str, Any]:
    """The undo or reset record, computed from whole frames."""
    here = {p[0]: p for p in now.pieces}
    moved = [
        {"id": i, "from": [here[i][3], here[i][4]], "to": [x, y], "pushedBy": None}
        for i, _, _, x, y in target.pieces
        if i in here and (here[i][3], here[i][4]) != (x, y)
    ]
    event = TurnEvent(kind=kind, accepted=True, moved=moved)
    finish_event(ctx, event, now, target)
    return event.to_dict()


def play_both(level: dict[str, Any], operations: list[str]) -> Game:
    """Play ``operations`` on a ``Game`` and on plain frames, comparing after each one."""
    model = load_level(level)
    ctx = LevelContext.of(model)
    game = Game(model)
    start = settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
    frames = [start]
    plain_reading, game_reading = Meter(sys.maxsize, "plain"), Meter(sys.maxsize, "game")
    assert game_view(game) == frame_view(ctx, start)
    for n, op in enumerate(operations):
        if op == "undo":
            event = game.undo().to_dict()
            if len(frames) > 1:
                assert event == restore_event(ctx, "undo", frames[-1], frames[-2]), n
                frames.pop()
            else:
                assert event["accepted"] is False
        elif op == "reset":
            assert game.reset().to_dict() == restore_event(ctx, "reset", frames[-1], start), n
            frames = [start]
        elif op == "snapshot":
            game = Game.from_snapshot(model, json.loads(json.dumps(game.snapshot())))
        else:
            with metered(plain_reading):
                after, plain = resolve_step(ctx, frames[-1], op)
            with metered(game_reading):
                event = game.step(op)
            assert event.to_dict() == plain.to_dict(), (n, op)
            # a kept reading is charged as if done again: every meter counts alike
            assert game_reading.units == plain_reading.units, (n, op)
            if after is not None:
                frames.append(after)
        assert game_view(game) == frame_view(ctx, frames[-1]), (n, op)
        assert game.history_depth == len(frames) - 1
    return game


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_level, OPERATIONS)
def test_random_operations_agree_with_the_plain_turn(
    level: dict[str, Any], operations: list[str]
) -> None:
    play_both(level, operations)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_soup(), OPERATIONS)
def test_rules_made_and_broken_mid_game_agree_with_the_plain_turn(
    level: dict[str, Any], operations: list[str]
) -> None:
    play_both(level, ["up", *operations])  # the first push completes the half-made sentence


def test_the_corpus_solutions_agree_with_the_plain_turn() -> None:
    for record in keke_corpus()["levels"]:
        moves = {"U": "up", "D": "down", "L": "left", "R": "right"}
        solution = [moves[letter] for letter in record["solution"]]
        # play to the end, back two, and on again: undo leaves the board in step
        game = play_both(keke_level(record), [*solution[:-1], "undo", "undo", *solution[-3:]])
        assert game.won, record["id"]


def test_a_rule_formed_by_a_push_sinks_a_cell_the_turn_did_not_touch() -> None:
    # WATER IS SINK forms when baba pushes SINK into place; the rock on the water
    # (far from baba) must sink although nothing moved in its cell.
    level = grid_level(
        [
            "BABA IS YOU . .",
            "WATER IS . . .",
            ". . SINK . .",
            ". . baba . .",
            ". . . . rock+water",
        ]
    )
    game = play_both(level, ["up"])
    state = game.state()
    gone = {e["id"] for e in state["entities"]}
    assert not set(ids_of(level, "rock")) & gone
    assert not set(ids_of(level, "water")) & gone
    assert {"subject": "WATER", "predicate": "SINK"}.items() <= state["rules"][-1].items()


def test_a_word_sunk_by_a_push_rereads_the_rules_and_the_next_turn_sees_them() -> None:
    # Pushing ROCK into the water sinks it and breaks ROCK IS WIN; the next turn's
    # table differs from the one the contacts used, so every candidate cell is read.
    level = grid_level(
        [
            "BABA IS YOU . . .",
            "WATER IS SINK . . .",
            "baba ROCK water . . .",
            ". . . . . .",
            "ROCK IS WIN . . .",
            ". . . . . .",
        ]
    )
    play_both(level, ["right", "down", "down", "up", "undo", "right", "snapshot", "left"])


def test_a_long_unread_history_builds_its_frame_without_recursion() -> None:
    level = grid_level(["BABA IS YOU . .", ". . . . .", "baba . . . ."])
    game = Game(load_level(level))
    for _ in range(3_000):
        game.step("right")
        game.step("left")
    assert game.moves == 6_000
    assert game.state()["entities"][-1] == {
        "id": 4,
        "kind": "object",
        "noun": "BABA",
        "x": 0,
        "y": 2,
    }
    while game.history_depth > 5_990:
        game.undo()
    assert game.state()["moves"] == 5_990


def test_a_turn_rejected_after_its_moves_puts_the_live_board_back() -> None:
    # Pushing IS into the gap completes a line of 17 stacked subjects (2^17 readings):
    # the turn moved baba and IS before the parse budget rejected it.
    rows = bomb_rows()
    game = play_both(grid_level(rows), ["down", "left", "right", "down", "undo", "down"])
    assert game.moves == 2


def test_win_and_defeat_formed_by_a_push_reach_a_player_that_did_not_move() -> None:
    # baba completes FLAG IS WIN (or DEFEAT); keke, blocked by the edge, stands on a flag
    for value, won in (("WIN", True), ("DEFEAT", False)):
        level = grid_level(
            [
                "BABA IS YOU . keke+flag",
                "KEKE IS YOU . .",
                "FLAG IS . . .",
                f". . {value} . .",
                ". . baba . .",
            ]
        )
        game = play_both(level, ["up"])
        assert game.won is won
        keke = ids_of(level, "keke")[0]
        assert (keke in {e["id"] for e in game.state()["entities"]}) is won
