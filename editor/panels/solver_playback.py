"""Playing a solution back on the board: play, pause, step and scrub.

The solver panel asks for playback through one small interface,
:class:`SolutionPlayer` (``play_moves(moves, *, title)``: play ``moves`` from the
current level's start). The play view's reusable playback is meant to take this
place; until it lands, :class:`BoardPlayback` is the minimal stand-in: a
:class:`~editor.views.canvas.CanvasLayer` that covers the board with the game's
position (tiles drawn by the one :class:`~editor.views.tiles.TileRenderer`), and
:class:`PlaybackBar`, its controls.

Positions are computed with ``engine.Game`` a slice at a time (never more than
:data:`SLICE_MS` per event-loop turn), so scrubbing a long solution never blocks
painting. Any edit of the level ends the playback: the board shown must be the
level being edited.
"""

from __future__ import annotations

import time
from typing import Protocol

from PySide6.QtCore import QRect, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.connections import Connections
from editor.documents.session import Session
from editor.documents.values import OBJECT, WORD, Stamp
from editor.views.canvas import CanvasLayer, GridCanvas
from editor.views.tiles import TileRenderer

SLICE_MS = 6.0
STEP_MS = 260  # between moves while playing


class SolutionPlayer(Protocol):
    """What the solver panel needs from a playback: play moves from the level's start."""

    def play_moves(self, moves: str, *, title: str) -> None: ...


Look = dict[tuple[int, int], tuple[Stamp, ...]]


class BoardPlayback(CanvasLayer):
    """The game's position over the board while a solution plays; nothing otherwise."""

    position_changed = Signal()  # index, length, won or active changed

    def __init__(self, session: Session, renderer: TileRenderer) -> None:
        super().__init__()
        self._session = session
        self._renderer = renderer
        self._game: engine.Game | None = None
        self._moves = ""
        self._title = ""
        self._looks: list[Look] = []  # the board after 0, 1, 2 ... moves
        self._won: list[bool] = []
        self._index = 0
        self._target = 0
        self._playing = False
        self._level_links = Connections()
        self._clock = QTimer(self)
        self._clock.setInterval(STEP_MS)
        self._clock.timeout.connect(self._on_clock)
        self._work = QTimer(self)
        self._work.setSingleShot(True)
        self._work.setInterval(0)
        self._work.timeout.connect(self._advance)
        session.level_changed.connect(lambda _level: self.stop())

    # ---------------------------------------------------------- the interface
    def play_moves(self, moves: str, *, title: str) -> None:
        """Show the current level's start with ``moves`` ready to play (paused at move 0)."""
        level = self._session.level
        if level is None:
            return
        engine.parse_moves(moves)  # raises ValueError on anything but U D L R
        self._level_links.follow(
            [
                (level.cells_changed, lambda _cells: self.stop()),
                (level.properties_changed, self.stop),
                (level.authored_changed, self._on_level_authored_changed),
            ]
        )
        self._game = engine.Game(level.to_data())
        self._moves, self._title = moves, title
        self._looks = [_look(self._game)]
        self._won = [self._game.won]
        self._index = self._target = 0
        self._playing = False
        self.changed.emit()
        self.position_changed.emit()

    # -------------------------------------------------------------- control
    @property
    def active(self) -> bool:
        return self._game is not None

    @property
    def title(self) -> str:
        return self._title

    @property
    def moves(self) -> str:
        return self._moves

    @property
    def length(self) -> int:
        return len(self._moves)

    @property
    def index(self) -> int:
        """Moves played in the position shown."""
        return self._index

    @property
    def won(self) -> bool:
        return bool(self._won) and self._won[self._index]

    @property
    def playing(self) -> bool:
        return self._playing

    def seek(self, index: int) -> None:
        """Show the position after ``index`` moves (computed first when not yet known)."""
        if self._game is None:
            return
        self._target = max(0, min(index, len(self._moves)))
        self._advance()

    def step(self, delta: int) -> None:
        self.pause()
        self.seek(self._target + delta)

    def play(self) -> None:
        if self._game is None:
            return
        if self._target >= len(self._moves):
            self.seek(0)
        self._playing = True
        self._clock.start()
        self.position_changed.emit()

    def pause(self) -> None:
        if self._playing:
            self._playing = False
            self._clock.stop()
            self.position_changed.emit()

    def stop(self) -> None:
        """Back to editing: the board shows the level again."""
        if self._game is None:
            return
        self._clock.stop()
        self._work.stop()
        self._level_links.clear()
        self._game = None
        self._playing = False
        self._looks, self._won = [], []
        self._index = self._target = 0
        self.changed.emit()
        self.position_changed.emit()

    # ------------------------------------------------------------- painting
    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        level = self._session.level
        if self._game is None or level is None:
            return
        theme = self._renderer.theme
        cell = canvas.cell_size
        board = QRect(canvas.origin.x(), canvas.origin.y(), level.width * cell, level.height * cell)
        painter.fillRect(board.intersected(exposed), QColor(theme.board))
        if cell >= 8:
            painter.setPen(QPen(QColor(theme.grid), 1))
            for x in range(1, level.width + 1):
                painter.drawLine(
                    board.left() + x * cell - 1,
                    board.top(),
                    board.left() + x * cell - 1,
                    board.bottom(),
                )
            for y in range(1, level.height + 1):
                painter.drawLine(
                    board.left(),
                    board.top() + y * cell - 1,
                    board.right(),
                    board.top() + y * cell - 1,
                )
        for (x, y), look in self._looks[self._index].items():
            rect = QRect(board.left() + x * cell, board.top() + y * cell, cell, cell)
            if rect.intersects(exposed):
                painter.drawPixmap(rect.topLeft(), self._renderer.stack(look, cell))
        edge = QColor(theme.highlight)
        painter.setPen(QPen(edge, 3))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(board.adjusted(-2, -2, 1, 1))
        won = " — won" if self.won else ""
        caption = f"{self._title}: move {self._index} of {len(self._moves)}{won}"
        metrics = painter.fontMetrics()
        box = QRect(board.left() - 2, board.top() - metrics.height() - 8, 0, metrics.height() + 6)
        box.setWidth(metrics.horizontalAdvance(caption) + 14)
        painter.fillRect(box, edge)
        painter.setPen(QColor(theme.highlight_text))
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), caption)

    # -------------------------------------------------------------- internal
    def _on_level_authored_changed(self, key: str) -> None:
        if key != "solution":  # automata and mechanics change play; the solution does not
            self.stop()

    def _on_clock(self) -> None:
        if self._target >= len(self._moves):
            self.pause()
            return
        self.seek(self._target + 1)

    def _advance(self) -> None:
        """Compute positions up to the target, a slice at a time, then show the target."""
        game = self._game
        if game is None:
            return
        began = time.perf_counter()
        while len(self._looks) <= self._target:
            if (time.perf_counter() - began) * 1000 > SLICE_MS:
                self._work.start()
                return
            game.step(self._moves[len(self._looks) - 1])
            self._looks.append(_look(game))
            self._won.append(game.won)
        if self._index != self._target:
            self._index = self._target
            self.changed.emit()
            self.position_changed.emit()


def _look(game: engine.Game) -> Look:
    """Cell → stamps bottom first (ascending id) for the game's position."""
    cells: dict[tuple[int, int], list[Stamp]] = {}
    for record in game.state()["entities"]:
        stamp = (
            Stamp(OBJECT, str(record["noun"]))
            if record["kind"] == OBJECT
            else Stamp(WORD, str(record["text"]))
        )
        cells.setdefault((int(record["x"]), int(record["y"])), []).append(stamp)
    return {pos: tuple(stamps) for pos, stamps in cells.items()}


class PlaybackBar(QWidget):
    """⏮ ◀ ▶/⏸ ▶ ⏭, a scrub slider, "move 3 of 14" and Stop, driving a BoardPlayback."""

    def __init__(self, playback: BoardPlayback, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("solverPlayback")
        self.playback = playback
        icons = QStyle.StandardPixmap
        self.first = self._button(icons.SP_MediaSkipBackward, "Back to the start", "first")
        self.back = self._button(icons.SP_MediaSeekBackward, "One move back", "back")
        self.play = self._button(icons.SP_MediaPlay, "Play or pause", "play")
        self.forward = self._button(icons.SP_MediaSeekForward, "One move forward", "forward")
        self.last = self._button(icons.SP_MediaSkipForward, "To the last move", "last")
        self.stop = self._button(icons.SP_MediaStop, "Stop playback and edit again", "stop")
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("solverPlaybackSlider")
        self.slider.setAccessibleName("solverPlaybackSlider")
        self.label = QLabel(self)
        self.label.setObjectName("solverPlaybackLabel")
        buttons = QHBoxLayout()
        buttons.setSpacing(2)
        for button in (self.first, self.back, self.play, self.forward, self.last, self.stop):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(buttons)
        layout.addWidget(self.slider)
        self.first.clicked.connect(lambda: playback.step(-playback.length))
        self.back.clicked.connect(lambda: playback.step(-1))
        self.forward.clicked.connect(lambda: playback.step(+1))
        self.last.clicked.connect(lambda: playback.step(playback.length))
        self.play.clicked.connect(self._on_play_clicked)
        self.stop.clicked.connect(playback.stop)
        self.slider.valueChanged.connect(self._on_slider_moved)
        playback.position_changed.connect(self._refresh)
        self._refresh()

    def _button(self, icon: QStyle.StandardPixmap, tip: str, name: str) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(f"solverPlayback_{name}")
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.setAutoRaise(True)
        return button

    def _on_play_clicked(self) -> None:
        if self.playback.playing:
            self.playback.pause()
        else:
            self.playback.play()

    def _on_slider_moved(self, value: int) -> None:
        if value != self.playback.index:
            self.playback.pause()
            self.playback.seek(value)

    def _refresh(self) -> None:
        p = self.playback
        self.setVisible(p.active)
        self.slider.blockSignals(True)
        self.slider.setRange(0, p.length)
        self.slider.setValue(p.index)
        self.slider.blockSignals(False)
        icons = QStyle.StandardPixmap
        self.play.setIcon(
            self.style().standardIcon(icons.SP_MediaPause if p.playing else icons.SP_MediaPlay)
        )
        won = " — won" if p.won else ""
        self.label.setText(f"move {p.index} of {p.length}{won}")
