"""Beat feedback in test-play: the automata presentation scenarios and the issue's item 4.

Scenario tests are named after the automata requirements (docs/contract.md:
"Automata SHALL provide a visual feedback handoff", "Reduced motion keeps beat feedback readable", "Missing optional cue does
not block play").
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

import engine
from editor.panels.play.marks import DEFAULT_CUE, cue_style
from tests.editor.play_driver import keys, open_level, play, settle_animations, write_pack
from tests.editor.window_driver import trigger
from tests.support import grid_level

CLOCKWORK = 6
SOLUTION = "DDRRRRDLLRRRRR"
ARROW = {(0, -1): "↑", (0, 1): "↓", (-1, 0): "←", (1, 0): "→"}


def _label(step: dict[str, Any]) -> str:
    if step["action"] == "wait":
        return "wait"
    return f"{ARROW[(step['dx'], step['dy'])]} move"


def _expected_beat(entry: dict[str, Any]) -> str:
    pattern, phase = entry["pattern"], entry["phase"]
    step, then = entry["next"], pattern[(phase + 1) % len(pattern)]
    assert step == pattern[phase]  # the engine's meaning of next
    line = (
        f"{entry['id']}: next {_label(step)}, then {_label(then)} "
        f"(step {phase + 1} of {len(pattern)})"
    )
    if not entry["active"]:
        line += f" — paused: nothing is {entry['property']}"
    return line


class RecordingSound:
    """A sound backend that records what it is asked to play (and at which volume)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.volumes: list[float] = []

    def play(self, name: str, volume: float) -> bool:
        self.asked.append(name)
        self.volumes.append(volume)
        return True

    def problem(self) -> str | None:
        return None


def clockwork_with_sound(make_window: Any, settings: Any) -> tuple[Any, RecordingSound]:
    """The Clockwork level in test-play (reduced motion), its sounds recorded."""
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    sound = RecordingSound()
    window.play_view.sounds.backend = sound
    play(window)
    return window, sound


def test_beat_feedback_matches_pattern_phase_and_the_next_step_on_clockwork(
    make_window, settings
) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    play(window)
    view = window.play_view
    assert view.beats.lines() == [
        "clock: next ↑ move, then wait (step 1 of 2) — paused: nothing is TICK"
    ]
    for number, letter in enumerate(SOLUTION, start=1):
        keys(window, letter)
        (entry,) = view.game.state()["automata"]
        assert entry["next"] == entry["pattern"][entry["phase"]]
        (label,) = view.beats.labels()
        assert view.beats.lines() == [_expected_beat(entry)], f"after move {number}"
        assert label.text().splitlines()[0] == label.accessibleName() == _expected_beat(entry)
    assert view.beats.lines() == ["clock: next ↑ move, then wait (step 1 of 2)"]
    keys(window, "Z")  # the beat before the last: the carrier rests next
    assert view.beats.lines() == ["clock: next wait, then ↑ move (step 2 of 2)"]


def test_a_pattern_step_is_ready_for_visual_review(make_window, settings) -> None:
    """Spec 03, "Automata SHALL provide a visual feedback handoff": phase and action
    objects map to the current/next feedback and to the movement result on the board."""
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    play(window)
    view = window.play_view
    keys(window, SOLUTION[:9])  # the ninth move makes MOUSE IS TICK: the mouse steps up
    event = view.log.events()[-1]
    (automated,) = event["automated"]
    assert automated == {
        "automaton": "clock",
        "action": "move",
        "id": 21,
        "from": [9, 3],
        "to": [9, 2],
        "blocked": None,
        "cue": "step",
        "sound": "tick",
    }
    marks = view.board.marks
    assert dict(marks.carriers) == {21: {"action": "wait", "cue": "rest"}}  # its next step
    assert list(marks.beats) == [(21, cue_style("step"))]
    assert not cue_style("step").is_default
    assert view.board.frame.pieces[21].pos == (9, 2)  # the movement result
    (label,) = view.beats.labels()
    text = label.text().splitlines()
    assert text[0] == "clock: next wait, then ↑ move (step 2 of 2)"
    assert text[1] == "next: cue rest · then: cue step, sound tick"
    assert text[2] == "carriers: mouse #21"
    assert text[3] == "last beat: clock: mouse #21 moved ↑ (9, 3) → (9, 2) · cue step · ♪ tick"
    assert label.accessibleDescription() == "\n".join(text[1:])
    keys(window, SOLUTION[9:11])  # a wait, then a move blocked by the wall above WIN
    marks = view.board.marks
    assert list(marks.blocked_beats) == [(21, "up")]
    assert text != label.text().splitlines()
    assert label.text().splitlines()[3] == (
        "last beat: clock: mouse #21 blocked ↑ by wall #7 (stop) · cue step · ♪ tick"
    )


def test_reduced_motion_keeps_beat_feedback_readable(make_window, settings) -> None:
    """Spec 03: reduced motion enabled during an automaton turn shows the current/next
    steps at once, and the simulation result is the engine's own."""
    settings.reduced_motion = False
    window = open_level(make_window, CLOCKWORK)
    play(window)
    view = window.play_view
    keys(window, SOLUTION[:9])  # the ninth turn is the mouse's first beat
    assert view.board.animating
    trigger(window, "actionReducedMotion")  # View ▸ Reduced Motion, during the turn
    assert settings.reduced_motion is True
    assert not view.busy  # the waiting turns were applied at once
    assert view.beats.lines() == ["clock: next wait, then ↑ move (step 2 of 2)"]
    expected = engine.Game(window.level.to_data())
    for letter in SOLUTION[:9]:
        expected.step(letter)
    assert view.game.state() == expected.state()
    keys(window, SOLUTION[9])
    assert not view.board.animating
    assert view.beats.lines() == ["clock: next ↑ move, then wait (step 1 of 2)"]


def test_missing_optional_cue_does_not_block_play(make_window, tmp_path, settings) -> None:
    """Spec 03: a step without cue or sound keeps its action and phase and gets the
    default visual and audio treatment (the default ring, the default sound)."""
    settings.reduced_motion = True
    level = grid_level(
        [
            "BABA IS YOU .",
            "ROCK IS TICK .",
            ". . . .",
            "baba . rock .",
        ],
        "plain",
        automata=[
            {
                "id": "drift",
                "property": "TICK",
                "pattern": [{"action": "move", "dx": 1, "dy": 0}, {"action": "wait"}],
            }
        ],
    )
    window = make_window(write_pack(tmp_path, level))
    sound = RecordingSound()
    window.play_view.sounds.backend = sound
    play(window)
    view = window.play_view
    assert view.beats.lines() == ["drift: next → move, then wait (step 1 of 2)"]
    keys(window, "U")
    (entry,) = view.game.state()["automata"]
    assert (entry["phase"], entry["next"]) == (1, {"action": "wait"})
    assert view.beats.lines() == ["drift: next wait, then → move (step 2 of 2)"]
    rock = next(e for e in view.game.state()["entities"] if e.get("noun") == "ROCK")
    assert (rock["x"], rock["y"]) == (3, 3)
    assert list(view.board.marks.beats) == [(rock["id"], DEFAULT_CUE)]
    (label,) = view.beats.labels()
    assert "next: default cue · then: default cue" in label.text()
    assert sound.asked == ["beat"]


def test_sound_names_are_shown_and_played_where_a_backend_exists(make_window, settings) -> None:
    window, sound = clockwork_with_sound(make_window, settings)
    keys(window, SOLUTION[:10])
    assert sound.asked == ["tick", "beat"]  # the ninth move's step; the tenth names none
    assert window.play_view.sounds.played == ["tick", "beat"]
    window.play_view.sounds.backend = None  # no audio: the names are still shown
    keys(window, SOLUTION[10])
    assert "♪ tick" in window.play_view.beats.labels()[0].text()
    assert window.play_view.sounds.asked == ["tick", "beat", "tick"]


def test_animated_beats_pulse_then_rest_on_the_same_marks(make_window, settings, qtbot) -> None:
    settings.reduced_motion = False
    window = open_level(make_window, CLOCKWORK)
    play(window)
    view = window.play_view
    keys(window, SOLUTION[:9])
    settle_animations(qtbot, window)
    assert list(view.board.marks.beats) == [(21, cue_style("step"))]
    assert view.beats.lines() == ["clock: next wait, then ↑ move (step 2 of 2)"]


def test_next_means_the_engines_next_in_every_label_tooltip_and_accessible_text(
    make_window, settings, qtbot
) -> None:
    """Issue 37, item 4: ``next`` is ``pattern[phase]`` (the state's ``next``) in the
    beat panel's text, its accessible name and description, its tooltip and the
    board's carrier tag and tooltip; the step after it is "then"."""
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    play(window)
    view = window.play_view
    keys(window, SOLUTION[:9])  # the mouse carries the clock; its next step is the wait
    (entry,) = view.game.state()["automata"]
    assert entry["next"] == {"action": "wait", "cue": "rest"} == entry["pattern"][entry["phase"]]
    (label,) = view.beats.labels()
    assert label.accessibleName() == "clock: next wait, then ↑ move (step 2 of 2)"
    assert label.accessibleDescription().splitlines()[0] == (
        "next: cue rest · then: cue step, sound tick"
    )
    assert "(pattern[phase])" in label.toolTip()
    assert dict(view.board.marks.carriers) == {21: entry["next"]}  # the board's tag
    mouse = view.board.frame.pieces[21].pos
    assert view.board.carrier_tip(mouse) == "mouse #21: next wait"
    assert view.board.carrier_tip(view.board.frame.pieces[1].pos) == ""  # not a carrier
    centre = view.board.cell_rect(mouse).center()
    assert view.board.cell_at(centre) == mouse
    QApplication.sendEvent(
        view.board,
        QHelpEvent(QEvent.Type.ToolTip, centre, view.board.mapToGlobal(centre)),
    )
    qtbot.waitUntil(lambda: QToolTip.text() == "mouse #21: next wait", timeout=2000)
    assert "next step" in view.board.accessibleDescription()
    texts = [
        label.text(),
        label.accessibleName(),
        label.accessibleDescription(),
        label.toolTip(),
        view.board.accessibleDescription(),
    ]
    assert not [t for t in texts if re.search(r"\bnow\b", t)]
