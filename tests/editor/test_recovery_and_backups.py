"""Nothing lost: autosave to a recovery file, recovery after a crash, backups on save."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

import editor.io.recovery
import editor.tasks.scheduler
import engine
from editor.documents.level import LevelDocument
from editor.io.backups import BackupStore
from editor.io.recovery import RecoveryStore, compact_json, compare_with_disk
from editor.tasks.scheduler import scheduler
from editor.values import OBJECT, Pos, Stamp
from tests.editor.window_driver import click, use
from tests.support import PACKS_DIR, ROOT

BABA = Stamp(OBJECT, "BABA")


def _recovery_files(folder: Path) -> list[Path]:
    return sorted((folder / "recovery").glob("*.json")) if (folder / "recovery").is_dir() else []


def test_an_edit_burst_is_written_to_a_recovery_file_and_saving_removes_it(
    make_window, settings, dialogs, tmp_path, qtbot
) -> None:
    window = make_window()
    window.autosaver.set_timing(quiet_ms=50, max_wait_ms=30_000)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(2, 2))
    qtbot.waitUntil(lambda: bool(_recovery_files(settings.data_folder)), timeout=3000)
    record = json.loads(_recovery_files(settings.data_folder)[0].read_text(encoding="utf-8"))
    assert record["format"] == "rulegrid-recovery"
    assert record["pack"] == window.pack.to_data()
    owner = window.recovery.owner
    assert _recovery_files(settings.data_folder)[0].name.startswith(f"{owner}-")
    assert (settings.data_folder / "recovery" / f"{owner}.lock").is_file()  # held meanwhile
    dialogs.save_path = tmp_path / "mine.json"
    window.actions_by_id["actionSave"].trigger()
    assert _recovery_files(settings.data_folder) == []


def test_a_burst_never_waits_longer_than_the_maximum(make_window, settings, qtbot) -> None:
    window = make_window()
    window.autosaver.set_timing(quiet_ms=10_000, max_wait_ms=100)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    qtbot.waitUntil(lambda: bool(_recovery_files(settings.data_folder)), timeout=3000)


def test_undoing_back_to_the_saved_state_removes_the_recovery_file(
    make_window, settings, qtbot
) -> None:
    window = make_window()
    window.autosaver.set_timing(quiet_ms=20, max_wait_ms=30_000)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    qtbot.waitUntil(lambda: bool(_recovery_files(settings.data_folder)), timeout=3000)
    window.actions_by_id["actionUndo"].trigger()
    assert not window.pack.is_dirty()
    assert _recovery_files(settings.data_folder) == []


def test_a_clean_exit_removes_the_recovery_file(make_window, settings, qtbot) -> None:
    window = make_window()
    window.autosaver.write_now()  # nothing unsaved: nothing written
    assert _recovery_files(settings.data_folder) == []
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    window.autosaver.write_now()
    assert len(_recovery_files(settings.data_folder)) == 1
    window.close()  # the scripted answer to "unsaved changes?" is discard
    assert _recovery_files(settings.data_folder) == []


_CRASH = """
import os, sys
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QSettings
app = QApplication(sys.argv[:1])
from editor import MainWindow
from editor.settings import EditorSettings
import editor.io.recovery
import engine
from editor.values import OBJECT, Pos, Stamp
settings = EditorSettings(QSettings(sys.argv[1], QSettings.Format.IniFormat))
window = MainWindow(sys.argv[2], settings=settings)
window.level.add_on_top([Pos(3, 3)], Stamp(OBJECT, "BABA"))
window.autosaver.write_now()
print("written", flush=True)
os._exit(1)  # a crash: no clean exit, no cleanup
"""


def test_after_a_crash_the_next_start_offers_the_work_and_restores_it(
    make_window, settings, dialogs, tmp_path, qtbot
) -> None:
    pack = tmp_path / "pack.json"
    pack.write_bytes((ROOT / "packs" / "tutorial.json").read_bytes())
    settings.sync()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    crashed = subprocess.run(
        [sys.executable, "-c", _CRASH, str(tmp_path / "settings.ini"), str(pack)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert crashed.stdout.strip() == "written", crashed.stderr
    assert len(_recovery_files(settings.data_folder)) == 1

    dialogs.recovery_answer = ("restore", 0)
    window = make_window(pack)
    qtbot.waitUntil(lambda: bool(dialogs.recovery_offers))
    assert len(dialogs.recovery_offers) == 1
    (offer,) = dialogs.recovery_offers[0]
    assert "Tutorial" in offer
    assert "8 levels" in offer
    assert str(pack) in offer
    assert dialogs.recovery_comparisons == [f"Against {pack}:\nlevels changed: first-steps"]
    assert window.level is not None
    assert [p.token for p in window.level.stack_at(Pos(3, 3))] == ["BABA"]
    assert window.pack.path == pack
    assert window.pack.is_dirty()
    assert window.isWindowModified()
    mine = window.recovery.owner
    assert all(f.name.startswith(f"{mine}-") for f in _recovery_files(settings.data_folder))


def test_recovered_work_can_be_discarded(make_window, settings, dialogs, qtbot) -> None:
    store = RecoveryStore(settings.data_folder / "recovery")
    dead = settings.data_folder / "recovery" / "999999999-abc.json"
    store.write(dead, {"id": "lost", "title": "Lost", "levels": []}, None)
    (offered,) = store.orphans()
    dialogs.recovery_answer = ("discard", 0)
    window = make_window()
    qtbot.waitUntil(lambda: bool(dialogs.recovery_offers))
    assert dialogs.recovery_offers == [[offered.describe()]]
    assert not dead.exists()
    assert window.pack.properties.pack_id == "untitled"


def test_a_live_editors_recovery_file_is_not_offered(tmp_path) -> None:
    store = RecoveryStore(tmp_path)
    mine = store.new_file()
    store.write(mine, {"id": "p", "levels": []}, None)
    assert store.orphans() == []
    dead = tmp_path / "999999999-x.json"
    store.write(dead, {"id": "p", "levels": []}, None)
    assert [r.file for r in store.orphans()] == [dead]
    (tmp_path / "999999998-y.json").write_text("{not json", encoding="utf-8")
    assert [r.file for r in store.orphans()] == [dead]  # unreadable files are skipped


def test_comparing_a_never_saved_pack_says_so(tmp_path) -> None:
    store = RecoveryStore(tmp_path)
    store.write(tmp_path / "999999999-z.json", {"id": "p", "levels": []}, None)
    (found,) = store.orphans()
    assert (
        compare_with_disk(found) == "This pack was never saved: there is no file to compare with."
    )


def test_each_save_keeps_the_previous_version_and_only_the_newest_n(tmp_path) -> None:
    store = BackupStore(tmp_path / "backups")
    pack = tmp_path / "p.json"
    start = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert store.keep(pack, 3, now=start) is None  # nothing on disk yet
    for n in range(5):
        pack.write_text(json.dumps({"id": "p", "title": f"v{n}", "levels": [{}] * n}), "utf-8")
        store.keep(pack, 3, now=start + timedelta(minutes=n))
    kept = store.list(pack)
    assert [b.title for b in kept] == ["v4", "v3", "v2"]
    assert [b.levels for b in kept] == [4, 3, 2]
    assert kept[0].saved_at == start + timedelta(minutes=4)
    assert store.keep(pack, 0) is None
    assert "4 levels" in kept[0].describe()


def _keys(value: object) -> object:
    """The shape of a document: every key, recursively (no values)."""
    if isinstance(value, dict):
        return {k: _keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_keys(v) for v in value]
    return None


def test_opening_and_saving_an_untouched_pack_changes_nothing(
    make_window, dialogs, tmp_path
) -> None:
    hand_written = tmp_path / "hand.json"
    hand_written.write_bytes((ROOT / "packs" / "tutorial.json").read_bytes())
    window = make_window(hand_written)
    window.actions_by_id["actionSave"].trigger()
    saved = json.loads(hand_written.read_text(encoding="utf-8"))
    original = json.loads((ROOT / "packs" / "tutorial.json").read_text(encoding="utf-8"))
    # A hand-written file: no semantic change, and no default added anywhere.
    assert engine.load_pack(saved).to_data() == engine.load_pack(original).to_data()
    by_id = {lv["id"]: lv for lv in original["levels"]}
    for level in saved["levels"]:
        before = by_id[level["id"]]
        assert set(level) == set(before)
        for key in ("automata", "mechanics"):
            assert _keys(level.get(key)) == _keys(before.get(key))  # no "phase": 0 added
    # A file Rulegrid wrote: the same bytes, every time.
    written = hand_written.read_bytes()
    again = make_window(hand_written)
    again.actions_by_id["actionSave"].trigger()
    assert hand_written.read_bytes() == written


def test_each_save_keeps_the_previous_file_and_restore_backup_brings_it_back(
    make_window, settings, dialogs, tmp_path
) -> None:
    dialogs.save_path = tmp_path / "mine.json"
    window = make_window()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    window.actions_by_id["actionSaveAs"].trigger()  # nothing to keep yet: a new file
    first = (tmp_path / "mine.json").read_bytes()
    click(window, Pos(2, 2))
    window.actions_by_id["actionSave"].trigger()  # keeps the first version
    assert (tmp_path / "mine.json").read_bytes() != first
    kept = window.files.backups.list(tmp_path / "mine.json")
    assert [b.path.read_bytes() for b in kept] == [first]
    dialogs.backup_choice = 0
    window.actions_by_id["actionRestoreBackup"].trigger()
    assert dialogs.backups_offered == [[kept[0].describe()]]
    assert [p.token for p in window.level.stack_at(Pos(2, 2))] == []
    assert [p.token for p in window.level.stack_at(Pos(1, 1))] == ["BABA"]
    assert window.pack.path == tmp_path / "mine.json"
    assert window.pack.is_dirty()


def test_the_backup_count_is_a_setting(make_window, settings, dialogs, tmp_path) -> None:
    settings.backup_count = 2
    dialogs.save_path = tmp_path / "p.json"
    window = make_window()
    use(window, "actionToolBrush", BABA)
    window.actions_by_id["actionSaveAs"].trigger()
    for x in range(5):
        click(window, Pos(x, 0))
        window.actions_by_id["actionSave"].trigger()
    assert len(window.files.backups.list(tmp_path / "p.json")) == 2


# ------------------------------------------- a large pack: never a long pause (issue 20)
def test_the_recovery_text_is_json_dumps_of_the_record_level_by_level() -> None:
    pack = engine.load_pack_document(PACKS_DIR / "tutorial.json")[1]
    pack["title"] = "Ünïcode — “quoted”"
    record = {"format": "rulegrid-recovery", "version": 1, "packPath": None, "pack": pack}
    expected = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    assert compact_json(record) == expected
    assert compact_json({"pack": {"levels": "not a list"}}) == '{"pack":{"levels":"not a list"}}'


def test_an_edit_while_the_recovery_file_is_being_taken_starts_it_over(
    make_window, settings, qtbot, monkeypatch
) -> None:
    """The pack's data is taken a level per step (a 10,000-level pack would pause the
    window); an edit in between must not leave a file mixing the old and new states."""
    monkeypatch.setattr(editor.tasks.scheduler, "PASS_BUDGET_S", 0.0)  # one level per pass
    monkeypatch.setattr(editor.tasks.scheduler, "MIN_SLICE_S", 0.0)
    taken: list[object] = []
    level_written = LevelDocument.written

    def taking(self: LevelDocument) -> object:
        taken.append(self)
        if len(taken) == 1:  # the author deletes level 1 before the next pass
            QTimer.singleShot(0, window.actions_by_id["actionDeleteLevel"].trigger)
        return level_written(self)

    monkeypatch.setattr(LevelDocument, "written", taking)
    written: list[dict] = []
    write = RecoveryStore.write

    def recorded(self, file, pack, pack_path) -> None:
        written.append(pack)
        write(self, file, pack, pack_path)

    monkeypatch.setattr(RecoveryStore, "write", recorded)
    window = make_window(PACKS_DIR / "tutorial.json")
    window.autosaver.set_timing(quiet_ms=60_000, max_wait_ms=60_000)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(0, 0))
    validator = window.validation_panel.validator
    qtbot.waitUntil(lambda: validator.is_current() and not validator.is_busy())
    taken.clear()  # from here on only the recovery file takes levels
    window.autosaver.write_now(background=True)  # takes level 1, then the author's events
    qtbot.waitUntil(lambda: window.pack.level_count() == 7)  # level 1 went; 2 is the first
    qtbot.wait(300)  # time for every slice: the taking must have stopped
    window.autosaver.wait()
    assert written == []
    window.autosaver.write_now()  # the pack as it is now
    assert len(written) == 1
    assert all(pack == window.pack.to_data() for pack in written)


def test_saving_does_not_wait_for_a_recovery_write_under_way(
    make_window, settings, dialogs, tmp_path, qtbot, monkeypatch
) -> None:
    """A 36 MB recovery write takes its writer thread a while; the save that makes it
    obsolete must not freeze the window until it ends, and the file must not survive."""
    started, release, ended = threading.Event(), threading.Event(), threading.Event()
    write = RecoveryStore.write

    def slow(self, file, pack, pack_path) -> None:
        started.set()
        release.wait(5)
        write(self, file, pack, pack_path)
        ended.set()

    monkeypatch.setattr(RecoveryStore, "write", slow)
    window = make_window()
    window.autosaver.set_timing(quiet_ms=60_000, max_wait_ms=60_000)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(2, 2))
    window.autosaver.write_now(background=True)
    qtbot.waitUntil(started.is_set, timeout=3000)
    dialogs.save_path = tmp_path / "mine.json"
    window.actions_by_id["actionSave"].trigger()  # discards the recovery file: no wait
    assert not window.pack.is_dirty()
    assert not ended.is_set()  # saved while the recovery write was still under way
    release.set()
    window.autosaver.wait()
    assert _recovery_files(settings.data_folder) == []


def test_no_recovery_file_is_written_while_a_file_operation_is_under_way(
    make_window, settings, qtbot
) -> None:
    """A save makes the recovery file obsolete: writing one meanwhile (36 MB for a
    10,000-level pack) would only slow the save and the window down."""
    window = make_window()
    window.autosaver.set_timing(quiet_ms=50, max_wait_ms=30_000)
    use(window, "actionToolBrush", BABA)
    click(window, Pos(2, 2))
    ended: list[bool] = []

    def during_the_operation() -> None:  # the author waits: a file operation's wait
        window.autosaver.write_now(background=True)
        QTimer.singleShot(300, lambda: ended.append(True))
        scheduler().wait_until(lambda: bool(ended))

    during_the_operation()
    window.autosaver.wait()
    assert _recovery_files(settings.data_folder) == []
    # the operation ended and the work is still unsaved
    qtbot.waitUntil(lambda: bool(_recovery_files(settings.data_folder)), timeout=3000)


def test_a_backup_copies_the_pack_a_piece_at_a_time(tmp_path, monkeypatch) -> None:
    """A large pack is never held whole in memory to be backed up (its freeing held the
    interpreter while the window waited); the copy is exact, and pruning still keeps two."""
    import editor.io.backups as backups

    monkeypatch.setattr(backups, "COPY_PIECE", 1000)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole"))
    pack = tmp_path / "big.json"
    content = os.urandom(10_500)
    pack.write_bytes(content)
    store = BackupStore(tmp_path / "backups")
    moments = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=s) for s in range(3)]
    copies = [store.keep(pack, 2, now=moment) for moment in moments]
    kept = sorted((tmp_path / "backups").rglob("*.json"))
    assert [c for c in copies if c in kept] == copies[1:]  # the oldest was pruned
    for copy in kept:
        with copy.open("rb") as handle:
            assert handle.read() == content


# ------------------------------------------------ issue 39, B7: owned by a lock, not a PID


def test_a_file_named_by_a_process_id_that_is_alive_again_is_offered(tmp_path) -> None:
    """Where process ids repeat (a container, Flatpak: the editor is PID 1 each time) or
    an unrelated process took the old id, a crashed editor's work was never offered."""
    store = RecoveryStore(tmp_path)
    mine_again = tmp_path / f"{os.getpid()}-0123456789ab.json"  # this very process's id
    init = tmp_path / "1-ba9876543210.json"  # PID 1 is always alive
    store.write(mine_again, {"id": "lost", "title": "Lost", "levels": []}, None)
    store.write(init, {"id": "gone", "title": "Gone", "levels": []}, None)
    assert sorted(r.file for r in store.orphans()) == sorted([mine_again, init])


def test_another_window_holds_its_files_and_they_stay_its_own(tmp_path) -> None:
    first, second = RecoveryStore(tmp_path), RecoveryStore(tmp_path)
    file = first.new_file()
    first.write(file, {"id": "p", "levels": []}, None)
    assert second.orphans() == []
    assert first.orphans() == []
    first.close()  # a clean exit releases the lock and removes its file
    assert not (tmp_path / f"{file.name.split('-')[0]}.lock").exists()
    assert [r.file for r in second.orphans()] == [file]  # its file left behind: offered


_HOLD = """
import sys
from pathlib import Path
from editor.io.recovery import RecoveryStore
store = RecoveryStore(Path(sys.argv[1]))
file = store.new_file()
store.write(file, {"id": "held", "title": "Held", "levels": []}, None)
print(file.name, flush=True)
sys.stdin.read()  # runs until killed
"""


def test_a_killed_editors_file_is_offered_and_its_lock_file_forgotten(tmp_path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None
        name = child.stdout.readline().strip()
        store = RecoveryStore(tmp_path)
        assert name
        assert store.orphans() == []
    finally:
        child.kill()  # SIGKILL: nothing of the child runs again
        child.wait(timeout=60)
    (offered,) = store.orphans()
    assert offered.file == tmp_path / name
    lock = tmp_path / f"{name.split('-')[0]}.lock"
    assert lock.exists()  # its file is still to be offered: the lock file says whose
    store.discard(offered.file)
    assert store.orphans() == []
    assert not lock.exists()
