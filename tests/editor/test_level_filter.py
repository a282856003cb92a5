"""Finding levels in a real pack: search by title or id, filter by status (issue 35)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor.main_window import MainWindow
from editor.views.level_list import STATUS_ROLE
from editor.views.verdict_style import STATUS_MEANINGS
from tests.support import PACKS_DIR, grid_level, pack_document

WAIT = 60_000  # ms: the machine may be busy; nothing here measures time
KEKE_PACK = PACKS_DIR / "keke-classics.json"
#: Shortest "RR"; the intended solution takes four moves: a shortcut.
LONG_WAY = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], "long-way", solution="RLRR")
WALK = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], "walk", solution="RR")
NO_FLAG = grid_level(["baba . .", "BABA IS YOU", "FLAG IS WIN"], "no-flag")


def shown_titles(window: MainWindow) -> list[str]:
    view = window.level_list.view
    return [
        str(view.model().index(r, 0).data())
        for r in range(view.model().rowCount())
        if not view.isRowHidden(r)
    ]


def kinds(window: MainWindow) -> list[str]:
    model = window.level_list.model
    return [
        getattr(model.index(r, 0).data(STATUS_ROLE), "kind", "none")
        for r in range(model.rowCount())
    ]


def type_search(qtbot: Any, window: MainWindow, text: str) -> None:
    field = window.level_list.filter_bar.search
    field.setFocus()
    field.selectAll()
    QTest.keyClicks(field, text)
    qtbot.waitUntil(lambda: not window.level_list.filter_bar._later.isActive())


def test_typing_in_the_search_shows_the_levels_whose_title_or_id_matches(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window(KEKE_PACK)
    dock = window.docks["levelList"]
    type_search(qtbot, window, "y'all #1")
    titles = shown_titles(window)
    assert titles
    assert all("y'all #1" in t.lower() for t in titles)
    expected = [t for t in window.pack.level_names() if "y'all #1" in t.lower()]
    assert titles == expected
    assert dock.windowTitle() == f"Levels — {len(titles)} of 113 levels"

    type_search(qtbot, window, "biy-240")  # an id finds its level, whatever its title
    assert shown_titles(window) == ["test_1"]
    QTest.keyClick(window.level_list.filter_bar.search, Qt.Key.Key_Return)
    assert window.level is not None
    assert window.level.level_id == "biy-240"  # Enter opened it

    QTest.keyClick(window.level_list.filter_bar.search, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: len(shown_titles(window)) == 113)
    assert dock.windowTitle() == "Levels"


def test_the_status_filter_offers_every_kind_the_verdict_style_knows(
    make_window: Callable[..., MainWindow],
) -> None:
    window = make_window()
    combo = window.level_list.filter_bar.status
    offered = [combo.itemData(i) for i in range(1, combo.count())]
    assert offered == list(STATUS_MEANINGS)
    assert (
        combo.itemData(offered.index("shortcut") + 1, Qt.ItemDataRole.ToolTipRole)
        == (STATUS_MEANINGS["shortcut"])
    )


def test_the_status_filter_shows_the_shortcuts_and_follows_a_fix(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    path = tmp_path / "three.json"
    document = pack_document(WALK, LONG_WAY, NO_FLAG, pack_id="three", nouns=["BABA", "FLAG"])
    path.write_text(json.dumps(document), encoding="utf-8")
    window = make_window(path)
    qtbot.waitUntil(lambda: kinds(window) == ["solved", "shortcut", "unsolvable"], timeout=WAIT)

    bar = window.level_list.filter_bar
    bar.status.setFocus()
    bar.status.setCurrentIndex(bar.status.findData("shortcut"))  # as picked from its list
    assert shown_titles(window) == ["long-way"]
    bar.set_status("unsolvable")
    assert shown_titles(window) == ["no-flag"]

    bar.set_status("shortcut")
    long_way = window.pack.levels[1]
    long_way.set_authored("solution", "RR", text="Use as Intended Solution")  # the fix
    qtbot.waitUntil(lambda: shown_titles(window) == [], timeout=WAIT)  # no longer a shortcut
    bar.set_status("")
    assert shown_titles(window) == ["walk", "long-way", "no-flag"]


def test_a_level_added_while_searching_is_matched_too(
    qtbot: Any, make_window: Callable[..., MainWindow]
) -> None:
    window = make_window()
    type_search(qtbot, window, "level-2")
    assert shown_titles(window) == []
    window.actions_by_id["actionAddLevel"].trigger()  # level-2
    qtbot.waitUntil(lambda: len(shown_titles(window)) == 1)
    assert window.pack.levels[1].level_id == "level-2"
