"""The progress window of a long file operation (opening, checking, saving a pack).

Window-modal: the author cannot edit a pack that is being read or written, but
the window keeps painting and answering. It appears only once the operation has
taken ``SHOW_AFTER_MS``, so a small pack never flashes a dialog.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QProgressBar, QVBoxLayout, QWidget

#: How long an operation runs before its progress window appears.
SHOW_AFTER_MS = 400


class FileProgress(QDialog):
    """A label, a bar, and (when the operation can stop cleanly) Cancel."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget, title: str, *, can_cancel: bool) -> None:
        super().__init__(parent)
        self.setObjectName("fileProgress")
        self.setAccessibleName("fileProgress")
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(380)
        self.heading = QLabel(f"<b>{html.escape(title)}</b>", self)
        self.label = QLabel("", self)  # the stage
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)
        self.bar.setFormat("%v of %m")
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        if can_cancel:
            buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
            buttons.rejected.connect(self._cancel)
            layout.addWidget(buttons)
        self._can_cancel = can_cancel
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.timeout.connect(self.show)
        self._later.start(SHOW_AFTER_MS)

    def update_to(self, stage: str, done: int, total: int) -> None:
        """Show a stage and how far it is (``total`` 0: a busy bar)."""
        if self.label.text() != stage:
            self.label.setText(stage)
        if self.bar.maximum() != total:
            self.bar.setRange(0, total)
        if total:
            self.bar.setValue(min(done, total))

    def finish(self) -> None:
        self._later.stop()
        self.hide()
        self.deleteLater()

    def reject(self) -> None:  # Escape, the close button
        if self._can_cancel:
            self._cancel()

    def _cancel(self) -> None:
        self.label.setText("Stopping…")
        self.cancel_requested.emit()
