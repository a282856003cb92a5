"""Panels that come forward, room to work at 1366×768 and 1920×1080, play's layout,
View ▸ Reset Layout (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QDockWidget,
    QScrollArea,
    QStyleOptionViewItem,
    QTabBar,
    QWidget,
)

from editor.main_window import MainWindow
from editor.panels.rules.delegate import WORDS_ROLE, RuleItemDelegate
from editor.resources import TUTORIAL_PACK
from editor.views.level_list import LevelDelegate
from tests.editor.window_driver import trigger
from tests.support import PACKS_DIR, grid_level, pack_document

KEKE_PACK = PACKS_DIR / "keke-classics.json"
ALT = Qt.KeyboardModifier.AltModifier
SIZES = {(1366, 768): 8, (1920, 1080): 12}  # window size: level rows shown at least
CLOCKWORK = 6  # the tutorial level with an automaton


def sized_window(qtbot, settings, dialogs, size: tuple[int, int], pack: Path) -> MainWindow:
    """A window first shown at ``size`` (its default layout is made for that size)."""
    window = MainWindow(pack, settings=settings, dialogs=dialogs)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def press_panel_key(window: MainWindow, digit: int) -> None:
    """Alt+digit as the author presses it, wherever the keyboard is."""
    target = QApplication.focusWidget() or window
    QTest.keyClick(target, getattr(Qt.Key, f"Key_{digit}"), ALT)


def unclipped(widget: QWidget) -> bool:
    """Shown whole: on screen, and no ancestor (a scroll area, a dock) cuts any of it."""
    if not widget.isVisible() or widget.width() <= 0 or widget.height() <= 0:
        return False
    return widget.visibleRegion().boundingRect() == widget.rect()


def needs_no_scrolling(area: QAbstractScrollArea) -> bool:
    return not area.verticalScrollBar().isVisible() and not area.horizontalScrollBar().isVisible()


def in_front(window: MainWindow, dock_id: str) -> bool:
    return window.docks.in_front(dock_id)


def keyboard_in(dock: QDockWidget) -> bool:
    focus = QApplication.focusWidget()
    return focus is not None and dock.isAncestorOf(focus)


# ------------------------------------------------------------ panel keys
def test_a_panels_key_brings_it_forward_and_pressed_again_in_it_hides_it(make_window) -> None:
    window = make_window()
    window.activateWindow()
    window.canvas.setFocus()
    automata = window.docks["automata"]
    window.docks["stackInspector"].raise_()
    QApplication.processEvents()
    assert automata.isVisible()
    assert not in_front(window, "automata")

    press_panel_key(window, 7)
    assert in_front(window, "automata")
    assert keyboard_in(automata)
    assert window.docks.show_action("automata").isChecked()

    press_panel_key(window, 7)  # in front, and the keyboard is in it: it goes
    assert automata.isHidden()
    assert window.canvas.hasFocus()  # the keyboard is back on the board
    assert not window.docks.show_action("automata").isChecked()

    press_panel_key(window, 7)
    assert in_front(window, "automata")
    assert keyboard_in(automata)


def test_a_panel_in_front_without_the_keyboard_gets_the_keyboard_not_hidden(make_window) -> None:
    window = make_window()
    window.activateWindow()
    window.docks["rules"].raise_()
    window.canvas.setFocus()
    QApplication.processEvents()
    assert in_front(window, "rules")
    press_panel_key(window, 5)
    assert in_front(window, "rules")
    assert keyboard_in(window.docks["rules"])


def test_view_panels_lists_every_panel_with_its_key_in_key_order(make_window) -> None:
    window = make_window()
    listed = [
        (a.text(), a.shortcut().toString())
        for a in window.panels_menu.actions()
        if not a.shortcut().isEmpty()
    ]
    assert listed == [
        ("Levels", "Alt+1"),
        ("Palette", "Alt+2"),
        ("Stack", "Alt+3"),
        ("History", "Alt+4"),
        ("Rules", "Alt+5"),
        ("Problems", "Alt+6"),
        ("Automata", "Alt+7"),
        ("FRAIL", "Alt+8"),
        ("Solver", "Alt+9"),
    ]


# -------------------------------------------------------- default layout
@pytest.mark.parametrize("size", list(SIZES), ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_default_layout_has_room_for_every_panel_at(
    qtbot, settings, dialogs, size: tuple[int, int]
) -> None:
    window = sized_window(qtbot, settings, dialogs, size, TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[CLOCKWORK])
    QApplication.processEvents()

    # the level list: room for its rows, every one whole
    view = window.level_list.view
    assert view.viewport().height() >= SIZES[size] * view.sizeHintForRow(0)
    for row in range(window.pack.level_count()):  # 8: they all show
        rect = view.visualRect(view.model().index(row, 0))
        assert view.viewport().rect().contains(rect), (row, rect)
    assert unclipped(window.level_list.filter_bar)

    # the automata form: pattern strip and step fields whole, nothing to scroll
    press_panel_key(window, 7)
    QApplication.processEvents()
    form = window.automata_panel.form
    assert window.automata_panel.records(), "the level has an automaton"
    for part in (form.strip, form.step, form.phase, window.automata_panel.list):
        assert unclipped(part), part.objectName()
    scroll = next(a for a in window.automata_panel.findChildren(QScrollArea))
    assert needs_no_scrolling(scroll)
    assert needs_no_scrolling(window.automata_panel.list)

    # the solver panel whole, its pack check included
    press_panel_key(window, 9)
    QApplication.processEvents()
    solver = window.solver_panel
    solver_scroll = solver.findChild(QScrollArea)
    assert needs_no_scrolling(solver_scroll)
    for part in (solver.solve_button, solver.budget, solver.check_view, solver.curve_box):
        assert unclipped(part), part
    # every dock tab reads whole ("Automata", not "Autom…")
    for bar in window.findChildren(QTabBar):
        if bar.parent() is not window or not bar.isVisible():
            continue
        for i in range(bar.count()):
            text = bar.tabText(i)
            assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(text) + 8, text
    # the empty Problems panel is small; the board has the room
    problems = window.docks["validation"]
    qtbot.waitUntil(lambda: window.validation_panel.pages.currentWidget() is not None)
    qtbot.waitUntil(lambda: "0 errors" in problems.windowTitle(), timeout=10_000)
    qtbot.waitUntil(lambda: problems.height() <= 130)
    assert window.canvas.width() >= 0.42 * size[0]
    assert window.canvas.height() >= 0.6 * size[1]


@pytest.mark.parametrize("size", list(SIZES), ids=lambda s: f"{s[0]}x{s[1]}")
def test_real_pack_titles_show_whole_beside_their_status_column(
    qtbot, settings, dialogs, size: tuple[int, int]
) -> None:
    window = sized_window(qtbot, settings, dialogs, size, KEKE_PACK)
    view = window.level_list.view
    delegate = view.itemDelegate()
    assert isinstance(delegate, LevelDelegate)
    qtbot.waitUntil(lambda: delegate.chip_column > 0)  # statuses ("checking…" first) drawn
    option = QStyleOptionViewItem()
    option.initFrom(view)
    cut = []
    for row in range(view.model().rowCount()):
        index = view.model().index(row, 0)
        option.rect = QRect(0, 0, view.viewport().width(), 24)
        title = str(index.data())
        if delegate.shown_title(option, index) != title:
            cut.append(title)
    assert cut == []
    tip = view.model().index(2, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.splitlines()[0] == window.pack.levels[2].title  # the whole title, first


@pytest.mark.parametrize("size", list(SIZES), ids=lambda s: f"{s[0]}x{s[1]}")
def test_rules_hints_read_to_their_end(qtbot, settings, dialogs, size: tuple[int, int]) -> None:
    window = sized_window(qtbot, settings, dialogs, size, KEKE_PACK)
    panel = window.rules_panel
    press_panel_key(window, 5)
    qtbot.waitUntil(lambda: panel.model.rowCount() > 4, timeout=10_000)
    view = panel.view
    delegate = view.itemDelegate()
    assert isinstance(delegate, RuleItemDelegate)
    hints = 0
    for row in range(panel.model.rowCount()):
        index = panel.model.index(row, 0)
        if index.data(WORDS_ROLE):
            continue
        text = str(index.data())
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.rect = view.visualRect(index)
        lines = delegate.text_lines(option, index)
        assert " ".join(lines) == text, (text, lines)  # nothing ends in "…"
        hints += ": nothing after IS" in text
    assert hints >= 1  # "GOOP IS: nothing after IS: add a noun or a property"


def test_the_problems_panel_has_room_for_rows_when_there_are_problems(
    qtbot, settings, dialogs, tmp_path: Path
) -> None:
    path = tmp_path / "ghost.json"
    level = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], "a")
    path.write_text(json.dumps(pack_document(level, nouns=["BABA", "FLAG", "GHOST"])))
    window = sized_window(qtbot, settings, dialogs, (1366, 768), path)
    panel = window.validation_panel
    qtbot.waitUntil(lambda: len(panel.rows()) == 1, timeout=15_000)  # GHOST is unused
    problems = window.docks["validation"]
    qtbot.waitUntil(lambda: problems.height() >= 170)
    assert panel.view.viewport().height() >= 2 * panel.view.sizeHintForRow(0)


# ------------------------------------------------------------------ play
def test_playing_gives_the_board_the_room_and_escape_brings_the_panels_back(
    make_window, qtbot, settings
) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.docks["solver"].raise_()
    QApplication.processEvents()
    shown = {d for d in window.docks.ids() if in_front(window, d)}
    assert {"levelList", "palette", "solver", "validation"} <= shown
    width = window.canvas.width()

    trigger(window, "actionPlay")
    qtbot.waitUntil(lambda: window.play_view.isVisible())
    assert [d for d in window.docks.ids() if window.docks[d].isVisible()] == []
    qtbot.waitUntil(lambda: window.play_view.width() > width + 400)  # the board has the room
    window.close()  # what is kept for the next start is the editing layout
    restored = MainWindow(settings=settings)
    qtbot.addWidget(restored)
    restored.show()
    qtbot.waitExposed(restored)
    assert restored.docks["levelList"].isVisible()

    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.play_view.setFocus()
    QTest.keyClick(window.play_view, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.canvas.isVisible())
    QApplication.processEvents()
    assert {d for d in window.docks.ids() if in_front(window, d)} == shown
    assert abs(window.canvas.width() - width) <= 2


# ----------------------------------------------------------- reset layout
def test_reset_layout_puts_every_panel_back(qtbot, settings, dialogs) -> None:
    window = sized_window(qtbot, settings, dialogs, (1366, 768), TUTORIAL_PACK)
    levels_height = window.docks["levelList"].height()
    window.docks["welcome"].close()  # dismissed: a reset does not bring it back
    window.docks["levelList"].close()
    window.docks["palette"].setFloating(True)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, window.docks["rules"])
    window.resizeDocks([window.docks["validation"]], [400], Qt.Orientation.Vertical)
    QApplication.processEvents()

    menu_texts = [a.text() for a in window.menuBar().actions()[2].menu().actions()]
    assert "&Reset Layout" in menu_texts  # View ▸ Reset Layout
    trigger(window, "actionResetLayout")
    QApplication.processEvents()
    left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
    for dock_id, area in (("levelList", left), ("palette", left), ("rules", right)):
        dock = window.docks[dock_id]
        assert dock.isVisible(), dock_id
        assert not dock.isFloating(), dock_id
        assert window.dockWidgetArea(dock) == area, dock_id
    assert abs(window.docks["levelList"].height() - levels_height) <= 2
    assert window.docks["validation"].height() <= 130
    assert in_front(window, "rules")
    assert in_front(window, "stackInspector")
    assert window.docks["welcome"].isHidden()


def test_the_default_window_fits_the_screen(qtbot, settings) -> None:
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    screen = window.screen().availableGeometry()
    assert window.width() <= screen.width()
    assert window.height() <= screen.height()
