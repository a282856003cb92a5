"""Autosave and recovery: unsaved work survives a crash, and the pack file is never touched.

While a pack has unsaved changes, :class:`Autosaver` writes the whole pack
document to a recovery file in ``<data folder>/recovery/`` shortly after each
burst of edits: 2 s after the last edit, and never more than 30 s after the
first unsaved one, so at most about 30 s of work is ever at risk. The pack's
own file is only ever written by an explicit save.

A recovery file belongs to one running editor, which holds an operating-system
lock on ``<owner>.lock`` beside it for as long as it runs (``<owner>`` starts the
recovery file's name); a clean exit, a save, or undoing back to the saved state
removes the file. After a crash the lock is gone with the process that held it,
whatever happens to its process id: :meth:`RecoveryStore.orphans` finds every file
whose owner's lock is free (or missing) on the next start, and the editor offers to
restore it, compare it with the file on disk, or discard it. A process id was the
owner once: where ids repeat (containers, Flatpak, where the editor is PID 1 each
time) or an unrelated process took the old id, the work was never offered.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

import engine
from editor.connections import Connections
from editor.dialogs.questions import Dialogs
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks import background
from editor.tasks.scheduler import Priority, scheduler

FORMAT = "rulegrid-recovery"
VERSION = 1
QUIET_MS = 2_000  # write this long after the last edit of a burst
MAX_WAIT_MS = 30_000  # and never later than this after the first unsaved edit
#: A recovery file is read whole to be offered; larger ones are not ours to trust.
_READ_LIMIT = 64 * 2**20


@dataclass(frozen=True, slots=True)
class Recovered:
    """Unsaved work a crashed editor left behind."""

    file: Path
    pack_path: Path | None  # the pack file it was opened from (None: never saved)
    saved_at: datetime
    pack: dict[str, Any]  # the pack document as it was

    @property
    def levels(self) -> int:
        levels = self.pack.get("levels")
        return len(levels) if isinstance(levels, list) else 0

    @property
    def title(self) -> str:
        return str(self.pack.get("title") or self.pack.get("id") or "untitled pack")

    def describe(self) -> str:
        when = self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        where = str(self.pack_path) if self.pack_path is not None else "never saved"
        return f"{self.title} ({where}): {self.levels} levels, last written {when}"


class OwnerLock:
    """An operating-system lock on ``<folder>/<token>.lock``, held while this object lives.

    ``flock`` on POSIX and ``msvcrt.locking`` on Windows: both are released by the
    operating system when the process ends, however it ends (SIGKILL, a power cut
    does not matter: the lock is in memory), and a spawned child (the solver's
    worker) does not inherit the descriptor. The token is random and never all
    digits, so it is never read as the process id of an older editor's file.
    """

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.token = "e" + uuid.uuid4().hex[:15]
        self.path = folder / f"{self.token}.lock"
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):  # a fresh random name: only a broken file system says no
            os.close(fd)
            raise OSError(f"cannot lock {self.path}")
        self._release = weakref.finalize(self, _unlock, fd, self.path)

    def release(self) -> None:
        """Give the lock up and remove its file (a clean exit)."""
        self._release()


class RecoveryStore:
    """Recovery files, one per running editor window and pack."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._owner: OwnerLock | None = None  # taken with the first recovery file

    @property
    def owner(self) -> str | None:
        """The token this store's recovery files start with (``None``: none made yet)."""
        return self._owner.token if self._owner is not None else None

    def new_file(self) -> Path:
        """A recovery file name owned by this store, whose lock it now holds.

        Raises:
            OSError: the folder cannot be made or the lock cannot be taken.
        """
        if self._owner is None:
            self._owner = OwnerLock(self.folder)
        return self.folder / f"{self._owner.token}-{uuid.uuid4().hex[:12]}.json"

    def close(self) -> None:
        """Release the owner lock (a clean exit, after the recovery file was discarded)."""
        if self._owner is not None:
            self._owner.release()
            self._owner = None

    def write(self, file: Path, pack: dict[str, Any], pack_path: Path | None) -> None:
        record = {
            "format": FORMAT,
            "version": VERSION,
            "packPath": str(pack_path) if pack_path is not None else None,
            "savedAt": datetime.now(UTC).isoformat(),
            "pack": pack,
        }
        engine.write_atomic(file, compact_json(record))

    def discard(self, file: Path) -> None:
        file.unlink(missing_ok=True)

    def orphans(self) -> list[Recovered]:
        """Recovery files without a live owner (crashed or killed), newest first.

        A file is left alone only while another editor holds its owner's lock; a
        file whose lock is free or gone (an older editor's, named by process id) is
        always offered. Lock files of dead owners with no file left are removed.
        """
        if not self.folder.is_dir():
            return []
        found = []
        owners: dict[str, bool] = {}  # token -> alive
        for file in self.folder.glob("*.json"):
            owner = file.stem.split("-", 1)[0]
            if owner == self.owner:
                continue  # this store's own
            if owner not in owners:
                owners[owner] = _owner_alive(self.folder, owner)
            if owners[owner]:
                continue  # another editor is running and owns it
            recovered = _read(file)
            if recovered is not None:
                found.append(recovered)
        self._forget_dead_locks(owners)
        return sorted(found, key=lambda r: r.saved_at, reverse=True)

    def _forget_dead_locks(self, files_of: dict[str, bool]) -> None:
        """Remove the lock files of owners that are gone and left no recovery file."""
        for lock in self.folder.glob("*.lock"):
            token = lock.stem
            if token == self.owner or token in files_of or _owner_alive(self.folder, token):
                continue
            with contextlib.suppress(OSError):
                lock.unlink()


def compact_json(record: dict[str, Any]) -> str:
    """``json.dumps(record)`` (compact, UTF-8), the pack's levels encoded one at a time.

    One ``json.dumps`` of a 10,000-level pack is a single C call that keeps the
    interpreter for over a second: the UI thread waits that long for it. A level at
    a time, the writer thread hands the interpreter back between levels.
    """

    def dumps(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def obj(items: list[str]) -> str:
        return "{" + ",".join(items) + "}"

    pack = record.get("pack")
    levels = pack.get("levels") if isinstance(pack, dict) else None
    if not isinstance(pack, dict) or not isinstance(levels, list):
        return dumps(record)
    listed = "[" + ",".join(dumps(level) for level in levels) + "]"
    pack_text = obj(
        [f"{dumps(k)}:{listed if k == 'levels' else dumps(v)}" for k, v in pack.items()]
    )
    return obj([f"{dumps(k)}:{pack_text if k == 'pack' else dumps(v)}" for k, v in record.items()])


class Autosaver(QObject):
    """Writes the open pack's unsaved changes to a recovery file after each edit burst.

    The pack's data is taken on the UI thread a level per step of a background job
    of the scheduler (an edit meanwhile starts it over, so the file never mixes two
    states; the scheduler holds it while a file operation runs, which may make the
    file obsolete); the JSON text and the disk write (with its fsync) happen on a
    worker thread, one write at a time, in order.
    """

    def __init__(
        self,
        session: Session,
        store: RecoveryStore,
        *,
        quiet_ms: int = QUIET_MS,
        max_wait_ms: int = MAX_WAIT_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._session = session
        self._store = store
        self._quiet_ms = quiet_ms
        self._max_wait_ms = max_wait_ms
        self._file: Path | None = None
        self._first_unsaved: float | None = None  # monotonic time of the first unsaved edit
        self._job = scheduler().job(self, Priority.BACKGROUND, self._collect, name="recovery")
        # Writes run one at a time, in order (the scheduler's serial thread work). The
        # generation makes sure a discard is never undone by a write that was already
        # on its way: a write checks it before and after, and removes its own file if
        # a discard came meanwhile. The lock guards only the generation and the file
        # name, never a write, so a discard (a save, on the UI thread) never waits for
        # a 36 MB write to end.
        self._writing = threading.Lock()  # one write at a time (worker or UI thread)
        self._lock = threading.Lock()
        self._generation = 0
        self._links = Connections()
        session.pack_changed.connect(self._on_pack_changed)
        if session.pack is not None:
            self._on_pack_changed(session.pack)

    @property
    def file(self) -> Path | None:
        """The recovery file written for the open pack, if any."""
        return self._file

    def set_timing(self, *, quiet_ms: int, max_wait_ms: int) -> None:
        """How long after a burst, and at most after its first edit, the file is written."""
        self._quiet_ms, self._max_wait_ms = quiet_ms, max_wait_ms

    def write_now(self, *, background: bool = False) -> None:
        """Write the recovery file if the pack has unsaved changes (else drop it).

        At once, or with ``background`` as the scheduler's background job: the
        pack's data a level per step, then the JSON text and the disk write on a
        worker thread.
        """
        self._job.stop()
        if background:
            self._job.run_now()
            return
        pack = self._session.pack
        if pack is None or not pack.is_dirty():
            self.discard()
            return
        file = self._recovery_file()
        if file is not None:
            self._first_unsaved = None
            self._report(self._write(file, pack.to_data(), pack.path, self._generation))

    def _recovery_file(self) -> Path | None:
        if self._file is None:
            try:
                self._file = self._store.new_file()
            except OSError as exc:  # no folder, no lock: the author is told, never stopped
                self._report(f"Could not write the recovery file: {exc}")
        return self._file

    def _collect(self) -> Iterator[object]:
        """The background write: the pack's data a level per step, then the write."""
        pack = self._session.pack
        if pack is None or not pack.is_dirty():
            self.discard()
            return
        file = self._recovery_file()
        if file is None:
            return
        data, generation = pack.shell_data(), self._generation
        levels: list[Any] = []
        while len(levels) < pack.level_count():
            levels.append(pack.level_at(len(levels)).written())
            yield None
        self._first_unsaved = None
        if levels or isinstance(data.get("levels"), list):  # else: kept as written
            data["levels"] = levels
        path = pack.path
        scheduler().in_thread(
            self,
            Priority.BACKGROUND,
            lambda: self._write(file, data, path, generation),
            lambda failed, _failure: self._report(failed),
            serial=True,
        )

    def _report(self, failed: str | None) -> None:
        if failed:
            self._session.message.emit(failed)

    def _write(
        self, file: Path, data: dict[str, Any], pack_path: Path | None, generation: int
    ) -> str | None:
        """On the writer thread (or the UI thread): write; say why not, if it failed."""
        with self._writing:
            if not self._current(generation):
                return None  # discarded since: the work was saved or undone
            try:
                self._store.write(file, data, pack_path)
            except (OSError, ValueError) as exc:  # a full disk must not stop the author
                return f"Could not write the recovery file: {exc}"
            if not self._current(generation):  # discarded while this was written
                with contextlib.suppress(OSError):
                    self._store.discard(file)
            return None

    def _current(self, generation: int) -> bool:
        with self._lock:
            return generation == self._generation

    def discard(self) -> None:
        """Remove the recovery file (a save, a clean undo, a clean exit)."""
        self._job.stop()
        self._first_unsaved = None
        with self._lock:
            self._generation += 1
            file, self._file = self._file, None
        if file is not None:  # a write of it still under way removes it when it ends
            with contextlib.suppress(OSError):
                self._store.discard(file)

    def wait(self) -> None:
        """Block until every write already asked for is on disk (tests, shutdown)."""
        background.wait_idle(60.0)

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: PackDocument) -> None:
        self.discard()
        self._links.follow(
            [
                (pack.level_edited, lambda _level: self._edited()),
                (pack.nouns_changed, self._edited),
                (pack.properties_changed, self._edited),
                (pack.level_inserted, lambda _i: self._edited()),
                (pack.level_removed, lambda _i: self._edited()),
                (pack.level_moved, lambda _s, _t: self._edited()),
                (pack.dirty_changed, self._on_dirty_changed),
            ]
        )
        if pack.is_dirty():  # a restored recovery: it is unsaved work from the start
            self._edited()

    def _on_dirty_changed(self, dirty: bool) -> None:
        if not dirty:
            self.discard()

    def _edited(self) -> None:
        self._job.stop()  # what was taken so far is no longer the pack
        now = time.monotonic()
        if self._first_unsaved is None:
            self._first_unsaved = now
        waited_ms = (now - self._first_unsaved) * 1000
        remaining = max(0, int(self._max_wait_ms - waited_ms))
        self._job.start(min(self._quiet_ms, remaining))


def _try_lock(fd: int) -> bool:
    """Take the lock of ``fd`` without waiting; False when another holder has it."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError on POSIX, PermissionError on Windows: it is held
        return False
    return True


def _unlock(fd: int, path: Path) -> None:
    """Remove the lock file while holding it, then let go (closing releases the lock)."""
    with contextlib.suppress(OSError):
        path.unlink()
    with contextlib.suppress(OSError):
        os.close(fd)


def _owner_alive(folder: Path, token: str) -> bool:
    """Whether an editor holds the lock of ``token`` now (a missing lock: no owner)."""
    try:
        fd = os.open(folder / f"{token}.lock", os.O_RDWR)
    except FileNotFoundError:
        return False
    except OSError:  # not ours to open (another user's): leave its files alone
        return True
    try:
        return not _try_lock(fd)  # taken here: nobody held it (closing gives it back)
    finally:
        os.close(fd)


def _read(file: Path) -> Recovered | None:
    """A recovery file's content, or ``None`` when it is not a readable recovery record."""
    try:  # the pack reader's own: a hostile file is refused, never a crash
        record = engine.read_json_file(file, limit=_READ_LIMIT)
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return None
        pack = record.get("pack")
        if not isinstance(pack, dict):
            return None
        saved_at = datetime.fromisoformat(str(record.get("savedAt")))
        path = record.get("packPath")
        return Recovered(file, Path(path) if isinstance(path, str) else None, saved_at, pack)
    except (engine.ValidationError, ValueError):  # not ours, or a bad date
        return None


def compare_with_disk(recovered: Recovered) -> str:
    """What the recovered pack changes against its file on disk, level by level."""
    if recovered.pack_path is None:
        return "This pack was never saved: there is no file to compare with."
    path = recovered.pack_path
    file = path / "pack.json" if path.is_dir() else path
    try:
        disk = engine.read_json_file(file, limit=_READ_LIMIT)
    except engine.ValidationError as exc:
        first = exc.errors[0]
        return f"The file on disk cannot be read: {first.pointer or '/'}: {first.message}"
    if not isinstance(disk, dict):
        return "The file on disk does not hold a pack."
    ours, theirs = _levels_by_id(recovered.pack), _levels_by_id(disk)
    lines = [f"Against {recovered.pack_path}:"]
    added = [i for i in ours if i not in theirs]
    removed = [i for i in theirs if i not in ours]
    changed = [i for i in ours if i in theirs and ours[i] != theirs[i]]
    for label, ids in (("added", added), ("removed", removed), ("changed", changed)):
        if ids:
            shown = ", ".join(ids[:12]) + (f" and {len(ids) - 12} more" if len(ids) > 12 else "")
            lines.append(f"levels {label}: {shown}")
    rest = {k: v for k, v in recovered.pack.items() if k != "levels"}
    if rest != {k: v for k, v in disk.items() if k != "levels"}:
        lines.append("the pack's title, author, description or nouns differ")
    if len(lines) == 1:
        lines.append("no difference in content")
    return "\n".join(lines)


def _levels_by_id(pack: dict[str, Any]) -> dict[str, Any]:
    levels = pack.get("levels")
    if not isinstance(levels, list):
        return {}
    return {str(lv.get("id")): lv for lv in levels if isinstance(lv, dict)}


def offer_recovery(
    store: RecoveryStore, dialogs: Dialogs, parent: QWidget, session: Session
) -> bool:
    """Offer what a crashed editor left behind; True when a pack was restored.

    A restored pack opens with its original path (so Save writes where the author
    expects) and counts as unsaved: it differs from the file on disk.
    """
    found = store.orphans()
    if not found:
        return False
    answer = dialogs.offer_recovery(
        parent, [r.describe() for r in found], lambda i: compare_with_disk(found[i])
    )
    if answer is None:
        return False
    choice, index = answer
    chosen = found[index]
    if choice == "discard":
        store.discard(chosen.file)
        session.message.emit(f"Discarded the recovered work of {chosen.title}")
        return False
    notes: list[engine.Problem] = []  # what the reader had to change (not shown here)
    try:
        document = PackDocument.from_data(
            chosen.pack,
            path=chosen.pack_path,
            folder=chosen.pack_path is not None and chosen.pack_path.is_dir(),
            notes=notes,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        dialogs.error(parent, "Recover unsaved work", f"The recovered pack is unreadable: {exc}")
        return False
    document.mark_unsaved()
    session.set_pack(document)
    store.discard(chosen.file)
    session.message.emit(f"Restored unsaved work: {chosen.describe()}. Save it to keep it")
    return True
