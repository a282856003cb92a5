"""Share payload text in and out of the editor: files and drops, each read bounded.

A payload is one line of text (docs/share-format.md). Files hold it with a
``.rulegrid`` extension (any text file is read); nothing read here is trusted:
:func:`engine.share.decode` checks it, on a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMimeData

import engine

PAYLOAD_SUFFIX = engine.share.PAYLOAD_SUFFIX
PAYLOAD_FILTER = "Rulegrid share payloads (*.rulegrid *.txt);;All files (*)"
PREFIX = "rulegrid:"


def looks_like_payload(text: str) -> bool:
    """Whether text starts like a payload (so the clipboard is worth previewing)."""
    return text[:64].lstrip().startswith(PREFIX)


def read_payload_file(path: Path) -> str:
    """The text of a payload file, as ``rulegrid share import FILE`` reads it.

    A file larger than a payload may be is refused by its size before it is read
    (:func:`engine.share.read_payload_file`); what is read is bounded too. Bytes
    that are not UTF-8 become replacement characters, which the decoder refuses
    with a located message.

    Raises:
        engine.ShareError: the file is larger than any payload.
        OSError: the file cannot be read.
    """
    return engine.share.read_payload_file(path)


def write_payload_file(path: Path, text: str) -> Path:
    """Write a payload file whole or not at all (one line and a newline)."""
    return engine.write_atomic(path, text + "\n")


@dataclass(frozen=True, slots=True)
class Dropped:
    """What was dropped on the window: a local file, or text."""

    path: Path | None = None
    text: str | None = None


def dropped(mime: QMimeData | None) -> Dropped | None:
    """The first local file of a drop, else its text; ``None`` when it holds neither."""
    if mime is None:
        return None
    if mime.hasUrls():
        for url in mime.urls()[:16]:  # a drop of many files: only the first local one counts
            if url.isLocalFile():
                return Dropped(path=Path(url.toLocalFile()))
    if mime.hasText() and mime.text().strip():
        return Dropped(text=mime.text())
    return None
