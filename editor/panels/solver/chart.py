"""The pack curve: each level's difficulty in play order, so a badly ordered pack shows.

One bar per level, coloured by its verified status; the measure is the solution's
length, the positions the solver needed (log scale) or the rule changes along the
solution. A level without a measure yet (checking, unsolvable, unknown) gets a
short grey stub. Clicking a bar opens that level.

Lengths show what is proved: a length not proved shortest is solid up to the
solver's lower bound and pale above it (the shortest lies somewhere in the pale
part), and a level with no solution known but a bound ("no solution in 30 moves or
fewer") is an outlined bar up to the bound, open above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from editor.views.theme import Theme
from editor.views.verdict_style import status_color

MEASURES = {
    "length": "Solution length",
    "states": "States to solve (log)",
    "rules": "Rule changes",
}


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One level on the curve."""

    title: str
    kind: str  # LevelStatus.kind
    length: int | None
    states: int | None
    rule_changes: int | None
    text: str  # the status sentence, for the tooltip
    current: bool
    lower_bound: int | None = None  # proved, when the length is not: shortest >= this

    def value(self, measure: str) -> float | None:
        if measure == "states":
            return None if self.states is None else math.log10(max(1, self.states))
        raw = self.length if measure == "length" else self.rule_changes
        return None if raw is None else float(raw)


class PackCurve(QWidget):
    """A small bar chart of the pack's difficulty by level order."""

    level_clicked = Signal(int)

    def __init__(self, theme: Theme, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("solverPackCurve")
        self.setAccessibleName("solverPackCurve")
        self.setMinimumHeight(96)
        self.setMouseTracking(True)
        self._theme = theme
        self._points: list[CurvePoint] = []
        self._measure = "length"

    @property
    def points(self) -> list[CurvePoint]:
        return list(self._points)

    @property
    def measure(self) -> str:
        return self._measure

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.update()

    def set_measure(self, measure: str) -> None:
        if measure not in MEASURES:
            raise ValueError(f"unknown measure {measure!r}")
        self._measure = measure
        self.update()

    def set_points(self, points: list[CurvePoint]) -> None:
        if points != self._points:
            self._points = points
            self.update()

    def sizeHint(self) -> QSize:
        return QSize(260, 120)

    # ---------------------------------------------------------------- geometry
    def _plot(self) -> QRect:
        return self.rect().adjusted(30, 8, -6, -16)

    def _bar(self, index: int) -> QRectF:
        plot = self._plot()
        step = plot.width() / max(1, len(self._points))
        gap = min(4.0, step * 0.2)
        return QRectF(plot.left() + index * step + gap / 2, plot.top(), step - gap, plot.height())

    def _index_at(self, point: QPoint) -> int | None:
        for index in range(len(self._points)):
            if self._bar(index).adjusted(-1, 0, 1, 16).contains(point):
                return index
        return None

    # ---------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:
        # Ended here, not whenever Python frees it: a frame kept alive (a traceback,
        # a debugger) would leave the painter active on the window's backing store.
        with QPainter(self) as painter:
            self._paint(painter, event)

    def _paint(self, painter: QPainter, event: QPaintEvent) -> None:
        theme = self._theme
        painter.fillRect(self.rect(), QColor(theme.base))
        plot = self._plot()
        muted = QColor(theme.muted)
        painter.setPen(QPen(QColor(theme.grid), 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        values = [p.value(self._measure) for p in self._points]
        top = max((v for v in values if v is not None), default=0.0)
        if self._measure == "length":  # an unknown level's bound is a height too
            top = max([top, *(float(p.lower_bound or 0) for p in self._points)])
        painter.setPen(muted)
        small = painter.font()
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.8))
        painter.setFont(small)
        ceiling = max(1.0, math.ceil(top)) if self._measure == "states" else _nice_ceiling(top)
        label = f"10^{ceiling:g}" if self._measure == "states" else f"{ceiling:g}"
        painter.drawText(
            QRect(0, plot.top() - 6, plot.left() - 4, 14),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            label,
        )
        painter.drawText(
            QRect(0, plot.bottom() - 7, plot.left() - 4, 14),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
            "0",
        )
        if not self._points:
            painter.drawText(plot, int(Qt.AlignmentFlag.AlignCenter), "no levels")
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for index, (point, value) in enumerate(zip(self._points, values, strict=True)):
            slot = self._bar(index)
            bound = point.lower_bound if self._measure == "length" else None
            if value is None:
                height = 3.0
                color = QColor(muted)
            else:
                height = max(2.0, slot.height() * value / ceiling) if ceiling else 2.0
                color = status_color(point.kind, theme)
            if point.kind in ("stale", "checking"):
                color.setAlpha(110)
            bar = QRectF(slot.left(), slot.bottom() - height, slot.width(), height)
            painter.setPen(Qt.PenStyle.NoPen)
            if bound is not None and bound > 1 and ceiling:
                self._paint_bound(painter, slot, bar, value, bound / ceiling, point.kind)
                bar = QRectF()  # painted
            painter.setBrush(color)
            if not bar.isNull():
                painter.drawRoundedRect(bar, 1.5, 1.5)
            if point.current:
                painter.setPen(QPen(QColor(theme.highlight), 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(slot.adjusted(-1, -1, 1, 1))
            if slot.width() >= 12 or index % max(1, math.ceil(12 / max(1.0, slot.width()))) == 0:
                painter.setPen(muted)
                painter.drawText(
                    QRectF(slot.left() - 6, plot.bottom() + 1, slot.width() + 12, 14),
                    int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop),
                    str(index + 1),
                )

    def _paint_bound(
        self,
        painter: QPainter,
        slot: QRectF,
        bar: QRectF,
        value: float | None,
        share: float,
        kind: str,
    ) -> None:
        """A length above a proved bound: solid up to the bound, pale (or open) above it."""
        color = status_color(kind if value is not None else "unknown", self._theme)
        proved = min(slot.height(), max(2.0, slot.height() * share))
        known = QRectF(slot.left(), slot.bottom() - proved, slot.width(), proved)
        if value is not None:  # solved: the shortest lies between the bound and the length
            pale = QColor(color)
            pale.setAlpha(70)
            painter.setBrush(pale)
            painter.drawRoundedRect(bar, 1.5, 1.5)
            painter.setBrush(color)
            painter.drawRoundedRect(known, 1.5, 1.5)
            return
        pale = QColor(color)  # no solution known: at least this long, open above
        pale.setAlpha(45)
        painter.setBrush(pale)
        painter.setPen(QPen(color, 1, Qt.PenStyle.DashLine))
        painter.drawRect(known.adjusted(0.5, 0.5, -0.5, 0))
        painter.setPen(Qt.PenStyle.NoPen)

    # ------------------------------------------------------------------- input
    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self._index_at(event.position().toPoint())
        if index is not None and event.button() == Qt.MouseButton.LeftButton:
            self.level_clicked.emit(index)

    def event(self, event: object) -> bool:
        if isinstance(event, QHelpEvent):
            index = self._index_at(event.pos())
            if index is None:
                QToolTip.hideText()
            else:
                point = self._points[index]
                QToolTip.showText(
                    event.globalPos(), f"{index + 1}. {point.title}\n{point.text}", self
                )
            return True
        return super().event(event)  # type: ignore[arg-type]


def _nice_ceiling(value: float) -> float:
    """The axis top: the next of 1, 2, 5 × 10ⁿ at or above ``value`` (1 at least)."""
    if value <= 1:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(10 * power)
