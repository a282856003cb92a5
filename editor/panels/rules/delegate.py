"""Item roles of the rules panel and the delegate that draws a row's words as tiles.

A rule reads best as the words on the board: the delegate draws each word with
the one :class:`~editor.views.tiles.TileRenderer` (so colours follow the theme and
the pack's nouns), then the row's plain summary. Rows without words draw as text.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QIcon, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from editor.values import WORD, Stamp
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
            lines = self._text_lines(opt, style)
            if lines is None:  # one line holds it: the style draws the row as usual
                style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
                return
            opt.text = ""  # the icon here, the text below: in two lines, not cut
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
            selected = bool(opt.state & QStyle.StateFlag.State_Selected)
            role = opt.palette.ColorRole.HighlightedText if selected else opt.palette.ColorRole.Text
            area, font, (first, second) = lines
            flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            half = area.height() // 2
            painter.save()
            painter.setPen(opt.palette.color(role))
            painter.setFont(font)
            painter.drawText(QRect(area.left(), area.top(), area.width(), half), flags, first)
            painter.drawText(
                QRect(area.left(), area.top() + half, area.width(), area.height() - half),
                flags,
                second,
            )
            painter.restore()
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

    def text_lines(self, option: QStyleOptionViewItem, index: Index) -> list[str]:
        """The lines a row without words shows (one, or two when one would cut it)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        depth = int(index.data(DEPTH_ROLE) or 0)
        opt.rect = opt.rect.adjusted((depth + 1) * INDENT, 0, 0, 0)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        lines = self._text_lines(opt, style)
        return [opt.text] if lines is None else [line for line in lines[2] if line]

    def _text_lines(
        self, opt: QStyleOptionViewItem, style: QStyle
    ) -> tuple[QRect, QFont, tuple[str, str]] | None:
        """Where and how a long text row is drawn in two lines (``None``: one holds it).

        Rows are one height; two lines take a smaller font as far as they need, so a
        hint ("ROCK IS: nothing after IS: add a noun or a property") reads to its end
        in a panel 400 pixels wide. Longer still, the second line ends in "…" (the
        tooltip holds the whole text).
        """
        area = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        area = area.adjusted(2, 0, -2, 0)
        if opt.fontMetrics.horizontalAdvance(opt.text) <= area.width():
            return None
        font = QFont(opt.font)
        needed = 2 * opt.fontMetrics.height()
        if needed > area.height() and font.pointSizeF() > 0:
            font.setPointSizeF(font.pointSizeF() * area.height() / needed)
        return area, font, two_lines(opt.text, QFontMetrics(font), area.width())


def two_lines(text: str, metrics: QFontMetrics, width: int) -> tuple[str, str]:
    """``text`` in two lines of at most ``width`` pixels, broken between words; the
    second ends in "…" when the text needs more."""
    words = text.split(" ")
    first = ""
    while words and metrics.horizontalAdvance(f"{first} {words[0]}".strip()) <= width:
        first = f"{first} {words.pop(0)}".strip()
    if not first:  # one word wider than the row
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width), ""
    return first, metrics.elidedText(" ".join(words), Qt.TextElideMode.ElideRight, width)
