"""Item roles of the rules panel and the delegate that draws a row's words as tiles.

A rule reads best as the words on the board: the delegate draws each word with
the one :class:`~editor.views.tiles.TileRenderer` (so colours follow the theme and
the pack's nouns), then the row's plain summary. Rows without words draw as text.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from editor.documents.values import WORD, Stamp
from editor.views.tiles import TileRenderer

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
IDS_ROLE = Qt.ItemDataRole.UserRole + 2
WORDS_ROLE = Qt.ItemDataRole.UserRole + 3
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 4
KEY_ROLE = Qt.ItemDataRole.UserRole + 5
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 6
DEPTH_ROLE = Qt.ItemDataRole.UserRole + 7
COLLAPSED_ROLE = Qt.ItemDataRole.UserRole + 8  # set on rows that hold others: bool

INDENT = 16

#: Tiles drawn in one row; a longer sentence ends in "…" (its text is in the tooltip).
MAX_TILES = 12
GAP = 2

Index = QModelIndex | QPersistentModelIndex


class RuleItemDelegate(QStyledItemDelegate):
    """Draws ``WORDS_ROLE`` as word tiles followed by ``SUMMARY_ROLE``."""

    def __init__(self, renderer: TileRenderer, parent: object = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self._renderer = renderer

    def _tile_size(self, option: QStyleOptionViewItem) -> int:
        return max(22, option.fontMetrics.height() + 10)

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        size.setHeight(max(size.height(), self._tile_size(option) + 4))  # uniform rows
        return size

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        """Indent by depth (a triangle marks rows that fold), then draw tiles or text."""
        depth = int(index.data(DEPTH_ROLE) or 0)
        folded = index.data(COLLAPSED_ROLE)
        rect = QRect(option.rect)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        background = QStyleOptionViewItem(opt)
        background.text = ""
        background.icon = QIcon()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, background, painter, widget)
        if folded is not None:
            arrow = QStyleOptionViewItem(option)
            arrow.rect = QRect(rect.left() + depth * INDENT, rect.top(), INDENT, rect.height())
            element = (
                QStyle.PrimitiveElement.PE_IndicatorArrowRight
                if folded
                else QStyle.PrimitiveElement.PE_IndicatorArrowDown
            )
            style.drawPrimitive(element, arrow, painter, widget)
        indent = (depth + 1) * INDENT
        words = index.data(WORDS_ROLE)
        if not words:
            opt.rect = rect.adjusted(indent, 0, 0, 0)
            opt.backgroundBrush = QBrush()
            opt.state &= ~QStyle.StateFlag.State_MouseOver
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
            return
        size = self._tile_size(option)
        x = rect.left() + indent
        top = rect.top() + (rect.height() - size) // 2
        painter.save()
        for token in list(words)[:MAX_TILES]:
            if x + size > rect.right() - 8:
                break
            painter.drawPixmap(x, top, self._renderer.tile(Stamp(WORD, str(token)), size))
            x += size + GAP
        if len(words) > MAX_TILES:
            x += GAP
        summary = str(index.data(SUMMARY_ROLE) or "")
        if summary:
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            role = opt.palette.ColorRole.HighlightedText if selected else opt.palette.ColorRole.Text
            color = QColor(opt.palette.color(role))
            if index.data(SEVERITY_ROLE) == "warning" and not selected:
                color = QColor("#b8731b")
            painter.setPen(color)
            text_rect = QRect(x + 4, rect.top(), max(0, rect.right() - x - 6), rect.height())
            elided = option.fontMetrics.elidedText(
                summary, Qt.TextElideMode.ElideRight, text_rect.width()
            )
            painter.drawText(
                text_rect,
                int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft),
                elided,
            )
        painter.restore()
