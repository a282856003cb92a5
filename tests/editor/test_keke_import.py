"""File ▸ Import ▸ Keke Levels… in the real window, with scripted dialogs."""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

import engine
from editor.main_window import MainWindow
from tests.editor.window_driver import trigger as trigger_action

RAW = Path(__file__).resolve().parent.parent / "data" / "keke" / "raw"


def trigger(window: MainWindow, action_id: str) -> None:
    """Trigger an action; the import runs off the UI thread, so wait until it has finished."""
    trigger_action(window, action_id)
    start = time.monotonic()
    while window.keke_importer.busy:
        assert time.monotonic() - start < 10, "the import did not finish"
        QTest.qWait(5)


def file_import_menu(window: MainWindow) -> QMenu:
    file_menu = next(
        a.menu() for a in window.menuBar().actions() if a.text() == "&File" and a.menu()
    )
    assert isinstance(file_menu, QMenu)
    sub = next(a.menu() for a in file_menu.actions() if a.text() == "&Import" and a.menu())
    assert isinstance(sub, QMenu)
    return sub


def test_the_file_menu_has_import_keke_levels(make_window) -> None:
    window = make_window()
    actions = file_import_menu(window).actions()
    assert [a.objectName() for a in actions] == ["actionImportKeke"]
    assert actions[0].text() == "&Keke Levels…"


def test_importing_asks_about_unsupported_levels_and_opens_the_rest_as_a_new_pack(
    make_window, dialogs
) -> None:
    window = make_window()
    dialogs.import_path = RAW / "demo_LEVELS.json"
    trigger(window, "actionImportKeke")
    assert dialogs.asked[0] == ("import", "Import Keke Levels")
    assert dialogs.asked[1] == ("confirm", "Import Keke Levels")
    assert dialogs.confirm_texts == [
        "3 of the 14 levels in demo_LEVELS.json use what Rulegrid does not have:\n\n"
        "level 8: MOVE, a wait\nlevel 10: KILL\nlevel 13: HOT, MELT\n\n"
        "Import the other 11 levels as a new pack?"
    ]
    pack = window.pack
    assert pack.path is None
    assert pack.display_name() == "untitled"
    assert len(pack.levels) == 11
    assert window.level is pack.levels[0]
    assert window.level_list.model.rowCount() == 11
    assert window.level_list.current_row() == 0
    assert window.statusBar().currentMessage() == (
        "Imported 11 Keke levels from demo_LEVELS.json: 11 of 11 solutions win under "
        "Rulegrid's rules. Save the pack to keep it."
    )
    first = pack.levels[0].to_data()
    assert (first["id"], first["author"], first["solution"]) == ("keke-1", "Demo", "RRRRR")
    assert [e["text"] for e in first["entities"][:3]] == ["BABA", "IS", "YOU"]


def test_saving_the_imported_pack_writes_a_valid_pack(make_window, dialogs, tmp_path) -> None:
    window = make_window()
    dialogs.import_path = RAW / "user_milk_biy_LEVELS.json"
    trigger(window, "actionImportKeke")
    dialogs.save_path = tmp_path / "milk.json"
    trigger(window, "actionSave")
    pack = engine.load_pack(tmp_path / "milk.json")
    raw = json.loads((RAW / "user_milk_biy_LEVELS.json").read_text(encoding="utf-8"))["levels"]
    playable = [f"keke-{lv['id']}" for lv in raw if not set(lv["ascii"]) & set("4789")]
    assert [level.id for level in pack.levels] == playable
    assert len(playable) == 5
    assert window.pack.path == tmp_path / "milk.json"


def test_saying_no_to_the_rest_keeps_the_open_pack(make_window, dialogs) -> None:
    window = make_window()
    before = window.pack
    dialogs.import_path, dialogs.confirm_answer = RAW / "test_LEVELS.json", False
    trigger(window, "actionImportKeke")
    assert window.pack is before
    assert dialogs.asked[-1] == ("confirm", "Import Keke Levels")


def test_a_file_with_nothing_importable_shows_every_use(make_window, dialogs) -> None:
    window = make_window()
    before = window.pack
    dialogs.import_path = RAW / "search_biy_LEVELS.json"
    trigger(window, "actionImportKeke")
    assert window.pack is before
    (shown,) = dialogs.problems_shown
    assert {p.code for p in shown} == {"keke-unsupported"}
    assert len({p.level for p in shown}) == 62
    assert dialogs.asked[-1] == ("problems", ("search_biy_LEVELS.json", False, ()))


def test_a_malformed_file_shows_its_located_problems(make_window, dialogs, tmp_path) -> None:
    window = make_window()
    before = window.pack
    bad = tmp_path / "bad.json"
    level = {"id": 4, "name": "", "author": "", "ascii": "___\n_x_\n___", "solution": ""}
    bad.write_text(json.dumps({"levels": [level]}), encoding="utf-8")
    dialogs.import_path = bad
    trigger(window, "actionImportKeke")
    assert window.pack is before
    (shown,) = dialogs.problems_shown
    assert [(p.pack, p.level, p.pointer, p.code) for p in shown] == [
        ("bad.json", "4", "/levels/0/ascii", "keke-map")
    ]
    assert "row 2, column 2: unknown map character 'x'" in shown[0].message
    assert window.statusBar().currentMessage() == "bad.json was not imported: 1 problem"


def test_unsaved_changes_are_asked_about_first(make_window, dialogs) -> None:
    window = make_window()
    trigger(window, "actionAddLevel")  # the open pack now has unsaved changes
    before = window.pack
    dialogs.import_path, dialogs.unsaved_answer = RAW / "user_milk_biy_LEVELS.json", "cancel"
    trigger(window, "actionImportKeke")
    assert window.pack is before
    assert ("unsaved", "untitled") in dialogs.asked


def test_cancelling_the_file_dialog_changes_nothing(make_window, dialogs) -> None:
    window = make_window()
    before = window.pack
    trigger(window, "actionImportKeke")
    assert window.pack is before
    assert dialogs.asked == [("import", "Import Keke Levels")]


def test_the_action_waits_while_an_import_runs(make_window, dialogs) -> None:
    window = make_window()
    dialogs.import_path = RAW / "new_full_biy_LEVELS.json"
    trigger_action(window, "actionImportKeke")
    action = window.actions_by_id["actionImportKeke"]
    assert window.keke_importer.busy
    assert not action.isEnabled()
    assert QApplication.overrideCursor() is not None
    start = time.monotonic()
    while window.keke_importer.busy:
        assert time.monotonic() - start < 10, "the import did not finish"
        QTest.qWait(5)
    assert action.isEnabled()
    assert QApplication.overrideCursor() is None
    assert len(window.pack.levels) == 112
    assert window.statusBar().currentMessage() == (
        "Imported 112 Keke levels from new_full_biy_LEVELS.json: 105 of 112 solutions win "
        "under Rulegrid's rules; not winning: keke-41, keke-45, keke-101, keke-136, keke-141 "
        "and 2 more. Save the pack to keep it."
    )


def test_an_unexpected_failure_is_reported_and_the_window_recovers(
    make_window, dialogs, monkeypatch
) -> None:
    window = make_window()
    before = window.pack

    def broken(*_args: object, **_kwargs: object) -> None:
        raise MemoryError("out of memory")

    monkeypatch.setattr(engine, "import_keke", broken)
    dialogs.import_path = RAW / "demo_LEVELS.json"
    trigger(window, "actionImportKeke")
    assert dialogs.errors == ["Import Keke Levels: demo_LEVELS.json: out of memory"]
    assert window.pack is before
    assert window.actions_by_id["actionImportKeke"].isEnabled()
    assert QApplication.overrideCursor() is None
