"""File ▸ Export in the real window: the level or the pack, with or without solutions,
to the clipboard or to a file; what cannot be shared is said in the status bar."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu

import engine
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from tests.editor.window_driver import trigger


def export_menu(window: MainWindow) -> QMenu:
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert isinstance(file_menu, QMenu)
    sub = next(a.menu() for a in file_menu.actions() if a.text() == "&Export" and a.menu())
    assert isinstance(sub, QMenu)
    return sub


def test_the_export_menu_offers_level_or_pack_with_or_without_solutions_to_clipboard_or_file(
    make_window,
) -> None:
    window = make_window()
    assert [a.objectName() or "-" for a in export_menu(window).actions()] == [
        "actionExportShare",
        "actionExportShareLevelSolution",
        "actionExportSharePack",
        "actionExportSharePackSolutions",
        "-",
        "actionExportShareLevelFile",
        "actionExportShareLevelSolutionFile",
        "actionExportSharePackFile",
        "actionExportSharePackSolutionsFile",
        "-",
        "actionExportLevelPicture",
        "actionExportSolutionAnimation",
    ]
    assert window.actions_by_id["actionExportShare"].shortcut().toString() == "Ctrl+Shift+E"
    assert window.actions_by_id["actionImportShare"].shortcut().toString() == "Ctrl+Shift+I"


def test_the_pack_with_solutions_goes_to_a_file_and_replays_to_wins(
    make_window, dialogs, tmp_path: Path
) -> None:
    window = make_window(TUTORIAL_PACK)
    dialogs.export_path = tmp_path / "tutorial.rulegrid"
    trigger(window, "actionExportSharePackSolutionsFile")
    assert dialogs.asked == [("export", "Export Share Payload")]
    text = dialogs.export_path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert text.count("\n") == 1
    preview = engine.share.decode(text)
    assert preview.pack == engine.load_pack(TUTORIAL_PACK)
    assert [check.wins for check in preview.replays] == [True] * 8
    assert (
        window.statusBar()
        .currentMessage()
        .startswith(
            "Saved the pack 'tutorial' with solutions as a share payload in tutorial.rulegrid ("
        )
    )


def test_the_level_to_a_file_leaves_its_solution_out(make_window, dialogs, tmp_path: Path) -> None:
    window = make_window(TUTORIAL_PACK)
    dialogs.export_path = tmp_path / "first.rulegrid"
    trigger(window, "actionExportShareLevelFile")
    preview = engine.share.decode(dialogs.export_path.read_text(encoding="utf-8"))
    assert preview.level is not None
    assert preview.level.id == "first-steps"
    assert preview.level.solution is None
    assert preview.replays == ()


def test_an_invalid_level_is_not_shared_and_the_status_bar_says_why(make_window, dialogs) -> None:
    window = make_window()  # an untitled pack: its level has no YOU, but that is valid data
    QGuiApplication.clipboard().setText("unchanged")
    data = window.pack.to_data()
    data["levels"][0]["automata"] = [{"id": "x", "subject": "BABA", "property": "IS"}]
    window.level.set_authored("automata", data["levels"][0]["automata"], text="Automaton")
    trigger(window, "actionExportShare")
    assert QGuiApplication.clipboard().text() == "unchanged"
    assert dialogs.asked == []  # no modal question, ever
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot share the level 'level-1': ")
    assert "level-1/automata/0" in message
