"""The rules panel, driven through the real window: live rules tied to their words both ways."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QStandardItem
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView

import engine
from editor.main_window import MainWindow
from editor.panels.rules.delegate import IDS_ROLE
from editor.resources import TUTORIAL_PACK
from editor.values import OBJECT, WORD, Pos, Stamp
from tests.editor.window_driver import click, trigger, use

USER = Qt.ItemDataRole.UserRole


def settled(window: MainWindow, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: window.analysis.up_to_date, timeout=3000)


def put(window: MainWindow, row: int, *cells: str) -> None:
    """Lay a row of cells (``.`` empty, ``A+B`` a stack, lower case for objects) on the level."""
    assert window.level is not None
    for x, cell in enumerate(cells):
        if cell == ".":
            continue
        for token in cell.split("+"):
            kind = OBJECT if token.islower() else WORD
            window.level.add_on_top([Pos(x, row)], Stamp(kind, token.upper()))


def panel_rules(window: MainWindow) -> list[dict[str, Any]]:
    """What a test reads per docs/contract.md section 7: the UserRole of every item of the one view."""
    [view] = window.findChild(QObject, "rulesPanel").findChildren(QAbstractItemView)
    model = view.model()
    values = (model.index(row, 0).data(USER) for row in range(model.rowCount()))
    return [value for value in values if value is not None]


def game_rules(window: MainWindow) -> list[dict[str, Any]]:
    assert window.level is not None
    return engine.Game(window.level.to_data()).state()["rules"]


def click_item(window: MainWindow, item: QStandardItem) -> None:
    view = window.rules_panel.view
    rect = view.visualRect(item.index())
    QTest.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center()
    )


def texts(items: list[QStandardItem]) -> list[str]:
    return [item.text() for item in items]


# ------------------------------------------------------------------ live rules


def test_painting_baba_is_you_with_the_brush_shows_the_rule_and_undo_removes_it(
    make_window, qtbot
) -> None:
    window = make_window()
    for x, word in enumerate(("BABA", "IS", "YOU")):
        use(window, "actionToolBrush", Stamp(WORD, word))
        click(window, Pos(x, 0))
    settled(window, qtbot)
    rule = {"subject": "BABA", "predicate": "YOU", "sourceIds": [1, 2, 3], "axis": "horizontal"}
    assert panel_rules(window) == [rule]
    assert panel_rules(window) == game_rules(window)
    trigger(window, "actionUndo")
    settled(window, qtbot)
    assert panel_rules(window) == []
    trigger(window, "actionRedo")
    settled(window, qtbot)
    assert panel_rules(window) == [rule]


def test_the_panel_follows_a_level_switch(make_window, qtbot) -> None:
    window = make_window(TUTORIAL_PACK)
    settled(window, qtbot)
    first = panel_rules(window)
    assert first == game_rules(window)
    trigger(window, "actionNextLevel")
    settled(window, qtbot)
    assert window.level is window.pack.levels[1]
    assert panel_rules(window) == game_rules(window)
    assert panel_rules(window) != first


def test_the_panel_shows_rules_at_move_0_after_the_settle(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU+water")
    put(window, 1, "WATER", "IS", "SINK")
    settled(window, qtbot)
    assert [r["predicate"] for r in panel_rules(window)] == ["SINK"]  # YOU sank at move 0
    effects = texts(window.rules_panel.items_of_kind("effect"))
    assert "YOU, water sink at (2, 0)" in effects
    assert "No YOU at move 0: the player controls nothing" in effects


def test_stacked_words_give_every_alternative_and_say_which_word_each_uses(
    make_window, qtbot
) -> None:
    window = make_window()
    put(window, 0, "ROCK+FLAG", "IS", "PUSH")
    settled(window, qtbot)
    assert [(r["subject"], r["predicate"]) for r in panel_rules(window)] == [
        ("ROCK", "PUSH"),
        ("FLAG", "PUSH"),
    ]
    [stack] = window.rules_panel.items_of_kind("stack")
    assert stack.text() == "[ROCK+FLAG] at (0, 0)"
    words = texts(window.rules_panel.items_of_kind("stack-word"))
    assert words == ["ROCK  used by ROCK IS PUSH", "FLAG  used by FLAG IS PUSH"]
    assert window.rules_panel.items_of_kind("sentence") == []  # two sentences: ids differ


def test_effect_summaries_name_counts_and_suppression(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "baba", "rock", "rock")
    put(window, 1, "BABA", "IS", "YOU")
    put(window, 2, "ROCK", "IS", "FLAG")
    put(window, 3, "ROCK", "IS", "ROCK")
    settled(window, qtbot)
    panel = window.rules_panel
    summaries = [item.data(Qt.ItemDataRole.UserRole + 4) for item in panel.rule_items()]
    assert summaries == [
        "→ YOU: 1 baba",
        "→ ROCK → FLAG: suppressed by ROCK IS ROCK",
        "→ keeps ROCK as ROCK: 2 rocks",
    ]
    assert "ROCK IS ROCK keeps 2 rocks from becoming FLAG" in texts(panel.items_of_kind("effect"))


def test_a_transformation_at_move_0_is_reported(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "rock", "rock", "rock")
    put(window, 1, "ROCK", "IS", "FLAG")
    settled(window, qtbot)
    [rule] = window.rules_panel.rule_items()
    assert rule.data(Qt.ItemDataRole.UserRole + 4) == "→ ROCK → FLAG: 3 rocks"
    effect = window.rules_panel.items_of_kind("effect")[0]
    assert effect.text() == "3 rocks become FLAG (ROCK IS FLAG)"
    assert effect.data(IDS_ROLE) == [1, 2, 3]


# ------------------------------------------------------------ rule -> words


def test_selecting_a_rule_highlights_its_source_words(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU")
    put(window, 2, "FLAG", "IS", "WIN")
    settled(window, qtbot)
    canvas = window.findChild(QObject, "levelCanvas")
    items = window.rules_panel.rule_items()
    click_item(window, items[1])
    assert canvas.property("highlightedIds") == items[1].data(USER)["sourceIds"] == [4, 5, 6]
    assert window.canvas._dim_others is True
    QTest.keyClick(window.rules_panel.view, Qt.Key.Key_Up)
    assert canvas.property("highlightedIds") == [1, 2, 3]
    QTest.keyClick(window.rules_panel.view, Qt.Key.Key_Down)
    assert canvas.property("highlightedIds") == [4, 5, 6]


def test_the_canvas_scrolls_to_a_selected_rule_out_of_view(make_window, qtbot) -> None:
    window = make_window()
    put(window, 8, ".", ".", ".", ".", ".", ".", ".", ".", ".", "BABA", "IS", "YOU")
    settled(window, qtbot)
    canvas = window.canvas
    trigger(window, "actionZoomActual")
    canvas.pan_by(2000, 2000)
    assert not canvas.rect().intersects(canvas.cell_rect(Pos(10, 8)))
    click_item(window, window.rules_panel.rule_items()[0])
    assert canvas.rect().contains(canvas.cell_rect(Pos(10, 8)))


def test_words_under_a_stack_are_highlighted_too(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "ROCK+FLAG", "IS", "PUSH")
    settled(window, qtbot)
    rock = window.rules_panel.rule_items()[0]
    click_item(window, rock)
    assert window.canvas.property("highlightedIds") == [1, 3, 4]
    assert window.canvas.highlight_cells()[Pos(0, 0)] == frozenset({1})  # ROCK, under FLAG


def test_accessible_text_reads_the_rule_and_its_cells(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU")
    settled(window, qtbot)
    [item] = window.rules_panel.rule_items()
    assert (
        item.data(Qt.ItemDataRole.AccessibleTextRole)
        == "BABA IS YOU, words at (0, 0), (1, 0), (2, 0)"
    )


# ------------------------------------------------------------ words -> rules


def test_selecting_a_word_cell_selects_its_rules(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU")
    put(window, 1, "IS", ".", ".")
    put(window, 2, "WIN", ".", ".")
    put(window, 4, "FLAG", "IS", "WIN")
    settled(window, qtbot)
    use(window, "actionToolSelect")
    click(window, Pos(0, 0))
    selected = window.rules_panel.selected_keys()
    assert [key[1:3] for key in selected] == [("BABA", "YOU"), ("BABA", "WIN")]
    assert window.canvas._dim_others is False  # a canvas selection outlines, never dims
    click(window, Pos(5, 5))
    assert window.rules_panel.selected_keys() == []
    assert window.canvas.property("highlightedIds") == []


def test_hovering_a_word_selects_its_rules_and_leaving_restores_the_selection(
    make_window, qtbot
) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU")
    put(window, 2, "FLAG", "IS", "WIN")
    settled(window, qtbot)
    panel, canvas = window.rules_panel, window.canvas
    click_item(window, panel.rule_items()[0])
    QTest.mouseMove(canvas, canvas.cell_center(Pos(2, 2)))
    assert [key[1:3] for key in panel.selected_keys()] == [("FLAG", "WIN")]
    assert canvas.property("highlightedIds") == [4, 5, 6]
    QTest.mouseMove(canvas, canvas.cell_center(Pos(6, 6)))
    assert [key[1:3] for key in panel.selected_keys()] == [("BABA", "YOU")]


def test_a_painted_word_selects_its_new_rule_once_read(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS")
    settled(window, qtbot)
    use(window, "actionToolBrush", Stamp(WORD, "YOU"))
    click(window, Pos(2, 0))
    settled(window, qtbot)
    assert [key[1:3] for key in window.rules_panel.selected_keys()] == [("BABA", "YOU")]


# ------------------------------------------------------------------- hints


def test_baba_is_yields_a_hint(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS")
    settled(window, qtbot)
    assert panel_rules(window) == []
    [hint] = window.rules_panel.items_of_kind("hint")
    assert hint.text() == "BABA IS: nothing after IS: add a noun or a property"
    assert hint.data(IDS_ROLE) == [1, 2]
    click_item(window, hint)
    assert window.canvas.property("highlightedIds") == [1, 2]


def test_a_board_over_the_parse_budget_yields_an_error_item_and_recovers(
    make_window, qtbot
) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    props = level.properties
    from dataclasses import replace

    level.set_properties(replace(props, width=40))
    cells = " AND ".join(["rock+flag"] * 17).upper().split()
    put(window, 1, *[*cells, "IS", "YOU"])
    settled(window, qtbot)
    assert panel_rules(window) == []
    [error] = window.rules_panel.items_of_kind("error")
    assert error.text().startswith("Too many ways to read the words in (0, 1)–(34, 1)")
    assert "over the parse budget" in window.rules_panel.status.text()
    level.clear([Pos(x, 1) for x in range(26)])  # one edit: four stacked cells are left
    settled(window, qtbot)
    assert window.rules_panel.items_of_kind("error") == []
    assert len(panel_rules(window)) == len(game_rules(window)) > 0


# ---------------------------------------------------------------- overlays


def test_the_property_overlay_reads_badges_from_the_engine(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "baba", "rock", "flag")
    put(window, 1, "BABA", "IS", "YOU")
    put(window, 2, "ROCK", "IS", "PUSH")
    put(window, 3, "FLAG", "IS", "WIN")
    settled(window, qtbot)
    overlay = window.rules_panel.property_overlay
    assert overlay.badges_at(Pos(0, 0)) == ()
    trigger(window, "actionPropertyOverlay")
    settled(window, qtbot)  # the reading now unites each cell's properties
    assert (overlay.badges_at(Pos(0, 0)), overlay.badges_at(Pos(1, 0))) == (("YOU",), ("PUSH",))
    assert overlay.badges_at(Pos(2, 0)) == ("WIN",)
    window.level.add_on_top([Pos(3, 2)], Stamp(WORD, "AND"))
    window.level.add_on_top([Pos(4, 2)], Stamp(WORD, "STOP"))
    settled(window, qtbot)
    assert overlay.badges_at(Pos(1, 0)) == ("STOP", "PUSH")
    trigger(window, "actionPropertyOverlay")
    assert overlay.badges_at(Pos(1, 0)) == ()


def test_dim_unused_words_dims_only_words_that_form_no_rule(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "BABA", "IS", "YOU")
    put(window, 2, "FLAG", "IS", ".")
    settled(window, qtbot)
    layer = window.rules_panel.unused_words
    trigger(window, "actionDimUnusedWords")
    assert set(layer._cells) == {Pos(0, 2), Pos(1, 2)}
    window.level.add_on_top([Pos(2, 2)], Stamp(WORD, "WIN"))
    settled(window, qtbot)
    assert set(layer._cells) == set()


# ------------------------------------------------------------------ service


def test_the_service_reads_the_newest_board_after_a_burst_of_edits(make_window, qtbot) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    put(window, 0, "BABA", "IS")
    for word in ("YOU", "WIN", "PUSH", "STOP"):
        level.remove_top([Pos(2, 0)])
        level.add_on_top([Pos(2, 0)], Stamp(WORD, word))
    settled(window, qtbot)
    assert [r["predicate"] for r in panel_rules(window)] == ["STOP"]
    state = window.analysis.current
    assert state is not None
    assert state.level is level
    assert state.validated


def test_the_service_reads_the_same_document_the_level_saves(make_window, qtbot) -> None:
    window = make_window(TUTORIAL_PACK)
    settled(window, qtbot)
    from editor.tasks.analysis import _Snapshot

    level = window.level
    assert level is not None
    snapshot = _Snapshot(level, 0, level.snapshot(), None)
    assert snapshot.document() == level.written() == level.to_data()


def test_problems_follow_the_reading_unknown_nouns_are_named(make_window, qtbot) -> None:
    window = make_window()
    put(window, 0, "MIAU", "IS", "YOU")
    settled(window, qtbot)
    assert [r["subject"] for r in panel_rules(window)] == ["MIAU"]
    problems = texts(window.rules_panel.items_of_kind("problem"))
    assert problems == ["noun word MIAU is not in the pack's nouns"]
    assert "1 problem" in window.rules_panel.status.text()
