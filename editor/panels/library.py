"""File ▸ Installed Packs: the packs in the user's pack folder, with thumbnails.

The folder is the one ``rulegrid share import`` installs into
(:func:`engine.share.user_pack_folder`). Packs are read on a worker
(:mod:`editor.tasks.library_scan`) and their thumbnails drawn a few at a time, so
the list opens at once however many packs there are. Open hands a pack to the
window; Remove deletes its file after asking (through the injected dialogs).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.dialogs.questions import Dialogs
from editor.tasks.library_scan import MAX_LISTED, InstalledPack, Library, LibraryScanner
from editor.views.theme import Theme
from editor.views.thumbnails import ThumbnailJob, Thumbnails

THUMB_W, THUMB_H = 176, 120
PATH_ROLE = Qt.ItemDataRole.UserRole


class LibraryDialog(QDialog):
    """The installed packs. ``open_requested`` carries the chosen pack's file."""

    open_requested = Signal(Path)
    removed = Signal(Path)

    def __init__(self, folder: Path, theme: Theme, dialogs: Dialogs, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("installedPacksDialog")
        self.setAccessibleName("installedPacksDialog")
        self.setWindowTitle("Installed Packs")
        self.resize(820, 560)
        self.folder = folder
        self._dialogs = dialogs
        self._items: dict[str, QListWidgetItem] = {}
        self.library: Library | None = None
        self.scanner = LibraryScanner(self)
        self.scanner.scanned.connect(self._on_scanned)
        self.thumbnails = Thumbnails(theme, THUMB_W, THUMB_H, self)
        self.thumbnails.ready.connect(self._on_thumbnail)

        layout = QVBoxLayout(self)
        self.where = QLabel(self)
        self.where.setObjectName("libraryFolder")
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.where)
        self.list = QListWidget(self)
        self.list.setObjectName("installedPacks")
        self.list.setAccessibleName("installedPacks")
        self.list.setViewMode(QListView.ViewMode.IconMode)
        self.list.setIconSize(QSize(THUMB_W, THUMB_H))
        self.list.setGridSize(QSize(THUMB_W + 28, THUMB_H + 48))
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setMovement(QListView.Movement.Static)
        self.list.setWordWrap(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.itemDoubleClicked.connect(lambda _item: self.open_selected())
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        layout.addWidget(self.list, 1)
        self.note = QLabel(self)
        self.note.setObjectName("libraryNote")
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        row = QHBoxLayout()
        self.remove_button = QPushButton("&Remove…", self)
        self.remove_button.setObjectName("libraryRemove")
        self.remove_button.clicked.connect(self.remove_selected)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        self.open_button = QPushButton("&Open", self)
        self.open_button.setObjectName("libraryOpen")
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self.open_selected)
        close = QPushButton("Close", self)
        close.setObjectName("libraryClose")
        close.clicked.connect(self.reject)
        row.addWidget(self.open_button)
        row.addWidget(close)
        layout.addLayout(row)
        self.refresh()

    # ---------------------------------------------------------------- reading
    @property
    def loading(self) -> bool:
        return self.library is None

    def refresh(self) -> None:
        """Read the folder again (on a worker); the list fills when it is read."""
        self.library = None
        self.thumbnails.stop()
        self.list.clear()
        self._items.clear()
        self.where.setText(f"Packs installed in {self.folder}")
        self.note.setText("Reading the installed packs…")
        self._update_buttons()
        self.scanner.start(self.folder)

    def _on_scanned(self, library: Library) -> None:
        self.library = library
        jobs = []
        for installed in library.packs:
            item = _item_for(installed)
            self.list.addItem(item)
            self._items[str(installed.path)] = item
            if installed.pack is not None and installed.pack.levels:
                pack = installed.pack
                jobs.append(ThumbnailJob(str(installed.path), pack.levels[0], dict(pack.nouns)))
        self.thumbnails.draw(jobs)
        if library.error:
            self.note.setText(f"Cannot read the folder: {library.error}")
        elif not library.packs:
            self.note.setText(
                "No packs are installed yet. Import a shared payload (File ▸ Import Shared "
                "Payload…, or drop one on the window) and choose Install."
            )
        else:
            more = f" (the first {MAX_LISTED}; the folder holds more)" if library.more else ""
            self.note.setText(f"{engine.counted(len(library.packs), 'installed pack')}{more}.")
        if self.list.count():
            self.list.setCurrentRow(0)
        self._update_buttons()

    def _on_thumbnail(self, key: object, image: QImage) -> None:
        item = self._items.get(str(key))
        if item is not None and not image.isNull():
            item.setIcon(QPixmap.fromImage(image))

    # ----------------------------------------------------------------- acting
    def selected_path(self) -> Path | None:
        item = self.list.currentItem()
        return Path(item.data(PATH_ROLE)) if item is not None else None

    def select(self, path: Path) -> bool:
        item = self._items.get(str(path))
        if item is not None:
            self.list.setCurrentItem(item)
        return item is not None

    def open_selected(self) -> None:
        path = self.selected_path()
        if path is None:
            return
        self.thumbnails.stop()
        # Opened first, closed after: the open waits in an event loop (a large pack
        # shows progress), which must not delete this dialog under its caller.
        self.open_requested.emit(path)
        self.accept()

    def remove_selected(self) -> bool:
        """Delete the selected pack's file, after asking; False when nothing was removed."""
        path = self.selected_path()
        if path is None:
            return False
        item = self.list.currentItem()
        name = item.text().splitlines()[0] if item is not None else path.stem
        question = (
            f"Remove the installed pack “{name}”?\n\n{path}\n\n"
            "Its file is deleted. A pack you opened from it stays open until you close it."
        )
        if not self._dialogs.confirm(self, "Remove Installed Pack", question):
            return False
        try:
            path.unlink()
        except FileNotFoundError:
            pass  # already gone: the list was out of date
        except OSError as exc:
            self._dialogs.error(self, "Remove Installed Pack", f"{path}: {exc.strerror or exc}")
            return False
        self.removed.emit(path)
        self.refresh()
        return True

    def reject(self) -> None:
        self.thumbnails.stop()
        super().reject()

    def _update_buttons(self) -> None:
        chosen = self.list.currentItem() is not None
        self.open_button.setEnabled(chosen)
        self.remove_button.setEnabled(chosen)


def _item_for(installed: InstalledPack) -> QListWidgetItem:
    pack = installed.pack
    if pack is None:
        text = f"{installed.path.stem}\n{engine.counted(len(installed.problems), 'problem')}"
        tip = "\n".join([str(installed.path), *(str(p) for p in installed.problems[:8])])
    else:
        text = f"{pack.title or pack.id}\n{pack.id} · {engine.counted(len(pack.levels), 'level')}"
        tip = f"{installed.path}\nby {pack.author}" if pack.author else str(installed.path)
    item = QListWidgetItem(text)
    item.setData(PATH_ROLE, str(installed.path))
    item.setToolTip(tip)
    item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
    return item
