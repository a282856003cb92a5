"""``PackFiles``: new, open, save and close for the window.

Decides what happens to unsaved changes (asks), routes opening through the
engine's whole-pack validation (and shows every problem when it refuses; the
author may open it anyway to repair it, keeping everything as written), warns
before saving a pack that still has errors, and records recent packs.

It also keeps the data file's stamp (size, time, SHA-256: ``editor.io.disk``) from
the open and from each save: a save checks the file still holds those bytes
before replacing it and otherwise asks (reload, save as, overwrite), and a file
watcher says when another program or window changed the open file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from PySide6.QtCore import QFileSystemWatcher, QObject
from PySide6.QtWidgets import QWidget

import engine
from editor.dialogs.questions import Dialogs
from editor.documents.pack import PackBuilder, PackDocument, PackPlan
from editor.documents.reading import NOT_SHOWN
from editor.documents.session import Session
from editor.io.backups import BackupStore
from editor.io.disk import ChangedOnDiskError, DiskStamp, read_stamp
from editor.io.folders import SaveFolders, documents_folder
from editor.io.pack_io import PACK_FILE, is_generated_pack, problem_text
from editor.io.pack_tasks import OpenRequest, WriteRequest, data_file, open_work, write_work
from editor.io.waiting import Busy
from editor.resources import is_installation_folder
from editor.settings import EditorSettings
from editor.tasks.background import CancelToken, TaskFailure
from editor.tasks.collector import adopt_still, collector_paused, freeze_if_large
from editor.tasks.progress import Progress
from editor.tasks.scheduler import Priority, scheduler
from editor.tasks.validation import PackValidator


class PackFiles(QObject):
    def __init__(
        self,
        window: QWidget,
        session: Session,
        settings: EditorSettings,
        dialogs: Dialogs,
        status: Callable[[str], None],
        *,
        validator: PackValidator | None = None,
    ) -> None:
        """``validator``: the window's check of the open pack (the Problems panel shows
        it); without one, the files keep their own. A save asks it for the errors."""
        super().__init__(window)
        self._window = window
        self._session = session
        self._settings = settings
        self._dialogs = dialogs
        self._status = status
        #: Problems the engine found in the pack as last opened or saved (empty: valid).
        self.problems: list[engine.Problem] = []
        #: Previous versions kept by each save (File ▸ Restore Backup).
        self.backups = BackupStore(settings.data_folder / "backups")
        #: Where Save As, Export and picture dialogs start, per kind of file.
        self.folders = SaveFolders(settings)
        self._validator = validator if validator is not None else PackValidator(session, self)
        self._busy = False  # opening or saving: another file operation waits
        #: The data file as last opened or saved (a save to it checks it is still so).
        self._disk: DiskStamp | None = None
        self._foreign: str | None = None  # the other version the author was told about
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_file_changed)

    def is_busy(self) -> bool:
        return self._busy

    @property
    def pack(self) -> PackDocument:
        assert self._session.pack is not None
        return self._session.pack

    # ------------------------------------------------------------------ new
    def new_pack(self) -> bool:
        if not self.maybe_keep_changes():
            return False
        self._session.set_pack(PackDocument.untitled())
        self.problems = []
        self._remember_disk(None)
        self._status("New pack: paint with the palette, then save it (Ctrl+S)")
        return True

    # ----------------------------------------------------------------- open
    def open_dialog(self, *, folder: bool = False) -> bool:
        path = self._dialogs.choose_pack_to_open(
            self._window, folder=folder, start=self._start_dir()
        )
        return self.open_path(path) if path is not None else False

    def open_path(self, path: Path | str, *, ask_first: bool = True) -> bool:
        """Open a pack file or folder; on problems, show them all and maybe open for repair."""
        path = Path(path)
        if self._busy:
            return False  # a file operation is running (its progress window says which)
        if ask_first and not self.maybe_keep_changes():
            return False
        trust = self._trust(path)
        if trust is None:
            self._status(f"Did not open {path.name}: its pack.py was not trusted")
            return False
        # Nothing is collected until the new pack is adopted and frozen (adopt_still):
        # collections on the way would walk its millions of new objects again and again.
        with collector_paused():
            return self._open_now(path, trust)

    def _open_now(self, path: Path, trust: str | bool) -> bool:
        self._busy = True
        document: PackDocument | None = None
        repaired: PackDocument | None = None
        try:
            with Busy(self._window, f"Opening {path.name}", can_cancel=True) as busy:
                first_key = self._validator.next_key()
                request = OpenRequest(
                    path, trust, busy.progress, first_key, self._settings.lint_budget
                )
                stamp = busy.run(stamp_work, (path, trust)).value  # before it is read
                outcome = busy.run(open_work, request)
                opened = outcome.value
                # The documents are QObjects: made here, on the UI thread, in slices.
                if opened is not None and not opened.cancelled:
                    document = self._make(busy, opened.plan)
                    repaired = self._make(busy, opened.repaired)
            if document is not None or repaired is not None:
                scheduler().next_pass()  # adopting gets a pass of its own (still busy)
        finally:
            self._busy = False
        if outcome.failure is not None:
            self._dialogs.error(self._window, "Could not open", f"{path}: {outcome.failure}")
            return False
        if outcome.cancelled or opened is None or opened.cancelled or busy.cancelled:
            self._status(f"Did not open {path.name}: cancelled")
            return False
        if document is not None:
            # its first check reuses what opening checked
            self._validator.seed(document, opened.seeds, opened.first, first_key)
            self._adopt(document, path)
            self._remember_disk(stamp)
            self.problems = []
            generated = " (built by pack.py: saving writes a new data pack)" if trust else ""
            self._status(f"Opened {path.name}: {document.level_count()} levels{generated}")
            return True
        problems = opened.problems
        notes, why_not = opened.notes, opened.why_not
        name = problems[0].pack if problems else path.stem
        notes = [n.located(pack=name, level=n.level) for n in notes]
        wants_repair = self._dialogs.show_problems(
            self._window,
            path.name,
            problems,
            can_repair=repaired is not None,
            repair_notes=[note_text(n) for n in notes],
            why_not=why_not,
        )
        if repaired is None or not wants_repair:
            reason = f" ({why_not})" if why_not else ""
            count = engine.counted(len(problems), "problem")
            self._status(f"{path.name} did not load: {count}{reason}")
            return False
        changes = [n for n in notes if n.code != NOT_SHOWN]
        repaired.mark_changed_on_open(changes)  # unsaved: the file does not hold these yet
        self._adopt(repaired, path)
        self._remember_disk(stamp)
        self.problems = problems
        changed = f"; {engine.counted(len(changes), 'change')} to save" if changes else ""
        self._status(
            f"Opened {path.name} for repair: {engine.counted(len(problems), 'problem')} to fix"
            f"{changed} (View ▸ Panels ▸ Problems)"
        )
        return True

    @staticmethod
    def _make(busy: Busy, plan: PackPlan | None) -> PackDocument | None:
        """The document of ``plan``, a level per step of the scheduler's passes."""
        if plan is None:
            return None
        builder = PackBuilder(plan)
        busy.progress.begin("Opening the levels", len(plan.levels))
        if not busy.slices(_counted(builder.steps(), busy.progress)):
            return None
        return builder.document

    def _trust(self, path: Path) -> str | bool | None:
        """False for data packs; for a ``pack.py`` folder, the digest of the ``pack.py``
        the author trusts (the engine runs only that content), or None when refused.

        Trust is pinned to the module's content: the author is asked once per
        version, again (saying so) when the file changed, and "yes" is remembered
        until revoked (Edit ▸ Trusted Pack Folders).
        """
        if not is_generated_pack(path):
            return False
        folder = str(path.resolve())
        try:
            digest = engine.module_digest(path)
        except engine.ValidationError:
            return False  # unreadable or too large: the engine refuses it, running nothing
        if digest is None:
            return False
        pinned = self._settings.trusted_digest(folder)
        if pinned == digest:
            return digest
        if not self._dialogs.ask_trust_folder(self._window, path, changed=pinned is not None):
            return None
        self._settings.trust_folder(folder, digest)
        return digest

    def _adopt(self, document: PackDocument, path: Path) -> None:
        adopt_still(lambda: self._session.set_pack(document))
        self._settings.add_recent_pack(str(path.resolve()))

    # ----------------------------------------------------------------- save
    def save(self) -> bool:
        pack = self.pack
        if pack.path is None or is_installation_folder(pack.path):
            return self.save_as(folder=False)  # the bundled tutorial is never written: ask where
        return self._write(pack.path, folder=pack.folder)

    def save_as(self, *, folder: bool = False) -> bool:
        pack = self.pack
        beside = pack.path.parent if pack.path is not None else None
        name = pack.properties.pack_id if folder else f"{pack.properties.pack_id}.json"
        start = self.folders.start("pack", beside=beside) if folder else None
        suggested = start or self.folders.suggest("pack", name, beside=beside)
        path = self._dialogs.choose_save_path(self._window, folder=folder, start=str(suggested))
        if path is None:
            return False
        if is_installation_folder(path):
            self._dialogs.error(
                self._window,
                "Could not save",
                f"{path}: this folder is part of the Rulegrid installation, which is never "
                "written. Choose another folder, such as your documents folder.",
            )
            return False
        written = self._write(path, folder=folder)
        if written:
            self.folders.remember("pack", path)
        return written

    def _write(self, path: Path, *, folder: bool) -> bool:
        if self._busy:
            return False  # a file operation is running (its progress window says which)
        self._busy = True
        try:  # the document's temporary copy dies by reference counting: no collection needed
            with collector_paused():
                written = self._write_now(path, folder=folder)
                freeze_if_large(self.pack.level_count())  # the pack as written is kept
        finally:
            self._busy = False
        if written == "save_as":  # the file changed on disk: the author saves elsewhere
            return self.save_as(folder=folder)
        if written == "reload":  # ... or takes the file as it is now, dropping the changes
            self.open_path(path, ask_first=False)
            return False
        return written

    def _write_now(self, path: Path, *, folder: bool) -> bool | Literal["save_as", "reload"]:
        """Check (the pack's check answers), ask, collect, write off the UI thread.

        When the file is no longer what was opened or last saved, the author chooses:
        overwrite (written here), or save as or reload (done by the caller once this
        file operation is over), or nothing is saved.
        """
        pack = self.pack
        with Busy(self._window, f"Saving {path.name}") as busy:
            problems = self._errors_now(busy)
        if problems and not self._dialogs.confirm(
            self._window, "Save a pack with errors?", errors_warning(path.name, problems)
        ):
            self._status(
                f"Not saved: {path.name} still has {engine.counted(len(problems), 'error')}"
            )
            return False
        target = path / PACK_FILE if folder else path
        disk = self._disk
        expected = disk if disk is not None and disk.path == target else None
        while True:
            with Busy(self._window, f"Saving {path.name}") as busy:
                data = self._collect(busy)
                request = WriteRequest(
                    data, target, self.backups, self._settings.backup_count, busy.progress, expected
                )
                outcome = busy.run(write_work, request)
            error = outcome.failure.error if outcome.failure is not None else None
            if not isinstance(error, ChangedOnDiskError):
                break
            removed = error.now is None
            answer = self._dialogs.ask_changed_on_disk(self._window, target, removed=removed)
            if answer != "overwrite":
                if answer in ("save_as", "reload"):
                    return answer
                self._status(f"Not saved: {target.name} changed on disk since you opened it")
                return False
            expected = None  # the author chose to replace the other version
        if isinstance(error, OSError):
            self._dialogs.error(
                self._window, "Could not save", f"{path}: {error.strerror or error}"
            )
            return False
        if isinstance(error, (ValueError, TypeError)):  # UnicodeEncodeError is a ValueError
            self._dialogs.error(
                self._window,
                "Could not save",
                f"{path}: nothing was written: {unwritable(pack, error)}",
            )
            return False
        if outcome.failure is not None:
            raise RuntimeError(f"saving {path} failed: {outcome.failure.traceback}")
        pack.mark_saved(path, folder=folder)
        self._remember_disk(outcome.value)
        self.problems = problems
        self._settings.add_recent_pack(str(path.resolve()))
        if self.problems:
            first = self.problems[0]
            self._status(
                f"Saved {path.name}, but it has {engine.counted(len(self.problems), 'problem')} and will not load in the game "
                f"until fixed. First: {first}"
            )
        else:
            self._status(f"Saved {path.name}")
        return True

    def _errors_now(self, busy: Busy) -> list[engine.Problem]:
        """The pack's errors as ``engine.load_pack`` lists them, computed at most once.

        The one check that keeps them (the Problems panel shows it, whether or not
        the panel is) answers: at once when current, else after re-reading only the
        levels edited since its last check (:meth:`PackValidator.ask_errors`).
        """
        validator = self._validator
        found = busy.answer(validator.ask_errors, validator.progress)
        if isinstance(found, TaskFailure):
            raise RuntimeError(f"checking the pack failed: {found.traceback}")
        return found

    def _collect(self, busy: Busy) -> dict[str, Any]:
        """``pack.to_data()``, a level per step on the UI thread."""
        pack = self.pack
        data = pack.shell_data()
        levels: list[Any] = []
        busy.progress.begin("Collecting levels", len(pack.levels))

        def steps() -> Iterator[None]:
            for level in list(pack.levels):
                levels.append(level.written())
                busy.progress.step()
                yield

        busy.slices(steps())
        if levels or isinstance(data.get("levels"), list):  # else: kept as the file wrote it
            data["levels"] = levels
        return data

    # ------------------------------------------------------------ on disk
    def _remember_disk(self, stamp: DiskStamp | None) -> None:
        """The data file is now ``stamp`` (opened or saved): watch it, and only it."""
        self._disk, self._foreign = stamp, None
        watched = self._watcher.files()
        if watched:
            self._watcher.removePaths(watched)
        if stamp is not None:
            self._watcher.addPath(str(stamp.path))

    def _on_file_changed(self, name: str) -> None:
        """The watcher saw the open file change: tell the author if its bytes did."""
        stamp = self._disk
        if stamp is None or self._busy or Path(name) != stamp.path:
            return  # an open or a save is under way: it stamps the file when it ends
        if name not in self._watcher.files() and stamp.path.exists():
            self._watcher.addPath(name)  # a file replaced by a rename is watched no more
        try:
            if stamp.same_time(os.stat(stamp.path)):
                return  # our own save, or nothing that changed the file
        except OSError:
            pass
        scheduler().in_thread(  # hashing 36 MB is no work for the UI thread
            self,
            Priority.BACKGROUND,
            lambda: read_stamp(stamp.path),
            lambda now, _failure: self._disk_news(stamp, now),
        )

    def _disk_news(self, stamp: DiskStamp, now: DiskStamp | None) -> None:
        if self._disk is not stamp:
            return  # opened or saved since: that stamp is the news
        if now is not None and now.sha256 == stamp.sha256:
            self._disk = now  # touched, not changed
            return
        version = now.sha256 if now is not None else "removed"
        if version == self._foreign:
            return  # already said
        self._foreign = version
        name = stamp.path.name
        if now is None:
            self._status(f"{name} was removed from disk; saving writes it again")
        else:
            self._status(
                f"{name} changed on disk: another program or window saved it. "
                "Saving asks first (reload, save as or overwrite)"
            )

    def restore_backup(self) -> bool:
        """Open a kept version of this pack in its place (unsaved until the author saves)."""
        pack = self.pack
        target = (
            None if pack.path is None else (pack.path / "pack.json" if pack.folder else pack.path)
        )
        kept = self.backups.list(target) if target is not None else []
        if not kept:
            self._status("No backups of this pack yet: each save keeps the previous version")
            return False
        index = self._dialogs.choose_backup(self._window, [b.describe() for b in kept])
        if index is None or not self.maybe_keep_changes():
            return False
        backup = kept[index]
        try:
            data = engine.read_json_file(backup.path)
            document = PackDocument.from_data(data, path=pack.path, folder=pack.folder, notes=[])
        except engine.ValidationError as exc:
            why = problem_text(exc)
            self._dialogs.error(self._window, "Restore Backup", f"{backup.path.name}: {why}")
            return False
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            self._dialogs.error(self._window, "Restore Backup", f"{backup.path.name}: {exc}")
            return False
        document.mark_unsaved()
        self._session.set_pack(document)
        self._status(f"Restored the version of {backup.describe()}; save to keep it")
        return True

    # ---------------------------------------------------------------- close
    def maybe_keep_changes(self) -> bool:
        """True when the current pack may be replaced or closed (saved, discarded or clean)."""
        pack = self._session.pack
        if self._busy:
            return False  # never replace or close a pack while it is being read or written
        if pack is None or not pack.is_dirty():
            return True
        answer = self._dialogs.ask_unsaved_changes(self._window, pack.display_name())
        if answer == "save":
            return self.save()
        return answer == "discard"

    def _start_dir(self) -> str:
        """Where File > Open starts: beside the open pack or the last one, never in the installation."""
        pack = self._session.pack
        if pack is not None and pack.path is not None and not is_installation_folder(pack.path):
            return str(pack.path.parent)
        recent = [p for p in self._settings.recent_packs if not is_installation_folder(Path(p))]
        return str(Path(recent[0]).parent) if recent else str(documents_folder())


def stamp_work(request: tuple[Path, str | bool], _token: CancelToken) -> DiskStamp | None:
    """The stamp of a data pack's file before it is opened (``None`` for a ``pack.py``)."""
    path, trust = request
    file = None if trust else data_file(path)
    return read_stamp(file) if file is not None else None


def unwritable(pack: PackDocument, error: Exception) -> str:
    """Where the pack holds what no JSON file can, as the engine locates it."""
    found = engine.structure_problems(pack.to_data())
    if not found:
        return str(error)
    first = found[0]
    return f"{first.pointer or '/'}: {first.message}"


def note_text(note: engine.Problem) -> str:
    """A repair note as the open dialog lists it: where, then what."""
    level = f" (level {note.level})" if note.level else ""
    return f"{note.pointer or '/'}{level}: {note.message}"


def errors_warning(name: str, problems: list[engine.Problem]) -> str:
    """The question before saving a pack that still has errors: what it means, then the choice."""
    count = len(problems)
    return (
        f"{name} still has {count} error{'s' if count != 1 else ''}; the first is:\n\n"
        f"{problems[0]}\n\n"
        "Until they are fixed, the game, `rulegrid validate` and share export refuse "
        "the pack. The Problems panel (F7) lists them all.\n\n"
        "Save it anyway? Your data is written exactly as it is now."
    )


def _counted(steps: Iterator[None], progress: Progress) -> Iterator[None]:
    for step in steps:
        progress.step()
        yield step
