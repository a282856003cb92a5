"""What the editor knows of the pack file on disk: enough to notice another program's save.

Opening a data pack notes the file's size, modification time and SHA-256
(:class:`DiskStamp`) before it is read; each save notes them for the bytes it
wrote. Before a save replaces the file, the writer checks the file is still what
the editor opened or last saved (:func:`check_unchanged`): otherwise another
program, or another Rulegrid window on the same file, saved it meanwhile, and the
save stops (:class:`ChangedOnDiskError`) so the author decides (reload, save as,
overwrite) instead of silently overwriting that edit.

The content decides, not the time: a file touched (new time, same bytes) is
unchanged, and two saves within one tick of a coarse clock are still told apart.
The time and size answer first where they can: a different size is a change
without reading a byte, and the window's file watcher ignores an event whose
size and time are still the stamp's (its own save).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: Bytes hashed at a time (hashlib lets go of the interpreter for each piece).
_PIECE = 1 << 20


@dataclass(frozen=True, slots=True)
class DiskStamp:
    """A file as the editor last knew it: where, how long, when written, what it held."""

    path: Path
    size: int
    mtime_ns: int
    sha256: str

    def same_time(self, stat: os.stat_result) -> bool:
        """Whether ``stat`` has this stamp's size and time (nothing to read: unchanged)."""
        return (stat.st_size, stat.st_mtime_ns) == (self.size, self.mtime_ns)


class ChangedOnDiskError(Exception):
    """The file is no longer what the editor opened or last saved; nothing was written."""

    def __init__(self, path: Path, now: DiskStamp | None) -> None:
        self.path = path
        self.now = now  # None: the file is gone (or cannot be read)
        what = "was removed" if now is None else "changed"
        super().__init__(f"{path} {what} on disk since it was opened or last saved")


def read_stamp(path: Path) -> DiskStamp | None:
    """The stamp of ``path`` as it is now; ``None`` when it is not a readable file.

    A file written while it is hashed is hashed again (three tries), so a stamp is
    never of a mix of two versions.
    """
    for _ in range(3):
        try:
            before = os.stat(path)
            digest = hashlib.sha256()
            with path.open("rb") as handle:
                while piece := handle.read(_PIECE):
                    digest.update(piece)
            after = os.stat(path)
        except OSError:
            return None
        if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
            return DiskStamp(path, after.st_size, after.st_mtime_ns, digest.hexdigest())
    return None


def written_stamp(path: Path, pieces: Iterable[bytes]) -> DiskStamp | None:
    """The stamp of the bytes a save just wrote to ``path`` (its time read now)."""
    digest = hashlib.sha256()
    size = 0
    for piece in pieces:
        digest.update(piece)
        size += len(piece)
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return DiskStamp(path, size, stat.st_mtime_ns, digest.hexdigest())


def check_unchanged(expected: DiskStamp) -> None:
    """Raise unless ``expected.path`` still holds the bytes ``expected`` describes.

    Raises:
        ChangedOnDiskError: it holds other bytes, or is gone.
    """
    try:
        stat = os.stat(expected.path)
    except OSError:
        raise ChangedOnDiskError(expected.path, None) from None
    if stat.st_size != expected.size:
        raise ChangedOnDiskError(expected.path, read_stamp(expected.path))
    now = read_stamp(expected.path)
    if now is None or now.sha256 != expected.sha256:
        raise ChangedOnDiskError(expected.path, now)
