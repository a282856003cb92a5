"""The FRAIL panel, driven through the real window: opting in and out, the leaves
table edited in place (with Add noun), refused values with the engine's messages,
chains with self-maps and cycles flagged, crack badges with their hover text,
the palette's FRAIL entry, and the offer to opt in when FRAIL is painted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

import engine
from editor.resources import TUTORIAL_PACK
from editor.values import WORD, NounSpec, Pos, Stamp
from tests.editor.mechanics_driver import (
    choose_in_cell,
    click,
    edit_cell,
    frail_panel,
    saved_level,
    view_items,
    wait_for_facts,
)
from tests.editor.window_driver import trigger, use
from tests.support import ROOT

FRAIL_WORD = Stamp(WORD, engine.FRAIL)


def declaration(**leaves: str) -> list[dict[str, object]]:
    return [{"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}]


def _opted_in_window(make_window):
    window = make_window()
    panel = frail_panel(window)
    click(panel.opt_in)
    return window, panel


def test_opt_in_add_a_row_and_save_writes_exactly_the_declaration(
    make_window, dialogs, tmp_path: Path
) -> None:
    window = make_window()
    panel = frail_panel(window)
    stack = window.pack.undo_stack
    assert not panel.opt_in.isChecked()
    assert not panel.table.isEnabled()
    click(panel.opt_in)
    assert stack.count() == 1
    assert window.level.authored("mechanics") == declaration()
    click(panel.add_row)
    assert stack.count() == 2
    assert view_items(panel) == [["BABA", "ROCK"]]  # a first guess, edited in place
    edit_cell(panel, 0, 0, "rock")
    edit_cell(panel, 0, 1, "WATER")
    assert stack.count() == 4  # every change is one command
    assert view_items(panel) == [["ROCK", "WATER"]]
    dialogs.save_path = tmp_path / "frail.json"
    trigger(window, "actionSave")
    saved = saved_level(dialogs.save_path, 0)
    assert saved["mechanics"] == declaration(ROCK="WATER")  # as an author writes it by hand
    assert "automata" not in saved
    out = subprocess.run(
        [sys.executable, "-m", "engine.cli", "validate", str(dialogs.save_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_each_frail_edit_undoes_and_redoes(make_window) -> None:
    window, panel = _opted_in_window(make_window)
    click(panel.add_row)
    edit_cell(panel, 0, 1, "WATER")
    states = [None, declaration(), declaration(BABA="ROCK"), declaration(BABA="WATER")]
    assert window.level.authored("mechanics") == states[-1]
    for expected in reversed(states[:-1]):
        trigger(window, "actionUndo")
        assert window.level.authored("mechanics") == expected
        assert panel.opt_in.isChecked() == (expected is not None)
    for expected in states[1:]:
        trigger(window, "actionRedo")
        assert window.level.authored("mechanics") == expected
    assert view_items(panel) == [["BABA", "WATER"]]


def test_an_unknown_noun_is_refused_with_the_engines_message(make_window) -> None:
    window, panel = _opted_in_window(make_window)
    click(panel.add_row)
    count = window.pack.undo_stack.count()
    edit_cell(panel, 0, 1, "BRIDGE")
    assert window.level.authored("mechanics") == declaration(BABA="ROCK")
    assert window.pack.undo_stack.count() == count
    assert [(p.pointer, p.code) for p in panel.problems.problems] == [
        ("/mechanics/0/leaves/BABA", "unknown-noun")
    ]
    assert panel.problems.text().startswith(
        "Not stored: FRAIL leftover noun BRIDGE is not in the pack's nouns"
    )
    edit_cell(panel, 0, 1, "YOU")  # a property, not a noun
    assert [p.code for p in panel.problems.problems] == ["invalid-noun"]
    assert view_items(panel) == [["BABA", "ROCK"]]


def test_add_noun_inline_adds_the_noun_and_the_leftover_in_one_step(make_window, dialogs) -> None:
    window, panel = _opted_in_window(make_window)
    click(panel.add_row)
    count = window.pack.undo_stack.count()
    dialogs.noun = ("BRIDGE", NounSpec("#8a6d3b"))
    choose_in_cell(panel, 0, 1, "Add noun…")
    assert "BRIDGE" in window.pack.nouns
    assert view_items(panel) == [["BABA", "BRIDGE"]]
    assert window.pack.undo_stack.count() == count + 1
    trigger(window, "actionUndo")
    assert "BRIDGE" not in window.pack.nouns
    assert view_items(panel) == [["BABA", "ROCK"]]


def test_a_cycle_and_a_self_map_are_flagged_in_the_chains(make_window) -> None:
    window, panel = _opted_in_window(make_window)
    window.level.set_authored(
        "mechanics", declaration(ROCK="WATER", WATER="LAVA", LAVA="ROCK"), text="setup"
    )
    chains = [panel.chains.item(i) for i in range(panel.chains.count())]
    assert [c.text() for c in chains] == ["⚠ ROCK → WATER → LAVA → ROCK"]
    flagged = chains[0].data(256)
    assert flagged["problem"]["code"] == "frail-cycle"
    message = "ROCK → WATER → LAVA → ROCK is a cycle: objects crumbling along it never run out"
    assert panel.chain_problems.isVisible()
    assert panel.chain_problems.text() == message
    edit_cell(panel, 2, 1, "LAVA")  # LAVA leaves LAVA: a self-map, ROCK's chain ends there
    assert [panel.chains.item(i).text() for i in range(panel.chains.count())] == [
        "⚠ ROCK → WATER → LAVA → LAVA"
    ]
    assert panel.chain_problems.text() == (
        "LAVA leaves LAVA: crumbling changes nothing, so a FRAIL LAVA never goes away"
    )
    edit_cell(panel, 2, 1, "BABA")
    assert [panel.chains.item(i).text() for i in range(panel.chains.count())] == [
        "ROCK → WATER → LAVA → BABA"
    ]
    assert not panel.chain_problems.isVisible()


def test_remove_rows(make_window) -> None:
    window, panel = _opted_in_window(make_window)
    window.level.set_authored("mechanics", declaration(ROCK="WATER", LAVA="ROCK"), text="s")
    panel.table.setCurrentItem(panel.table.topLevelItem(0))
    click(panel.remove_row)
    assert view_items(panel) == [["LAVA", "ROCK"]]
    assert window.level.authored("mechanics") == declaration(LAVA="ROCK")


def test_the_tutorial_crumbling_level_shows_its_declaration_and_cracks(make_window, qtbot) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[7])
    panel = frail_panel(window)
    assert panel.opt_in.isChecked()
    assert view_items(panel) == [["DRIFT", "WATER"]]
    assert [panel.chains.item(i).text() for i in range(panel.chains.count())] == ["DRIFT → WATER"]
    wait_for_facts(qtbot, window)
    level = engine.load_pack(TUTORIAL_PACK).level("crumbling-bridge")
    drifts = {(e.x, e.y): e.id for e in level.entities if getattr(e, "noun", None) == "DRIFT"}
    assert panel.cracks.cracked() == {cell: [(i, "DRIFT")] for cell, i in drifts.items()}
    assert "DRIFT (2): crumbles into WATER" in panel.move_zero.text()
    canvas = window.canvas
    (cell, drift_id), *_ = sorted(drifts.items())
    QTest.mouseMove(canvas, canvas.cell_center(Pos(*cell)))
    assert (
        panel.cracks.hover_text == f"DRIFT #{drift_id} is FRAIL at move 0: it crumbles into WATER"
    )
    QTest.mouseMove(canvas, canvas.cell_center(Pos(0, 6)))
    assert panel.cracks.hover_text == ""
    # Without the map entry the hover says the object is removed.
    window.level.set_authored("mechanics", declaration(), text="clear")
    QTest.mouseMove(canvas, canvas.cell_center(Pos(*cell)))
    assert panel.cracks.hover_text == (
        f"DRIFT #{drift_id} is FRAIL at move 0: it is removed when it crumbles "
        "(DRIFT has no leftover)"
    )


def test_the_palette_offers_frail_only_to_levels_that_opted_in(make_window) -> None:
    window = make_window(TUTORIAL_PACK)
    palette = window.palette_panel
    assert not palette.offers(FRAIL_WORD)  # first-steps has not opted in
    with pytest.raises(ValueError, match="not opted in"):
        palette.choose(FRAIL_WORD)
    window.session.set_level(window.pack.levels[7])
    assert palette.offers(FRAIL_WORD)
    palette.choose(FRAIL_WORD)
    assert window.session.stamp == FRAIL_WORD


def test_painting_frail_elsewhere_offers_to_opt_the_level_in(make_window, dialogs) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[7])
    use(window, "actionToolBrush", FRAIL_WORD)
    window.session.set_level(window.pack.levels[0])  # not opted in; the brush keeps FRAIL
    level = window.level
    dialogs.confirm_answer = True
    from tests.editor.window_driver import click as click_cell

    click_cell(window, Pos(4, 4))
    QTest.qWait(20)
    assert ("confirm", "Opt this level in to FRAIL?") in dialogs.asked
    assert level.has_frail()
    assert window.pack.undo_stack.undoText() == "Opt In to FRAIL"
    trigger(window, "actionUndo")  # the opt-in first, then the word
    assert not level.has_frail()
    asked = len(dialogs.asked)
    trigger(window, "actionUndo")
    trigger(window, "actionRedo")  # redoing the word is not a new edit: no question
    QTest.qWait(20)
    assert len(dialogs.asked) == asked


def test_a_declined_offer_is_not_repeated_on_that_level(make_window, dialogs) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[7])
    use(window, "actionToolBrush", FRAIL_WORD)
    window.session.set_level(window.pack.levels[0])
    dialogs.confirm_answer = False
    from tests.editor.window_driver import click as click_cell

    click_cell(window, Pos(4, 4))
    QTest.qWait(20)
    click_cell(window, Pos(5, 4))
    QTest.qWait(20)
    assert [q for q in dialogs.asked if q == ("confirm", "Opt this level in to FRAIL?")] == [
        ("confirm", "Opt this level in to FRAIL?")
    ]
    assert not window.level.has_frail()


def test_opting_out_with_frail_words_on_the_board_asks_first(make_window, dialogs) -> None:
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[7])
    panel = frail_panel(window)
    dialogs.confirm_answer = False
    click(panel.opt_in)
    assert ("confirm", "Opt out of FRAIL?") in dialogs.asked
    assert panel.opt_in.isChecked()
    assert window.level.has_frail()
    dialogs.confirm_answer = True
    click(panel.opt_in)
    assert not window.level.has_frail()
    assert "mechanics" not in window.level.to_data()
    assert not window.palette_panel.offers(FRAIL_WORD)
    trigger(window, "actionUndo")
    assert view_items(panel) == [["DRIFT", "WATER"]]


def test_the_saved_leaves_map_keeps_the_authored_order(make_window, dialogs, tmp_path) -> None:
    window, panel = _opted_in_window(make_window)
    window.level.set_authored("mechanics", declaration(ROCK="WATER"), text="s")
    click(panel.add_row)
    dialogs.save_path = tmp_path / "order.json"
    trigger(window, "actionSave")
    text = dialogs.save_path.read_text(encoding="utf-8")
    leaves = json.loads(text)["levels"][0]["mechanics"][0]["leaves"]
    assert list(leaves.items()) == [("ROCK", "WATER"), ("BABA", "ROCK")]


def test_a_pointer_from_the_validation_panel_selects_the_leaves_row(make_window) -> None:
    window, panel = _opted_in_window(make_window)
    window.level.set_authored("mechanics", declaration(ROCK="WATER", LAVA="ROCK"), text="s")
    assert panel.focus_pointer("/mechanics/0/leaves/LAVA")
    assert panel.table.currentItem().text(0) == "LAVA"
    assert window.focusWidget() is panel.table
    assert not panel.focus_pointer("/automata/0")


def test_a_problem_of_another_level_selects_that_level_and_its_row(make_window) -> None:
    window = make_window(TUTORIAL_PACK)
    panel = frail_panel(window)
    assert window.level is window.pack.levels[0]
    assert panel.focus_problem("crumbling-bridge", "/levels/7/mechanics/0/leaves/DRIFT")
    assert window.level is window.pack.levels[7]
    assert panel.table.currentItem().text(0) == "DRIFT"
    assert window.focusWidget() is panel.table
    assert not panel.focus_problem("nowhere", "/levels/99/mechanics/0")
