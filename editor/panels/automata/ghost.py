"""The ghost preview: where automaton carriers go next, drawn over the canvas.

For each carrier at move 0 it draws the next beats as a dotted path with beat
numbers, marks the beats the present board would block (a ✕ after the number and
a red bar on the side the carrier tried to leave by), and labels itself, in one
line beside the board (never over it), as a preview against the static board:
the rules stay those of move 0, the player and the other carriers stand still
(``engine.Game.preview_automata``). The automaton selected in the panel is drawn
strongest. A level without automata shows no caption.
"""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPixmap

import engine
from editor.tasks.move_zero import MoveZeroFacts
from editor.values import Pos
from editor.views.canvas import CanvasLayer, GridCanvas
from editor.views.contrast import text_on
from editor.views.theme import AUTOMATON_COLOR

BLOCKED_COLOR = "#d0443a"
CAPTION_BACK = "#1d2230"
CAPTION_PX = 12
Cell = tuple[int, int]


class GhostLayer(CanvasLayer):
    """Draws the preview of the facts it is given while it is visible."""

    def __init__(self) -> None:
        super().__init__()
        self._visible = False
        self._facts: MoveZeroFacts | None = None
        self._selected: str | None = None
        self._has_automata = False
        self._badges: dict[tuple[str, int, int], QPixmap] = {}
        self.caption_rect = QRect()  # where the caption was last drawn (empty: not drawn)

    # ------------------------------------------------------------ public API
    @property
    def visible(self) -> bool:
        return self._visible

    def set_visible(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            self.changed.emit()

    def set_facts(self, facts: MoveZeroFacts | None) -> None:
        before = (self.paths(), self.caption()) if self._visible else None
        self._facts = facts
        if self._visible and (self.paths(), self.caption()) != before:
            self.changed.emit()  # repaint the canvas only when the drawing changes

    def set_has_automata(self, has: bool) -> None:
        """Whether the level declares automata: on a level without, the preview says nothing."""
        if has != self._has_automata:
            self._has_automata = has
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
        """The one line drawn beside the board: what the preview shows, or why it is empty.

        Empty on a level without automata: there is nothing to preview there.
        """
        if not self._has_automata:
            return ""
        facts = self._facts
        if facts is None:
            return "Ghost preview: reading the level…"
        if facts.paths_problem is not None:
            return f"Ghost preview unavailable: {facts.paths_problem}"
        if facts.problem is not None:
            return f"Ghost preview unavailable: {facts.problem}"
        if not facts.paths:
            return "Ghost preview: no automaton has a carrier at move 0"
        return (
            f"Ghost preview: the next {facts.beats} beats on the board as at move 0 "
            "(the player and the other carriers stand still)"
        )

    # -------------------------------------------------------------- painting
    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        if not self._visible:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paths = self.paths()
        ordered = sorted(paths, key=lambda p: p.automaton == self._selected)  # selected on top
        for path in ordered:
            if not _bounds(canvas, path).intersects(exposed):
                continue
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
        text = ",".join(f"{s.beat}✕" if s.blocked else str(s.beat) for s in steps[:4])
        text += "…" if len(steps) > 4 else ""
        blocked = any(s.blocked for s in steps)
        badge = self._badge(text, QColor(BLOCKED_COLOR) if blocked else color, size)
        centre = _centre(canvas, cell)
        painter.drawPixmap(
            QPointF(centre.x() - badge.width() / 2, centre.y() - badge.height() / 2), badge
        )

    def _badge(self, text: str, color: QColor, size: int) -> QPixmap:
        """A beat-number badge, drawn once per text, colour and cell size."""
        key = (text, color.rgba(), size)
        cached = self._badges.get(key)
        if cached is not None:
            return cached
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(8, size // 4))
        metrics = QFontMetrics(font)
        width = max(metrics.horizontalAdvance(text) + 6, metrics.height())
        pixmap = QPixmap(width, metrics.height())
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        radius = pixmap.height() / 2
        painter.drawRoundedRect(QRectF(pixmap.rect()), radius, radius)
        painter.setFont(font)
        solid = QColor(color)
        solid.setAlpha(255)
        painter.setPen(text_on(solid))
        painter.drawText(pixmap.rect(), Qt.AlignmentFlag.AlignCenter, text)
        painter.end()
        if len(self._badges) > 512:  # many zoom levels and selections: start over
            self._badges.clear()
        self._badges[key] = pixmap
        return pixmap

    def _draw_caption(self, painter: QPainter, canvas: GridCanvas) -> None:
        """One line above the board, or below it; never over it.

        A fitted board leaves a margin above and below it for this line. When the
        author has zoomed the board over the whole view there is no room outside it,
        and the caption waits until there is (the paths still show).
        """
        text = self.caption()
        self.caption_rect = QRect()
        if not text:
            return
        font = QFont()
        font.setPixelSize(CAPTION_PX)
        metrics = QFontMetrics(font)
        height = metrics.height() + 4
        board = canvas.board_rect()
        above = QRect(0, 0, canvas.width(), board.top() - 1)
        below = QRect(0, board.bottom() + 2, canvas.width(), canvas.height() - board.bottom() - 2)
        band = next((b for b in (above, below) if b.height() >= height), None)
        if band is None or band.width() < 40:
            return
        width = min(band.width() - 12, metrics.horizontalAdvance(text) + 12)
        line = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width - 12)
        top = band.bottom() - height + 1 if band is above else band.top()
        box = QRect(board.left() if board.left() > 6 else 6, top, width, height)
        if box.right() > canvas.width() - 6:
            box.moveRight(canvas.width() - 6)
        back = QColor(CAPTION_BACK)
        back.setAlpha(220)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(back)
        painter.drawRoundedRect(box, 4, 4)
        painter.setFont(font)
        painter.setPen(text_on(QColor(CAPTION_BACK)))
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), line)
        self.caption_rect = box


def _bounds(canvas: GridCanvas, path: engine.AutomatonPath) -> QRect:
    """The widget area a path's marks can cover (its cells and the cells it tried)."""
    cells = [path.start, *(s.cell for s in path.steps)]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    area = QRect(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3)
    return canvas.cells_rect(area)


def _centre(canvas: GridCanvas, cell: Cell) -> QPointF:
    size, origin = canvas.cell_size, canvas.origin
    return QPointF(origin.x() + (cell[0] + 0.5) * size, origin.y() + (cell[1] + 0.5) * size)
