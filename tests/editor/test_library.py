"""File ▸ Installed Packs in the real window: the user's pack folder (a tmp folder here)
listed with thumbnails; open a pack, remove one after a question."""

from __future__ import annotations

from pathlib import Path

import engine
from editor.resources import TUTORIAL_PACK
from tests.editor.share_driver import click, open_library, wait_for_thumbnails


def install(folder: Path, level: str | None = None) -> Path:
    """Install the tutorial (or one of its levels) as ``rulegrid share import --yes`` does."""
    text = engine.share.export(engine.load_pack(TUTORIAL_PACK), level=level)
    path = engine.share.decode(text).install(folder, confirm=True)
    assert path is not None
    return path


def names(dialog) -> list[str]:
    return [dialog.list.item(n).text() for n in range(dialog.list.count())]


def test_installed_packs_lists_the_folder_with_thumbnails_and_opens_one(
    qtbot, make_window, packs_dir: Path
) -> None:
    tutorial, single = install(packs_dir), install(packs_dir, "and")
    window = make_window()
    dialog = open_library(qtbot, window)
    assert dialog.where.text() == f"Packs installed in {packs_dir}"
    assert names(dialog) == ["And\nand · 1 level", "Tutorial\ntutorial · 8 levels"]
    assert dialog.note.text() == "2 installed packs."
    wait_for_thumbnails(qtbot, dialog.list)
    assert dialog.select(tutorial)
    click(qtbot, dialog.open_button)
    assert not dialog.isVisible()
    assert window.pack.path == tutorial
    assert len(window.pack.levels) == 8
    assert single.exists()


def test_removing_an_installed_pack_asks_first(
    qtbot, make_window, dialogs, packs_dir: Path
) -> None:
    kept, doomed = install(packs_dir), install(packs_dir, "and")
    window = make_window()
    dialog = open_library(qtbot, window)
    assert dialog.select(doomed)
    dialogs.confirm_answer = False
    click(qtbot, dialog.remove_button)
    assert dialogs.asked == [("confirm", "Remove Installed Pack")]
    assert "“And”" in dialogs.confirm_texts[0]
    assert str(doomed) in dialogs.confirm_texts[0]
    assert doomed.exists()

    dialogs.confirm_answer = True
    click(qtbot, dialog.remove_button)
    assert not doomed.exists()
    assert kept.exists()
    qtbot.waitUntil(lambda: not dialog.loading)
    assert names(dialog) == ["Tutorial\ntutorial · 8 levels"]


def test_an_empty_or_broken_library_says_so(qtbot, make_window, packs_dir: Path) -> None:
    window = make_window()
    dialog = open_library(qtbot, window)
    assert dialog.list.count() == 0
    assert dialog.note.text().startswith("No packs are installed yet")
    assert not dialog.open_button.isEnabled()
    assert not dialog.remove_button.isEnabled()
    click(qtbot, dialog.findChild(type(dialog.open_button), "libraryClose"))

    packs_dir.mkdir()
    (packs_dir / "broken.json").write_text("{not json", encoding="utf-8")
    (packs_dir / "notes.txt").write_text("not a pack", encoding="utf-8")
    dialog = open_library(qtbot, window)
    assert names(dialog) == ["broken\n1 problem"]
    assert dialog.list.item(0).toolTip().splitlines() == [
        str(packs_dir / "broken.json"),
        "broken: not valid JSON: Expecting property name enclosed in double quotes at line 1 column 2",
    ]
