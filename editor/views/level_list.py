"""The pack's level list: a Qt model over ``PackDocument`` and the panel showing it.

The model is an adapter: renaming (editing a row) and reordering (drag and
drop, ``moveRows``) call document methods, which push undo commands; rows are
inserted, removed and moved in answer to the document's about-to/done signals.
With a status source (the pack verifier) each row also shows the level's verified
status (``STATUS_ROLE``: solved, broken, shortcut, stale ...) as a chip.

The model counts its rows in C++ (``QStringListModel`` holds one display text
per row) because ``QListView`` lays out every row again on each ``dataChanged``
and asks the row count once per row: with a Python ``rowCount`` that is 10,000
calls into Python per status update of a 10,000-level pack, each waiting for the
interpreter while background work holds it (hundreds of milliseconds of frozen
window during a save). ``data`` stays in Python; the view asks it only for the
rows it paints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from PySide6.QtCore import (
    QByteArray,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    QStringListModel,
    Qt,
    QTimer,
    SignalInstance,
)
from PySide6.QtGui import QAction, QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from editor.connections import Connections, Link
from editor.documents.level import LevelDocument, list_names
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks.solve_pack import LevelStatus
from editor.tasks.turns import in_own_turn
from editor.views.level_filter import LevelFilterBar
from editor.views.verdict_style import paint_pill, pill_width

ROW_MIME = "application/x-rulegrid-level-row"
#: From how many levels the list shows a new pack's rows in a turn of their own.
FILL_LATER_FROM = 1_000
Index = QModelIndex | QPersistentModelIndex
#: The narrowest status chip: its coloured dot (a long title takes the rest).
DOT_CHIP = 22
#: A row's verified status (``LevelStatus`` or ``None``); its one word is ``.kind``.
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1


class StatusSource(Protocol):
    """Where statuses come from (the pack verifier)."""

    @property
    def status_changed(self) -> SignalInstance: ...

    def status(self, level: LevelDocument) -> LevelStatus | None: ...


class LevelsModel(QStringListModel):
    """One row per level, in pack order. Editing a row renames the level (its title).

    The base class's list mirrors the pack (one display text per level) so that
    the row count lives in C++; it changes only through the base class's own
    methods, in answer to the pack's signals.
    """

    def __init__(self, pack: PackDocument | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pack: PackDocument | None = None
        self._filled: PackDocument | None = None  # the pack whose rows are shown
        self._pack_links = Connections()
        self._statuses: StatusSource | None = None
        if pack is not None:
            self.set_pack(pack)

    def set_status_source(self, source: StatusSource) -> None:
        """Show each level's verified status from ``source`` (the pack verifier)."""
        self._statuses = source
        source.status_changed.connect(self._on_source_status_changed)

    def set_pack(self, pack: PackDocument) -> None:
        """Show ``pack``; a large one a turn of the event loop later.

        Adopting a pack is one turn in which every panel reacts to it; a large
        pack's texts (8-12 ms for 10,000 levels) are read in a turn of their own.
        The pack is followed from the moment its rows are shown, read as it is then.
        """
        self._pack, self._filled = pack, None
        self._pack_links.clear()
        if pack.level_count() < FILL_LATER_FROM:
            self._fill()
        else:
            self.setStringList([])
            in_own_turn(self, self._fill)

    def _fill(self) -> None:
        pack = self._pack
        if pack is None or self._filled is pack:
            return
        self._filled = pack
        self._pack_links.follow(self._wiring(pack))
        self.setStringList(pack.level_names())  # one reset

    def _wiring(self, pack: PackDocument) -> list[Link]:
        # The pack has changed when its "done" signals arrive; each base-class step
        # below announces and makes the same change to the mirror. Views read the
        # display text from the mirror, so what they record around a change holds.
        return [
            (pack.level_inserted, self._on_pack_level_inserted),
            (pack.level_removed, lambda i: QStringListModel.removeRows(self, i, 1)),
            (pack.level_moved, self._on_pack_level_moved),
            (pack.level_changed, self._on_pack_level_changed),
        ]

    # ----------------------------------------------------------- read access
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:  # the mirror: it moves with the rows
            return QStringListModel.data(self, index, role)
        if (
            self._pack is None
            or not index.isValid()
            or not 0 <= index.row() < self._pack.level_count()
        ):
            return None
        level = self._pack.level_at(index.row())
        if role == Qt.ItemDataRole.EditRole:
            return level.title
        if role == Qt.ItemDataRole.UserRole:
            return level.level_id
        if role not in (Qt.ItemDataRole.ToolTipRole, STATUS_ROLE):
            return None
        status = self._statuses.status(level) if self._statuses is not None else None
        if role == STATUS_ROLE:
            return status
        size = f"{level.level_id}: {level.width}x{level.height}, {level.entity_count()} entities"
        size = f"{level.title}\n{size}" if level.title else size  # the whole title
        return size if status is None else f"{size}\n{status.long_text()}"

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsDropEnabled
        if not index.isValid():
            return base
        return (
            base
            | Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsEditable
            | Qt.ItemFlag.ItemIsDragEnabled
        ) & ~Qt.ItemFlag.ItemIsDropEnabled

    # ---------------------------------------------------------- edits → doc
    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if self._pack is None or not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        level = self._pack.level_at(index.row())
        return level.set_properties(replace(level.properties, title=str(value).strip()))

    def moveRows(
        self, source_parent: Index, source_row: int, count: int, dest_parent: Index, dest_child: int
    ) -> bool:
        if self._pack is None or count != 1 or source_parent.isValid() or dest_parent.isValid():
            return False
        target = dest_child if dest_child < source_row else dest_child - 1
        return self._pack.move_level(source_row, max(0, min(target, self.rowCount() - 1)))

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [ROW_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        mime = QMimeData()
        if indexes:
            mime.setData(ROW_MIME, QByteArray(str(indexes[0].row()).encode()))
        return mime

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        if not data.hasFormat(ROW_MIME):
            return False
        source = int(bytes(data.data(ROW_MIME).data()).decode())
        dest = row if row >= 0 else (parent.row() if parent.isValid() else self.rowCount())
        self.moveRows(QModelIndex(), source, 1, QModelIndex(), dest)
        return False  # the move is done: the view must not remove the source row itself

    # ----------------------------------------------------------------- slots
    def _on_pack_level_inserted(self, row: int) -> None:
        QStringListModel.insertRows(self, row, 1)
        if self._pack is not None:
            QStringListModel.setData(self, self.index(row), _text(self._pack.level_at(row)))

    def _on_pack_level_moved(self, source: int, target: int) -> None:
        destination = target if target < source else target + 1
        QStringListModel.moveRows(self, QModelIndex(), source, 1, QModelIndex(), destination)

    def _on_pack_level_changed(self, row: int) -> None:
        if self._pack is None:
            return
        index = self.index(row)
        text = _text(self._pack.level_at(row))
        if QStringListModel.data(self, index, Qt.ItemDataRole.DisplayRole) != text:
            QStringListModel.setData(self, index, text)  # tells the views
        else:
            self.dataChanged.emit(index, index)  # the size or the id changed

    def _on_source_status_changed(self, level: LevelDocument) -> None:
        shown = self._pack is not None and self._filled is self._pack  # else no rows yet
        row = self._pack.row_of(level) if shown and self._pack is not None else None
        if row is not None:
            index = self.index(row)
            self.dataChanged.emit(index, index, [STATUS_ROLE, Qt.ItemDataRole.ToolTipRole])


def _text(level: LevelDocument) -> str:
    return list_names((level,))[0]  # one rule for a row's name and a pack's


class LevelDelegate(QStyledItemDelegate):
    """Draws "N  Title ... id [status]": the play position, the title, the id the command
    line uses, and the verified status chip when there is one.

    The chips stand in a column of their own at the right, as wide as the widest chip
    drawn so far but never more than two fifths of the row. The title comes first: a
    row whose title needs the room narrows its chip, down to the status colour's dot.
    """

    def __init__(self, parent: QAbstractItemView) -> None:
        super().__init__(parent)
        self._view = parent
        self.chip_column = 0  # the status column's width (0 until a chip is drawn)

    def _column(self, opt: QStyleOptionViewItem, status: object, room: int) -> int:
        if isinstance(status, LevelStatus):
            width = pill_width(opt.fontMetrics, status.short_text())
            if width > self.chip_column:
                self.chip_column = width  # the rows drawn before move their ids over
                viewport = self._view.viewport()  # (no update once the view is gone)
                QTimer.singleShot(0, viewport, lambda: viewport.update())
        return min(self.chip_column, room * 2 // 5)

    def _chip_width(self, opt: QStyleOptionViewItem, index: Index, room: int) -> int:
        """The status column's width in this row: the column's, less what a long title
        needs, down to the chip's dot (the tooltip has the status in words)."""
        column = self._column(opt, index.data(STATUS_ROLE), room)
        if not column:
            return 0
        metrics = opt.fontMetrics
        title = metrics.horizontalAdvance(str(index.data() or ""))
        spare = room - (metrics.horizontalAdvance("000") + 4) - title - 10 - 6 - 2  # (rounding)
        return max(min(column, DOT_CHIP), min(column, spare))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        level_id = str(index.data(Qt.ItemDataRole.UserRole) or "")
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        rect = opt.rect.adjusted(6, 0, -6, 0)
        status = index.data(STATUS_ROLE)
        width = self._chip_width(opt, index, rect.width())
        if isinstance(status, LevelStatus):
            text = status.short_text()
            muted = QColor(opt.palette.color(QPalette.ColorRole.Text))
            muted.setAlphaF(0.6)
            painter.setFont(opt.font)
            backdrop = opt.palette.color(QPalette.ColorRole.Base) if selected else None
            column = rect.adjusted(rect.width() - width, 0, 0, 0)
            paint_pill(painter, column, status.kind, text, muted, opt.fontMetrics, backdrop)
        if width:
            rect = rect.adjusted(0, 0, -(width + 6), 0)
        painter.save()
        muted = QColor(opt.palette.color(text_role))
        muted.setAlphaF(0.55)
        painter.setPen(muted)
        painter.drawText(
            rect,
            int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
            f"{index.row() + 1}",
        )
        title_width = opt.fontMetrics.horizontalAdvance(str(index.data() or ""))
        id_width = opt.fontMetrics.horizontalAdvance(level_id) if level_id != index.data() else 0
        number_width = opt.fontMetrics.horizontalAdvance("000") + 4
        if id_width and number_width + title_width + id_width + 10 > rect.width():
            id_width = 0  # no room: the title matters more (the tooltip names the id)
        if id_width:
            painter.drawText(
                rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight), level_id
            )
        painter.setPen(opt.palette.color(text_role))
        title_rect = rect.adjusted(
            opt.fontMetrics.horizontalAdvance("000") + 4, 0, -(id_width + 10), 0
        )
        title = self.shown_title(opt, index, title_rect.width())
        painter.drawText(
            title_rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), title
        )
        painter.restore()

    def shown_title(self, opt: QStyleOptionViewItem, index: Index, width: int | None = None) -> str:
        """The title as the row draws it (ending in "…" when it does not fit).

        ``width``: the title's room; by default the room it has in ``opt.rect`` (the
        number and the status column taken off, the id left out)."""
        if width is None:  # as paint lays the row out
            rect = opt.rect.adjusted(6, 0, -6, 0)
            column = self._chip_width(opt, index, rect.width())
            room = rect.width() - (column + 6 if column else 0)
            width = room - (opt.fontMetrics.horizontalAdvance("000") + 4) - 10
        return opt.fontMetrics.elidedText(
            str(index.data() or ""), Qt.TextElideMode.ElideRight, max(0, width)
        )

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(hint.width(), max(hint.height(), option.fontMetrics.height() + 10))


class LevelListPanel(QWidget):
    """The levels of the pack with a small toolbar; selecting a row opens that level."""

    def __init__(
        self,
        session: Session,
        actions: Sequence[QAction | None] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("levelListPanel")
        self._session = session
        self.model = LevelsModel(parent=self)  # parentless, its connections kept it alive
        self.view = QListView(self)
        self.view.setObjectName("levelList")
        self.view.setAccessibleName("levelList")
        self.view.setAccessibleDescription(
            "The pack's levels in play order; Enter opens one, F2 renames it, drag to reorder"
        )
        self.view.setModel(self.model)
        self.view.setItemDelegate(LevelDelegate(self.view))
        # Rows are one line each: the view sizes one, not all 10,000 of a large pack.
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.view.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setAlternatingRowColors(True)
        self.view.setUniformItemSizes(True)  # a status update must not measure every row again
        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("levelListToolBar")
        self.toolbar.setIconSize(QSize(16, 16))
        self.add_toolbar_actions(actions)
        self.filter_bar = LevelFilterBar(self.view, session, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.view, 1)
        session.pack_changed.connect(self._on_session_pack_changed)
        session.level_changed.connect(self._on_session_level_changed)
        self.view.selectionModel().currentRowChanged.connect(self._on_view_current_changed)
        # The session takes a new or neighbouring level as the pack changes, before
        # the model's rows follow; once they have, the highlighted row is set again
        # (else it slides on with the rows after an insert or a removal).
        for done in (
            self.model.rowsMoved,
            self.model.rowsInserted,
            self.model.rowsRemoved,
            self.model.modelReset,
        ):
            done.connect(self._on_rows_changed)
        if session.pack is not None:
            self._on_session_pack_changed(session.pack)

    def current_row(self) -> int:
        return self.view.currentIndex().row()

    def show_statuses(self, source: StatusSource) -> None:
        """Show each level's verified status (a chip per row) from ``source``."""
        self.model.set_status_source(source)
        self.filter_bar.follow_statuses(source)

    def add_toolbar_actions(self, actions: Sequence[QAction | None]) -> None:
        """Put actions (``None``: a separator) on the list's own toolbar."""
        for action in actions:
            if action is None:
                self.toolbar.addSeparator()
            else:
                self.toolbar.addAction(action)

    def start_rename(self) -> None:
        """Edit the current level's title in place."""
        self.view.setFocus()
        self.view.edit(self.view.currentIndex())

    def _on_session_pack_changed(self, pack: PackDocument) -> None:
        self.model.set_pack(pack)
        self._on_session_level_changed(self._session.level)

    def _on_rows_changed(self, *_: object) -> None:
        self._on_session_level_changed(self._session.level)

    def _on_session_level_changed(self, level: LevelDocument | None) -> None:
        pack = self._session.pack
        row = pack.row_of(level) if pack is not None and level is not None else None
        if row is None:
            return
        if self.view.currentIndex().row() != row:
            self.view.setCurrentIndex(self.model.index(row))

    def _on_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        pack = self._session.pack
        if pack is not None and current.isValid() and current.row() < pack.level_count():
            self._session.set_level(pack.level_at(current.row()))  # no copy of every level
