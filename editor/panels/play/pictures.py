"""Cached pictures for the play board: the still cells of a frame, and the marks.

Both exist for speed on big boards (bench/bench_play.py): a turn redraws the few
cells it changed into one board picture, and each mark (a carrier's ring and
arrow, a cue's ring at one of a few pulse sizes) is drawn once per cell size.
Tiles still come from the tile renderer; these only cache where they were put.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPixmap

from editor.panels.play.frames import Frame
from editor.panels.play.marks import CueStyle, Marks
from editor.panels.play.text import ARROWS, DIRECTION_DELTAS
from editor.values import Pos, Stamp
from editor.views.contrast import text_on
from editor.views.theme import AUTOMATON_COLOR
from editor.views.tiles import TileRenderer

GRID_MIN_CELL = 12  # below this, grid lines would crowd the tiles
PULSE_STEPS = 8  # a cue's pulse is drawn in this many sizes
MAX_MARK_PICTURES = 256
BLOCK_COLOR = "#d64541"
WAIT = "wait"  # the carrier tag of a wait step


class BoardPicture:
    """The board's still cells as one pixmap, patched cell by cell between pictures.

    A turn changes a few cells; redrawing only those (and blitting the rest in one
    call) keeps a turn's repaint small on big boards. Tiles still come from the
    renderer: this only caches where they were put.
    """

    def __init__(self, renderer: TileRenderer) -> None:
        self._renderer = renderer
        self._pixmap = QPixmap()
        self._looks: Mapping[Pos, tuple[Stamp, ...]] = {}
        self._key: tuple[int, int, int, int] | None = None

    def draw(
        self, looks: Mapping[Pos, tuple[Stamp, ...]], width: int, height: int, cell: int
    ) -> QPixmap:
        key = (width, height, cell, self._renderer.look.revision)
        if key != self._key:
            self._key, self._looks = key, looks
            self._pixmap = QPixmap(width * cell, height * cell)
            self._redraw_all(looks, width, height, cell)
        elif looks is not self._looks:
            old, self._looks = self._looks, looks
            stale = [p for p, look in looks.items() if old.get(p) != look]
            stale.extend(p for p in old if p not in looks)
            if stale:
                painter = QPainter(self._pixmap)
                for pos in stale:
                    self._draw_cell(painter, pos, looks.get(pos), cell)
                painter.end()
        return self._pixmap

    def _redraw_all(
        self, looks: Mapping[Pos, tuple[Stamp, ...]], width: int, height: int, cell: int
    ) -> None:
        theme = self._renderer.theme
        self._pixmap.fill(QColor(theme.board))
        painter = QPainter(self._pixmap)
        if cell >= GRID_MIN_CELL:
            painter.setPen(QPen(QColor(theme.grid), 1))
            for x in range(1, width):
                painter.drawLine(x * cell, 0, x * cell, height * cell - 1)
            for y in range(1, height):
                painter.drawLine(0, y * cell, width * cell - 1, y * cell)
        stack = self._renderer.stack
        for pos, look in looks.items():
            painter.drawPixmap(pos.x * cell, pos.y * cell, stack(look, cell))
        painter.end()

    def _draw_cell(
        self, painter: QPainter, pos: Pos, look: tuple[Stamp, ...] | None, cell: int
    ) -> None:
        theme = self._renderer.theme
        x, y = pos.x * cell, pos.y * cell
        painter.fillRect(x, y, cell, cell, QColor(theme.board))
        if cell >= GRID_MIN_CELL:
            painter.setPen(QPen(QColor(theme.grid), 1))
            if pos.x > 0:
                painter.drawLine(x, y, x, y + cell - 1)
            if pos.y > 0:
                painter.drawLine(x, y, x + cell - 1, y)
        if look:
            painter.drawPixmap(x, y, self._renderer.stack(look, cell))


class MarkPainter:
    """Draws a turn's marks over the board, from pictures drawn once per size."""

    def __init__(self) -> None:
        self._drawn: dict[tuple[object, ...], QPixmap] = {}

    def paint(
        self,
        painter: QPainter,
        frame: Frame,
        marks: Marks,
        cell_rect: Callable[[Pos], QRect],
        cell: int,
        *,
        pulse: float | None,
        flash: float,
    ) -> None:
        """Draw ``marks`` on ``frame``; ``pulse`` is the turn's animation progress, if any."""
        moving = pulse is not None
        pulse = 1.0 if pulse is None else pulse
        step_of_pulse = round(pulse * PULSE_STEPS)
        for entity_id, style in marks.beats:
            shown = frame.pieces.get(entity_id)
            if shown is not None:
                picture = self._picture(
                    ("cue", style, step_of_pulse),
                    cell,
                    partial(self._paint_cue, style=style, pulse=step_of_pulse / PULSE_STEPS),
                )
                painter.drawPixmap(cell_rect(shown.pos).topLeft(), picture)
        if moving:  # carriers and blocks are marked once the entities stand still
            return
        for entity_id, step in marks.carriers.items():
            shown = frame.pieces.get(entity_id)
            if shown is not None:
                arrow = (
                    ARROWS.get((int(step.get("dx", 0)), int(step.get("dy", 0))), "?")
                    if step.get("action") == "move"
                    else WAIT
                )
                picture = self._picture(
                    ("carrier", arrow), cell, partial(self._paint_carrier, arrow=arrow, cell=cell)
                )
                painter.drawPixmap(cell_rect(shown.pos).topLeft(), picture)
        for entity_id, direction in marks.blocked_beats:
            shown = frame.pieces.get(entity_id)
            if shown is not None:
                self._paint_block(painter, cell_rect(shown.pos), direction, cell, 1.0)
        for entity_id, direction in marks.blocked_steps:
            shown = frame.pieces.get(entity_id)
            if shown is not None:
                self._paint_block(painter, cell_rect(shown.pos), direction, cell, flash)

    def _picture(
        self, key: tuple[object, ...], cell: int, draw: Callable[[QPainter, QRect], None]
    ) -> QPixmap:
        """A cell-sized picture of one mark, drawn once per key and size."""
        full = (*key, cell)
        picture = self._drawn.get(full)
        if picture is None:
            if len(self._drawn) >= MAX_MARK_PICTURES:
                self._drawn.clear()
            picture = QPixmap(cell, cell)
            picture.fill(Qt.GlobalColor.transparent)
            painter = QPainter(picture)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            draw(painter, QRect(0, 0, cell, cell))
            painter.end()
            self._drawn[full] = picture
        return picture

    def _paint_carrier(self, painter: QPainter, rect: QRect, arrow: str, cell: int) -> None:
        color = QColor(AUTOMATON_COLOR)
        painter.setPen(QPen(color, max(2.0, cell / 14), Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(rect).adjusted(2, 2, -2, -2), cell / 6, cell / 6)
        if cell < 16:
            return
        tag = max(10.0, cell * 0.38)
        box = QRectF(rect.right() - tag + 1, rect.top(), tag, tag)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(box)
        if arrow == WAIT:  # a pause sign: two bars (fonts rarely draw one well this small)
            bar_w, bar_h = tag * 0.16, tag * 0.5
            top = box.center().y() - bar_h / 2
            painter.setBrush(text_on(color))
            for dx in (-0.7, 0.7):
                x = box.center().x() + dx * bar_w * 1.2 - bar_w / 2
                painter.drawRect(QRectF(x, top, bar_w, bar_h))
            return
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(7, int(tag * 0.7)))
        painter.setFont(font)
        painter.setPen(text_on(color))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, arrow)

    def _paint_cue(self, painter: QPainter, rect: QRect, style: CueStyle, pulse: float) -> None:
        color = QColor(style.color)
        centre = QRectF(rect).center()
        radius = rect.width() * (0.28 + 0.16 * pulse)
        color.setAlphaF(0.95 - 0.25 * pulse)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(color, max(1.5, rect.width() / 16)))
        painter.drawEllipse(centre, radius, radius)
        if style.is_default or rect.width() < 20:
            return
        painter.drawEllipse(centre, radius * 0.78, radius * 0.78)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(7, rect.width() // 5))
        painter.setFont(font)
        side = rect.width() * 0.34  # bottom-right: the stack's chip and count keep the left
        tag = QRectF(rect.right() + 1 - side, rect.bottom() + 1 - side, side, side)
        solid = QColor(style.color)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(solid)
        painter.drawEllipse(tag)
        painter.setPen(text_on(solid))
        painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, (style.name or "?")[:1].upper())

    def _paint_block(
        self, painter: QPainter, rect: QRect, direction: str, cell: int, strength: float
    ) -> None:
        dx, dy = DIRECTION_DELTAS.get(direction, (0, 0))
        width = max(3.0, cell / 8)
        r = QRectF(rect)
        if dx:
            x = r.right() - width if dx > 0 else r.left()
            bar = QRectF(x, r.top() + 2, width, r.height() - 4)
        else:
            y = r.bottom() - width if dy > 0 else r.top()
            bar = QRectF(r.left() + 2, y, r.width() - 4, width)
        color = QColor(BLOCK_COLOR)
        color.setAlphaF(strength)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRoundedRect(bar, width / 2, width / 2)
