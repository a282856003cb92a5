"""The pattern editor: an automaton's steps as a row of tiles (← ↑ → ↓ and a wait).

The strip shows the steps and takes the author's gestures; it never edits the
level itself. Each gesture becomes a request signal (insert, delete, move, turn,
start here), the automata panel turns it into one checked, undoable edit, and the
strip is refilled from the document. So undo, redo and a refused edit all show
the same way: the strip displays what is stored.

Mouse: click selects a step, drag moves it, double-click makes it the start
phase, right-click offers every action. Keyboard: Left/Right (Home/End) select,
Ctrl+Left/Right move the step, Delete/Backspace delete it, Shift+arrow inserts a
move after it, W (or Space) inserts a wait, Alt+arrow turns it into that move,
P (or Enter) makes it the start phase.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFocusEvent,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QMenu, QSizePolicy, QWidget

TILE = 34
GAP = 6
PAD = 4
TOP = 14  # room above the tiles for the start marker

ARROWS: dict[tuple[int, int], str] = {(-1, 0): "←", (0, -1): "↑", (1, 0): "→", (0, 1): "↓"}
DIRECTION_NAMES = {(-1, 0): "left", (0, -1): "up", (1, 0): "right", (0, 1): "down"}
WAIT_GLYPH = "‖"  # a pause sign every font has (U+23F8 is missing from many)
KEY_DELTAS = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Down: (0, 1),
}
_OWN_KEYS = frozenset(
    {
        *KEY_DELTAS,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
        Qt.Key.Key_Delete,
        Qt.Key.Key_Backspace,
        Qt.Key.Key_W,
        Qt.Key.Key_Space,
        Qt.Key.Key_P,
        Qt.Key.Key_Return,
        Qt.Key.Key_Enter,
    }
)
MOVE_COLOR = "#3d7bd9"
WAIT_COLOR = "#7d8596"
START_COLOR = "#2e9d5b"
BAD_COLOR = "#d0443a"


def step_glyph(step: dict[str, Any]) -> str:
    """The arrow of a move (``?`` for a diagonal or zero delta), the wait sign otherwise."""
    if step.get("action") != "move":
        return WAIT_GLYPH
    return ARROWS.get((int(step.get("dx", 0)), int(step.get("dy", 0))), "?")


def step_text(step: dict[str, Any]) -> str:
    """How the step reads in tooltips and accessible text: "move right (cue step)"."""
    if step.get("action") == "move":
        delta = (int(step.get("dx", 0)), int(step.get("dy", 0)))
        what = f"move {DIRECTION_NAMES.get(delta, f'dx={delta[0]}, dy={delta[1]}')}"
    else:
        what = "wait"
    extras = [f"{k} {step[k]}" for k in ("cue", "sound") if step.get(k)]
    return f"{what} ({', '.join(extras)})" if extras else what


def move_step(dx: int, dy: int) -> dict[str, Any]:
    return {"action": "move", "dx": dx, "dy": dy}


WAIT: dict[str, Any] = {"action": "wait"}


class PatternStrip(QWidget):
    """A row of step tiles that wraps to the widget's width."""

    current_changed = Signal(int)
    insert_requested = Signal(int, object)  # index, step dict
    delete_requested = Signal(int)
    move_requested = Signal(int, int)  # from, to (index after the move)
    turn_requested = Signal(int, object)  # index, new move step
    phase_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("automatonPattern")
        self.setAccessibleName("automatonPattern")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        self._steps: list[dict[str, Any]] = []
        self._phase = 0
        self._current = -1
        self._bad: set[int] = set()
        self._press: QPoint | None = None
        self._dragging = False
        self._drop: int | None = None  # insertion gap while dragging
        self.setToolTip(
            "Click selects, drag moves, double-click sets the start phase.\n"
            "Keys: ←/→ select · Ctrl+←/→ move · Delete remove · Shift+arrow insert a move ·\n"
            "W insert a wait · Alt+arrow turn the step · P start here"
        )

    # ------------------------------------------------------------ public API
    def set_pattern(self, steps: list[dict[str, Any]], phase: int, bad: set[int]) -> None:
        """Show ``steps`` with the start ``phase``; ``bad`` steps have engine problems."""
        grows = len(steps) != len(self._steps)
        self._steps = [dict(s) for s in steps]
        self._phase, self._bad = phase, set(bad)
        if self._steps:
            self._current = max(0, min(self._current, len(self._steps) - 1))
        else:
            self._current = -1
        self.setAccessibleDescription(
            ", ".join(f"{i + 1}: {step_text(s)}" for i, s in enumerate(self._steps))
        )
        if grows:
            self.updateGeometry()  # only a new step count can change the strip's height
        self.update()

    def steps(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self._steps]

    def current(self) -> int:
        return self._current

    def set_current(self, index: int) -> None:
        index = max(0, min(index, len(self._steps) - 1)) if self._steps else -1
        if index != self._current:
            self._current = index
            self.update()
            self.current_changed.emit(index)

    def tile_rect(self, index: int) -> QRect:
        cols = self._columns()
        row, col = divmod(index, cols)
        return QRect(
            PAD + col * (TILE + GAP), TOP + PAD + row * (TILE + GAP + TOP // 2), TILE, TILE
        )

    def index_at(self, point: QPoint) -> int:
        """The step under ``point``, or -1."""
        for i in range(len(self._steps)):
            if self.tile_rect(i).adjusted(-GAP // 2, -TOP, GAP // 2, GAP // 2).contains(point):
                return i
        return -1

    # -------------------------------------------------------------- geometry
    def _columns(self, width: int | None = None) -> int:
        w = self.width() if width is None else width
        return max(1, (w - 2 * PAD + GAP) // (TILE + GAP))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        rows = max(1, math.ceil(max(1, len(self._steps)) / self._columns(width)))
        return TOP + 2 * PAD + rows * (TILE + GAP + TOP // 2)

    def sizeHint(self) -> QSize:
        return QSize(8 * (TILE + GAP), self.heightForWidth(8 * (TILE + GAP)))

    def minimumSizeHint(self) -> QSize:
        return QSize(TILE + 2 * PAD, self.heightForWidth(TILE + 2 * PAD))

    # -------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:
        # Ended here, not whenever Python frees it: a frame kept alive (a traceback,
        # a debugger) would leave the painter active on the window's backing store.
        with QPainter(self) as painter:
            self._paint(painter, event)

    def _paint(self, painter: QPainter, event: QPaintEvent) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        if not self._steps:
            painter.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No steps")
            return
        glyph_font = QFont(self.font())
        glyph_font.setPixelSize(18)
        glyph_font.setBold(True)
        small = QFont(self.font())
        small.setPixelSize(9)
        for i, step in enumerate(self._steps):
            rect = self.tile_rect(i)
            color = QColor(MOVE_COLOR if step.get("action") == "move" else WAIT_COLOR)
            if self._dragging and i == self._current:
                color.setAlpha(90)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawRoundedRect(rect, 6, 6)
            painter.setFont(glyph_font)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, step_glyph(step))
            painter.setFont(small)
            painter.drawText(
                rect.adjusted(3, 0, 0, -1), Qt.AlignmentFlag.AlignBottom, str(i)
            )  # the pattern index, as ``phase`` counts
            if step.get("cue") or step.get("sound"):
                painter.setBrush(QColor("#ffffff"))
                painter.drawEllipse(rect.right() - 8, rect.top() + 4, 5, 5)
            if i == self._phase:
                self._draw_start(painter, rect, small)
            if i in self._bad:
                painter.setPen(QPen(QColor(BAD_COLOR), 3))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)
            if i == self._current:
                width = 3 if self.hasFocus() else 2
                painter.setPen(QPen(pal.color(QPalette.ColorRole.Highlight), width))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), 8, 8)
        if self._dragging and self._drop is not None:
            self._draw_drop(painter, pal)

    def _draw_start(self, painter: QPainter, rect: QRect, font: QFont) -> None:
        painter.setPen(QColor(START_COLOR))
        painter.setFont(font)
        painter.drawText(
            QRect(rect.left() - GAP, rect.top() - TOP, rect.width() + 2 * GAP, TOP - 2),
            Qt.AlignmentFlag.AlignCenter,
            "start",
        )
        painter.setPen(QPen(QColor(START_COLOR), 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect.adjusted(-1, -1, 1, 1), 7, 7)

    def _draw_drop(self, painter: QPainter, pal: QPalette) -> None:
        assert self._drop is not None
        if self._drop < len(self._steps):
            rect = self.tile_rect(self._drop)
            x = rect.left() - GAP // 2
        else:
            rect = self.tile_rect(len(self._steps) - 1)
            x = rect.right() + GAP // 2 + 1
        painter.setPen(QPen(pal.color(QPalette.ColorRole.Highlight), 3))
        painter.drawLine(x, rect.top() - 2, x, rect.bottom() + 2)

    # ----------------------------------------------------------------- mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        index = self.index_at(event.position().toPoint())
        if index >= 0:
            self.set_current(index)
            if event.button() == Qt.MouseButton.LeftButton:
                self._press = event.position().toPoint()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        if self._press is None or not (event.buttons() & Qt.MouseButton.LeftButton):
            return
        if not self._dragging and (point - self._press).manhattanLength() >= 6:
            self._dragging = True
        if self._dragging:
            self._drop = self._gap_at(point)
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._dragging and self._drop is not None and self._current >= 0:
            source = self._current
            target = self._drop if self._drop <= source else self._drop - 1
            if target != source:
                self.move_requested.emit(source, target)
        self._press, self._dragging, self._drop = None, False, None
        self.update()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        index = self.index_at(event.position().toPoint())
        if index >= 0:
            self.phase_requested.emit(index)

    def _gap_at(self, point: QPoint) -> int:
        """The insertion gap nearest ``point``: before step i, or ``len`` for the end."""
        best, best_distance = len(self._steps), math.inf
        for i in range(len(self._steps) + 1):
            if i < len(self._steps):
                rect = self.tile_rect(i)
                anchor = QPoint(rect.left() - GAP // 2, rect.center().y())
            else:
                rect = self.tile_rect(i - 1)
                anchor = QPoint(rect.right() + GAP // 2, rect.center().y())
            distance = (anchor - point).manhattanLength()
            if distance < best_distance:
                best, best_distance = i, distance
        return best

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        index = self.index_at(event.pos())
        if index >= 0:
            self.set_current(index)
        menu = QMenu(self)
        at = self._current + 1 if self._current >= 0 else len(self._steps)
        for delta, glyph in ARROWS.items():
            menu.addAction(
                f"Insert {glyph} after",
                partial(self.insert_requested.emit, at, move_step(*delta)),
            )
        menu.addAction("Insert wait after", lambda: self.insert_requested.emit(at, dict(WAIT)))
        if self._current >= 0:
            menu.addSeparator()
            menu.addAction("Start here", lambda: self.phase_requested.emit(self._current))
            menu.addAction("Delete step", lambda: self.delete_requested.emit(self._current))
        menu.exec(event.globalPos())

    # -------------------------------------------------------------- keyboard
    def event(self, event: QEvent) -> bool:
        """Keep the strip's keys (Delete, Alt+arrows ...) from the window's shortcuts."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and Qt.Key(event.key()) in _OWN_KEYS
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = Qt.Key(event.key()), event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        current, after = self._current, self._current + 1 if self._current >= 0 else 0
        if key in KEY_DELTAS and shift:
            self.insert_requested.emit(after, move_step(*KEY_DELTAS[key]))
        elif key in KEY_DELTAS and alt and current >= 0:
            self.turn_requested.emit(current, move_step(*KEY_DELTAS[key]))
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and ctrl and current >= 0:
            target = current + (1 if key == Qt.Key.Key_Right else -1)
            if 0 <= target < len(self._steps):
                self.move_requested.emit(current, target)
        elif key == Qt.Key.Key_Left:
            self.set_current(current - 1)
        elif key == Qt.Key.Key_Right:
            self.set_current(current + 1)
        elif key == Qt.Key.Key_Home:
            self.set_current(0)
        elif key == Qt.Key.Key_End:
            self.set_current(len(self._steps) - 1)
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and current >= 0:
            self.delete_requested.emit(current)
        elif key in (Qt.Key.Key_W, Qt.Key.Key_Space):
            self.insert_requested.emit(after, dict(WAIT))
        elif key in (Qt.Key.Key_P, Qt.Key.Key_Return, Qt.Key.Key_Enter) and current >= 0:
            self.phase_requested.emit(current)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()
