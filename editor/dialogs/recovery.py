"""The question after a crash: restore unsaved work, compare it with the file, or discard it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

RecoveryAnswer = tuple[str, int]  # ("restore" | "discard", index into the offered items)


class RecoveryDialog(QDialog):
    """Lists recovered work; the author restores, compares or discards one, or decides later."""

    def __init__(
        self, descriptions: list[str], compare: Callable[[int], str], parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryDialog")
        self.setWindowTitle("Recover unsaved work")
        self.answer: RecoveryAnswer | None = None
        self._compare = compare
        intro = QLabel(
            "Rulegrid did not close normally last time. This unsaved work was kept:", self
        )
        intro.setWordWrap(True)
        self.items = QListWidget(self)
        self.items.setObjectName("recoveryItems")
        self.items.addItems(descriptions)
        self.items.setCurrentRow(0)
        self.details = QPlainTextEdit(self)
        self.details.setObjectName("recoveryComparison")
        self.details.setReadOnly(True)
        self.details.setPlaceholderText("Compare shows what the recovered pack changes on disk.")
        buttons = QDialogButtonBox(self)
        restore = buttons.addButton("Restore", QDialogButtonBox.ButtonRole.AcceptRole)
        compare_button = QPushButton("Compare with File", self)
        buttons.addButton(compare_button, QDialogButtonBox.ButtonRole.ActionRole)
        discard = buttons.addButton("Discard", QDialogButtonBox.ButtonRole.DestructiveRole)
        later = buttons.addButton("Later", QDialogButtonBox.ButtonRole.RejectRole)
        restore.clicked.connect(lambda: self._finish("restore"))
        discard.clicked.connect(lambda: self._finish("discard"))
        later.clicked.connect(self.reject)
        compare_button.clicked.connect(self._show_comparison)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.items)
        layout.addWidget(self.details)
        layout.addWidget(buttons)
        self.resize(560, 360)

    def _show_comparison(self) -> None:
        row = self.items.currentRow()
        if row >= 0:
            self.details.setPlainText(self._compare(row))

    def _finish(self, choice: str) -> None:
        row = self.items.currentRow()
        if row >= 0:
            self.answer = (choice, row)
            self.accept()
