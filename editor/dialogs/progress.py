"""The progress window of a long file operation (opening, checking, saving a pack).

Window-modal: the author cannot edit a pack that is being read or written, but
the window keeps painting and answering. It appears only once the operation has
taken ``SHOW_AFTER_MS``, so a small pack never flashes a dialog.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QRect, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

#: How long an operation runs before its progress window appears.
SHOW_AFTER_MS = 400


#: Frames per second of the busy bar's sliding block.
BUSY_FPS = 10


class ProgressBar(QProgressBar):
    """A progress bar painted as two rectangles, and a busy bar that slides slowly.

    ``setValue`` repaints at once, and the platform style (Fusion here) draws its bar
    with lines that Qt's raster engine hands to helper threads and waits for: on a
    loaded machine, saving 10,000 levels spent seconds of the UI thread in those
    waits, and the style's busy animation repainted 57 times a second. Two fills cost
    a small fraction of a millisecond anywhere; the busy block moves ``BUSY_FPS`` times
    a second, through ``update``, which Qt coalesces with the rest of the window.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setTextVisible(False)
        self._phase = 0
        self._slide = QTimer(self)
        self._slide.setInterval(1000 // BUSY_FPS)
        self._slide.timeout.connect(self._step)

    def set_busy(self, busy: bool) -> None:
        """Slide a block while how far the work is cannot be said (range 0 to 0)."""
        if busy and not self._slide.isActive():
            self._slide.start()
        elif not busy:
            self._slide.stop()

    def _step(self) -> None:
        self._phase += 1
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        with QPainter(self) as painter:
            self._paint(painter)

    def _paint(self, painter: QPainter) -> None:
        palette = self.palette()
        frame = self.rect().adjusted(0, 0, -1, -1)
        painter.fillRect(frame, palette.color(QPalette.ColorRole.Base))
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawRect(frame)
        inner = frame.adjusted(2, 2, -1, -1)
        span = self.maximum() - self.minimum()
        if span > 0:
            done = max(0, min(self.value(), self.maximum()) - self.minimum())
            chunk = QRect(inner.left(), inner.top(), inner.width() * done // span, inner.height())
        else:  # busy: a quarter-width block going back and forth
            width = max(1, inner.width() // 4)
            room, steps = inner.width() - width, 2 * BUSY_FPS
            at = self._phase % (2 * steps)
            offset = room * (at if at <= steps else 2 * steps - at) // steps
            chunk = QRect(inner.left() + offset, inner.top(), width, inner.height())
        painter.fillRect(chunk, palette.color(QPalette.ColorRole.Highlight))


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
        self.bar = ProgressBar(self)
        self.bar.setRange(0, 0)
        self.bar.set_busy(True)
        self.count = QLabel("", self)  # "1,234 of 10,000"
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance("00,000 of 00,000"))
        row = QHBoxLayout()
        row.addWidget(self.bar, 1)
        row.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.label)
        layout.addLayout(row)
        if can_cancel:
            buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
            buttons.rejected.connect(self._cancel)
            cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
            cancel.setAccessibleName("Cancel")
            cancel.setAccessibleDescription("Stop; the pack that was open stays open, unchanged")
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
            self.bar.set_busy(not total)
        if total:
            self.bar.setValue(min(done, total))
        count = f"{min(done, total):,} of {total:,}" if total else ""
        if self.count.text() != count:
            self.count.setText(count)

    def finish(self) -> None:
        self._later.stop()
        self.bar.set_busy(False)
        self.hide()
        self.deleteLater()

    def reject(self) -> None:  # Escape, the close button
        if self._can_cancel:
            self._cancel()

    def _cancel(self) -> None:
        self.label.setText("Stopping…")
        self.cancel_requested.emit()
