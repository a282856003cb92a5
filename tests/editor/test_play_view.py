"""Test-play driven through the real window with keys (issue 13, items 1, 2, 5, 6)."""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget

import engine
from editor.values import OBJECT, Pos, Stamp
from tests.editor.play_driver import (
    keys,
    open_level,
    play,
    settle_animations,
    tutorial_level,
    write_pack,
)
from tests.editor.window_driver import drag, trigger, use
from tests.support import grid_level

FIRST_STEPS, CLOCKWORK, SINK_DEFEAT_WIN = 0, 6, 5


def test_play_view_and_action_carry_the_api_names(make_window) -> None:
    window = make_window()
    view = window.findChild(QWidget, "playView")
    assert view is window.play_view
    assert view.accessibleName() == "playView"
    assert window.actions_by_id["actionPlay"].objectName() == "actionPlay"
    assert window.actions_by_id["actionPlay"].shortcut().toString() == "F5"
    toolbar = window.findChild(QWidget, "mainToolBar")
    assert window.actions_by_id["actionPlay"] in toolbar.actions()


def test_arrow_keys_and_wasd_move_z_undoes_r_resets_and_properties_follow(
    make_window, qtbot
) -> None:
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    view = window.play_view
    assert (view.property("moves"), view.property("won")) == (0, False)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_D, Qt.Key.Key_Right):
        QTest.keyClick(view, key)
    settle_animations(qtbot, window)
    assert view.property("moves") == 3
    assert view.game.state()["moves"] == 3
    QTest.keyClick(view, Qt.Key.Key_Z)
    settle_animations(qtbot, window)
    assert view.property("moves") == 2
    QTest.keyClick(view, Qt.Key.Key_W)  # up
    settle_animations(qtbot, window)
    assert view.property("moves") == 3
    assert view.game.state() == _state_after(tutorial_level(FIRST_STEPS), "RRU")
    QTest.keyClick(view, Qt.Key.Key_R)
    settle_animations(qtbot, window)
    assert view.property("moves") == 0
    assert view.game.state() == engine.Game(tutorial_level(0)).state()
    assert not window.actions_by_id["actionToolRectangle"].isChecked()  # R was the game's
    keys(window, "RRRRRRUU")
    settle_animations(qtbot, window)
    assert (view.property("moves"), view.property("won")) == (8, True)
    QTest.keyClick(view, Qt.Key.Key_Z)
    settle_animations(qtbot, window)
    assert (view.property("moves"), view.property("won")) == (7, False)


def test_keys_reach_the_game_from_the_focused_board_too(make_window, qtbot) -> None:
    window = open_level(make_window, FIRST_STEPS)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    play(window)
    board = window.play_view.board
    assert board.hasFocus()
    QTest.keyClick(board, Qt.Key.Key_Right)
    QTest.keyClick(board, Qt.Key.Key_S)  # down; S is also the Select tool's key
    settle_animations(qtbot, window)
    assert window.play_view.property("moves") == 2
    assert window.canvas.tool.action_id == "actionToolBrush"


def test_keys_pressed_during_an_animation_are_queued_never_dropped_or_doubled(
    make_window, settings, qtbot
) -> None:
    settings.reduced_motion = False
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    view = window.play_view
    keys(window, "RRR")
    assert view.board.animating  # the first turn slides; the others wait their turn
    assert view.busy
    keys(window, "RRRUU")
    settle_animations(qtbot, window)
    expected = engine.Game(tutorial_level(0))
    for event in engine.replay(tutorial_level(0), "RRRRRRUU"):
        assert event.accepted
    for letter in "RRRRRRUU":
        expected.step(letter)
    assert view.game.state() == expected.state()
    assert view.property("moves") == 8
    assert view.property("won") is True
    assert view.log.count() == 8


def test_a_held_key_walks_at_the_animation_pace_and_presses_still_queue(
    make_window, settings, qtbot
) -> None:
    settings.reduced_motion = False
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    view = window.play_view
    keys(window, "R")
    assert view.board.animating
    no_mods = Qt.KeyboardModifier.NoModifier
    repeat = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Right, no_mods, "", True)  # auto-repeat
    QApplication.sendEvent(view, repeat)
    keys(window, "R")  # a real press while busy waits its turn
    settle_animations(qtbot, window)
    assert view.property("moves") == 2
    QApplication.sendEvent(
        view, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Right, no_mods, "", True)
    )
    settle_animations(qtbot, window)
    assert view.property("moves") == 3  # nothing waiting: a repeat walks one more cell


def test_animated_and_reduced_motion_play_reach_identical_states(
    make_window, settings, qtbot
) -> None:
    script = "DDRRZRRRDXDDRRRRDLLRRRRRZR"
    results = []
    for reduced in (False, True):
        settings.reduced_motion = reduced
        window = open_level(make_window, CLOCKWORK)
        assert window.actions_by_id["actionReducedMotion"].isChecked() is reduced
        play(window)
        view = window.play_view
        keys(window, script)
        if reduced:
            assert not view.busy  # every turn applied at once
        settle_animations(qtbot, window)
        results.append(
            (
                view.game.state(),
                view.log.events(),
                view.beats.lines(),
                [label.text() for label in view.beats.labels()],
                view.property("moves"),
                view.property("won"),
                view.move_string(),
            )
        )
        window.close()
    assert results[0] == results[1]
    assert results[0][4] == 14
    assert results[0][5] is True


def test_event_log_entries_match_the_engine_turn_events(make_window, settings, qtbot) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    play(window)
    keys(window, "DDRRLZRRDLLRRR")  # one undo: the log is the path to the board shown
    view = window.play_view
    moves = view.move_string()
    assert moves == "DDRRRRDLLRRR"
    expected = [event.to_dict() for event in engine.replay(tutorial_level(CLOCKWORK), moves)]
    assert view.log.events() == expected
    tree = view.log.tree  # the log's items, as the author sees them
    assert tree.topLevelItem(0).data(0, Qt.ItemDataRole.UserRole) is None  # the settled start
    assert [tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole) for i in range(1, 13)] == (
        expected
    )
    assert view.log.title(9) == "9. ← left"
    lines = view.log.lines(9)
    assert lines == [tree.topLevelItem(9).child(i).text(0) for i in range(len(lines))]
    assert "moved baba #19 (4, 6) → (3, 6)" in lines
    assert "pushed word TICK #30 (3, 6) → (2, 6) by baba #19" in lines
    assert "automated clock: mouse #21 moved ↑ (9, 3) → (9, 2) · cue step · ♪ tick" in lines
    assert "rule added: FLAG IS WIN" in lines
    assert "rule added: MOUSE IS TICK" in lines
    lines = view.log.lines(11)
    assert "automated clock: mouse #21 blocked ↑ by wall #7 (stop) · cue step · ♪ tick" in lines


def test_the_log_names_destroyed_transformed_and_crumbled_entities(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, 7)  # crumbling bridge: FRAIL
    for index, moves, turn, line in (
        (7, "RRRRR", 5, "crumbled DRIFT #20 → WATER"),
        (4, "RRRRDLL", 7, "transformed rock #31 → flag (ROCK IS FLAG)"),
        (SINK_DEFEAT_WIN, "RRRRR", 5, "destroyed ROCK #14 at (7, 3) (sink)"),
    ):
        window.session.set_level(window.pack.levels[index])
        play(window)
        keys(window, moves)
        assert line in window.play_view.log.lines(turn)


def test_selecting_an_entry_shows_that_turn_and_rewind_undoes_back_to_it(
    make_window, settings
) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    keys(window, "RRRU")
    view = window.play_view
    now = view.game.state()
    view.log.select_turn(2)
    assert view.board.frame is view.record.frames[2]
    assert view.board.frame.pieces[5].pos == Pos(3, 4)  # baba after two moves
    assert view.game.state() == now  # the game did not change
    assert view.property("moves") == 4
    assert view.banner.kind == "past"
    assert view.log.rewind_button.isEnabled()
    view.log.rewind_button.click()
    assert view.property("moves") == 2
    assert view.game.state() == _state_after(tutorial_level(FIRST_STEPS), "RR")
    assert view.log.count() == 2
    assert view.banner.kind == ""
    keys(window, "R")  # play goes on from the rewound position
    assert view.move_string() == "RRR"


def test_use_as_intended_solution_sets_the_solution_and_can_be_undone(
    make_window, settings
) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    level = window.level
    assert level.authored("solution") == "RRRRRRUU"
    play(window)
    keys(window, "UURRRRRR")
    view = window.play_view
    assert view.property("won") is True
    assert view.banner.kind == "won"
    assert view.banner.text().startswith("Solved in 8 moves")
    button = view.banner.buttons[0]
    assert button.text() == "Use as Intended Solution"
    assert button.isEnabled()
    button.click()
    assert level.authored("solution") == "UURRRRRR"
    assert not button.isEnabled()  # it is the intended solution now
    assert "intended solution" in view.banner.text()
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.playing
    assert window.actions_by_id["actionUndo"].text().endswith("Use as Intended Solution")
    trigger(window, "actionUndo")
    assert level.authored("solution") == "RRRRRRUU"


def test_escape_returns_to_editing_exactly_as_left(make_window, settings, qtbot) -> None:
    window = open_level(make_window, CLOCKWORK)
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    drag(window, [Pos(4, 5), Pos(5, 5)])  # an edit in the history
    trigger(window, "actionZoomIn")
    window.canvas.pan_by(17, -9)
    use(window, "actionToolSelect")
    drag(window, [Pos(1, 1), Pos(3, 2)])
    canvas, level, stack = window.canvas, window.level, window.pack.undo_stack
    before = (
        json.dumps(level.to_data(), sort_keys=True).encode(),
        canvas.cell_size,
        canvas.origin,
        window.select_tool.selection,
        stack.count(),
        stack.index(),
        window.level,
        window.canvas.tool,
    )
    play(window)
    assert window.play.stage.currentWidget() is window.play_view
    keys(window, "DDRRRRDLLRRRZX")
    settle_animations(qtbot, window)
    QTest.keyClick(window.play_view, Qt.Key.Key_Escape)
    assert not window.play_view.playing
    assert window.play.stage.currentWidget() is canvas
    after = (
        json.dumps(level.to_data(), sort_keys=True).encode(),
        canvas.cell_size,
        canvas.origin,
        window.select_tool.selection,
        stack.count(),
        stack.index(),
        window.level,
        window.canvas.tool,
    )
    assert after == before
    assert window.play.stage.minimumSizeHint() == canvas.minimumSizeHint().expandedTo(
        canvas.minimumSize()
    )  # the play view never pushes the docks aside
    assert window.actions_by_id["actionUndo"].isEnabled()
    assert window.actions_by_id["actionToolBrush"].isEnabled()


def test_painting_and_editing_are_locked_while_playing(make_window, qtbot) -> None:
    window = open_level(make_window, FIRST_STEPS)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    play(window)
    actions = window.actions_by_id
    for name in (
        "actionToolBrush",
        "actionToolRectangle",
        "actionPaste",
        "actionDelete",
        "actionUndo",
        "actionRedo",
        "actionAddLevel",
        "actionDeleteLevel",
    ):
        assert not actions[name].isEnabled(), name
    assert not window.canvas.isVisible()
    assert not window.palette_panel.isEnabled()
    assert not window.inspector.isEnabled()
    count = window.pack.undo_stack.count()
    QTest.keyClick(window.play_view.board, Qt.Key.Key_B)  # the brush key does nothing
    QTest.keyClick(window.play_view.board, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.pack.undo_stack.count() == count
    assert window.canvas.tool.action_id == "actionToolBrush"
    QTest.keyClick(window.play_view, Qt.Key.Key_Escape)
    assert all(actions[name].isEnabled() for name in ("actionToolBrush", "actionPaste"))
    assert window.palette_panel.isEnabled()


def test_ctrl_z_while_playing_undoes_the_move_not_an_edit(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    window.level.add_on_top([Pos(5, 5)], Stamp(OBJECT, "ROCK"))
    play(window)
    keys(window, "RR")
    QTest.keyClick(window.play_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.play_view.property("moves") == 1
    assert [p.token for p in window.level.stack_at(Pos(5, 5))] == ["ROCK"]


def test_control_lost_shows_a_banner_with_z_and_r_hints(make_window, tmp_path, settings) -> None:
    settings.reduced_motion = True
    level = grid_level([". . . .", ". BABA IS YOU", ". . . baba"], "lose")
    window = make_window(write_pack(tmp_path, level))
    play(window)
    keys(window, "U")  # baba pushes YOU out of the sentence
    view = window.play_view
    assert view.game.state()["controlLost"] is True
    assert view.banner.kind == "lost"
    assert "Nothing is YOU" in view.banner.text()
    assert "Z undoes" in view.banner.text()
    assert "R resets" in view.banner.text()
    keys(window, "Z")
    assert view.banner.kind == ""


def test_a_blocked_step_is_a_subtle_cue_not_a_dialog(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    keys(window, "UUUU")  # the fourth bumps into the top edge
    view = window.play_view
    assert view.property("moves") == 3
    assert view.status.text() == "Blocked: baba #5 cannot move up (the edge of the level)."
    assert view.board.marks.blocked_steps == ((5, "up"),)
    assert QApplication.activeModalWidget() is None
    assert not [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()
    ]
    keys(window, "R")
    assert view.board.marks.blocked_steps == ()
    assert view.status.text() == ""


def test_an_invalid_level_is_not_played_and_the_status_bar_says_why(make_window) -> None:
    window = open_level(make_window, FIRST_STEPS)
    window.level.set_authored(
        "automata",
        [{"id": "clock", "property": "TICK", "pattern": [{"action": "move", "dx": 1, "dy": 1}]}],
        text="Add Automaton",
    )
    trigger(window, "actionPlay")
    assert not window.play_view.playing
    assert window.play.stage.currentWidget() is window.canvas
    assert window.statusBar().currentMessage().startswith("Cannot play level first-steps:")


def test_an_edit_made_while_playing_marks_the_game_stale_and_r_plays_the_new_level(
    make_window, settings
) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    keys(window, "R")
    view = window.play_view
    window.level.set_authored("solution", "UU", text="Set Solution")  # not a play change
    assert view.banner.kind == ""
    window.level.add_on_top([Pos(3, 4)], Stamp(OBJECT, "WALL"))  # another panel's edit
    assert view.banner.kind == "stale"
    keys(window, "X")  # R: play the level as it is now
    assert view.property("moves") == 0
    assert view.banner.kind == ""
    assert any(e.get("noun") == "WALL" for e in view.game.state()["entities"])


def test_switching_level_while_playing_returns_to_editing(make_window) -> None:
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    trigger(window, "actionNextLevel")
    assert not window.play_view.playing
    assert window.play.stage.currentWidget() is window.canvas
    assert window.level is window.pack.levels[1]


def test_f5_while_playing_restarts_the_level(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    keys(window, "RR")
    trigger(window, "actionPlay")
    assert window.play_view.playing
    assert window.play_view.property("moves") == 0


def test_clicking_the_board_returns_from_a_past_turn(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, FIRST_STEPS)
    play(window)
    keys(window, "RRR")
    view = window.play_view
    view.log.select_turn(1)
    assert view.banner.kind == "past"
    QTest.mouseClick(view.board, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert view.banner.kind == ""
    assert view.board.frame is view.record.frames[-1]


def _state_after(level: dict, moves: str) -> dict:
    game = engine.Game(level)
    for letter in moves:
        game.step(letter)
    return game.state()
