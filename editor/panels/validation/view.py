"""How the Problems panel draws its rows: one list item per problem, in columns.

The list view lays out only the rows it shows (uniform item sizes), where a tree or
a table would ask the model about every row after each update. The columns are
drawn by :class:`ProblemDelegate` and titled by :class:`ColumnHeader` (a plain
widget, so the panel holds exactly one item view), both from :class:`Columns`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from editor.panels.validation.model import ROW_ROLE
from editor.tasks.validation import ProblemRow

Index = QModelIndex | QPersistentModelIndex
TITLES = ("", "Level", "Problem", "Code", "Where")
PAD = 6


@dataclass(frozen=True, slots=True)
class Columns:
    """Column widths; the problem's message takes what the others leave."""

    icon: int = 24
    level: int = 130
    code: int = 160
    where: int = 230

    def rects(self, area: QRect) -> list[QRect]:
        x, y, h = area.x(), area.y(), area.height()
        fixed = self.icon + self.level + self.code + self.where
        message = max(area.width() - fixed, 120)
        widths = (self.icon, self.level, message, self.code, self.where)
        rects = []
        for width in widths:
            rects.append(QRect(x, y, width, h))
            x += width
        return rects


COLUMNS = Columns()


class ProblemDelegate(QStyledItemDelegate):
    """Draws a row: severity icon, level, message, code, pointer (muted)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row = index.data(ROW_ROLE)
        if not isinstance(row, ProblemRow):
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else None
        opt.text = ""
        opt.icon = type(opt.icon)()  # the background only; the columns are drawn below
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text, muted = QColor(opt.palette.color(role)), QColor(opt.palette.color(role))
        muted.setAlphaF(0.6)
        icon_rect, level_rect, message_rect, code_rect, where_rect = COLUMNS.rects(opt.rect)
        decoration = index.data(Qt.ItemDataRole.DecorationRole)
        if decoration is not None:
            side = min(16, opt.rect.height() - 4)
            target = QRect(0, 0, side, side)
            target.moveCenter(icon_rect.center())
            decoration.paint(painter, target)
        record = row.record
        painter.save()
        metrics = opt.fontMetrics
        for rect, value, color in (
            (level_rect, record["level"] or "(pack)", text),
            (message_rect, record["message"], text),
            (code_rect, record["code"], muted),
            (where_rect, record["pointer"] or "/", muted),
        ):
            inner = rect.adjusted(PAD // 2, 0, -PAD, 0)
            painter.setPen(color)
            elided = metrics.elidedText(str(value), Qt.TextElideMode.ElideRight, inner.width())
            painter.drawText(
                inner, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), elided
            )
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(600, option.fontMetrics.height() + 6)


class ColumnHeader(QWidget):
    """The column titles above the list, in the delegate's columns."""

    def __init__(self, view: QAbstractItemView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._view = view
        self.setFixedHeight(self.fontMetrics().height() + 8)
        view.viewport().installEventFilter(self)  # a scroll bar coming narrows the columns

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.update()
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        # Ended here, not whenever Python frees it: a frame kept alive (a traceback,
        # a debugger) would leave the painter active on the window's backing store.
        with QPainter(self) as painter:
            self._paint(painter, event)

    def _paint(self, painter: QPainter, event: QPaintEvent) -> None:
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Button))
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawLine(self.rect().bottomLeft(), self.rect().bottomRight())
        viewport = self._view.viewport()
        offset = self.mapFromGlobal(viewport.mapToGlobal(QPoint(0, 0))).x()
        area = QRect(offset, 0, viewport.width(), self.height())
        painter.setPen(palette.color(QPalette.ColorRole.ButtonText))
        for rect, title in zip(COLUMNS.rects(area), TITLES, strict=True):
            painter.drawText(
                rect.adjusted(PAD // 2, 0, -PAD, 0),
                int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                title,
            )


def problem_list(parent: QWidget) -> QListView:
    """The panel's one item view: a list of uniform rows, one selected at a time."""
    view = QListView(parent)
    view.setObjectName("problemsList")
    view.setAccessibleDescription(
        "Every error and warning of the pack; Enter or a double-click jumps to the problem"
    )
    view.setAccessibleName("Problems")
    view.setUniformItemSizes(True)
    view.setAlternatingRowColors(True)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setItemDelegate(ProblemDelegate(view))
    return view
