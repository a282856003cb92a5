"""The play view's page and keys: header, outcome banner, board, playback bar,
beats and log, and which key means which input.

Layout only: ``PlayPage`` builds the widgets into the view and hands them over;
the view wires them to the game.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QToolButton, QVBoxLayout, QWidget

from editor.panels.play.board import PlayBoard
from editor.panels.play.playback import PlaybackBar
from editor.panels.play.side import Banner, BeatPanel, EventLog
from editor.resources import icon
from editor.views.tiles import TileRenderer

HINTS = "Arrows or WASD move · Z undo · R reset · Esc back to editing"
#: Keys the game reads (Ctrl+Z undoes too: the edit history is locked while playing).
KEYS = {
    Qt.Key.Key_Up: "up",
    Qt.Key.Key_W: "up",
    Qt.Key.Key_Down: "down",
    Qt.Key.Key_S: "down",
    Qt.Key.Key_Left: "left",
    Qt.Key.Key_A: "left",
    Qt.Key.Key_Right: "right",
    Qt.Key.Key_D: "right",
    Qt.Key.Key_Z: "undo",
    Qt.Key.Key_R: "reset",
}


def intent_of(event: QKeyEvent) -> str | None:
    """The game input a key press means, or ``None`` (Shift is allowed: caps lock, keypads)."""
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    key = Qt.Key(event.key())
    if mods == Qt.KeyboardModifier.ControlModifier and key == Qt.Key.Key_Z:
        return "undo"
    if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
        return None
    return KEYS.get(key)


class PlayPage:
    """The widgets of the play view, laid out in ``view``."""

    def __init__(self, view: QWidget, renderer: TileRenderer) -> None:
        layout = QVBoxLayout(view)
        layout.setContentsMargins(8, 6, 8, 6)
        header = QHBoxLayout()
        self.back = back = QToolButton(view)
        back.setObjectName("playBackButton")
        back.setIcon(icon("stop"))
        back.setText("Back to Editing")
        back.setToolTip("Back to editing (Esc): the level is as you left it")
        back.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        back.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        header.addWidget(back)
        self.title = QLabel(view)
        self.title.setObjectName("playTitle")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        header.addWidget(self.title, 1)
        self.counter = QLabel("Moves: 0", view)
        self.counter.setObjectName("playMoves")
        self.counter.setFont(font)
        header.addWidget(self.counter)
        layout.addLayout(header)
        self.banner = Banner(view)
        layout.addWidget(self.banner)
        self.split = split = QSplitter(Qt.Orientation.Horizontal, view)
        split.setObjectName("playSplitter")
        column = QWidget(split)
        column_layout = QVBoxLayout(column)
        column_layout.setContentsMargins(0, 0, 0, 0)
        self.board = PlayBoard(renderer, column)
        column_layout.addWidget(self.board, 1)
        self.playback_bar = PlaybackBar(column)
        column_layout.addWidget(self.playback_bar)
        self.status = QLabel(column)
        self.status.setObjectName("playStatus")
        self.status.setAccessibleName("playStatus")
        column_layout.addWidget(self.status)
        self.hints = QLabel(HINTS, column)
        self.hints.setObjectName("playHints")
        self.hints.setEnabled(False)  # drawn muted
        column_layout.addWidget(self.hints)
        side = QWidget(split)
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(4, 0, 0, 0)
        beats_title = QLabel("<b>Beat feedback</b>", side)
        side_layout.addWidget(beats_title)
        self.beats = BeatPanel(side)
        side_layout.addWidget(self.beats)
        log_title = QLabel("<b>Event log</b>", side)
        side_layout.addWidget(log_title)
        self.log = EventLog(side)
        side_layout.addWidget(self.log, 1)
        split.addWidget(column)
        split.addWidget(side)
        split.setStretchFactor(0, 1)  # room the window gives (the panels step aside) goes
        split.setStretchFactor(1, 0)  # to the board; the beats and the log keep their width
        layout.addWidget(split, 1)
