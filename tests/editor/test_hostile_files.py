"""Hostile files read by the editor: open for repair, restore a backup, recover work
(issue 20, finding 4).

Every path that reads a pack the engine may refuse reads it through the engine's
bounded JSON reader (``engine.read_json_file``), so 100,000 nested lists, a
10,000-digit integer or ``1e400`` are a located problem in a dialog and the editor
goes on; before, ``read_for_repair`` let the integer's ``ValueError`` escape and
``restore_backup`` crashed on the nesting's ``RecursionError``. A level 10**9
cells wide never reaches the canvas (it would overflow when painted): since issue
34 it opens on the smallest grid that holds its entities, the width kept as written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from editor.io.pack_io import RepairImpossibleError, read_for_repair
from editor.io.recovery import FORMAT, RecoveryStore, compare_with_disk
from editor.values import OBJECT, Pos, Stamp
from tests.editor.window_driver import click, tokens, trigger, use
from tests.support import grid_level, pack_document

BABA = Stamp(OBJECT, "BABA")


def wide_pack() -> bytes:
    level = {**grid_level(["baba . .", "BABA IS YOU"], "one"), "width": 10**9}
    return json.dumps(pack_document(level)).encode()


def with_version(literal: bytes) -> bytes:
    """A pack whose ``version`` is written as ``literal`` (no Python value holds it)."""
    return b'{"id": "p", "nouns": {}, "levels": [], "version": ' + literal + b"}"


HOSTILE: dict[str, tuple[bytes, str]] = {
    "deep": (b"[" * 100_000 + b"]" * 100_000, "/: not valid JSON: nested too deep"),
    "digits": (
        with_version(b"9" * 10_000),
        "/: not valid JSON: a number of more than 4,300 digits",
    ),
    "1e400": (with_version(b"1e400"), "/: not valid JSON: the number 1e400 is too large"),
}


def test_a_file_with_a_huge_width_reads_for_repair_on_a_usable_grid(tmp_path: Path, qapp) -> None:
    path = tmp_path / "wide.json"
    path.write_bytes(wide_pack())
    pack, notes = read_for_repair(path)
    assert (pack.levels[0].width, pack.levels[0].height) == (3, 2)
    assert pack.to_data() == json.loads(wide_pack())  # saved as written
    assert [n.pointer for n in notes] == ["/levels/0/width"]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_reading_a_hostile_file_for_repair_is_a_located_refusal(name: str, tmp_path: Path) -> None:
    raw, why = HOSTILE[name]
    path = tmp_path / f"{name}.json"
    path.write_bytes(raw)
    with pytest.raises(RepairImpossibleError) as caught:
        read_for_repair(path)
    assert why in str(caught.value)


@pytest.mark.parametrize("name", ["deep", "digits", "1e400"])
def test_opening_a_hostile_file_shows_its_problem_and_the_editor_goes_on(
    make_window, dialogs, tmp_path: Path, name: str
) -> None:
    raw, why = HOSTILE[name]
    path = tmp_path / f"{name}.json"
    path.write_bytes(raw)
    window = make_window()
    untitled = window.pack
    dialogs.open_anyway, dialogs.open_path = True, path
    trigger(window, "actionOpenPack")
    source, can_repair, _notes = next(v for k, v in dialogs.asked if k == "problems")
    assert (source, can_repair) == (path.name, False)
    assert [p.code for p in dialogs.problems_shown[-1]] == ["invalid-json"]
    assert window.pack is untitled
    assert why.removeprefix("/: ") in window.statusBar().currentMessage()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))  # the editor goes on painting its own level
    assert tokens(window, Pos(1, 1)) == ["BABA"]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_restoring_a_hostile_backup_is_one_dialog_and_nothing_changes(
    make_window, dialogs, tmp_path: Path, name: str
) -> None:
    """Before the fix the nested backup's RecursionError escaped restore_backup."""
    dialogs.save_path = tmp_path / "mine.json"
    window = make_window()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    trigger(window, "actionSaveAs")
    click(window, Pos(2, 2))
    trigger(window, "actionSave")  # keeps the first version as a backup
    [kept] = window.files.backups.list(tmp_path / "mine.json")
    raw, why = HOSTILE[name]
    kept.path.write_bytes(raw)  # the backup went bad on disk
    before = window.pack
    dialogs.backup_choice = 0
    trigger(window, "actionRestoreBackup")
    [error] = dialogs.errors
    assert error.startswith(f"Restore Backup: {kept.path.name}: ")
    assert why in error
    assert window.pack is before
    assert tokens(window, Pos(2, 2)) == ["BABA"]


def recovery_record(pack: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "savedAt": "2024-01-01T00:00:00+00:00", "pack": pack}


@pytest.mark.parametrize("name", ["deep", "digits", "1e400"])
def test_a_hostile_recovery_file_is_not_offered(tmp_path: Path, name: str) -> None:
    store = RecoveryStore(tmp_path)
    store.write(tmp_path / "999999999-good.json", {"id": "p", "levels": []}, None)
    raw, _why = HOSTILE[name]
    (tmp_path / "999999998-bad.json").write_bytes(raw)
    assert [r.file.name for r in store.orphans()] == ["999999999-good.json"]


@pytest.mark.parametrize("name", ["deep", "digits", "1e400"])
def test_comparing_recovered_work_with_a_hostile_file_on_disk_says_where(
    tmp_path: Path, name: str
) -> None:
    raw, why = HOSTILE[name]
    disk = tmp_path / "pack.json"
    disk.write_bytes(raw)
    store = RecoveryStore(tmp_path / "recovery")
    store.write(tmp_path / "recovery" / "999999999-r.json", {"id": "p", "levels": []}, disk)
    [found] = store.orphans()
    assert compare_with_disk(found) == f"The file on disk cannot be read: {why}"


def recover(make_window, settings, dialogs, pack: Any) -> Any:
    """A window started beside a recovery file of ``pack``, whose restore is accepted."""
    folder = settings.data_folder / "recovery"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "999999999-w.json").write_text(json.dumps(recovery_record(pack)), encoding="utf-8")
    dialogs.recovery_answer = ("restore", 0)
    return make_window()


def test_recovered_work_the_editor_cannot_hold_is_one_dialog(
    make_window, settings, dialogs, qtbot
) -> None:
    deep = json.loads(wide_pack())
    deep["x-notes"] = json.loads("[" * 40 + "]" * 40)  # JSON, but past the nesting cap
    window = recover(make_window, settings, dialogs, deep)
    qtbot.waitUntil(lambda: bool(dialogs.errors))
    [error] = dialogs.errors
    assert error.startswith("Recover unsaved work: The recovered pack is unreadable: ")
    assert "nested deeper than 32 levels" in error
    assert window.pack.properties.pack_id == "untitled"


def test_recovered_work_with_a_huge_width_is_restored_on_a_usable_grid(
    make_window, settings, dialogs, qtbot
) -> None:
    window = recover(make_window, settings, dialogs, json.loads(wide_pack()))
    qtbot.waitUntil(lambda: window.pack.properties.pack_id == "test")
    assert dialogs.errors == []
    assert (window.level.width, window.level.height) == (3, 2)
    assert window.pack.to_data()["levels"][0]["width"] == 10**9
