"""Playing a stored solution back in the play view (issue 13, item 7): play, pause,
step, scrub, and the public ``play_moves`` API the solver panel uses."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import engine
from editor.panels.play.playback import MAX_PLAYBACK_MOVES
from tests.editor.play_driver import keys, open_level, settle_animations, tutorial_level
from tests.editor.window_driver import trigger

CLOCKWORK = 6
SOLUTION = "DDRRRRDLLRRRRR"


def _state_after(moves: str) -> dict:
    game = engine.Game(tutorial_level(CLOCKWORK))
    for letter in moves:
        game.step(letter)
    return game.state()


def test_the_stored_solution_plays_back_step_by_step_and_scrubs(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    trigger(window, "actionPlaySolution")
    view = window.play_view
    playback = view.playback
    assert playback is not None
    assert (playback.moves, playback.title, playback.position) == (SOLUTION, "Intended solution", 0)
    bar = view.playback_bar
    assert bar.isVisible()
    bar.buttons["forward"].click()
    bar.buttons["forward"].click()
    assert playback.position == 2
    assert view.property("moves") == 2
    bar.slider.setValue(9)  # scrub
    assert playback.position == 9
    assert view.game.state() == _state_after(SOLUTION[:9])
    assert view.log.count() == 9  # listed in one batch, read as soon as asked
    expected = [e.to_dict() for e in engine.replay(tutorial_level(CLOCKWORK), SOLUTION[:9])]
    assert view.log.events() == expected
    assert bar.where.text() == "move 9 of 14"
    bar.buttons["back"].click()
    assert view.game.state() == _state_after(SOLUTION[:8])
    bar.buttons["end"].click()
    assert (playback.position, view.property("won")) == (14, True)
    assert view.banner.kind == "won"
    bar.buttons["start"].click()
    assert view.property("moves") == 0
    assert view.log.count() == 0


def test_playback_plays_and_pauses_on_a_timer(make_window, settings, qtbot) -> None:
    settings.reduced_motion = False
    window = open_level(make_window, CLOCKWORK)
    view = window.play_view
    playback = view.play_moves(SOLUTION, title="Solver solution")
    assert window.play.stage.currentWidget() is view
    playback.play()
    assert playback.running
    qtbot.waitUntil(lambda: playback.position >= 2, timeout=10_000)
    QTest.keyClick(view, Qt.Key.Key_Space)  # Space pauses
    assert not playback.running
    paused_at = playback.position
    qtbot.wait(700)
    assert playback.position == paused_at
    playback.play()
    qtbot.waitUntil(lambda: not playback.running, timeout=20_000)
    settle_animations(qtbot, window)
    assert playback.position == 14
    assert view.game.state() == _state_after(SOLUTION)
    assert view.property("won") is True


def test_a_blocked_move_stops_the_playback_and_says_which(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, 0)  # first steps: baba cannot go up four times
    playback = window.play_view.play_moves("UUUUR", title="Broken")
    playback.seek(5)
    assert playback.position == 3
    assert playback.broken_at == 4
    assert playback.message == "move 4 (U) is blocked"
    assert window.play_view.playback_bar.where.text() == "move 4 (U) is blocked"
    assert not playback.step()


def test_a_play_key_takes_over_from_the_playback(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    playback = window.play_view.play_moves(SOLUTION, title="Intended solution")
    playback.seek(4)
    keys(window, "L")
    assert not playback.active
    assert playback.message == "You took over after move 4."
    assert window.play_view.move_string() == SOLUTION[:4] + "L"
    assert not window.play_view.playback_bar.buttons["forward"].isEnabled()


def test_play_moves_refuses_bad_strings_before_changing_anything(make_window) -> None:
    window = open_level(make_window, CLOCKWORK)
    with pytest.raises(ValueError, match="move 3 is 'x'"):
        window.play_view.play_moves("UDxL", title="Bad")
    with pytest.raises(ValueError, match="at most"):
        window.play_view.play_moves("U" * (MAX_PLAYBACK_MOVES + 1), title="Long")
    assert not window.play_view.playing


def test_a_level_without_a_solution_says_so(make_window) -> None:
    window = make_window()  # a new pack: its level has no solution
    trigger(window, "actionPlaySolution")
    assert not window.play_view.playing
    assert "no intended solution" in window.statusBar().currentMessage()
