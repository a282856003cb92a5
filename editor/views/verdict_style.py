"""How a level's verified status looks, the same in the level list and the solver panel.

A status is one word (``LevelStatus.kind``): a verdict (solved, unsolvable,
unknown, broken, shortcut, invalid), or ``stale``, ``checking``, ``error``.
Colours read on both themes; the pending states take the theme's muted colour.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter

from editor.views.theme import Theme

STATUS_COLORS = {
    "solved": "#2f9a57",
    "unsolvable": "#b3261e",
    "broken": "#d9482b",
    "shortcut": "#d98a12",
    "unknown": "#8d7a16",
    "invalid": "#8a3fa8",
    "error": "#8a3fa8",
}

#: What each status word means, for tooltips and the docs.
STATUS_MEANINGS = {
    "solved": "proved shortest, or solved with the shortest at least the proved bound",
    "unsolvable": "the solver searched every reachable position: no solution",
    "unknown": "unknown within budget: no solution found before a budget stopped the search",
    "broken": "the intended solution no longer wins",
    "shortcut": "the solver won in fewer moves than the intended solution",
    "invalid": "the level does not load",
    "stale": "the level changed since its last check; checking again",
    "checking": "being checked",
    "error": "the check itself failed",
}


def status_color(kind: str, theme: Theme) -> QColor:
    return QColor(STATUS_COLORS.get(kind, theme.muted))


def _color(kind: str, muted: QColor) -> QColor:
    return QColor(STATUS_COLORS[kind]) if kind in STATUS_COLORS else QColor(muted)


def pill_width(metrics: QFontMetrics, text: str) -> int:
    return metrics.horizontalAdvance(text) + 28


def paint_pill(
    painter: QPainter,
    rect: QRect,
    kind: str,
    text: str,
    muted: QColor,
    metrics: QFontMetrics,
    backdrop: QColor | None = None,
) -> None:
    """A rounded chip: a coloured dot and the status text, right-aligned in ``rect``.

    ``muted`` colours the pending states (stale, checking); ``backdrop`` is painted
    under the chip first (on a selected row, so the colours keep their contrast).
    """
    color = _color(kind, muted)
    width = min(rect.width(), pill_width(metrics, text))
    height = min(rect.height() - 4, metrics.height() + 4)
    chip = QRectF(rect.right() - width + 1, rect.center().y() - height / 2 + 1, width, height)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    fill = QColor(color)
    fill.setAlpha(38 if kind not in ("stale", "checking") else 22)
    painter.setPen(Qt.PenStyle.NoPen)
    if backdrop is not None:
        painter.setBrush(backdrop)
        painter.drawRoundedRect(chip, height / 2, height / 2)
    painter.setBrush(fill)
    painter.drawRoundedRect(chip, height / 2, height / 2)
    dot = 6.0
    painter.setBrush(color)
    painter.drawEllipse(QRectF(chip.left() + 5, chip.center().y() - dot / 2, dot, dot))
    painter.setPen(color if kind not in ("stale", "checking") else QColor(muted))
    text_rect = chip.adjusted(15, 0, -3, 0)
    elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(text_rect.width()))
    painter.drawText(
        text_rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), elided
    )
    painter.restore()
