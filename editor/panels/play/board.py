"""``PlayBoard``: the board in test-play, drawn with the canvas's tile renderer.

It shows a :class:`~editor.panels.play.frames.Frame` and, when asked, animates
the :class:`~editor.panels.play.frames.Motion` that led to it: entities slide
along the cells they passed (120 ms), then transformed, crumbled, destroyed and
restored entities cross-fade with a short flash (100 ms). Every tile comes from
:class:`~editor.views.tiles.TileRenderer`; the board only places the pictures.

Marks drawn over the tiles carry the beat feedback: a ring and an
arrow on each automaton carrier (its ``next`` step, ``pattern[phase]``; the
cell's tooltip names it in the beat panel's words), a bar on the side an automaton
move was blocked, the beat's cue as a ring in the cue's colour (a default ring
when the step has no cue), and a bar where the player's own step was blocked.
Marks never change what the frame shows, and reduced motion draws them still.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from PySide6.QtCore import (
    QEasingCurve,
    QEvent,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    Qt,
    QVariantAnimation,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QToolTip, QWidget

from editor.panels.play.frames import NO_MOTION, Fade, Frame, Motion, Shown, entity_name
from editor.panels.play.marks import NO_MARKS, Marks
from editor.panels.play.pictures import BLOCK_COLOR, BoardPicture, MarkPainter
from editor.panels.play.text import step_label
from editor.values import Pos, Stamp
from editor.views.theme import PROPERTY_COLORS
from editor.views.tiles import TileRenderer

SLIDE_MS = 120  # the issue asks for about 100-150 ms a slide
FADE_MS = 100
MARGIN = 16
MIN_CELL, MAX_CELL = 6, 96
FLASH_COLORS = {
    "transformed": "#f5c542",
    "crumbled": PROPERTY_COLORS["FRAIL"],
    "destroyed": BLOCK_COLOR,
}


class PlayBoard(QWidget):
    """Draws frames, animates motions and marks; keys go to the play view (its parent)."""

    animation_finished = Signal()
    clicked = Signal()

    def __init__(self, renderer: TileRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playBoard")
        self.setAccessibleName("playBoard")
        self.setAccessibleDescription(
            "The game being played: arrows or WASD move, Z undoes, R resets. "
            "A tag on an automaton carrier shows its next step"
        )
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMinimumSize(200, 160)
        self._renderer = renderer
        self._frame: Frame | None = None
        self._before: Frame | None = None
        self._motion = NO_MOTION
        self._marks = NO_MARKS
        self._still: Mapping[Pos, tuple[Stamp, ...]] = {}
        self._picture = BoardPicture(renderer)
        self._mark_painter = MarkPainter()
        self._progress = 1.0
        self._animation = QVariantAnimation(self)
        self._animation.setStartValue(0.0)
        self._animation.setEndValue(1.0)
        self._animation.setEasingCurve(QEasingCurve.Type.OutCubic)
        self._animation.valueChanged.connect(self._on_progress)
        self._animation.finished.connect(self._on_finished)
        self._flash = 1.0  # the blocked-step bar's strength; it eases off after a bump
        self._flash_animation = QVariantAnimation(self)
        self._flash_animation.setStartValue(1.0)
        self._flash_animation.setEndValue(0.45)
        self._flash_animation.setDuration(260)
        self._flash_animation.valueChanged.connect(self._on_flash)
        renderer.look.changed.connect(self.update)

    # ------------------------------------------------------------ public API
    @property
    def frame(self) -> Frame | None:
        return self._frame

    @property
    def marks(self) -> Marks:
        return self._marks

    @property
    def animating(self) -> bool:
        return self._animation.state() == QVariantAnimation.State.Running

    def show_frame(
        self,
        frame: Frame,
        marks: Marks = NO_MARKS,
        *,
        before: Frame | None = None,
        motion: Motion = NO_MOTION,
        speed: float = 1.0,
    ) -> None:
        """Show ``frame``; with a ``before`` frame and a motion, animate from it first.

        A running animation is cut short without ``animation_finished``: the
        caller already moved on to the next picture.
        """
        if self.animating:
            self._animation.blockSignals(True)
            self._animation.stop()
            self._animation.blockSignals(False)
        self._frame, self._marks = frame, marks
        if before is None or not motion:
            self._before, self._motion, self._still = None, NO_MOTION, {}
            self._progress = 1.0
            self.update()
            return
        self._before, self._motion = before, motion
        self._still = frame.looks(motion.animated_ids)
        self._progress = 0.0
        total = SLIDE_MS + (FADE_MS if motion.fades else 0)
        self._animation.setDuration(max(1, round(total / max(speed, 1.0))))
        self._animation.start()

    def flash_blocked(self, *, animate: bool) -> None:
        """Make the blocked-step bars bump, then settle (still bars under reduced motion)."""
        self._flash_animation.stop()
        self._flash = 1.0 if animate else 0.8
        if animate:
            self._flash_animation.start()
        self.update()

    def finish(self) -> None:
        """Jump to the end of a running animation (the frame is already the state)."""
        if self.animating:
            self._animation.stop()
            self._on_finished()

    def cell_size(self) -> int:
        frame = self._frame
        if frame is None:
            return MIN_CELL
        fit = min(
            (self.width() - 2 * MARGIN) // max(1, frame.width),
            (self.height() - 2 * MARGIN) // max(1, frame.height),
        )
        return max(MIN_CELL, min(MAX_CELL, fit))

    def cell_rect(self, pos: Pos) -> QRect:
        cell, origin = self.cell_size(), self._origin()
        return QRect(origin.x() + pos.x * cell, origin.y() + pos.y * cell, cell, cell)

    def cell_at(self, point: QPoint) -> Pos | None:
        """The cell under a point of the widget, or ``None`` off the board."""
        frame, cell, origin = self._frame, self.cell_size(), self._origin()
        if frame is None:
            return None
        x, y = (point.x() - origin.x()) // cell, (point.y() - origin.y()) // cell
        return Pos(x, y) if 0 <= x < frame.width and 0 <= y < frame.height else None

    def carrier_tip(self, pos: Pos) -> str:
        """Each automaton carrier in the cell with its ``next`` step (its tag on the board)."""
        frame = self._frame
        if frame is None:
            return ""
        lines = []
        for shown in reversed(frame.at(pos)):  # the top of the stack first
            step = self._marks.carriers.get(shown.id)
            if step is not None:
                lines.append(f"{entity_name(shown.stamp, shown.id)}: next {step_label(step)}")
        return "\n".join(lines)

    # --------------------------------------------------------------- events
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            pos = self.cell_at(event.pos())
            text = self.carrier_tip(pos) if pos is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        event.ignore()  # the play view (the parent) reads the keys

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.clicked.emit()
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        # Ended here, not whenever Python frees it: a frame kept alive (a traceback,
        # a debugger) would leave the painter active on the window's backing store.
        with QPainter(self) as painter:
            self._paint(painter, event)

    def _paint(self, painter: QPainter, event: QPaintEvent) -> None:
        theme = self._renderer.theme
        painter.fillRect(event.rect(), QColor(theme.canvas))
        frame = self._frame
        if frame is None:
            return
        cell, origin = self.cell_size(), self._origin()
        board = QRect(origin.x(), origin.y(), frame.width * cell, frame.height * cell)
        animating = self._before is not None and self._progress < 1.0
        looks = self._still if animating else frame.looks()
        painter.drawPixmap(origin, self._picture.draw(looks, frame.width, frame.height, cell))
        if animating:
            self._paint_motion(painter, cell)
        painter.setPen(QPen(QColor(theme.board_edge), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(board.adjusted(-1, -1, 0, 0))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._mark_painter.paint(
            painter,
            frame,
            self._marks,
            self.cell_rect,
            cell,
            pulse=self._progress if animating else None,
            flash=self._flash,
        )

    # -------------------------------------------------------------- drawing
    def _origin(self) -> QPoint:
        frame = self._frame
        cell = self.cell_size()
        if frame is None:
            return QPoint(MARGIN, MARGIN)
        return QPoint(
            (self.width() - frame.width * cell) // 2, (self.height() - frame.height * cell) // 2
        )

    def _paint_motion(self, painter: QPainter, cell: int) -> None:
        motion, before, after = self._motion, self._before, self._frame
        assert before is not None
        assert after is not None
        total = SLIDE_MS + (FADE_MS if motion.fades else 0)
        elapsed = self._progress * total
        slide = min(1.0, elapsed / SLIDE_MS)
        fade = max(0.0, (elapsed - SLIDE_MS) / FADE_MS) if motion.fades else 1.0
        origin = self._origin()
        tile = self._renderer.tile

        def z_of(entity_id: int) -> int:
            shown = after.pieces.get(entity_id) or before.pieces.get(entity_id)
            return shown.z if shown is not None else 0

        for entity_id in sorted(motion.animated_ids, key=z_of):
            path = motion.slides.get(entity_id)
            fading = motion.fades.get(entity_id)
            old: Shown | None = before.pieces.get(entity_id)
            new: Shown | None = after.pieces.get(entity_id)
            where = _along(path, slide) if path else (fading.pos if fading else (new or old).pos)  # type: ignore[union-attr]
            x, y = origin.x() + where[0] * cell, origin.y() + where[1] * cell
            if fading is None:
                shown = new or old
                assert shown is not None
                painter.drawPixmap(QPointF(x, y), tile(shown.stamp, cell))
                continue
            self._paint_fade(
                painter, fading, QRectF(x, y, cell, cell), fade if path else self._progress
            )

    def _paint_fade(self, painter: QPainter, fading: Fade, rect: QRectF, f: float) -> None:
        cell = int(rect.width())
        tile = self._renderer.tile
        if fading.before is not None:  # the old look holds, then gives way
            painter.setOpacity(min(1.0, 2.0 - 2.0 * f))
            painter.drawPixmap(rect.topLeft(), tile(fading.before, cell))
        if fading.after is not None:  # the new look arrives over it
            painter.setOpacity(min(1.0, 2.0 * f))
            painter.drawPixmap(rect.topLeft(), tile(fading.after, cell))
        painter.setOpacity(1.0)
        color = FLASH_COLORS.get(fading.kind)
        if color is not None:
            flash = QColor(color)
            flash.setAlphaF(0.65 * math.sin(math.pi * f))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(flash)
            painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), cell / 5, cell / 5)

    # ---------------------------------------------------------------- slots
    def _on_progress(self, value: object) -> None:
        self._progress = float(value)  # type: ignore[arg-type]
        self.update()

    def _on_flash(self, value: object) -> None:
        self._flash = float(value)  # type: ignore[arg-type]
        self.update()

    def _on_finished(self) -> None:
        self._progress = 1.0
        self._before, self._motion, self._still = None, NO_MOTION, {}
        self.update()
        self.animation_finished.emit()


def _along(path: Sequence[Pos], t: float) -> tuple[float, float]:
    """The point a fraction ``t`` along a path of cells (equal time per leg)."""
    if len(path) == 1 or t >= 1.0:
        return float(path[-1].x), float(path[-1].y)
    legs = len(path) - 1
    spot = t * legs
    i = min(int(spot), legs - 1)
    f = spot - i
    a, b = path[i], path[i + 1]
    return a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f
