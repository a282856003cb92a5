"""The import preview: what a share payload holds, before anything is written.

It shows the engine's verdict (:func:`engine.share.decode`, the checks of
``rulegrid share import``): a thumbnail of each level, the summary, every
problem and warning, and each solution's replay (the same as the author's, and
whether it wins). Install writes through :meth:`SharePreview.install` into the
user's pack folder; when a pack of the same id is installed the author renames
(suggested: the first free ``id-2``, ``id-3`` …) or replaces it, by choice,
never silently. Open Without Installing hands the pack to the editor as a new
untitled pack. Cancel, or closing the dialog, writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QRadioButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.tasks.share_decode import Decoded
from editor.views.theme import Theme
from editor.views.thumbnails import ThumbnailJob, Thumbnails

THUMB_W, THUMB_H = 168, 120  # 14 px cells for a 12 x 8 level: words stay readable
#: Free ids tried for a rename suggestion (``id-2`` … ``id-100``).
RENAME_TRIES = 99


class SharePreviewDialog(QDialog):
    """The preview of one decoded payload. Emits ``installed`` or ``open_requested``."""

    installed = Signal(Path)
    open_requested = Signal(object)  # engine.Pack

    def __init__(self, decoded: Decoded, folder: Path, theme: Theme, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("sharePreviewDialog")
        self.setAccessibleName("sharePreviewDialog")
        self.setWindowTitle("Import Shared Payload")
        self.resize(760, 620)
        self.decoded, self.folder = decoded, folder
        self.preview = decoded.preview
        self._collides = False  # a pack of the same id is installed: rename or replace
        self._items: dict[str, QListWidgetItem] = {}
        self.thumbnails = Thumbnails(theme, THUMB_W, THUMB_H, self)
        self.thumbnails.ready.connect(self._on_thumbnail)

        layout = QVBoxLayout(self)
        self.heading = self._label("shareHeading", layout)
        self.facts = self._label("shareFacts", layout)
        self.levels = QListWidget(self)
        self.levels.setObjectName("shareLevels")
        self.levels.setViewMode(QListView.ViewMode.IconMode)
        self.levels.setIconSize(QSize(THUMB_W, THUMB_H))
        self.levels.setGridSize(QSize(THUMB_W + 24, THUMB_H + 44))
        self.levels.setResizeMode(QListView.ResizeMode.Adjust)
        self.levels.setMovement(QListView.Movement.Static)
        self.levels.setWordWrap(True)
        self.levels.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        layout.addWidget(self.levels, 5)
        self.checks = QTreeWidget(self)
        self.checks.setObjectName("shareChecks")
        self.checks.setHeaderLabels(["Check", "Where", "What"])
        self.checks.setRootIsDecorated(False)
        self.checks.setColumnWidth(0, 110)
        self.checks.setColumnWidth(1, 200)
        layout.addWidget(self.checks, 2)
        layout.addWidget(self._collision_box())
        self.destination = self._label("shareDestination", layout)
        self.install_error = self._label("shareInstallError", layout)
        self.install_error.setStyleSheet("color: #c0392b;")
        layout.addLayout(self._buttons())

        self._fill()
        self._update_destination()

    # --------------------------------------------------------------- building
    def _label(self, name: str, layout: QVBoxLayout) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(label)
        return label

    def _collision_box(self) -> QGroupBox:
        box = QGroupBox("A pack of this id is already installed", self)
        box.setObjectName("shareCollision")
        rows = QVBoxLayout(box)
        self.collision_text = QLabel(box)
        self.collision_text.setWordWrap(True)
        rows.addWidget(self.collision_text)
        line = QHBoxLayout()
        self.rename = QRadioButton("Install as a new pack with the id", box)
        self.rename.setObjectName("shareRename")
        self.new_id = QLineEdit(box)
        self.new_id.setObjectName("shareNewId")
        self.new_id.setMaxLength(engine.MAX_ID_LENGTH)
        line.addWidget(self.rename)
        line.addWidget(self.new_id, 1)
        rows.addLayout(line)
        self.replace = QRadioButton("Replace the installed pack", box)
        self.replace.setObjectName("shareReplace")
        rows.addWidget(self.replace)
        group = QButtonGroup(box)
        group.addButton(self.rename)
        group.addButton(self.replace)
        self.rename.setChecked(True)
        self.rename.toggled.connect(self._update_destination)
        self.new_id.textChanged.connect(self._on_new_id_edited)
        box.setVisible(False)
        self.collision = box
        return box

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addStretch(1)
        self.install_button = QPushButton("&Install", self)
        self.install_button.setObjectName("shareInstall")
        self.open_button = QPushButton("&Open Without Installing", self)
        self.open_button.setObjectName("shareOpen")
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("shareCancel")
        for button in (self.install_button, self.open_button, self.cancel_button):
            row.addWidget(button)
        self.install_button.setDefault(True)
        self.install_button.clicked.connect(self.install)
        self.open_button.clicked.connect(self._open)
        self.cancel_button.clicked.connect(self.reject)
        return row

    def _fill(self) -> None:
        preview, source = self.preview, self.decoded.source
        if preview is None:
            self.heading.setText(f"<b>This is not a payload Rulegrid can read</b> (from {source})")
            self.facts.setText("Nothing can be installed or opened.")
            error = self.decoded.error
            for problem in error.errors if error is not None else []:
                self._check("problem", problem.pointer, problem.message, problem)
            self.levels.setVisible(False)
            return
        summary = preview.summary
        head = f"<b>{_escape(summary.kind)} '{_escape(summary.id)}'</b>"
        if summary.title:
            head += f" — {_escape(summary.title)}"
        if summary.authors:
            head += f", by {_escape(', '.join(summary.authors))}"
        self.heading.setText(f"{head} <span>(from {_escape(source)})</span>")
        self.facts.setText(facts(preview))
        checks_by_level: dict[str, list[engine.share.ReplayCheck]] = {}
        for check in preview.replays:
            checks_by_level.setdefault(check.record.level, []).append(check)
        for level in summary.levels:
            self._level_item(level, checks_by_level.get(level.id, []))
        for problem in preview.problems:
            self._check("problem", _where(problem), problem.message, problem)
        for warning in preview.warnings:
            self._check("warning", _where(warning), warning.message, warning)
        for check in preview.replays:
            self._check("solution", check.record.level, replay_text(check), check)
        if not (preview.problems or preview.warnings or preview.replays):
            self._check("ok", "", "valid: no problems", None)
        pack = preview.pack
        if pack is not None:
            nouns = dict(pack.nouns)
            self.thumbnails.draw([ThumbnailJob(lv.id, lv, nouns) for lv in pack.levels])

    def _level_item(
        self, level: engine.share.LevelSummary, checks: list[engine.share.ReplayCheck]
    ) -> None:
        item = QListWidgetItem(f"{level.title or level.id}\n{level.id} · {level.size}")
        item.setData(Qt.ItemDataRole.UserRole, level.id)
        item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        lines = [f"{level.id}: {level.size}, {level.entities} entities"]
        if level.mechanics:
            lines.append("mechanics: " + ", ".join(level.mechanics))
        if level.has_solution:
            lines += [replay_text(c) for c in checks] or ["solution: no replay record to check"]
        item.setToolTip("\n".join(lines))
        self.levels.addItem(item)
        self._items.setdefault(level.id, item)

    def _check(self, kind: str, where: str, what: str, data: object) -> None:
        item = QTreeWidgetItem([kind, where, what])
        item.setToolTip(2, what)
        item.setData(0, Qt.ItemDataRole.UserRole, data)
        self.checks.addTopLevelItem(item)

    # ------------------------------------------------------------- choosing
    @property
    def can_install(self) -> bool:
        return self.preview is not None and self.preview.ok

    def pending_pack_id(self) -> str | None:
        """The id the pack installs under (``None``: its own)."""
        if self._collides and self.rename.isChecked():
            return self.new_id.text().strip()
        return None

    def _on_new_id_edited(self) -> None:
        if not self.rename.isChecked():
            self.rename.setChecked(True)
        self._update_destination()

    def _update_destination(self) -> None:
        """Say where Install writes, and enable it only when that is possible."""
        preview = self.preview
        self.install_error.clear()
        if preview is None or not preview.ok:
            count = len(preview.problems) if preview is not None else 1
            self.destination.setText(f"Not installable: {engine.counted(count, 'problem')}.")
            self.install_button.setEnabled(False)
            self.open_button.setEnabled(False)
            return
        self.open_button.setEnabled(True)
        if not self._collides and self._existing():
            self._collides = True
            self.collision.setVisible(True)
            self._describe_collision()
            self.new_id.setText(self._free_id())
            return  # setText updated the destination
        try:
            replace = self._collides and self.replace.isChecked()
            path = preview.install_path(
                self.folder, replace=replace, pack_id=self.pending_pack_id()
            )
        except engine.ValidationError as exc:
            self.destination.setText(f"Cannot install: {exc.errors[0].message}")
            self.install_button.setEnabled(False)
            return
        verb = "Replaces" if self._collides and self.replace.isChecked() else "Installs"
        self.destination.setText(f"{verb} {path}")
        self.install_button.setEnabled(True)

    def _existing(self) -> bool:
        """Whether a pack of the same id is installed (so Install needs a choice)."""
        assert self.preview is not None
        try:
            self.preview.install_path(self.folder)
        except engine.ValidationError as exc:
            return exc.errors[0].code == "pack-exists"
        return False

    def _describe_collision(self) -> None:
        """Say what is installed; offer Replace only where the engine would replace it."""
        assert self.preview is not None
        assert self.preview.pack is not None
        pack_id = self.preview.pack.id
        try:
            path = self.preview.install_path(self.folder, replace=True)
        except engine.ValidationError as exc:  # a pack folder of that name: never replaced
            self.replace.setEnabled(False)
            self.collision_text.setText(exc.errors[0].message)
            return
        self.collision_text.setText(
            f"“{pack_id}” is already installed ({path}). Install this one under another "
            "id to keep both, or replace the installed pack with it."
        )

    def _free_id(self) -> str:
        assert self.preview is not None
        assert self.preview.pack is not None
        base = self.preview.pack.id
        for n in range(2, RENAME_TRIES + 2):
            suffix = f"-{n}"
            candidate = base[: engine.MAX_ID_LENGTH - len(suffix)] + suffix
            try:
                self.preview.install_path(self.folder, pack_id=candidate)
            except engine.ValidationError:
                continue
            return candidate
        return ""

    def install(self) -> Path | None:
        """Install as chosen; on success emit ``installed`` and close."""
        if self.preview is None or not self.install_button.isEnabled():
            return None
        replace = self._collides and self.replace.isChecked()
        try:
            path = self.preview.install(
                self.folder, confirm=True, replace=replace, pack_id=self.pending_pack_id()
            )
        except engine.ValidationError as exc:  # the file appeared meanwhile, say
            self.install_error.setText(f"Not installed: {exc.errors[0].message}")
            return None
        except OSError as exc:
            self.install_error.setText(f"Not installed: {exc.strerror or exc}")
            return None
        assert path is not None
        self.thumbnails.stop()
        self.accept()
        self.installed.emit(path)
        return path

    def _open(self) -> None:
        if self.preview is None or self.preview.pack is None:
            return
        self.thumbnails.stop()
        self.accept()
        self.open_requested.emit(self.preview.pack)

    def reject(self) -> None:
        self.thumbnails.stop()
        super().reject()

    def _on_thumbnail(self, key: object, image: QImage) -> None:
        item = self._items.get(str(key))
        if item is not None and not image.isNull():
            item.setIcon(QPixmap.fromImage(image))


def facts(preview: engine.share.SharePreview) -> str:
    """The payload in one line: levels, nouns, automata, mechanics, solutions."""
    summary = preview.summary
    parts = [
        _count(len(summary.levels), "level"),
        _count(len(summary.nouns), "noun"),
        _count(summary.automata, "automaton", "automata"),
        "mechanics: " + (", ".join(summary.mechanics) or "none"),
    ]
    solutions = _count(summary.solutions, "solution")
    if preview.replays:
        wins = sum(check.wins for check in preview.replays)
        solutions += f" ({wins} of {len(preview.replays)} replay to a win)"
    parts.append(solutions)
    if summary.snapshot_level is not None:
        parts.append(f"a saved game of {summary.snapshot_level}")
    return " · ".join(_escape(part) for part in parts)


def replay_text(check: engine.share.ReplayCheck) -> str:
    same = "plays as the author's" if check.matches else "plays DIFFERENTLY here"
    ends = "and wins" if check.wins else "and does NOT win"
    return f"solution of {check.record.level} ({len(check.record.moves)} moves) {same} {ends}"


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _where(problem: engine.Problem) -> str:
    level = f' (level "{problem.level}")' if problem.level else ""
    return f"{problem.pack or ''}{problem.pointer}{level}"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
