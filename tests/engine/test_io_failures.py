"""I/O failures: one clear message, nothing left behind (issue 20, finding 5, command line).

``rulegrid share import --yes`` into a path that cannot be a folder, or onto a
full disk, ends with one line and exit code 1 instead of a traceback; a failed
write leaves neither a temporary file nor a folder it created; temporary files of
writes that were killed are removed by the next write of the same file; and the
folder is synced after the new name is published.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

import pytest

import engine.packs.save as save_module
from engine import load_level, share, write_atomic
from engine.cli import main
from tests.support import grid_level

NOUNS = {"BABA": {"color": "#ffffff"}}


def payload() -> str:
    return share.encode(load_level(grid_level(["baba . .", "BABA IS YOU"], "small")), nouns=NOUNS)


def run_import(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["share", "import", payload(), "--yes", "--into", str(folder)])
    return code, capsys.readouterr().err


def test_import_into_a_path_under_a_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the fix: NotADirectoryError with a traceback."""
    blocker = tmp_path / "packs"
    blocker.write_text("not a folder", encoding="utf-8")
    code, err = run_import(blocker / "more", capsys)
    assert code == 1
    assert err.count("\n") == 1
    assert "install-failed" not in err  # the message, not the code
    assert "a part of the folder path is a file, not a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packs"]
    code, err = run_import(blocker, capsys)  # the folder itself is a file
    assert code == 1
    assert "is not a folder" in err


def test_import_onto_a_full_disk_is_one_line_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the fix: OSError ENOSPC with a traceback, and the new folders stayed."""

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(save_module.os, "fsync", full)
    code, err = run_import(tmp_path / "new" / "packs", capsys)
    assert code == 1
    assert err.count("\n") == 1
    assert "the disk is full" in err
    assert list(tmp_path.iterdir()) == []  # no temporary file, no folder


def test_an_io_failure_of_any_command_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "x"))

    monkeypatch.setattr(save_module, "write_atomic", refuse)
    monkeypatch.setattr(share.preview, "install_pack", refuse)
    code = main(["share", "import", payload(), "--yes", "--into", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"rulegrid: Permission denied: {tmp_path / 'x'}\n"


def test_the_temporaries_of_killed_writes_are_removed_by_the_next_write(tmp_path: Path) -> None:
    """Before the fix they stayed for ever (issue 19's killed saves left up to 50)."""
    target = tmp_path / "pack.json"
    dead = _dead_pid()
    stale_dead = tmp_path / f".pack.json.{dead}-abc123.tmp"
    stale_old = tmp_path / ".pack.json.k7x2.tmp"  # an older naming, a day old
    fresh_live = tmp_path / f".pack.json.{os.getppid()}-def456.tmp"  # a running writer
    other = tmp_path / f".other.json.{dead}-abc123.tmp"  # another file's
    for path in (stale_dead, stale_old, fresh_live, other):
        path.write_text("half", encoding="utf-8")
    day_ago = time.time() - 86_400
    os.utime(stale_old, (day_ago, day_ago))
    write_atomic(target, "whole")
    assert target.read_text(encoding="utf-8") == "whole"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["pack.json", fresh_live.name, other.name])


def _dead_pid() -> int:
    """A process id no process has now (the child is reaped before it is returned)."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork to make a process id that is surely gone")
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_the_folder_is_synced_after_the_new_name_is_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[tuple[bool, bool]] = []  # (a folder?, the file already in place?)
    real_fsync = os.fsync
    target = tmp_path / "pack.json"

    def watch(fd: int) -> None:
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), target.exists()))
        real_fsync(fd)

    monkeypatch.setattr(save_module.os, "fsync", watch)
    write_atomic(target, "whole")
    if os.name == "nt":
        pytest.skip("Windows cannot open a folder to sync it")
    assert synced == [(False, False), (True, True)]  # the data, then the folder after it
