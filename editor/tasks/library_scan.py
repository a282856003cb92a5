"""Reading the installed packs (the user's pack folder) off the UI thread.

Each pack is loaded with ``engine.load_pack`` (whole-pack validation, bounded
file reads), which takes milliseconds for a real pack but more for large ones,
and the folder may hold hundreds. Only ``*.json`` files are listed (installing
writes nothing else), at most :data:`MAX_LISTED` of them, counted while the
folder is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

import engine
from editor.tasks.scheduler import Priority, scheduler

#: Packs listed from the folder (``engine.share.MAX_LISTED``): far more than anyone
#: installs by hand, and few enough that the list (a thumbnail each) opens in a second.
MAX_LISTED = engine.share.MAX_LISTED


@dataclass(frozen=True, slots=True)
class InstalledPack:
    """One file of the folder: the pack, or why it does not load."""

    path: Path
    pack: engine.Pack | None
    problems: tuple[engine.Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class Library:
    folder: Path
    packs: tuple[InstalledPack, ...] = ()
    more: bool = False  # the folder holds more than MAX_LISTED packs
    error: str = ""  # the folder could not be read


def pack_files(folder: Path) -> tuple[list[Path], bool]:
    """The ``*.json`` files of ``folder`` by name, at most :data:`MAX_LISTED` (and whether more).

    Raises:
        OSError: the folder cannot be read (a missing folder is simply empty).
    """
    return engine.share.installed_pack_files(folder, MAX_LISTED)


def read_library(folder: Path) -> Library:
    """Every listed pack of ``folder``, loaded and validated."""
    try:
        paths, more = pack_files(folder)
    except OSError as exc:
        return Library(folder, error=f"{folder}: {exc.strerror or exc}")
    packs = []
    for path in paths:
        try:
            packs.append(InstalledPack(path, engine.load_pack(path)))
        except engine.ValidationError as exc:
            packs.append(InstalledPack(path, None, tuple(exc.errors)))
    return Library(folder, tuple(packs), more)


class LibraryScanner(QObject):
    """Reads the folder on a worker thread; ``scanned`` delivers the newest reading."""

    scanned = Signal(object)  # Library

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = 0

    def start(self, folder: Path) -> None:
        self._ticket += 1
        ticket = self._ticket
        scheduler().in_thread(
            self,
            Priority.INPUT,
            lambda: _scan(folder),
            lambda library, failure: self._on_finished(ticket, library),
        )

    def _on_finished(self, ticket: int, library: Library | None) -> None:
        if ticket == self._ticket and library is not None:
            self.scanned.emit(library)


def _scan(folder: Path) -> Library:
    try:
        return read_library(folder)
    except Exception as exc:  # an engine bug: say so rather than never answer
        return Library(folder, error=f"{type(exc).__name__}: {exc}")
