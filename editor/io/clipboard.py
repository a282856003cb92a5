"""Copied regions: stacks without ids, relative to the region's top-left corner.

They travel through the system clipboard as JSON under their own MIME type, so
a region copied in one level (or one editor window) pastes into another.
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from editor.documents.values import OBJECT, WORD, Pos, Stamp

MIME_TYPE = "application/x-rulegrid-region"


_release_at_exit = False


def release_clipboard() -> None:
    """Take our region off the system clipboard before the application goes away.

    PySide6 (seen with 6.11 on the offscreen and xcb platforms) crashes at exit when
    the clipboard still owns a ``QMimeData`` made in Python. A region only pastes
    into a running Rulegrid, so nothing of value is lost.
    """
    if QGuiApplication.instance() is None:
        return
    clipboard = QGuiApplication.clipboard()
    mime = clipboard.mimeData()
    if mime is not None and mime.hasFormat(MIME_TYPE):
        clipboard.clear()


def put_region(region: Region) -> None:
    """Put ``region`` on the system clipboard, and make sure it comes off before exit.

    Whoever copies also answers for the exit crash described in
    :func:`release_clipboard`: an ``atexit`` hook runs it even in a script that
    builds a window, copies and simply ends, before Python tears the wrappers down.
    """
    QGuiApplication.clipboard().setMimeData(region.to_mime())
    _release_before_exit()


def put_text(text: str) -> None:
    """Put plain text (a share payload) on the system clipboard.

    Qt owns plain text (no ``QMimeData`` made in Python), so it may outlive the
    window: a payload copied just before quitting still pastes elsewhere. Whatever
    region was on the clipboard is replaced; the exit hook is registered all the
    same, so every copy goes through the same protection.
    """
    QGuiApplication.clipboard().setText(text)
    _release_before_exit()


def clipboard_text() -> str:
    """The clipboard's plain text (``""`` when it holds none)."""
    return QGuiApplication.clipboard().text()


def _release_before_exit() -> None:
    global _release_at_exit
    if not _release_at_exit:
        atexit.register(release_clipboard)
        _release_at_exit = True


@dataclass(frozen=True, slots=True)
class Region:
    width: int
    height: int
    stacks: Mapping[Pos, tuple[Stamp, ...]]  # relative positions, bottom first

    def to_mime(self) -> QMimeData:
        payload = {
            "width": self.width,
            "height": self.height,
            "cells": [
                {"x": p.x, "y": p.y, "stack": [{"kind": s.kind, "token": s.token} for s in stack]}
                for p, stack in sorted(self.stacks.items(), key=lambda kv: (kv[0].y, kv[0].x))
            ],
        }
        mime = QMimeData()
        mime.setData(MIME_TYPE, json.dumps(payload).encode("utf-8"))
        mime.setText(self.describe())
        return mime

    @classmethod
    def from_mime(cls, mime: QMimeData | None) -> Region | None:
        """The region in ``mime``, or ``None`` when it holds none (or something malformed)."""
        if mime is None or not mime.hasFormat(MIME_TYPE):
            return None
        try:
            payload = json.loads(bytes(mime.data(MIME_TYPE).data()).decode("utf-8"))
            stacks = {
                Pos(int(c["x"]), int(c["y"])): tuple(
                    Stamp(str(s["kind"]), str(s["token"])) for s in c["stack"]
                )
                for c in payload["cells"]
            }
            region = cls(int(payload["width"]), int(payload["height"]), stacks)
        except (KeyError, TypeError, ValueError):
            return None
        kinds_ok = all(s.kind in (OBJECT, WORD) for stack in region.stacks.values() for s in stack)
        return region if kinds_ok else None

    def describe(self) -> str:
        count = sum(len(s) for s in self.stacks.values())
        return f"Rulegrid region {self.width}x{self.height}, {count} entities"
