"""Sharing in the real window (issue 17): export to the clipboard, import through the
preview dialog (driven with the mouse), install, rename or replace, tampered payloads,
drops. Installed packs go to ``packs_dir`` (a tmp folder, conftest)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

import engine
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from engine.share.codec import seal, to_text
from tests.editor.share_driver import (
    click,
    drop,
    preview_of,
    put_on_clipboard,
    wait_for_preview,
    wait_for_thumbnails,
)
from tests.editor.window_driver import trigger

CLOCKWORK = 6  # the tutorial's level with an automaton


def tutorial_at(make_window, index: int) -> MainWindow:
    window: MainWindow = make_window(TUTORIAL_PACK)
    for _ in range(index):
        trigger(window, "actionNextLevel")
    return window


def same_level(got: dict[str, object], want: dict[str, object]) -> bool:
    """Equal as the engine reads them: a payload carries the normalized level
    (``Level.to_data()``: an automaton's default ``phase`` written out, say)."""
    return engine.load_level(got) == engine.load_level(want)


def used_nouns(window: MainWindow, level: engine.Level) -> dict[str, str]:
    used = engine.share.nouns_of(level)
    return {name: spec.color for name, spec in window.pack.nouns.items() if name in used}


def test_a_level_exported_then_imported_through_the_preview_installs_and_opens_equal(
    qtbot, make_window, packs_dir: Path
) -> None:
    window = tutorial_at(make_window, CLOCKWORK)
    original = window.level.to_data()
    assert original["id"] == "clockwork"
    trigger(window, "actionExportShare")
    text = QGuiApplication.clipboard().text()
    assert text.startswith("rulegrid:1:")
    assert len(text) < 1024
    assert window.statusBar().currentMessage() == (
        f"Copied the level 'clockwork' to the clipboard as a share payload ({len(text)} characters)"
    )
    styles = used_nouns(window, engine.load_level(original))

    dialog = preview_of(qtbot, window)
    assert "level 'clockwork'" in dialog.heading.text()
    assert "from the clipboard" in dialog.heading.text()
    assert sorted(styles) == ["BABA", "FLAG", "MOUSE", "WALL"]
    assert dialog.facts.text() == (
        "1 level · 4 nouns · 1 automaton · mechanics: automata · 0 solutions"
    )
    assert dialog.levels.count() == 1
    wait_for_thumbnails(qtbot, dialog.levels)
    assert dialog.destination.text() == f"Installs {packs_dir / 'clockwork.json'}"
    assert not packs_dir.exists()  # nothing is written before Install

    click(qtbot, dialog.install_button)
    installed = packs_dir / "clockwork.json"
    assert installed.is_file()
    assert window.pack.path == installed  # the installed pack is the one now open
    assert [lv.level_id for lv in window.pack.levels] == ["clockwork"]
    expected = {k: v for k, v in original.items() if k != "solution"}  # not shared by default
    assert same_level(window.pack.levels[0].to_data(), expected)
    assert window.pack.levels[0].to_data()["entities"] == original["entities"]  # ids and order
    assert {n: s.color for n, s in window.pack.nouns.items()} == styles
    assert window.sharing.importer.dialog is None


def test_a_level_shared_with_its_solution_replays_to_a_win_in_the_preview(
    qtbot, make_window, packs_dir: Path
) -> None:
    window = tutorial_at(make_window, CLOCKWORK)
    original = window.level.to_data()
    trigger(window, "actionExportShareLevelSolution")
    assert "with its solution" in window.statusBar().currentMessage()
    dialog = preview_of(qtbot, window)
    assert dialog.facts.text().endswith("1 solution (1 of 1 replay to a win)")
    rows = [dialog.checks.topLevelItem(n) for n in range(dialog.checks.topLevelItemCount())]
    assert [(r.text(0), r.text(1), r.text(2)) for r in rows] == [
        (
            "solution",
            "clockwork",
            f"solution of clockwork ({len(original['solution'])} moves) "
            "plays as the author's and wins",
        )
    ]
    click(qtbot, dialog.install_button)
    assert same_level(window.pack.levels[0].to_data(), original)


def test_cancel_writes_nothing(qtbot, make_window, packs_dir: Path) -> None:
    window = tutorial_at(make_window, 0)
    trigger(window, "actionExportSharePack")
    text = QGuiApplication.clipboard().text()
    assert (
        window.statusBar()
        .currentMessage()
        .endswith(f"({len(text):,} characters, {len(text) / 1024:.1f} KB)")
    )
    before = window.pack
    dialog = preview_of(qtbot, window)
    assert dialog.levels.count() == len(before.levels)
    wait_for_thumbnails(qtbot, dialog.levels)
    click(qtbot, dialog.cancel_button)
    assert not dialog.isVisible()
    assert not packs_dir.exists()
    assert window.pack is before
    again = preview_of(qtbot, window)
    qtbot.keyClick(again, Qt.Key.Key_Escape)  # closing it is a cancel too
    assert not again.isVisible()
    assert not packs_dir.exists()


def test_a_name_collision_offers_rename_and_never_overwrites(
    qtbot, make_window, packs_dir: Path
) -> None:
    packs_dir.mkdir()
    theirs = packs_dir / "tutorial.json"
    theirs.write_text("an installed pack of the same id", encoding="utf-8")
    window = tutorial_at(make_window, 0)
    trigger(window, "actionExportSharePack")
    dialog = preview_of(qtbot, window)
    assert dialog.collision.isVisible()
    assert dialog.collision_text.text() == (
        f"“tutorial” is already installed ({theirs}). Install this one under another id "
        "to keep both, or replace the installed pack with it."
    )
    assert dialog.rename.isChecked()
    assert dialog.new_id.text() == "tutorial-2"
    assert dialog.destination.text() == f"Installs {packs_dir / 'tutorial-2.json'}"

    dialog.new_id.clear()
    qtbot.keyClicks(dialog.new_id, "bad id")
    assert not dialog.install_button.isEnabled()
    assert "is not a pack id" in dialog.destination.text()
    dialog.new_id.clear()
    qtbot.keyClicks(dialog.new_id, "tutorial-copy")
    assert dialog.install_button.isEnabled()
    click(qtbot, dialog.install_button)

    assert theirs.read_text(encoding="utf-8") == "an installed pack of the same id"
    copy = engine.load_pack(packs_dir / "tutorial-copy.json")
    assert copy.id == "tutorial-copy"
    assert len(copy.levels) == len(engine.load_pack(TUTORIAL_PACK).levels)
    assert window.pack.path == packs_dir / "tutorial-copy.json"


def test_a_name_collision_can_replace_the_installed_pack_when_chosen(
    qtbot, make_window, packs_dir: Path
) -> None:
    window = tutorial_at(make_window, 0)
    trigger(window, "actionExportShare")
    click(qtbot, preview_of(qtbot, window).install_button)
    installed = packs_dir / "first-steps.json"
    first = installed.read_text(encoding="utf-8")

    window.sharing.importer.preview_text(
        engine.share.export(engine.load_pack(TUTORIAL_PACK), level="and"), "a test"
    )
    dialog = wait_for_preview(qtbot, window)
    assert not dialog.collision.isVisible()  # "and" is not installed yet
    click(qtbot, dialog.cancel_button)

    renamed = engine.load_pack(TUTORIAL_PACK).levels[1].model_copy(update={"id": "first-steps"})
    window.sharing.importer.preview_text(engine.share.encode(renamed), "a test")
    dialog = wait_for_preview(qtbot, window)
    assert dialog.collision.isVisible()
    click(qtbot, dialog.replace)
    assert dialog.destination.text() == f"Replaces {installed}"
    click(qtbot, dialog.install_button)
    assert installed.read_text(encoding="utf-8") != first
    assert engine.load_pack(installed).levels[0].title == "Words move too"
    assert sorted(p.name for p in packs_dir.iterdir()) == ["first-steps.json"]


def test_a_tampered_payload_shows_its_problem_and_cannot_be_installed(
    qtbot, make_window, packs_dir: Path
) -> None:
    window = tutorial_at(make_window, 0)
    trigger(window, "actionExportShare")
    text = QGuiApplication.clipboard().text()
    middle = len(text) // 2
    put_on_clipboard(text[:middle] + ("A" if text[middle] != "A" else "B") + text[middle + 1 :])
    dialog = preview_of(qtbot, window)
    assert "not a payload Rulegrid can read" in dialog.heading.text()
    row = dialog.checks.topLevelItem(0)
    assert row.text(0) == "problem"
    assert "corrupted" in row.text(2)
    assert not dialog.install_button.isEnabled()
    assert not dialog.open_button.isEnabled()
    assert dialog.install() is None  # even a direct call installs nothing
    click(qtbot, dialog.cancel_button)

    level = window.level.to_data()
    level["entities"][0]["x"] = 99  # off the 9-wide board, checksums made to match
    put_on_clipboard(to_text(seal({"level": level})))
    dialog = preview_of(qtbot, window)
    problems = [dialog.checks.topLevelItem(n) for n in range(dialog.checks.topLevelItemCount())]
    assert [(r.text(0), r.text(1)) for r in problems] == [
        ("problem", '/entities/0/x (level "first-steps")')
    ]
    assert not dialog.install_button.isEnabled()
    assert dialog.destination.text() == "Not installable: 1 problem."
    assert dialog.install() is None
    assert not packs_dir.exists()


def test_a_dropped_payload_file_opens_the_preview(
    qtbot, make_window, tmp_path: Path, packs_dir: Path
) -> None:
    window = tutorial_at(make_window, 0)
    payload = tmp_path / "shared.rulegrid"
    payload.write_text(
        engine.share.export(engine.load_pack(TUTORIAL_PACK), level="and") + "\n", "utf-8"
    )
    assert drop(window, path=payload)
    dialog = wait_for_preview(qtbot, window)
    assert "level 'and'" in dialog.heading.text()
    assert "from shared.rulegrid" in dialog.heading.text()
    click(qtbot, dialog.open_button)  # open without installing
    assert not packs_dir.exists()
    assert window.pack.path is None
    assert [lv.level_id for lv in window.pack.levels] == ["and"]

    assert drop(window, text="rulegrid:1:not a payload")
    dialog = wait_for_preview(qtbot, window)
    assert "from the dropped text" in dialog.heading.text()
    assert not dialog.install_button.isEnabled()


def test_a_dropped_pack_file_opens_as_a_pack(qtbot, make_window) -> None:
    window = make_window()
    assert drop(window, path=TUTORIAL_PACK)
    assert window.pack.path == TUTORIAL_PACK
    assert window.sharing.importer.dialog is None


def test_import_reads_a_payload_file_when_the_clipboard_holds_none(
    qtbot, make_window, dialogs, tmp_path: Path
) -> None:
    window = make_window()
    put_on_clipboard("just some text")
    path = tmp_path / "level.rulegrid"
    path.write_text(engine.share.export(engine.load_pack(TUTORIAL_PACK), level="and"), "utf-8")
    dialogs.import_path = path
    dialog = preview_of(qtbot, window)
    assert dialogs.asked == [("import", "Import Shared Payload")]
    assert "from level.rulegrid" in dialog.heading.text()
