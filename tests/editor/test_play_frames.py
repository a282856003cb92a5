"""Frames, motions and the words of test-play, without a window."""

from __future__ import annotations

import engine
from editor.panels.play.frames import first_frame, motion_between, next_frame
from editor.panels.play.text import beat_line, step_label, turn_lines
from editor.values import OBJECT, WORD, Pos, Stamp
from tests.editor.play_driver import tutorial_level
from tests.support import grid_level


def _play(level: dict, moves: str):
    game = engine.Game(level)
    frames = [first_frame(level, game.state())]
    events = []
    for letter in moves:
        event = game.step(letter).to_dict()
        assert event["accepted"]
        frames.append(next_frame(frames[-1], game.state(), event))
        events.append(event)
    return frames, events


def test_a_frame_keeps_the_authored_stacking_and_movers_land_on_top() -> None:
    data = grid_level(["baba rock+flag .", "BABA IS YOU", "ROCK IS PUSH"], "stack")
    game = engine.Game(data)
    frame = first_frame(data, game.state())
    assert frame.looks()[Pos(1, 0)] == (Stamp(OBJECT, "ROCK"), Stamp(OBJECT, "FLAG"))
    event = game.step("right").to_dict()  # baba pushes the rock; the flag stays
    after = next_frame(frame, game.state(), event)
    assert after.looks()[Pos(1, 0)] == (Stamp(OBJECT, "FLAG"), Stamp(OBJECT, "BABA"))
    assert after.looks()[Pos(2, 0)] == (Stamp(OBJECT, "ROCK"),)
    words = [i for i, s in frame.pieces.items() if s.stamp.kind == WORD]
    assert all(after.pieces[i] is frame.pieces[i] for i in words)  # shared, not copied


def test_motion_follows_each_leg_of_a_move_and_names_every_fade() -> None:
    frames, events = _play(tutorial_level(6), "DDRRRRDLL")
    motion = motion_between(frames[-2], frames[-1], events[-1])
    assert motion.slides[19] == (Pos(4, 6), Pos(3, 6))
    assert motion.slides[17] == (Pos(9, 2), Pos(9, 1))  # WIN pushed by the mouse
    assert motion.fades == {}
    frames, events = _play(tutorial_level(4), "RRRRDLL")
    fade = motion_between(frames[-2], frames[-1], events[-1]).fades[31]
    assert (fade.before, fade.after, fade.kind) == (
        Stamp(OBJECT, "ROCK"),
        Stamp(OBJECT, "FLAG"),
        "transformed",
    )
    frames, events = _play(tutorial_level(5), "RRRRR")
    motion = motion_between(frames[-2], frames[-1], events[-1])
    assert motion.fades[14].kind == "destroyed"
    assert motion.fades[14].after is None
    assert motion.slides[14][-1] == Pos(7, 3)  # it slides into the water, then fades
    back = motion_between(frames[-1], frames[-2], {"moved": []})  # an undo brings it back
    assert back.fades[14].kind == "appeared"
    frames, events = _play(tutorial_level(7), "RRRRR")
    assert motion_between(frames[-2], frames[-1], events[-1]).fades[20].kind == "crumbled"


def test_step_labels_and_beat_lines_read_the_pattern() -> None:
    assert step_label({"action": "move", "dx": -1, "dy": 0}) == "← move"
    assert step_label({"action": "wait", "cue": "rest"}) == "wait"
    entry = {
        "id": "mouse-clock",
        "subject": "MOUSE",
        "property": "TICK",
        "pattern": [
            {"action": "move", "dx": -1, "dy": 0},
            {"action": "wait"},
            {"action": "move", "dx": 0, "dy": 1},
        ],
        "phase": 2,
        "active": False,
    }
    assert beat_line(entry) == (
        "mouse-clock: next ↓ move, then ← move (step 3 of 3) — paused: MOUSE is not TICK"
    )


def test_turn_lines_cover_every_kind_of_entry() -> None:
    event = {
        "moved": [{"id": 1, "from": [0, 0], "to": [1, 0], "pushedBy": None}],
        "automated": [
            {
                "automaton": "c",
                "action": "wait",
                "id": 2,
                "from": None,
                "to": None,
                "blocked": None,
                "cue": None,
                "sound": None,
            }
        ],
        "transformed": [],
        "destroyed": [],
        "crumbled": [{"id": 3, "from": "DRIFT", "to": None}],
        "rulesAdded": [{"subject": "A", "predicate": "YOU", "sourceIds": [], "axis": "horizontal"}],
        "rulesRemoved": [{"subject": "B", "predicate": "WIN", "sourceIds": [], "axis": "vertical"}],
    }
    lines = turn_lines(event, lambda i: f"#{i}")
    assert lines == [
        "moved #1 (0, 0) → (1, 0)",
        "automated c: #2 waits",
        "crumbled DRIFT #3 → nothing",
        "rule added: A IS YOU",
        "rule removed: B IS WIN",
    ]


def test_frames_built_turn_by_turn_equal_frames_built_from_scratch() -> None:
    """The next frame patches only the cells a turn touched; it must match a full rebuild."""
    import random

    from editor.panels.play.frames import Frame

    rng = random.Random(5)
    for index, moves in ((6, "DDRRRRDLLRRRRR"), (7, "RRRRRRRRDRUUDDD"), (5, "RRRRRRRURRD")):
        level = tutorial_level(index)
        game = engine.Game(level)
        frame = first_frame(level, game.state())
        letters = list(moves) + [rng.choice("UDLR") for _ in range(30)]
        for letter in letters:
            event = game.step(letter).to_dict()
            if not event["accepted"]:
                continue
            frame = next_frame(frame, game.state(), event)
            fresh = Frame(frame.width, frame.height, frame.entities, frame.top)
            assert frame.looks() == fresh.looks()
            assert frame.stacks() == fresh.stacks()
            state_ids = [e["id"] for e in game.state()["entities"]]
            assert [s.id for s in frame.entities] == state_ids
