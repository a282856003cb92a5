"""Importing share payloads: from the clipboard, a file, or a drop on the window.

Every route ends in the same place: the text goes to :func:`engine.share.decode`
(on a worker; the checks of ``rulegrid share import``) and the preview dialog
shows the verdict. Nothing is written before the author presses Install. A
dropped ``.json`` file is a pack, not a payload: it opens like File ▸ Open.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QWidget

import engine
from editor.dialogs.questions import Dialogs
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.io.clipboard import clipboard_text
from editor.io.files import PackFiles
from editor.io.payloads import PAYLOAD_FILTER, dropped, looks_like_payload, read_payload_file
from editor.panels.share.preview import SharePreviewDialog
from editor.tasks.share_decode import Decoded, ShareDecoder
from editor.views.theme import Theme

TITLE = "Import Shared Payload"


class ShareImporter(QObject):
    """Reads payload text from wherever the author has it and opens the preview."""

    def __init__(
        self,
        window: QWidget,
        *,
        session: Session,
        dialogs: Dialogs,
        files: PackFiles,
        theme: Callable[[], Theme],
        show_message: Callable[[str], None],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._session = session
        self._dialogs = dialogs
        self._files = files
        self._theme = theme
        self._show = show_message
        self.decoder = ShareDecoder(self)
        self.decoder.decoded.connect(self._on_decoded)
        #: The open preview, if any (tests and the screenshot script drive it).
        self.dialog: SharePreviewDialog | None = None

    # ------------------------------------------------------------ the routes
    def import_share(self) -> bool:
        """The clipboard's payload when it holds one, else a payload file chosen by the author."""
        text = clipboard_text()
        if looks_like_payload(text):
            self.preview_text(text, "the clipboard")
            return True
        return self.import_file()

    def import_file(self) -> bool:
        path = self._dialogs.choose_import_file(
            self._window,
            title=TITLE,
            name_filter=PAYLOAD_FILTER,
            start=str(self._files.folders.start("payload")),
        )
        return self.preview_file(path) if path is not None else False

    def preview_file(self, path: Path) -> bool:
        try:
            text = read_payload_file(path)
        except OSError as exc:
            self._dialogs.error(self._window, TITLE, f"{path}: {exc.strerror or exc}")
            return False
        except engine.ShareError as exc:  # larger than any payload: refused unread
            self._dialogs.error(self._window, TITLE, str(exc))
            return False
        self.preview_text(text, path.name)
        return True

    def preview_text(self, text: str, source: str) -> None:
        """Check ``text`` on a worker; the preview opens when the engine has answered."""
        self._show(f"Checking the payload from {source}…")
        self.decoder.start(text, source)

    # ------------------------------------------------------------- dropping
    def accepts(self, mime: QMimeData | None) -> bool:
        return dropped(mime) is not None

    def drag_enter(self, event: QDragEnterEvent) -> None:
        if self.accepts(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def drop(self, event: QDropEvent) -> None:
        """Dropped text is read as a payload; a dropped file too, unless it is a ``.json`` pack."""
        what = dropped(event.mimeData())
        if what is None:
            event.ignore()
            return
        event.acceptProposedAction()
        if what.path is not None and what.path.suffix.lower() == ".json":
            self._files.open_path(what.path)
        elif what.path is not None:
            self.preview_file(what.path)
        elif what.text is not None:
            self.preview_text(what.text, "the dropped text")

    # -------------------------------------------------------------- results
    def _on_decoded(self, decoded: Decoded) -> None:
        self._show("")
        if self.dialog is not None:
            self.dialog.reject()
        folder = engine.share.user_pack_folder()
        dialog = SharePreviewDialog(decoded, folder, self._theme(), self._window)
        dialog.installed.connect(self._on_installed)
        dialog.open_requested.connect(self._on_open_requested)
        dialog.finished.connect(lambda _result, d=dialog: self._forget(d))
        self.dialog = dialog
        dialog.open()  # window-modal, without a nested event loop

    def _forget(self, dialog: SharePreviewDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _on_installed(self, path: Path) -> None:
        self._show(f"Installed {path.name} in {path.parent}")
        if self._files.open_path(path):
            self._show(f"Installed and opened {path.name} (in {path.parent})")

    def _on_open_requested(self, pack: engine.Pack) -> None:
        if not self._files.maybe_keep_changes():
            return
        self._session.set_pack(PackDocument.from_pack(pack))
        self._files.problems = []
        self._show(
            f"Opened the shared pack '{pack.id}' without installing it: "
            "save it (Ctrl+S) or install it to keep it"
        )
