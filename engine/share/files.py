"""Payload files (the ``.rulegrid`` files the editor writes), read within the payload's cap,
and the listing of the installed pack files.

A payload file holds one line of payload text (docs/share-format.md). Its size is
checked before a byte is read: a file larger than a payload may be is refused
whole, so a stranger's 64 MiB file costs one ``stat``. What is read is still
bounded (a pipe or a file that grows reports no true size), and the text goes to
:func:`engine.share.decode` like any other payload text.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import Problem
from engine.limits import MAX_PAYLOAD_CHARS
from engine.share.codec import ShareError
from engine.share.preview import SharePreview, decode

#: The extension the editor gives payload files (any file is read, whatever its name).
PAYLOAD_SUFFIX = ".rulegrid"
#: Bytes a payload file may hold: the payload's characters (ASCII) and a line ending.
MAX_FILE_BYTES = MAX_PAYLOAD_CHARS + 2
#: Installed pack files listed from a folder: far more than anyone installs by hand.
MAX_LISTED = 500


def read_payload_file(path: Path) -> str:
    """The payload text of ``path``, without its line ending.

    Raises:
        ShareError: the file is larger than any payload (checked before reading it).
        OSError: the file cannot be read.
    """
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ShareError(
            [
                Problem(
                    "",
                    "too-large",
                    f"the file is {size:,} bytes; a payload is at most {MAX_PAYLOAD_CHARS:,} "
                    "characters, so it was not read",
                    str(path),
                    None,
                )
            ]
        )
    with path.open("r", encoding="utf-8", errors="replace", newline="") as handle:
        text = handle.read(MAX_FILE_BYTES + 1)  # a file that grew is refused by decode
    return text.removesuffix("\n").removesuffix("\r")


def decode_file(path: Path) -> SharePreview:
    """:func:`engine.share.decode` of a payload file; a refusal names the file.

    Raises:
        ShareError: the file is not a readable payload, located at ``path``.
        OSError: the file cannot be read.
    """
    text = read_payload_file(path)
    try:
        return decode(text)
    except ShareError as exc:
        raise ShareError(
            [p.located(pack=str(path), level=p.level, prefix="") for p in exc.errors]
        ) from None


def installed_pack_files(folder: Path, limit: int = MAX_LISTED) -> tuple[list[Path], bool]:
    """The ``*.json`` files of an installed-pack folder by name, at most ``limit`` (and whether more).

    Installing writes nothing else there; files are counted while the folder is
    read, so a folder of a million files costs ``limit`` entries. Nothing is opened.

    Raises:
        OSError: the folder cannot be read (a missing folder is simply empty).
    """
    if not folder.exists():
        return [], False
    found: list[Path] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                if len(found) == limit:
                    return sorted(found), True
                found.append(Path(entry.path))
    return sorted(found), False
