"""``PlayView`` (``playView``): test-play of the current level inside the editor.

``start()`` builds an ``engine.Game`` from the level's authored data (so the
settle applies) and shows it; arrow keys and WASD move, Z undoes, R resets and
Escape returns to editing (``stop()``). The Qt properties ``moves`` and ``won``
follow the game (docs/contract.md section 7). ``play_moves(moves, *, title)`` plays a move
string back (play, pause, step, scrub): see :mod:`editor.panels.play.playback`,
the API the solver panel uses.

Every input goes through one queue: a key pressed while a turn is still sliding
waits its turn and is applied exactly once. The game is stepped when a key
leaves the queue; what the board animates afterwards is only a picture of the
state the engine already settled, so animated and reduced-motion play reach the
same state, the same log and the same beat text. Key auto-repeat only queues
when nothing is waiting (holding a key walks, it does not pile up moves).

The view never writes the level except through "Use as intended solution",
which is one undoable ``set_authored("solution", ...)`` edit. Editing the level
while playing (another panel may) marks the game stale: R then plays the level
as it is now.

The module is over 400 lines on purpose: the input queue, the record and what
the page shows change together on every turn, and splitting the one controller
would spread one turn's path over several files (the record, the board, the
marks, the texts and the page already live in their own modules).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Property, QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import QWidget

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.play.frames import motion_between
from editor.panels.play.game import LETTERS, MAX_PLAY_TURNS, PlayRecord
from editor.panels.play.marks import marks_for
from editor.panels.play.page import HINTS, PlayPage, intent_of
from editor.panels.play.playback import Playback
from editor.panels.play.sound import BeatSounds, SoundBackend
from editor.panels.play.text import blocked_text, turn_lines, turn_title
from editor.settings import EditorSettings
from editor.views.tiles import TileRenderer

Json = dict[str, Any]
MAX_QUEUED_KEYS = 256  # keys typed ahead of the animation (far beyond any real typing)
SIDE_WIDTH = 360  # the beat feedback and the log start this wide


class PlayView(QWidget):
    """The play page of the central stack: header, outcome banner, board, beats and log."""

    playing_changed = Signal(bool)
    moves_changed = Signal(int)
    won_changed = Signal(bool)
    turn_shown = Signal()  # a turn, undo or reset is on the board (its animation may run on)

    def __init__(
        self,
        session: Session,
        renderer: TileRenderer,
        settings: EditorSettings,
        *,
        sounds: SoundBackend | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("playView")
        self.setAccessibleDescription("Test-play of the current level; Escape returns to editing")
        self.setAccessibleName("playView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._session = session
        self._settings = settings
        self.sounds = BeatSounds(settings, sounds)
        self._record: PlayRecord | None = None
        self._level: LevelDocument | None = None
        self._played_key: Json = {}
        self._queue: deque[str] = deque()
        self._draining = False
        self._moves, self._won, self._stale = 0, False, False
        self._viewing: int | None = None
        self._playback: Playback | None = None
        self._level_links = Connections()
        page = PlayPage(self, renderer)
        self.title, self.counter, self.banner = page.title, page.counter, page.banner
        self.board, self.playback_bar = page.board, page.playback_bar
        self.status, self.hints = page.status, page.hints
        self.beats, self.log = page.beats, page.log
        self._split, self._split_sized = page.split, False
        page.back.clicked.connect(self.stop)
        self.board.animation_finished.connect(self._drain)
        self.board.clicked.connect(self._back_to_now)
        self.log.turn_selected.connect(self.show_turn)
        self.log.rewind_requested.connect(self.rewind_to)
        session.level_changed.connect(self._on_session_level_changed)
        session.pack_changed.connect(lambda _pack: self.stop())

    # ------------------------------------------------------------ properties
    def _get_moves(self) -> int:
        return self._moves

    def _get_won(self) -> bool:
        return self._won

    moves = Property(int, _get_moves, notify=moves_changed)
    won = Property(bool, _get_won, notify=won_changed)

    @property
    def playing(self) -> bool:
        return self._record is not None

    @property
    def game(self) -> engine.Game | None:
        return self._record.game if self._record is not None else None

    @property
    def record(self) -> PlayRecord | None:
        """The game and its per-turn frames, events and rules (``None`` when not playing)."""
        return self._record

    @property
    def busy(self) -> bool:
        """Keys are waiting or a turn is still animating."""
        return bool(self._queue) or self.board.animating

    @property
    def reduced_motion(self) -> bool:
        return self._settings.reduced_motion

    @property
    def playback(self) -> Playback | None:
        return self._playback

    def move_string(self) -> str:
        """The ``UDLR`` moves from the start to the current position."""
        return self._record.move_string() if self._record is not None else ""

    # ------------------------------------------------------------ public API
    def start(self) -> bool:
        """Play the current level from its settled start; ``False`` when it cannot be played."""
        level = self._session.level
        if level is None:
            self._session.message.emit("There is no level to play.")
            return False
        data = level.to_data()
        try:
            record = PlayRecord(data)
        except engine.EngineError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self._session.message.emit(f"Cannot play level {level.level_id}: {first}")
            return False
        was_playing = self.playing
        self._end_playback()
        self._queue.clear()
        self._record, self._level, self._played_key = record, level, _play_key(data)
        self.sounds.prepare()  # Qt Multimedia loads now, not on the first beat
        self._level_links.follow(
            [
                (level.cells_changed, self._on_level_edited),
                (level.properties_changed, self._on_level_edited),
                (level.authored_changed, self._on_level_edited),
                (level.authored_changed, self._on_authored_changed),
            ]
        )
        self._stale, self._viewing = False, None
        self.title.setText(f"Playing “{level.title or level.level_id}”")
        self.log.start([f"rule: {r}" for r in record.rules[0]])
        self.board.show_frame(record.frames[0], record.marks_at(0))
        self._after_turn(note="")
        if not was_playing:
            self.playing_changed.emit(True)
        self.board.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def stop(self) -> None:
        """Leave test-play; the level and the edit history are as they were."""
        if not self.playing:
            return
        self._end_playback()
        self._queue.clear()
        self.board.finish()
        self._record, self._level = None, None
        self._level_links.clear()
        self.playing_changed.emit(False)

    def play_moves(self, moves: str, *, title: str) -> Playback:
        """Play the current level from its start and show ``moves`` under playback controls.

        Raises:
            ValueError: ``moves`` is not a ``UDLR`` string, or is longer than the cap.
            RuntimeError: the current level cannot be played (the status bar says why).
        """
        playback_check = Playback(moves, title, self)  # validates before anything changes
        if not self.start():
            playback_check.deleteLater()
            raise RuntimeError("the current level cannot be played")
        self._playback = playback_check
        self.playback_bar.follow(playback_check)
        self.hints.setText(HINTS + " · Space play/pause")
        return playback_check

    def press(self, intent: str) -> None:
        """Queue one input (``up`` ``down`` ``left`` ``right`` ``undo`` ``reset``), as a key does."""
        if not self.playing or intent not in (*LETTERS, "undo", "reset"):
            return
        if self._playback is not None and self._playback.active:
            self._playback.detach()
        if len(self._queue) >= MAX_QUEUED_KEYS:
            self._say("Too many keys waiting: wait for the board to catch up.")
            return
        self._queue.append(intent)
        self._drain()

    def set_reduced_motion(self, on: bool) -> None:
        self._settings.reduced_motion = on
        if on:
            self.board.finish()

    def set_sound(self, on: bool) -> None:
        """View ▸ Sound: beats play sounds (kept in the settings; off stays off)."""
        self._settings.sound_enabled = on
        if on and self.playing:
            self.sounds.prepare()

    def set_sound_volume(self, percent: int) -> None:
        self._settings.sound_volume = percent

    def use_as_solution(self) -> bool:
        """Store the winning moves as the level's intended solution (one undoable edit).

        The status bar says so; the banner's button then stays disabled while the
        stored solution is these moves.
        """
        if not self._won or self._level is None or self._stale:
            return False
        moves = self.move_string()
        done = self._level.set_authored("solution", moves, text="Use as Intended Solution")
        self._show_outcome()
        if done:
            self._session.message.emit(
                f"Stored {len(moves)} moves as the intended solution of "
                f"{self._level.level_id}. Undo (Ctrl+Z) brings the old one back"
            )
        return done

    def show_turn(self, turn: int | None) -> None:
        """Show the board after ``turn`` without changing the game (``None``: now)."""
        record = self._record
        if record is None:
            return
        last = record.turns
        if self._viewing is not None and self._viewing < last - 1:
            record.frames[self._viewing].forget()
        if turn is None or turn >= last:
            if self._viewing is not None:
                self._viewing = None
                self.board.show_frame(record.frames[-1], record.marks_at(last))
                self._show_beats(last)
                self._show_outcome()
            return
        self._viewing = max(0, turn)
        self.board.show_frame(record.frames[self._viewing], record.marks_at(self._viewing))
        self._show_beats(self._viewing)
        self._show_outcome()

    def rewind_to(self, turn: int) -> None:
        """Undo back to the position after ``turn`` (the log's "Rewind to here")."""
        record = self._record
        if record is None or not 0 <= turn < record.turns:
            return
        self._end_playback()
        self._queue.clear()
        self._viewing = None
        record.rewind(turn)
        self.log.truncate(record.turns)
        self.board.show_frame(record.frames[-1], record.marks_at(record.turns))
        self._after_turn(note=f"Rewound to turn {turn}.")

    # --------------------------------------------------- playback's target
    def playback_apply(self, letter: str, *, animate: bool, audible: bool = True) -> bool:
        direction = {v: k for k, v in LETTERS.items()}[letter]
        self.board.finish()
        return self._apply(direction, animate=animate and not self.reduced_motion, audible=audible)

    def playback_undo(self) -> bool:
        self.board.finish()
        return self._apply("undo", animate=False)

    def playback_busy(self) -> bool:
        return self.board.animating

    # ---------------------------------------------------------------- keys
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._split_sized and self._split.width() > 0:  # the side column's first width
            self._split_sized = True
            side = min(SIDE_WIDTH, self._split.width() // 2)
            self._split.setSizes([self._split.width() - side, side])

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self.playing:
            assert isinstance(event, QKeyEvent)
            if intent_of(event) is not None or event.key() in (
                Qt.Key.Key_Escape,
                Qt.Key.Key_Space,
            ):
                event.accept()  # our key, not a window shortcut (R is also the Rectangle tool)
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.playing:
            super().keyPressEvent(event)
            return
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.stop()
            return
        if key == Qt.Key.Key_Space and self._playback is not None:
            self._playback.toggle()
            return
        intent = intent_of(event)
        if intent is None:
            super().keyPressEvent(event)
            return
        if event.isAutoRepeat() and self.busy:
            return  # a held key walks at the animation's pace
        self.press(intent)

    # -------------------------------------------------------------- turns
    def _drain(self) -> None:
        if self._draining:
            return
        self._draining = True
        try:
            while self._queue and not self.board.animating and self.playing:
                self._apply(self._queue.popleft(), animate=not self.reduced_motion)
        finally:
            self._draining = False

    def _apply(self, intent: str, *, animate: bool, audible: bool = True) -> bool:
        """Play one input on the game and show it; ``True`` when the game changed.

        ``audible``: the turn's beats sound (a playback's seek jumps without them)."""
        record = self._record
        assert record is not None
        if self._viewing is not None:
            self.show_turn(None)
            self.log.clear_selection()
        if intent == "reset" and self._stale:
            return self.start()
        if intent not in ("reset", "undo") and record.full:
            self._say(f"{MAX_PLAY_TURNS:,} turns played: Z undoes, R resets.")
            return False
        if intent == "reset":
            turn = record.reset()
        elif intent == "undo":
            turn = record.undo()
        else:
            try:
                turn = record.step(intent)
            except engine.WorkBudgetError as exc:
                self._say(f"This move was not played: it {exc}.")
                return False
        now = record.turns
        if not turn.accepted:
            if intent == "undo":
                self._say("Nothing to undo: this is the start.")
                return False
            bars = marks_for(turn.event, record.automata_before(now + 1)).blocked_steps
            self.board.show_frame(turn.after, replace(record.marks_at(now), blocked_steps=bars))
            self.board.flash_blocked(animate=animate)
            self._say(blocked_text(turn.event, record.name_of(now)))
            return False
        if intent not in ("reset", "undo"):
            self.log.append(
                turn_title(turn.event),
                turn.event,
                turn_lines(turn.event, record.name_of(now), record.automata_before(now)),
            )
            if audible:
                self.sounds.play_beat(turn.event["automated"])
        else:
            self.log.truncate(now)
        motion = motion_between(turn.before, turn.after, turn.event) if animate else None
        if motion:
            speed = 1.0 + len(self._queue)  # keys waiting: slide faster, never skip
            self.board.show_frame(
                turn.after, record.marks_at(now), before=turn.before, motion=motion, speed=speed
            )
        else:
            self.board.show_frame(turn.after, record.marks_at(now))
        self._after_turn(note="")
        return True

    def _after_turn(self, *, note: str) -> None:
        record = self._record
        assert record is not None
        moves, won = record.turns, record.game.won
        if moves != self._moves:
            self._moves = moves
            self.moves_changed.emit(moves)
        if won != self._won:
            self._won = won
            self.won_changed.emit(won)
        self.counter.setText(f"Moves: {moves}")
        self._show_beats(moves)
        self._show_outcome()
        self._say(note)
        self.turn_shown.emit()

    # ------------------------------------------------------------ display
    def _show_beats(self, turn: int) -> None:
        record = self._record
        assert record is not None
        self.beats.show_turn(
            record.automata_at(turn),
            record.rules[turn],
            record.event_at(turn),
            record.automata_before(turn),
            record.name_of(turn),
        )

    def _show_outcome(self) -> None:
        record = self._record
        if record is None:
            return
        if self._viewing is not None:
            self.banner.say(
                "past",
                f"Showing the board after turn {self._viewing} of {record.turns}; "
                "the game is unchanged.",
                [
                    ("Rewind to Here", lambda: self.rewind_to(self._viewing or 0), True, ""),
                    ("Back to Now", self._back_to_now, True, "Show the current turn"),
                ],
            )
        elif self._stale:
            self.banner.say("stale", "The level was edited since play started: R plays it now.")
        elif self._won:
            moves = self.move_string()
            stored = self._level.authored("solution") if self._level is not None else None
            same = stored == moves
            text = f"Solved in {len(moves)} moves"
            if same:
                text += " — the level's intended solution"
            self.banner.say(
                "won",
                text,
                [
                    (
                        "Use as Intended Solution",
                        self.use_as_solution,
                        not same,
                        f"Store {moves} as the level's solution (undoable)",
                    )
                ],
            )
        elif record.game.control_lost:
            self.banner.say(
                "lost",
                "Nothing is YOU: no move can be played. Z undoes the last move, R resets the level.",
            )
        else:
            self.banner.clear()

    def _back_to_now(self) -> None:
        self.log.clear_selection()
        self.show_turn(None)
        self.board.setFocus()

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # -------------------------------------------------------------- helpers
    def _end_playback(self) -> None:
        if self._playback is not None:
            self._playback.detach()
            self._playback.deleteLater()
            self._playback = None
        self.playback_bar.follow(None)
        self.hints.setText(HINTS)

    def _on_session_level_changed(self, level: LevelDocument | None) -> None:
        if self.playing and level is not self._level:
            self.stop()

    def _on_authored_changed(self, key: str) -> None:
        """A solution stored from elsewhere (the solver, undo): the banner's offer follows."""
        if key == "solution" and self._won and not self._stale and self._viewing is None:
            self._show_outcome()

    def _on_level_edited(self, *_: object) -> None:
        level = self._level
        if level is not None and not self._stale and _play_key(level.to_data()) != self._played_key:
            self._stale = True
            self._show_outcome()

    # ------------------------------------------------------------ building


def _play_key(data: Mapping[str, Any]) -> Json:
    """What a game depends on: the level without its names and its solutions."""
    return {k: v for k, v in data.items() if k not in ("title", "author", "solution", "references")}
