"""Exporting: share payloads of the level or the pack, and pictures of levels and solutions.

Payloads come from :func:`engine.share.export` (what ``rulegrid share export``
prints) given the pack as it is in the editor, unsaved edits included; they go
to the clipboard without a question (the status bar says what and how large) or
to a file. Pictures come from :mod:`editor.views.pictures` with the window's
tile renderer and theme, so they look like the canvas.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget

import engine
from editor.dialogs.questions import Dialogs
from editor.documents.session import Session
from editor.io.animation import encode, format_for, write
from editor.io.clipboard import put_text
from editor.io.folders import SaveFolders
from editor.io.payloads import PAYLOAD_FILTER, PAYLOAD_SUFFIX, write_payload_file
from editor.views.pictures import (
    Board,
    PictureError,
    cell_for_scale,
    frames,
    paint,
    solution_of,
)
from editor.views.tiles import TileRenderer


class ShareExporter(QObject):
    """The Export menu's handlers. Each returns whether something was exported."""

    def __init__(
        self,
        window: QWidget,
        *,
        session: Session,
        dialogs: Dialogs,
        renderer: TileRenderer,
        show_message: Callable[[str], None],
        folders: SaveFolders,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._session = session
        self._dialogs = dialogs
        self._renderer = renderer
        self._show = show_message
        self._folders = folders

    # --------------------------------------------------------------- payloads
    def payload(self, *, whole_pack: bool, solutions: bool) -> tuple[str, str] | None:
        """``(payload, what)`` for the level or the pack; ``None`` (and a message) if invalid."""
        pack, level = self._session.pack, self._session.level
        if pack is None or (level is None and not whole_pack):
            self._show("There is no level to share")
            return None
        subject = (
            f"pack '{pack.properties.pack_id}'"
            if whole_pack
            else f"level '{level.level_id if level else ''}'"
        )
        # A level takes milliseconds; a large pack with solutions replays every one of
        # them (about 1.5 s for the 113 Keke classics, bench/bench_share.py).
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            text = engine.share.export(
                pack.to_data(),
                level=None if whole_pack or level is None else level.level_id,
                with_solutions=solutions,
            )
        except engine.ValidationError as exc:  # ShareError too (a payload limit)
            first = exc.errors[0] if exc.errors else "?"
            self._show(
                f"Cannot share the {subject}: {engine.counted(len(exc.errors), 'problem')}. First: {first}"
            )
            return None
        finally:
            QApplication.restoreOverrideCursor()
        extra = " with solutions" if solutions and whole_pack else ""
        extra = " with its solution" if solutions and not whole_pack else extra
        return text, subject + extra

    def to_clipboard(self, *, whole_pack: bool = False, solutions: bool = False) -> bool:
        """Copy the payload, no question asked; the status bar says what and its size."""
        made = self.payload(whole_pack=whole_pack, solutions=solutions)
        if made is None:
            return False
        text, what = made
        put_text(text)
        self._show(f"Copied the {what} to the clipboard as a share payload ({size(text)})")
        return True

    def to_file(self, *, whole_pack: bool = False, solutions: bool = False) -> bool:
        made = self.payload(whole_pack=whole_pack, solutions=solutions)
        if made is None:
            return False
        text, what = made
        name = self._subject_id(whole_pack) + PAYLOAD_SUFFIX
        path = self._dialogs.choose_export_path(
            self._window,
            title="Export Share Payload",
            name_filter=PAYLOAD_FILTER,
            start=str(self._folders.suggest("payload", name)),
        )
        if path is None:
            return False
        try:
            write_payload_file(path, text)
        except OSError as exc:
            self._dialogs.error(self._window, "Could not export", f"{path}: {exc.strerror or exc}")
            return False
        self._folders.remember("payload", path)
        self._show(f"Saved the {what} as a share payload in {path.name} ({size(text)})")
        return True

    def _subject_id(self, whole_pack: bool) -> str:
        pack, level = self._session.pack, self._session.level
        if whole_pack or level is None:
            return pack.properties.pack_id if pack is not None else "pack"
        return level.level_id

    # --------------------------------------------------------------- pictures
    def level_picture(self) -> bool:
        """Export ▸ Level as PNG: the level as the canvas shows it, at a chosen scale."""
        level = self._session.level
        if level is None:
            self._show("There is no level to draw")
            return False
        options = self._dialogs.picture_options(
            self._window,
            animated=False,
            suggested=self._folders.suggest("picture", f"{level.level_id}.png"),
        )
        if options is None:
            return False
        try:
            kind = format_for(options.path, animated=False)
            image = paint(
                self._renderer,
                Board.of_document(level),
                cell_for_scale(options.scale),
                transparent=options.transparent and kind != "gif",
            )
            write(options.path, encode([image], kind=kind))
        except (PictureError, ValueError, OSError) as exc:
            self._dialogs.error(self._window, "Could not export the picture", str(exc))
            return False
        self._folders.remember("picture", options.path)
        self._show(f"Saved {options.path.name} ({image.width()}x{image.height()})")
        return True

    def solution_animation(self) -> bool:
        """Export ▸ Solution as GIF or APNG: the start, one frame per move, a hold on the end."""
        level = self._session.level
        if level is None:
            self._show("There is no level to animate")
            return False
        moves = level.authored("solution")
        if not isinstance(moves, str) or not moves:
            self._show(
                f"Level '{level.level_id}' has no solution to animate: "
                "record one first (its intended solution)"
            )
            return False
        try:
            model = engine.load_level(level.to_data())
        except engine.ValidationError as exc:
            self._show(f"Cannot play level '{level.level_id}': {exc.errors[0]}")
            return False
        options = self._dialogs.picture_options(
            self._window,
            animated=True,
            suggested=self._folders.suggest("picture", f"{level.level_id}.gif"),
        )
        if options is None:
            return False
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        try:
            kind = format_for(options.path, animated=True)
            solution = solution_of(model, moves)
            images = frames(
                self._renderer,
                solution,
                cell_for_scale(options.scale),
                transparent=options.transparent and kind != "gif",
            )
            write(options.path, encode(images, solution.durations(), kind=kind))
        except (PictureError, ValueError, OSError) as exc:
            self._dialogs.error(self._window, "Could not export the animation", str(exc))
            return False
        finally:
            QApplication.restoreOverrideCursor()
        ending = "" if solution.won else f"; it does not win: {solution.problem}"
        self._folders.remember("picture", options.path)
        self._show(f"Saved {options.path.name} ({len(images)} frames{ending})")
        return True


def size(text: str) -> str:
    """A payload's size for the status bar: characters, and KB past a thousand."""
    count = len(text)
    return f"{count:,} characters" + (f", {count / 1024:.1f} KB" if count >= 1024 else "")
