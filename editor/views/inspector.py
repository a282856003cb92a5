"""The stack inspector: one cell's entities, top first, with reorder and remove.

Which cell it shows is the session's "inspected" cell (the last cell a tool
touched). Reordering and removing go through ``LevelDocument.set_stack``, so
they are undoable like any other edit.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.resources import icon
from editor.values import Piece, Pos
from editor.views.tiles import TileRenderer

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class StackInspector(QWidget):
    def __init__(
        self, session: Session, renderer: TileRenderer, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("stackInspector")
        self.setAccessibleName("stackInspector")
        self._session = session
        self._renderer = renderer
        self._level: LevelDocument | None = None
        self.title = QLabel(self)
        self.title.setObjectName("stackInspectorTitle")
        self.title.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setObjectName("stackInspectorList")
        self.list.setAccessibleName("Stack of the inspected cell")
        self.list.setAccessibleDescription("Its entities top first; raise, lower or remove one")
        self.list.setIconSize(QSize(28, 28))
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        self.raise_button = self._button(
            "stackRaise", "raise", "Move the entity up the stack (drawn above)", self.raise_current
        )
        self.lower_button = self._button(
            "stackLower", "lower", "Move the entity down the stack", self.lower_current
        )
        self.remove_button = self._button(
            "stackRemove", "delete", "Remove the entity (Delete)", self.remove_current
        )
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        for b in (self.raise_button, self.lower_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._level_links = Connections()
        session.level_changed.connect(self._on_session_level_changed)
        session.inspected_changed.connect(lambda _pos: self.refresh())
        renderer.look.changed.connect(self.refresh)
        self._on_session_level_changed(session.level)

    def _button(self, name: str, icon_name: str, tip: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(name)
        button.setIcon(icon(icon_name))
        button.setToolTip(tip)
        button.setAccessibleName(tip.split(" (")[0].split(",")[0])
        button.setAccessibleDescription(tip)
        button.clicked.connect(slot)
        return button

    # ------------------------------------------------------------ public API
    def pieces(self) -> list[Piece]:
        """The inspected stack as listed: top first."""
        level, pos = self._level, self._session.inspected
        return list(reversed(level.stack_at(pos))) if level is not None and pos is not None else []

    def select_row(self, row: int) -> None:
        self.list.setCurrentRow(row)

    def raise_current(self) -> None:
        self._shift(+1)

    def lower_current(self) -> None:
        self._shift(-1)

    def remove_current(self) -> None:
        level, pos, row = self._level, self._session.inspected, self.list.currentRow()
        if level is None or pos is None or row < 0:
            return
        stack = level.stack_at(pos)
        victim = stack[len(stack) - 1 - row]
        level.set_stack(pos, tuple(p for p in stack if p != victim), text=f"Remove {victim.token}")
        self.list.setCurrentRow(min(row, self.list.count() - 1))

    def refresh(self) -> None:
        pos, level = self._session.inspected, self._level
        keep = (
            self.list.currentItem().data(ID_ROLE) if self.list.currentItem() is not None else None
        )
        self.list.clear()
        if level is None or pos is None:
            self.title.setText("No cell selected. Click a cell with any tool to inspect its stack.")
            self._update_buttons()
            return
        pieces = self.pieces()
        count = f"{len(pieces)} entit{'y' if len(pieces) == 1 else 'ies'}" if pieces else "empty"
        self.title.setText(f"Cell ({pos.x}, {pos.y}): {count}, top first")
        for i, piece in enumerate(pieces):
            where = "  (top)" if i == 0 and len(pieces) > 1 else ""
            item = QListWidgetItem(
                self._renderer.icon(piece.stamp, 28),
                f"{piece.token}  {piece.kind} #{piece.id}{where}",
            )
            item.setData(ID_ROLE, piece.id)
            self.list.addItem(item)
            if piece.id == keep:
                self.list.setCurrentItem(item)
        self._update_buttons()

    # ---------------------------------------------------------------- internal
    def _shift(self, step: int) -> None:
        level, pos, row = self._level, self._session.inspected, self.list.currentRow()
        if level is None or pos is None or row < 0:
            return
        stack = list(level.stack_at(pos))
        k = len(stack) - 1 - row  # index in the bottom-first stack
        j = k + step
        if not 0 <= j < len(stack):
            return
        stack[k], stack[j] = stack[j], stack[k]
        level.set_stack(pos, tuple(stack), text="Reorder Stack")

    def _update_buttons(self) -> None:
        row, count = self.list.currentRow(), self.list.count()
        self.raise_button.setEnabled(row > 0)
        self.lower_button.setEnabled(0 <= row < count - 1)
        self.remove_button.setEnabled(row >= 0)

    def _on_session_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._level_links.follow(
            [] if level is None else [(level.cells_changed, self._on_level_cells_changed)]
        )
        self.refresh()

    def _on_level_cells_changed(self, changed: frozenset[Pos]) -> None:
        if self._session.inspected in changed:
            self.refresh()
