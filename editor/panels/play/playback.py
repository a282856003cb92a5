"""Playing back a move string in the play view: play, pause, step and scrub.

This is the public way to show a solution on the board; the solver panel uses it
too::

    playback = window.play_view.play_moves("DDRRRRDLLRRRRR", title="Solver solution")
    playback.seek(5)        # the board after move 5
    playback.play()         # then one move every ``interval`` ms until the end
    playback.pause(); playback.step(); playback.step_back()

``PlayView.play_moves`` enters test-play on the current level at its settled
start and returns the :class:`Playback`, whose ``changed`` signal fires on every
move. Moves are applied through the play view exactly like keys (the same game,
log, beat feedback and beat sounds); seeking applies them at once, without
animation or sound. A move
the game rejects stops the playback there and says so in ``message`` (the
wording of ``engine.check_solution``). Pressing a play key takes over: the
playback ends and the author plays on from that position.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSlider, QToolButton, QWidget

import engine
from editor.resources import icon

#: The longest move string the view plays back (a cap checked before any walk over it).
MAX_PLAYBACK_MOVES = 10_000
INTERVAL_MS = 300


class PlaybackTarget(Protocol):
    """What a playback drives: the play view's game, through its own turn path."""

    def playback_apply(self, letter: str, *, animate: bool, audible: bool = True) -> bool: ...

    def playback_undo(self) -> bool: ...

    def playback_busy(self) -> bool: ...


class Playback(QObject):
    """A move string being shown on the board, one move at a time or by scrubbing."""

    changed = Signal()

    def __init__(
        self, moves: str, title: str, target: PlaybackTarget, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        if len(moves) > MAX_PLAYBACK_MOVES:
            raise ValueError(
                f"a playback holds at most {MAX_PLAYBACK_MOVES:,} moves, not {len(moves):,}"
            )
        engine.parse_moves(moves)  # a clear ValueError naming the first bad letter
        self.moves = moves
        self.title = title
        self._target = target
        self._position = 0
        self._broken_at: int | None = None
        self._active = True
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self._tick)

    # -------------------------------------------------------------- reading
    @property
    def position(self) -> int:
        """How many moves of the string are on the board now."""
        return self._position

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    @property
    def active(self) -> bool:
        """False once the author took over or the play view left the level."""
        return self._active

    @property
    def broken_at(self) -> int | None:
        """The 1-based number of the move the game rejected, if one was."""
        return self._broken_at

    @property
    def message(self) -> str:
        if not self._active:
            return f"You took over after move {self._position}."
        if self._broken_at is not None:
            letter = self.moves[self._broken_at - 1]
            return f"move {self._broken_at} ({letter}) is blocked"
        return f"move {self._position} of {self.length}"

    # ------------------------------------------------------------- controls
    def play(self) -> None:
        if self._active and self._position < self._end():
            self._timer.start()
            self.changed.emit()

    def pause(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.changed.emit()

    def toggle(self) -> None:
        self.pause() if self.running else self.play()

    def step(self, *, animate: bool = True, audible: bool = True) -> bool:
        """Apply the next move; ``False`` at the end or when the game rejects it.

        ``audible``: its automaton beats sound (not while seeking: a jump is no beat)."""
        if not self._active or self._position >= self._end():
            return False
        move = self.moves[self._position]
        if not self._target.playback_apply(move, animate=animate, audible=audible):
            self._broken_at = self._position + 1
            self._timer.stop()
            self.changed.emit()
            return False
        self._position += 1
        self.changed.emit()
        return True

    def step_back(self) -> bool:
        if not self._active or self._position == 0:
            return False
        if not self._target.playback_undo():
            return False
        self._position -= 1
        self._broken_at = None
        self.changed.emit()
        return True

    def seek(self, position: int) -> None:
        """Show the board after ``position`` moves (applied at once, without animation)."""
        position = max(0, min(position, self.length))
        self.pause()
        while self._position > position and self.step_back():
            pass
        while self._position < position and self.step(animate=False, audible=False):
            pass

    def detach(self) -> None:
        """Stop following the string: the author plays on from here."""
        if self._active:
            self._timer.stop()
            self._active = False
            self.changed.emit()

    # -------------------------------------------------------------- helpers
    def _end(self) -> int:
        return self.length if self._broken_at is None else self._broken_at - 1

    def _tick(self) -> None:
        if self._target.playback_busy():
            return  # the last move is still sliding: wait for the next tick
        if not self.step():
            self._timer.stop()
            self.changed.emit()


class PlaybackBar(QWidget):
    """Controls for a :class:`Playback`: to start, back, play/pause, forward, to end, scrub."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playbackBar")
        self.setAccessibleName("playbackBar")
        self._playback: Playback | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(self)
        self.title.setObjectName("playbackTitle")
        row.addWidget(self.title)
        self.buttons: dict[str, QToolButton] = {}
        for name, icon_name, tip in (
            ("start", "to-start", "Back to the start of the moves"),
            ("back", "step-back", "One move back"),
            ("play", "play", "Play the moves (pause: click again)"),
            ("forward", "step-forward", "One move forward"),
            ("end", "to-end", "Jump to the last move"),
        ):
            button = QToolButton(self)
            button.setObjectName(f"playback_{name}")
            button.setIcon(icon(icon_name))
            button.setIconSize(QSize(18, 18))
            button.setToolTip(tip)
            button.setAccessibleName(tip)
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            row.addWidget(button)
            self.buttons[name] = button
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("playbackSlider")
        self.slider.setAccessibleDescription("Scrub through the solution being played back")
        self.slider.setAccessibleName("Playback position")
        self.slider.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        row.addWidget(self.slider, 1)
        self.where = QLabel(self)
        self.where.setObjectName("playbackPosition")
        row.addWidget(self.where)
        self.buttons["start"].clicked.connect(lambda: self._do(lambda p: p.seek(0)))
        self.buttons["back"].clicked.connect(lambda: self._do(lambda p: p.step_back()))
        self.buttons["play"].clicked.connect(lambda: self._do(lambda p: p.toggle()))
        self.buttons["forward"].clicked.connect(lambda: self._do(lambda p: p.step()))
        self.buttons["end"].clicked.connect(lambda: self._do(lambda p: p.seek(p.length)))
        self.slider.valueChanged.connect(self._on_slider)
        self.hide()

    @property
    def playback(self) -> Playback | None:
        return self._playback

    def follow(self, playback: Playback | None) -> None:
        if self._playback is not None:
            self._playback.changed.disconnect(self._refresh)
        self._playback = playback
        if playback is not None:
            playback.changed.connect(self._refresh)
        self.setVisible(playback is not None)
        self._refresh()

    def _do(self, action: object) -> None:
        if self._playback is not None and callable(action):
            action(self._playback)

    def _on_slider(self, value: int) -> None:
        playback = self._playback
        if playback is not None and playback.active and value != playback.position:
            playback.seek(value)

    def _refresh(self) -> None:
        playback = self._playback
        if playback is None:
            return
        self.title.setText(playback.title)
        self.slider.blockSignals(True)
        self.slider.setRange(0, playback.length)
        self.slider.setValue(playback.position)
        self.slider.blockSignals(False)
        self.where.setText(playback.message)
        running = playback.running
        self.buttons["play"].setIcon(icon("pause" if running else "play"))
        self.buttons["play"].setToolTip("Pause" if running else "Play the moves")
        for button in self.buttons.values():
            button.setEnabled(playback.active)
        self.slider.setEnabled(playback.active)
