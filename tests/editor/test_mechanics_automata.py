"""The automata panel, driven through the real window: the list, its actions, the
pattern editor, checked fields with the engine's messages, undo and redo, the
move-0 warning and the ghost preview."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QToolButton

import engine
from editor.resources import TUTORIAL_PACK
from editor.values import WORD, Pos, Stamp
from tests.editor.mechanics_driver import (
    automata_panel,
    click,
    key,
    press_tool,
    type_into,
    view_items,
    wait_for_facts,
)
from tests.editor.window_driver import trigger

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
RIGHT = {"action": "move", "dx": 1, "dy": 0}
UP = {"action": "move", "dx": 0, "dy": -1}
WAIT = {"action": "wait"}


def test_an_automaton_is_created_its_pattern_and_phase_edited_and_each_step_undone_and_redone(
    make_window,
) -> None:
    window = make_window()
    panel = automata_panel(window)
    stack = window.pack.undo_stack
    states: list[Any] = [None]

    def step_done() -> None:
        assert stack.count() == len(states), "each edit is exactly one command"
        states.append(window.level.authored("automata"))

    press_tool(panel.toolbar, "actionAddAutomaton")
    step_done()
    assert view_items(panel) == [
        {"id": "automaton", "property": "TICK", "phase": 0, "pattern": [RIGHT]}
    ]
    strip = panel.form.strip
    key(strip, Qt.Key.Key_Up, SHIFT)  # insert a move up after the selected step
    step_done()
    key(strip, Qt.Key.Key_W)  # insert a wait after it
    step_done()
    assert window.level.authored("automata")[0]["pattern"] == [RIGHT, UP, WAIT]
    key(strip, Qt.Key.Key_Left, CTRL)  # move the wait one step earlier
    step_done()
    assert window.level.authored("automata")[0]["pattern"] == [RIGHT, WAIT, UP]
    key(panel.form.phase, Qt.Key.Key_Up)  # two clicks of the spin box: one merged edit
    key(panel.form.phase, Qt.Key.Key_Up)
    step_done()
    assert view_items(panel) == [
        {"id": "automaton", "property": "TICK", "phase": 2, "pattern": [RIGHT, WAIT, UP]}
    ]
    assert strip.steps() == [RIGHT, WAIT, UP]

    for expected in reversed(states[:-1]):
        trigger(window, "actionUndo")
        assert window.level.authored("automata") == expected
        assert view_items(panel) == (expected or [])
    for expected in states[1:]:
        trigger(window, "actionRedo")
        assert window.level.authored("automata") == expected
        assert view_items(panel) == expected
    assert panel.form.phase.value() == 2


def _one_automaton_window(make_window, pattern: list[dict[str, Any]], phase: int = 0) -> Any:
    window = make_window()
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    record = {"id": "automaton", "property": "TICK", "phase": phase, "pattern": pattern}
    window.level.set_authored("automata", [record], text="setup")
    return window, panel


def _engine_message(pattern: list[dict[str, Any]]) -> str:
    level = {"id": "x", "width": 1, "height": 1, "entities": []}
    level["automata"] = [{"id": "a", "property": "TICK", "pattern": pattern}]
    (problem,) = engine.check_level(level)
    return problem.message


@pytest.mark.parametrize(("typed", "delta"), [("1, -1", (1, -1)), ("0, 0", (0, 0))])
def test_a_diagonal_or_zero_step_is_refused_with_the_engines_message(
    make_window, typed: str, delta: tuple[int, int]
) -> None:
    window, panel = _one_automaton_window(make_window, [RIGHT, WAIT])
    before, count = window.level.authored("automata"), window.pack.undo_stack.count()
    form = panel.form
    form.strip.set_current(0)
    type_into(form.delta, typed)
    assert window.level.authored("automata") == before  # nothing stored, not even half
    assert window.pack.undo_stack.count() == count
    message = _engine_message([{"action": "move", "dx": delta[0], "dy": delta[1]}])
    assert form.step_problems.isVisible()
    assert form.step_problems.text() == f"Not stored: {message} (non-cardinal-move)"
    assert [p.code for p in form.step_problems.problems] == ["non-cardinal-move"]
    assert form.delta.text() == typed  # the author's typing stays to be corrected
    type_into(form.delta, "0, 1")  # a cardinal move is stored
    assert window.level.authored("automata")[0]["pattern"][0] == {
        "action": "move",
        "dx": 0,
        "dy": 1,
    }
    assert not form.step_problems.isVisible()


def test_a_duplicate_id_is_refused_in_place(make_window) -> None:
    window = make_window()
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    press_tool(panel.toolbar, "actionDuplicateAutomaton")
    assert [r["id"] for r in view_items(panel)] == ["automaton", "automaton-copy"]
    count = window.pack.undo_stack.count()
    type_into(panel.form.id_edit, "automaton")
    assert [r["id"] for r in view_items(panel)] == ["automaton", "automaton-copy"]
    assert window.pack.undo_stack.count() == count
    assert panel.form.id_problems.text() == (
        "Not stored: automaton id 'automaton' is already used by /automata/0"
        " (duplicate-automaton-id)"
    )
    type_into(panel.form.id_edit, "bell-clock")
    assert [r["id"] for r in view_items(panel)] == ["automaton", "bell-clock"]


def test_the_property_word_is_checked_and_appears_in_the_palette(make_window) -> None:
    window = make_window()
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    form = panel.form
    type_into(form.property_word, "you")  # typed in lower case: tokens are upper case
    assert form.property_problems.text() == (
        "Not stored: YOU cannot be an automaton property: it is a built-in property"
        " (invalid-property)"
    )
    type_into(form.property_word, "ROCK")  # a noun of the pack
    assert "ROCK is one of the pack's nouns" in form.property_problems.text()
    type_into(form.property_word, "9LIVES")
    assert [p.code for p in form.property_problems.problems] == ["bad-format"]
    assert view_items(panel)[0]["property"] == "TICK"
    type_into(form.property_word, "gear")
    assert view_items(panel)[0]["property"] == "GEAR"
    assert Stamp(WORD, "GEAR") in window.palette_panel.stamps()
    assert Stamp(WORD, "TICK") not in window.palette_panel.stamps()


def test_add_duplicate_delete_and_reorder_keep_the_authored_order(make_window) -> None:
    window = make_window()
    panel = automata_panel(window)
    for _ in range(3):
        press_tool(panel.toolbar, "actionAddAutomaton")
    assert [(r["id"], r["property"]) for r in view_items(panel)] == [
        ("automaton", "TICK"),
        ("automaton-2", "TOCK"),
        ("automaton-3", "BEAT"),
    ]
    assert panel.current_index() == 2
    press_tool(panel.toolbar, "actionMoveAutomatonUp")
    assert [r["id"] for r in view_items(panel)] == ["automaton", "automaton-3", "automaton-2"]
    item = panel.list.topLevelItem(1)
    assert (item.text(0), item.text(1)) == ("2", "automaton-3")  # the order shows
    panel.select(0)
    press_tool(panel.toolbar, "actionDeleteAutomaton")
    assert [r["id"] for r in view_items(panel)] == ["automaton-3", "automaton-2"]
    key(panel.list, Qt.Key.Key_Delete)  # Delete in the list deletes the selected automaton
    key(panel.list, Qt.Key.Key_Delete)
    assert view_items(panel) == []
    assert "automata" not in window.level.to_data()  # no empty list is left behind
    trigger(window, "actionUndo")
    assert [r["id"] for r in view_items(panel)] == ["automaton-2"]


def test_pattern_steps_are_edited_with_the_mouse(make_window, qtbot) -> None:
    window, panel = _one_automaton_window(make_window, [RIGHT, WAIT, UP], phase=1)
    form, strip = panel.form, panel.form.strip
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=strip.tile_rect(0).center())
    assert strip.current() == 0
    click(form.findChild(QToolButton, "insertDown"))
    down = {"action": "move", "dx": 0, "dy": 1}
    assert strip.steps() == [RIGHT, down, WAIT, UP]
    assert window.level.authored("automata")[0]["phase"] == 2  # the start stays on its step
    assert strip.current() == 1
    end = strip.tile_rect(3).center()
    end.setX(strip.tile_rect(3).right() + 4)  # past the last step: drop at the end
    qtbot.mousePress(strip, Qt.MouseButton.LeftButton, pos=strip.tile_rect(1).center())
    qtbot.mouseMove(strip, strip.tile_rect(2).center())
    qtbot.mouseMove(strip, end)
    qtbot.mouseRelease(strip, Qt.MouseButton.LeftButton, pos=end)
    assert strip.steps() == [RIGHT, WAIT, UP, down]
    assert window.level.authored("automata")[0]["phase"] == 1
    qtbot.mouseDClick(strip, Qt.MouseButton.LeftButton, pos=strip.tile_rect(2).center())
    assert window.level.authored("automata")[0]["phase"] == 2
    strip.set_current(3)
    click(form.findChild(QToolButton, "stepEarlier"))
    assert strip.steps() == [RIGHT, WAIT, down, UP]
    click(form.findChild(QToolButton, "deleteStep"))
    assert strip.steps() == [RIGHT, WAIT, UP]
    assert window.level.authored("automata")[0]["phase"] == 2


def test_the_last_step_cannot_be_deleted(make_window) -> None:
    window, panel = _one_automaton_window(make_window, [WAIT])
    key(panel.form.strip, Qt.Key.Key_Delete)
    assert window.level.authored("automata")[0]["pattern"] == [WAIT]
    assert panel.form.pattern_problems.text() == "Not stored: must have at least 1 items (bad-size)"


def test_cue_and_sound_are_set_with_suggestions_from_the_pack(make_window, tmp_path) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[0])  # first-steps: no automata
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    form = panel.form
    cues = [form.cue.itemText(i) for i in range(form.cue.count())]
    sounds = [form.sound.itemText(i) for i in range(form.sound.count())]
    assert cues == ["", "rest", "step"]  # used by the clockwork level
    assert sounds == ["", "tick"]
    type_into(form.cue, "step")
    type_into(form.sound, "Tock!")  # not a name: the engine's message, nothing stored
    assert [p.code for p in form.step_problems.problems] == ["bad-format"]
    assert view_items(panel)[0]["pattern"] == [{**RIGHT, "cue": "step"}]
    type_into(form.cue, "")  # clearing a name removes it
    assert view_items(panel)[0]["pattern"] == [RIGHT]


def test_the_tutorial_clockwork_level_shows_its_automaton_and_warns_it_is_idle(
    make_window, qtbot
) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[6])
    panel = automata_panel(window)
    written = json.loads(TUTORIAL_PACK.read_text(encoding="utf-8"))["levels"][6]
    assert written["id"] == "clockwork"
    assert view_items(panel) == written["automata"]  # the records as the file has them
    assert panel.form.property_word.currentText() == "TICK"
    assert panel.form.strip.steps() == view_items(panel)[0]["pattern"]
    wait_for_facts(qtbot, window)
    assert panel.list.topLevelItem(0).text(6) == "inactive"
    assert panel.form.move_zero.text() == (
        "No rule on the board gives TICK at move 0: "
        "this automaton will not act until such a rule forms."
    )
    # push TICK into MOUSE IS TICK: the warning gives way to the carriers
    window.level.move_region([Pos(4, 6)], -2, 0)  # TICK now ends MOUSE IS TICK
    wait_for_facts(qtbot, window)
    assert panel.list.topLevelItem(0).text(6) == "active (1)"
    assert panel.form.move_zero.text().startswith("Active at move 0: MOUSE #")


KNOWN_LEVEL = {
    "id": "ghost",
    "width": 7,
    "height": 5,
    "entities": [
        {"id": 1, "kind": "object", "noun": "MOUSE", "x": 1, "y": 1},
        {"id": 2, "kind": "object", "noun": "WALL", "x": 4, "y": 1},
        {"id": 3, "kind": "word", "text": "MOUSE", "x": 0, "y": 4},
        {"id": 4, "kind": "word", "text": "IS", "x": 1, "y": 4},
        {"id": 5, "kind": "word", "text": "TICK", "x": 2, "y": 4},
        {"id": 6, "kind": "word", "text": "WALL", "x": 4, "y": 4},
        {"id": 7, "kind": "word", "text": "IS", "x": 5, "y": 4},
        {"id": 8, "kind": "word", "text": "STOP", "x": 6, "y": 4},
    ],
    "automata": [
        {
            "id": "clock",
            "property": "TICK",
            "phase": 0,
            "pattern": [RIGHT, RIGHT, RIGHT, WAIT, {"action": "move", "dx": 0, "dy": 1}],
        }
    ],
}


def _pack_file(tmp_path: Path, *levels: dict[str, Any]) -> Path:
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "p",
        "title": "P",
        "nouns": {n: {"color": "#888888"} for n in ("MOUSE", "WALL", "ROCK", "WATER", "DRIFT")},
        "levels": [copy.deepcopy(level) for level in levels],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    return path


def test_the_ghost_preview_cells_match_a_known_level(make_window, qtbot, tmp_path) -> None:
    window = make_window(_pack_file(tmp_path, KNOWN_LEVEL))
    panel = automata_panel(window)
    canvas = window.canvas
    wait_for_facts(qtbot, window)
    assert panel.ghost.paths() == ()  # off until toggled
    before = canvas.grab().toImage()
    trigger(window, "actionGhostPreview")
    assert panel.ghost_button.isChecked()
    wait_for_facts(qtbot, window)  # the paths are computed only while the preview shows
    path = panel.ghost.paths()
    assert [(p.automaton, p.carrier, p.start) for p in path] == [("clock", 1, (1, 1))]
    steps = [(s.beat, s.cell, s.blocked) for s in path[0].steps]
    # right, right, then the wall (STOP) blocks, a wait, then down, right (again blocked)…
    assert steps == [
        (1, (2, 1), False),
        (2, (3, 1), False),
        (3, (3, 1), True),
        (4, (3, 1), False),
        (5, (3, 2), False),
        (6, (4, 2), False),
        (7, (5, 2), False),
        (8, (6, 2), False),
    ]
    assert path[0].steps[2].reason == "stop"
    assert path[0].steps[2].blocker_id == 2
    assert "on the board as at move 0" in panel.ghost.caption()
    after = canvas.grab().toImage()
    for cell in ((2, 1), (3, 2)):  # the dotted path and its numbers are drawn there
        centre = canvas.cell_rect(Pos(*cell)).center()
        assert QColor(before.pixel(centre)) != QColor(after.pixel(centre)), cell
    panel.beats.setValue(3)
    wait_for_facts(qtbot, window)
    assert [s.cell for s in panel.ghost.paths()[0].steps] == [(2, 1), (3, 1), (3, 1)]
    trigger(window, "actionGhostPreview")
    assert panel.ghost.paths() == ()


def test_the_ghost_follows_pattern_edits(make_window, qtbot, tmp_path) -> None:
    window = make_window(_pack_file(tmp_path, KNOWN_LEVEL))
    panel = automata_panel(window)
    trigger(window, "actionGhostPreview")
    panel.beats.setValue(2)
    wait_for_facts(qtbot, window)
    form = panel.form
    form.strip.set_current(0)
    key(form.strip, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # turn step 0 downward
    assert view_items(panel)[0]["pattern"][0] == {"action": "move", "dx": 0, "dy": 1}
    wait_for_facts(qtbot, window)
    assert [s.cell for s in panel.ghost.paths()[0].steps] == [(1, 2), (2, 2)]


def test_a_pointer_from_the_validation_panel_opens_the_automatons_field(make_window) -> None:
    window = make_window()
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    press_tool(panel.toolbar, "actionAddAutomaton")
    record = view_items(panel)[1]
    record["pattern"] = [WAIT, {"action": "move", "dx": 1, "dy": 1, "cue": "x"}]
    window.level.set_authored("automata", [view_items(panel)[0], record], text="file")
    panel.select(0)
    assert panel.focus_pointer("/automata/1/pattern/1/dx")
    assert panel.current_index() == 1
    assert panel.form.strip.current() == 1
    assert window.focusWidget() is panel.form.delta  # the window's focus, once it is active
    assert panel.form.delta.text() == "1, 1"
    assert [p.code for p in panel.form.step_problems.problems] == ["non-cardinal-move"]
    assert not panel.focus_pointer("/entities/3/x")
    assert not panel.focus_pointer("/automata/9")


def test_suggestions_follow_automata_edits_in_other_levels(make_window) -> None:
    """The pack's cue, sound and property words are read once per change, not per refresh."""
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[0])
    panel = automata_panel(window)
    press_tool(panel.toolbar, "actionAddAutomaton")
    type_into(panel.form.cue, "wave")
    type_into(panel.form.property_word, "GEAR")
    window.session.set_level(window.pack.levels[1])
    press_tool(panel.toolbar, "actionAddAutomaton")
    form = panel.form
    assert "wave" in [form.cue.itemText(i) for i in range(form.cue.count())]
    assert "GEAR" in [form.property_word.itemText(i) for i in range(form.property_word.count())]
    window.actions_by_id["actionUndo"].trigger()  # level 2's automaton
    for _ in range(3):  # level 1's property, cue and automaton
        window.actions_by_id["actionUndo"].trigger()
    window.session.set_level(window.pack.levels[1])
    press_tool(panel.toolbar, "actionAddAutomaton")
    assert "wave" not in [form.cue.itemText(i) for i in range(form.cue.count())]


def test_the_pack_knows_its_levels_with_automata_through_edits_removal_and_undo(
    make_window,
) -> None:
    """Suggestions walk only these levels, so they must follow every way automata come and go."""
    window = make_window(TUTORIAL_PACK)
    pack = window.pack
    before = pack.levels_with_automata()
    first, second = pack.levels[0], pack.levels[1]
    automaton = {"id": "a", "property": "GEAR", "pattern": [{"move": "up"}]}
    second.set_authored("automata", [automaton], text="Add automaton")
    first.set_authored("automata", [dict(automaton, property="COG")], text="Add automaton")
    with_both = pack.levels_with_automata()
    assert first in with_both
    assert second in with_both
    assert with_both.index(first) < with_both.index(second)  # pack order
    pack.remove_level(0)
    assert first not in pack.levels_with_automata()
    window.actions_by_id["actionUndo"].trigger()  # the level comes back
    assert first in pack.levels_with_automata()
    first.set_authored("automata", [], text="Remove automata")
    assert first not in pack.levels_with_automata()
    window.actions_by_id["actionUndo"].trigger()
    assert first in pack.levels_with_automata()
    for _ in range(3):
        window.actions_by_id["actionUndo"].trigger()
    assert pack.levels_with_automata() == before
