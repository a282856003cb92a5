"""Trusted pack folders: which ``pack.py`` programs may run, and taking that back.

Each entry is a folder and the content (SHA-256) of the Python files the author
trusted there (``pack.py`` and its helpers); a change is asked about again when it
is opened. Revoking
forgets the folder at once: the next open asks again. Nothing here reads the
modules themselves, so the list opens instantly whatever the folders hold.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from editor.settings import EditorSettings


class TrustedFoldersDialog(QDialog):
    """The list of trusted folders with a Revoke button (Edit ▸ Trusted Pack Folders)."""

    def __init__(self, settings: EditorSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.setWindowTitle("Trusted Pack Folders")
        self.setObjectName("trustedFoldersDialog")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "These folders build their packs with a pack.py program that you allowed to "
            "run. Trust covers the folder's Python files as they were when you trusted it; "
            "if one changes, Rulegrid asks again. Revoke a folder to be asked before it "
            "runs next time."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.list = QListWidget(self)
        self.list.setObjectName("trustedFolders")
        self.list.setAccessibleName("Trusted pack folders")
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(2)
        layout.addWidget(self.list)
        self.empty = QLabel("No folder is trusted.")
        layout.addWidget(self.empty)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.revoke_button = QPushButton("&Revoke Trust", self)
        self.revoke_button.setObjectName("revokeTrust")
        buttons.addButton(self.revoke_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.revoke_button.clicked.connect(self.revoke_selected)
        self.list.currentRowChanged.connect(lambda _row: self._enable())
        layout.addWidget(buttons)
        self.resize(560, 300)
        self.refresh()

    def refresh(self) -> None:
        self.list.clear()
        for folder, digest in sorted(self._settings.trusted_modules.items()):
            item = QListWidgetItem(f"{folder}\nPython files {digest[:12]}…")
            item.setData(Qt.ItemDataRole.UserRole, folder)
            item.setToolTip(f"{folder}\nSHA-256 of the trusted Python files: {digest}")
            self.list.addItem(item)
        self.empty.setVisible(self.list.count() == 0)
        if self.list.count():
            self.list.setCurrentRow(0)
        self._enable()

    def revoke_selected(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        row = self.list.row(item)
        self._settings.revoke_trust(str(item.data(Qt.ItemDataRole.UserRole)))
        self.refresh()
        if self.list.count():
            self.list.setCurrentRow(min(row, self.list.count() - 1))

    def _enable(self) -> None:
        self.revoke_button.setEnabled(self.list.currentItem() is not None)
