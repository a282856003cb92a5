"""The questions before a picture is written: where, how large, on what background."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

PNG_FILTER = "PNG images (*.png)"
ANIMATION_FILTER = "Animated GIF (*.gif);;Animated PNG (*.png)"


@dataclass(frozen=True, slots=True)
class PictureOptions:
    """A picture to write: its file, its scale (1 = 32 px a cell) and its background."""

    path: Path
    scale: float = 1.0
    transparent: bool = False


class PictureDialog(QDialog):
    """Level as PNG, or Solution as GIF or APNG: the file, a scale and a background."""

    def __init__(self, *, animated: bool, suggested: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pictureDialog")
        self.setWindowTitle("Solution as GIF or APNG" if animated else "Level as PNG")
        self._animated = animated
        self.path = QLineEdit(str(suggested), self)
        self.path.setObjectName("picturePath")
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(browse)
        self.scale = QDoubleSpinBox(self)
        self.scale.setObjectName("pictureScale")
        self.scale.setRange(0.25, 8.0)
        self.scale.setSingleStep(0.25)
        self.scale.setValue(1.0)
        self.scale.setSuffix(" × 32 px a cell")
        self.themed = QRadioButton("Themed (the board and its grid)", self)
        self.transparent = QRadioButton("Transparent (PNG and APNG only)", self)
        self.transparent.setObjectName("pictureTransparent")
        self.themed.setChecked(True)
        form = QFormLayout()
        form.addRow("File", where)
        form.addRow("Scale", self.scale)
        form.addRow("Background", self.themed)
        form.addRow("", self.transparent)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.path.textChanged.connect(self._update)
        self._update()

    def _browse(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(
            self,
            self.windowTitle(),
            self.path.text(),
            ANIMATION_FILTER if self._animated else PNG_FILTER,
        )
        if chosen:
            self.path.setText(chosen)

    def _update(self) -> None:
        gif = self.path.text().lower().endswith(".gif")
        self.transparent.setEnabled(not gif)
        if gif:
            self.themed.setChecked(True)

    def options(self) -> PictureOptions:
        text = self.path.text().strip()
        path = Path(text)
        if path.suffix.lower() not in (".png", ".gif"):
            path = path.with_name(path.name + (".gif" if self._animated else ".png"))
        return PictureOptions(path, self.scale.value(), self.transparent.isChecked())
