"""Copied regions: stacks without ids, relative to the region's top-left corner.

They travel through the system clipboard as JSON under their own MIME type, so
a region copied in one level (or one editor window) pastes into another. What
comes back from the clipboard is checked like a pack's level before it is used.
"""

from __future__ import annotations

import atexit
import json
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

import engine
from editor.values import OBJECT, WORD, Pos, Stamp, grid_size, is_token, whole_number

MIME_TYPE = "application/x-rulegrid-region"
#: Bytes of a region read from the clipboard: the largest real region (a whole
#: 128x128 level at the entity limit) is about 1.5 MB of JSON.
MAX_REGION_BYTES = 4 * 2**20


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
        return cls.read_mime(mime)[0]

    @classmethod
    def read_mime(cls, mime: QMimeData | None) -> tuple[Region | None, str]:
        """The region in ``mime``, or ``None`` and why not.

        Clipboard data comes from any program, so a region goes through the checks a
        pack's level does: a size the grid allows, cells inside it, an object or a
        word of a real token in every stack, and no more entities than a level holds.
        """
        if mime is None or not mime.hasFormat(MIME_TYPE):
            return None, "The clipboard holds no Rulegrid region"
        raw = bytes(mime.data(MIME_TYPE).data())
        if len(raw) > MAX_REGION_BYTES:
            return None, f"The clipboard's region is larger than {MAX_REGION_BYTES // 2**20} MiB"
        try:
            payload = json.loads(raw.decode("utf-8"))
            return cls._from_payload(payload), ""
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            return None, f"The clipboard's region cannot be pasted: {str(exc)[:200]}"

    @classmethod
    def _from_payload(cls, payload: object) -> Region:
        if not isinstance(payload, dict) or not isinstance(payload.get("cells"), list):
            raise ValueError("it is not a region")
        width = grid_size(payload.get("width"), "its width")
        height = grid_size(payload.get("height"), "its height")
        stacks: dict[Pos, tuple[Stamp, ...]] = {}
        count = 0
        for index, cell in enumerate(payload["cells"]):
            if not isinstance(cell, dict) or not isinstance(cell.get("stack"), list):
                raise ValueError(f"cell {index} is not a cell")
            pos = Pos(
                whole_number(cell.get("x"), f"cell {index}: x", 0, width - 1),
                whole_number(cell.get("y"), f"cell {index}: y", 0, height - 1),
            )
            stack = []
            for item in cell["stack"]:
                kind = item.get("kind") if isinstance(item, dict) else None
                token = item.get("token") if isinstance(item, dict) else None
                if kind not in (OBJECT, WORD) or not is_token(token):
                    raise ValueError(f"cell {index} holds {str(token)[:30]!r}, which is no token")
                stack.append(Stamp(str(kind), str(token)))
            count += len(stack)
            if count > engine.MAX_ENTITIES:
                raise ValueError(f"it holds more than {engine.MAX_ENTITIES:,} entities")
            stacks[pos] = tuple(stack)
        return cls(width, height, stacks)

    def describe(self) -> str:
        count = sum(len(s) for s in self.stacks.values())
        return f"Rulegrid region {self.width}x{self.height}, {count} entities"
