"""Two editors, one file (issue 39, B8): a save never silently replaces another's save.

The editor stamps the data file when it opens it and when it saves it (size, time,
SHA-256). A save checks the file still holds those bytes and otherwise asks:
reload, save as, overwrite (or cancel); a file watcher tells the author when the
open file changes. Before, the second of two windows saving one file overwrote
the first one's edit without a word (only a backup kept it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from editor.io.backups import BackupStore
from editor.io.disk import ChangedOnDiskError, check_unchanged, read_stamp
from editor.io.pack_tasks import WriteRequest, write_work
from editor.tasks.background import CancelToken
from editor.tasks.progress import Progress
from editor.values import OBJECT, Pos, Stamp
from tests.editor.window_driver import click, tokens, trigger, use
from tests.support import PACKS_DIR

BABA = Stamp(OBJECT, "BABA")
FLAG = Stamp(OBJECT, "FLAG")


@pytest.fixture
def pack_file(tmp_path: Path) -> Path:
    path = tmp_path / "pack.json"
    path.write_bytes((PACKS_DIR / "tutorial.json").read_bytes())
    return path


def _first_level(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))["levels"][0]


def _paint(window: Any, stamp: Stamp, pos: Pos) -> None:
    use(window, "actionToolBrush", stamp)
    click(window, pos)


def test_the_second_of_two_windows_on_one_file_is_asked_before_it_saves(
    make_window, dialogs, pack_file: Path, qtbot
) -> None:
    first, second = make_window(pack_file), make_window(pack_file)
    _paint(first, BABA, Pos(1, 1))
    trigger(first, "actionSave")
    saved_by_first = pack_file.read_bytes()
    assert dialogs.changed_asked == []  # nothing changed under the first window
    # the second window's watcher tells its author
    qtbot.waitUntil(
        lambda: "changed on disk" in second.statusBar().currentMessage(), timeout=10_000
    )
    _paint(second, FLAG, Pos(2, 2))
    dialogs.changed_answer = "cancel"
    trigger(second, "actionSave")
    assert dialogs.changed_asked == [("pack.json", False)]
    assert pack_file.read_bytes() == saved_by_first  # the first window's edit is kept
    assert second.pack.is_dirty()
    assert "Not saved" in second.statusBar().currentMessage()

    dialogs.changed_answer = "overwrite"
    trigger(second, "actionSave")
    assert len(dialogs.changed_asked) == 2
    assert not second.pack.is_dirty()
    assert _first_level(pack_file) == second.pack.to_data()["levels"][0]
    assert pack_file.read_bytes() != saved_by_first

    # now the first window's view of the file is the old one: its next save asks too
    _paint(first, BABA, Pos(3, 3))
    dialogs.changed_answer = "cancel"
    trigger(first, "actionSave")
    assert len(dialogs.changed_asked) == 3
    # and a window whose own save is the latest is never asked
    trigger(second, "actionSave")
    assert len(dialogs.changed_asked) == 3


def test_reload_takes_the_file_as_it_is_now(make_window, dialogs, pack_file: Path) -> None:
    first, second = make_window(pack_file), make_window(pack_file)
    _paint(first, BABA, Pos(1, 1))
    trigger(first, "actionSave")
    _paint(second, FLAG, Pos(2, 2))
    dialogs.changed_answer = "reload"
    trigger(second, "actionSave")
    assert dialogs.changed_asked == [("pack.json", False)]
    assert not second.pack.is_dirty()
    assert second.pack.to_data()["levels"][0] == _first_level(pack_file)
    assert "BABA" in tokens(second, Pos(1, 1))
    assert "FLAG" not in tokens(second, Pos(2, 2))


def test_save_as_leaves_the_other_version_where_it_is(
    make_window, dialogs, pack_file: Path, tmp_path: Path
) -> None:
    first, second = make_window(pack_file), make_window(pack_file)
    _paint(first, BABA, Pos(1, 1))
    trigger(first, "actionSave")
    saved_by_first = pack_file.read_bytes()
    _paint(second, FLAG, Pos(2, 2))
    dialogs.changed_answer = "save_as"
    dialogs.save_path = tmp_path / "mine.json"
    trigger(second, "actionSave")
    assert pack_file.read_bytes() == saved_by_first
    assert _first_level(tmp_path / "mine.json") == second.pack.to_data()["levels"][0]
    assert second.pack.path == tmp_path / "mine.json"
    assert not second.pack.is_dirty()


def test_a_touched_file_with_the_same_bytes_is_not_a_change(
    make_window, dialogs, pack_file: Path
) -> None:
    window = make_window(pack_file)
    later = pack_file.stat().st_mtime + 60
    os.utime(pack_file, (later, later))
    _paint(window, BABA, Pos(1, 1))
    trigger(window, "actionSave")
    assert dialogs.changed_asked == []
    assert not window.pack.is_dirty()


def test_a_removed_file_is_asked_about_and_written_again(
    make_window, dialogs, pack_file: Path
) -> None:
    window = make_window(pack_file)
    pack_file.unlink()
    _paint(window, BABA, Pos(1, 1))
    dialogs.changed_answer = "overwrite"
    trigger(window, "actionSave")
    assert dialogs.changed_asked == [("pack.json", True)]
    assert _first_level(pack_file) == window.pack.to_data()["levels"][0]


def test_the_writer_checks_just_before_writing_and_writes_nothing_when_changed(
    pack_file: Path, tmp_path: Path
) -> None:
    opened = read_stamp(pack_file)
    assert opened is not None
    check_unchanged(opened)  # as it was
    pack_file.write_bytes(pack_file.read_bytes().replace(b"Tutorial", b"Tutorjal"))
    theirs = pack_file.read_bytes()
    backups = BackupStore(tmp_path / "backups")
    data = json.loads(theirs)
    request = WriteRequest(data, pack_file, backups, 10, Progress(), opened)
    with pytest.raises(ChangedOnDiskError) as caught:
        write_work(request, CancelToken())
    assert caught.value.now is not None
    assert caught.value.now.sha256 != opened.sha256
    assert pack_file.read_bytes() == theirs
    assert backups.list(pack_file) == []
    written = write_work(WriteRequest(data, pack_file, backups, 10, Progress()), CancelToken())
    assert written == read_stamp(pack_file)  # the stamp of the bytes written
