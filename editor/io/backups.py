"""Backups: each save keeps the previous version of the pack file.

Before a save replaces a pack file, the file as it is on disk is copied into
``<data folder>/backups/<pack file's stem>-<hash of its path>/`` under a name
that sorts by time. The newest ``count`` copies are kept (a setting, default
10). File ▸ Restore Backup lists them with their time and level count.

A backup is a plain copy of bytes the author's own save wrote: it is never
parsed to be kept, only to be described (and that description is bounded and
never fails: an unreadable copy says so).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import engine

#: A description reads at most this much of a backup (a pack's own size cap).
_DESCRIBE_LIMIT = 64 * 2**20


@dataclass(frozen=True, slots=True)
class Backup:
    """One kept version: where it is, when it was replaced, and what it holds."""

    path: Path
    saved_at: datetime
    levels: int | None  # None when the copy cannot be read as a pack
    title: str

    def describe(self) -> str:
        when = self.saved_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        count = "unreadable" if self.levels is None else f"{self.levels} levels"
        return f"{when}: {self.title} ({count})"


class BackupStore:
    """The backups of every pack, in one folder (``<data folder>/backups``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def folder_for(self, pack_file: Path) -> Path:
        """The folder of one pack file's backups: its stem plus a hash of its full path."""
        resolved = str(pack_file.resolve())
        tag = hashlib.sha256(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        return self.folder / f"{pack_file.stem}-{tag}"

    def keep(self, pack_file: Path, count: int, *, now: datetime | None = None) -> Path | None:
        """Copy ``pack_file`` as it is now into its backups, keeping the newest ``count``.

        Returns the copy, or ``None`` when there was nothing to keep (no file yet,
        or ``count`` is 0).
        """
        if count <= 0 or not pack_file.is_file():
            return None
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S%fZ")
        target = self.folder_for(pack_file) / f"{stamp}.json"
        engine.write_atomic(target, _pieces(pack_file))
        self._prune(pack_file, count)
        return target

    def list(self, pack_file: Path) -> list[Backup]:
        """The kept versions of ``pack_file``, newest first."""
        folder = self.folder_for(pack_file)
        if not folder.is_dir():
            return []
        return [_describe(p) for p in sorted(folder.glob("*.json"), reverse=True)]

    def _prune(self, pack_file: Path, count: int) -> None:
        copies = sorted(self.folder_for(pack_file).glob("*.json"), reverse=True)
        for old in copies[count:]:
            old.unlink(missing_ok=True)


def _describe(path: Path) -> Backup:
    try:
        saved_at = datetime.strptime(path.stem, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)
    except ValueError:
        saved_at = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    levels: int | None = None
    title = path.name
    try:
        with path.open("rb") as handle:
            data = json.loads(handle.read(_DESCRIBE_LIMIT))
        if isinstance(data, dict):
            title = str(data.get("title") or data.get("id") or title)[:80]
            if isinstance(data.get("levels"), list):
                levels = len(data["levels"])
    except (OSError, ValueError, RecursionError):
        pass
    return Backup(path, saved_at, levels, title)


#: Bytes of the pack file copied at a time into a backup.
COPY_PIECE = 1 << 20


def _pieces(path: Path) -> Iterator[bytes]:
    """The file's bytes a piece at a time: a 36 MB pack read whole was a 36 MB buffer,
    and freeing it held the interpreter 2-3 ms while the window waited."""
    with path.open("rb") as handle:
        while piece := handle.read(COPY_PIECE):
            yield piece
