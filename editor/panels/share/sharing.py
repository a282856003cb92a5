"""Sharing in the window: the Export menu, importing payloads, the installed packs.

One object the main window builds and asks for the handlers of its actions
(``editor.actions.SHARE_ACTIONS``), so the window itself gains only a few lines.
The work is in :mod:`~editor.panels.share.export`, :mod:`~editor.panels.share.importing`, :mod:`~editor.panels.share.preview`
and :mod:`library`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

import engine
from editor.dialogs.questions import Dialogs
from editor.documents.session import Session
from editor.io.files import PackFiles
from editor.panels.library import LibraryDialog
from editor.panels.share.export import ShareExporter
from editor.panels.share.importing import ShareImporter
from editor.views.theme import Theme
from editor.views.tiles import TileRenderer


class Sharing(QObject):
    """Export, import and the library for one window."""

    def __init__(
        self,
        window: QWidget,
        *,
        session: Session,
        dialogs: Dialogs,
        files: PackFiles,
        renderer: TileRenderer,
        theme: Callable[[], Theme],
        show_message: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._dialogs = dialogs
        self._files = files
        self._theme = theme
        self._show = show_message
        self.exporter = ShareExporter(
            window,
            session=session,
            dialogs=dialogs,
            renderer=renderer,
            show_message=show_message,
            folders=files.folders,
        )
        self.importer = ShareImporter(
            window,
            session=session,
            dialogs=dialogs,
            files=files,
            theme=theme,
            show_message=show_message,
        )
        #: The open Installed Packs dialog, if any.
        self.library: LibraryDialog | None = None

    def handlers(self) -> dict[str, Callable[[], object]]:
        """The handlers of the share actions (``editor.actions.SHARE_ACTIONS``), by id."""
        ex, im = self.exporter, self.importer
        return {
            "actionExportShare": lambda: ex.to_clipboard(),
            "actionExportShareLevelSolution": lambda: ex.to_clipboard(solutions=True),
            "actionExportSharePack": lambda: ex.to_clipboard(whole_pack=True),
            "actionExportSharePackSolutions": lambda: ex.to_clipboard(
                whole_pack=True, solutions=True
            ),
            "actionExportShareLevelFile": lambda: ex.to_file(),
            "actionExportShareLevelSolutionFile": lambda: ex.to_file(solutions=True),
            "actionExportSharePackFile": lambda: ex.to_file(whole_pack=True),
            "actionExportSharePackSolutionsFile": lambda: ex.to_file(
                whole_pack=True, solutions=True
            ),
            "actionExportLevelPicture": ex.level_picture,
            "actionExportSolutionAnimation": ex.solution_animation,
            "actionImportShare": im.import_share,
            "actionImportShareFile": im.import_file,
            "actionInstalledPacks": self.show_library,
        }

    def show_library(self) -> LibraryDialog:
        """File ▸ Installed Packs: opens (or raises) the library of the user's pack folder."""
        if self.library is not None:
            self.library.refresh()
            self.library.raise_()
            return self.library
        dialog = LibraryDialog(
            engine.share.user_pack_folder(), self._theme(), self._dialogs, self._window
        )
        dialog.open_requested.connect(self._open_installed)
        dialog.finished.connect(lambda _result: self._forget_library(dialog))
        self.library = dialog
        dialog.open()
        return dialog

    def _forget_library(self, dialog: LibraryDialog) -> None:
        if self.library is dialog:
            self.library = None
        dialog.deleteLater()

    def _open_installed(self, path: Path) -> None:
        if self._files.open_path(path):
            self._show(f"Opened the installed pack {path.name}")
