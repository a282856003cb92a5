"""The ghost preview: where automaton carriers go next, drawn over the canvas.

For each carrier at move 0 it draws the next beats as a dotted path with beat
numbers, marks the beats the present board would block (a red bar on the side it
tried to leave by), and labels itself as a preview against the static board: the
rules stay those of move 0, the player and the other carriers stand still
(``engine.Game.preview_automata``). The automaton selected in the panel is drawn
strongest.
"""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen

import engine
from editor.documents.values import Pos
from editor.tasks.move_zero import MoveZeroFacts
from editor.views.canvas import CanvasLayer, GridCanvas
from editor.views.theme import AUTOMATON_COLOR

BLOCKED_COLOR = "#d0443a"
Cell = tuple[int, int]


class GhostLayer(CanvasLayer):
    """Draws the preview of the facts it is given while it is visible."""

    def __init__(self) -> None:
        super().__init__()
        self._visible = False
        self._facts: MoveZeroFacts | None = None
        self._selected: str | None = None

    # ------------------------------------------------------------ public API
    @property
    def visible(self) -> bool:
        return self._visible

    def set_visible(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            self.changed.emit()

    def set_facts(self, facts: MoveZeroFacts | None) -> None:
        self._facts = facts
        if self._visible:
            self.changed.emit()

    def set_selected(self, automaton_id: str | None) -> None:
        if automaton_id != self._selected:
            self._selected = automaton_id
            if self._visible:
                self.changed.emit()

    def paths(self) -> tuple[engine.AutomatonPath, ...]:
        """The paths drawn now (empty while hidden)."""
        if not self._visible or self._facts is None:
            return ()
        return self._facts.paths

    def caption(self) -> str:
        """The label drawn over the canvas: what the preview is, or why it is empty."""
        facts = self._facts
        if facts is None:
            return "Ghost preview: reading the level…"
        if facts.problem is not None:
            return f"Ghost preview unavailable — {facts.problem}"
        if not facts.paths:
            return "Ghost preview: no automaton has a carrier at move 0"
        return (
            f"Ghost preview — next {facts.beats} beats against the static board "
            "(move-0 rules; the player and other carriers stand still)"
        )

    # -------------------------------------------------------------- painting
    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        if not self._visible:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paths = self.paths()
        ordered = sorted(paths, key=lambda p: p.automaton == self._selected)  # selected on top
        for path in ordered:
            strong = self._selected is None or path.automaton == self._selected
            self._draw_path(painter, canvas, path, strong)
        self._draw_caption(painter, canvas)

    def _draw_path(
        self, painter: QPainter, canvas: GridCanvas, path: engine.AutomatonPath, strong: bool
    ) -> None:
        size = canvas.cell_size
        color = QColor(AUTOMATON_COLOR)
        color.setAlpha(255 if strong else 110)
        line = QPainterPath(_centre(canvas, path.start))
        for step in path.steps:
            line.lineTo(_centre(canvas, step.cell))
        pen = QPen(color, max(2.0, size / 10), Qt.PenStyle.DotLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(line)
        painter.setPen(QPen(color, max(2.0, size / 14)))
        ring = canvas.cell_rect(Pos(*path.start)).adjusted(2, 2, -2, -2)
        painter.drawEllipse(ring)
        beats: dict[Cell, list[engine.PathStep]] = defaultdict(list)
        for step in path.steps:
            beats[step.cell].append(step)
            if step.blocked and step.target is not None:
                self._draw_block(painter, canvas, step)
        for cell, steps in beats.items():
            self._draw_numbers(painter, canvas, cell, steps, color)

    def _draw_block(self, painter: QPainter, canvas: GridCanvas, step: engine.PathStep) -> None:
        assert step.target is not None
        rect = QRectF(canvas.cell_rect(Pos(*step.cell)))
        dx, dy = step.target[0] - step.cell[0], step.target[1] - step.cell[1]
        thick = max(3.0, rect.width() / 8)
        if dx:
            x = rect.right() - thick if dx > 0 else rect.left()
            bar = QRectF(x, rect.top() + 2, thick, rect.height() - 4)
        else:
            y = rect.bottom() - thick if dy > 0 else rect.top()
            bar = QRectF(rect.left() + 2, y, rect.width() - 4, thick)
        painter.fillRect(bar, QColor(BLOCKED_COLOR))

    def _draw_numbers(
        self,
        painter: QPainter,
        canvas: GridCanvas,
        cell: Cell,
        steps: list[engine.PathStep],
        color: QColor,
    ) -> None:
        size = canvas.cell_size
        if size < 12:
            return
        text = ",".join(str(s.beat) for s in steps[:4]) + ("…" if len(steps) > 4 else "")
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(8, size // 4))
        metrics = QFontMetrics(font)
        width = max(metrics.horizontalAdvance(text) + 6, metrics.height())
        centre = _centre(canvas, cell)
        badge = QRectF(
            centre.x() - width / 2, centre.y() - metrics.height() / 2, width, metrics.height()
        )
        blocked = any(s.blocked for s in steps)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(BLOCKED_COLOR) if blocked else color)
        painter.drawRoundedRect(badge, badge.height() / 2, badge.height() / 2)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)

    def _draw_caption(self, painter: QPainter, canvas: GridCanvas) -> None:
        text = self.caption()
        font = QFont()
        font.setPixelSize(12)
        metrics = QFontMetrics(font)
        box = QRect(QPoint(8, 6), metrics.size(0, text)).adjusted(-6, -3, 6, 3)
        box.moveTopLeft(QPoint(6, 6))
        back = QColor("#1d2230")
        back.setAlpha(200)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(back)
        painter.drawRoundedRect(box, 4, 4)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _centre(canvas: GridCanvas, cell: Cell) -> QPointF:
    return QPointF(canvas.cell_rect(Pos(*cell)).center()) + QPointF(0.5, 0.5)
