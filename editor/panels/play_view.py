"""``PlayView`` (``playView``): test-play of the current level inside the editor.

``start()`` builds an ``engine.Game`` from the level's authored data (so the
settle applies) and shows it; arrow keys and WASD move, Z undoes, R resets and
Escape returns to editing (``stop()``). The Qt properties ``moves`` and ``won``
follow the game (api.md section 7). ``play_moves(moves, *, title)`` plays a move
string back (play, pause, step, scrub): see :mod:`editor.panels.play_playback`,
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
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Property, QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QToolButton, QVBoxLayout, QWidget

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.play_board import Marks, PlayBoard, marks_for
from editor.panels.play_frames import Frame, first_frame, motion_between, name_in, next_frame
from editor.panels.play_playback import Playback, PlaybackBar
from editor.panels.play_side import Banner, BeatPanel, EventLog
from editor.panels.play_sound import BeatSounds, SoundBackend, default_backend
from editor.panels.play_text import NameOf, blocked_text, rule_text, turn_lines, turn_title
from editor.resources import icon
from editor.settings import EditorSettings
from editor.views.tiles import TileRenderer

Json = dict[str, Any]
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
LETTERS = {"up": "U", "down": "D", "left": "L", "right": "R"}
MAX_QUEUED_KEYS = 256  # keys typed ahead of the animation (far beyond any real typing)
MAX_PLAY_TURNS = 10_000  # turns kept for the log; a longer game asks for Z or R
HINTS = "Arrows or WASD move · Z undo · R reset · Esc back to editing"


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
        self.setAccessibleName("playView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._session = session
        self._settings = settings
        self.sounds = BeatSounds(sounds if sounds is not None else default_backend())
        self._game: engine.Game | None = None
        self._level: LevelDocument | None = None
        self._played_key: Json = {}
        self._frames: list[Frame] = []
        self._events: list[Json] = []
        self._rules: list[tuple[str, ...]] = []
        self._start_automata: list[Json] = []
        self._queue: deque[str] = deque()
        self._draining = False
        self._moves, self._won, self._stale = 0, False, False
        self._viewing: int | None = None
        self._playback: Playback | None = None
        self._level_links = Connections()
        self._build(renderer)
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
        return self._game is not None

    @property
    def game(self) -> engine.Game | None:
        return self._game

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
        return "".join(LETTERS[str(e["direction"])] for e in self._events)

    # ------------------------------------------------------------ public API
    def start(self) -> bool:
        """Play the current level from its settled start; ``False`` when it cannot be played."""
        level = self._session.level
        if level is None:
            self._session.message.emit("There is no level to play.")
            return False
        data = level.to_data()
        try:
            game = engine.Game(data)
        except engine.EngineError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self._session.message.emit(f"Cannot play level {level.level_id}: {first}")
            return False
        was_playing = self.playing
        self._end_playback()
        self._queue.clear()
        self._game, self._level, self._played_key = game, level, _play_key(data)
        self._level_links.follow(
            [
                (level.cells_changed, self._on_level_edited),
                (level.properties_changed, self._on_level_edited),
                (level.authored_changed, self._on_level_edited),
            ]
        )
        state = game.state()
        self._start_automata = list(state["automata"])
        self._frames = [first_frame(data, state)]
        self._events, self._rules = [], [tuple(rule_text(r) for r in state["rules"])]
        self._stale, self._viewing = False, None
        self.title.setText(f"Playing “{level.title or level.level_id}”")
        self.log.start([f"rule: {r}" for r in self._rules[0]])
        self.board.show_frame(self._frames[0], self._marks_at(0))
        self._after_turn(state["won"], state["controlLost"], note="")
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
        self._game, self._level = None, None
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

    def use_as_solution(self) -> bool:
        """Store the winning moves as the level's intended solution (one undoable edit)."""
        if not self._won or self._level is None or self._stale:
            return False
        done = self._level.set_authored(
            "solution", self.move_string(), text="Use as Intended Solution"
        )
        self._show_outcome()
        return done

    def show_turn(self, turn: int | None) -> None:
        """Show the board after ``turn`` without changing the game (``None``: now)."""
        last = len(self._events)
        if self._viewing is not None and self._viewing < last - 1:
            self._frames[self._viewing].forget()
        if not self.playing or turn is None or turn >= last:
            if self._viewing is not None:
                self._viewing = None
                self.board.show_frame(self._frames[-1], self._marks_at(last))
                self._show_beats(last)
                self._show_outcome()
            return
        self._viewing = max(0, turn)
        self.board.show_frame(self._frames[self._viewing], self._marks_at(self._viewing))
        self._show_beats(self._viewing)
        self._show_outcome()

    def rewind_to(self, turn: int) -> None:
        """Undo back to the position after ``turn`` (the log's "Rewind to here")."""
        game = self._game
        if game is None or not 0 <= turn < len(self._events):
            return
        self._end_playback()
        self._queue.clear()
        self._viewing = None
        while len(self._events) > turn and game.undo().accepted:
            self._frames.pop()
            self._events.pop()
            self._rules.pop()
        self.log.truncate(len(self._events))
        self.board.show_frame(self._frames[-1], self._marks_at(len(self._events)))
        state = game.state()
        self._after_turn(state["won"], state["controlLost"], note=f"Rewound to turn {turn}.")

    # --------------------------------------------------- playback's target
    def playback_apply(self, letter: str, *, animate: bool) -> bool:
        direction = {v: k for k, v in LETTERS.items()}[letter]
        self.board.finish()
        return self._apply(direction, animate=animate and not self.reduced_motion)

    def playback_undo(self) -> bool:
        self.board.finish()
        return self._apply("undo", animate=False)

    def playback_busy(self) -> bool:
        return self.board.animating

    # ---------------------------------------------------------------- keys
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self.playing:
            assert isinstance(event, QKeyEvent)
            if self._intent_of(event) is not None or event.key() in (
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
        intent = self._intent_of(event)
        if intent is None:
            super().keyPressEvent(event)
            return
        if event.isAutoRepeat() and self.busy:
            return  # a held key walks at the animation's pace
        self.press(intent)

    @staticmethod
    def _intent_of(event: QKeyEvent) -> str | None:
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = Qt.Key(event.key())
        if mods == Qt.KeyboardModifier.ControlModifier and key == Qt.Key.Key_Z:
            return "undo"
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            return None
        return KEYS.get(key)

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

    def _apply(self, intent: str, *, animate: bool) -> bool:
        """Play one input on the game and show it; ``True`` when the game changed."""
        game = self._game
        assert game is not None
        if self._viewing is not None:
            self.show_turn(None)
            self.log.clear_selection()
        speed = 1.0 + len(self._queue)  # keys waiting: slide faster, never skip
        before = self._frames[-1]
        if intent == "reset":
            if self._stale:
                return self.start()
            event = game.reset().to_dict()
            del self._frames[1:], self._rules[1:]
            self._events.clear()
            self.log.truncate(0)
        elif intent == "undo":
            undo = game.undo()
            if not undo.accepted:
                self._say("Nothing to undo: this is the start.")
                return False
            event = undo.to_dict()
            self._frames.pop()
            self._events.pop()
            self._rules.pop()
            self.log.truncate(len(self._events))
        else:
            if len(self._events) >= MAX_PLAY_TURNS:
                self._say(f"{MAX_PLAY_TURNS:,} turns played: Z undoes, R resets.")
                return False
            event = game.step(intent).to_dict()
            if not event["accepted"]:
                turn = len(self._events)
                marks = marks_for(event, self._automata_before(turn + 1))
                self.board.show_frame(before, _merge_blocked(self._marks_at(turn), marks))
                self.board.flash_blocked(animate=animate)
                self._say(blocked_text(event, self._name_of(turn)))
                return False
            state = game.state()
            self._frames.append(next_frame(before, state, event))
            if len(self._frames) > 2:
                self._frames[-3].forget()  # the last two keep their indexes (undo is instant)
            self._events.append(event)
            self._rules.append(tuple(rule_text(r) for r in state["rules"]))
            turn = len(self._events)
            self.log.append(
                turn_title(event),
                event,
                turn_lines(event, self._name_of(turn), self._automata_before(turn)),
            )
            self.sounds.play([str(a["sound"]) for a in event["automated"] if a.get("sound")])
        after = self._frames[-1]
        turn = len(self._events)
        motion = motion_between(before, after, event) if animate else None
        if motion:
            self.board.show_frame(
                after, self._marks_at(turn), before=before, motion=motion, speed=speed
            )
        else:
            self.board.show_frame(after, self._marks_at(turn))
        self._after_turn(bool(event["won"]), bool(event["controlLost"]), note="")
        return True

    def _after_turn(self, won: bool, control_lost: bool, *, note: str) -> None:
        moves = len(self._events)
        if moves != self._moves:
            self._moves = moves
            self.moves_changed.emit(moves)
        if won != self._won:
            self._won = won
            self.won_changed.emit(won)
        self._control_lost = control_lost
        self.counter.setText(f"Moves: {moves}")
        self._show_beats(len(self._events))
        self._show_outcome()
        self._say(note)
        self.turn_shown.emit()

    # ------------------------------------------------------------ display
    def _show_beats(self, turn: int) -> None:
        event = self._events[turn - 1] if turn else None
        automata = event["automata"] if event is not None else self._start_automata
        self.beats.show_turn(
            automata, self._rules[turn], event, self._automata_before(turn), self._name_of(turn)
        )

    def _show_outcome(self) -> None:
        if self._viewing is not None:
            self.banner.say(
                "past",
                f"Showing the board after turn {self._viewing} of {len(self._events)}; "
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
        elif self._control_lost:
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
    def _automata_before(self, turn: int) -> Sequence[Mapping[str, Any]]:
        """The automata entries before ``turn`` was played (the start's for turn 1)."""
        if turn <= 1:
            return self._start_automata
        return self._events[turn - 2]["automata"]  # type: ignore[no-any-return]

    def _marks_at(self, turn: int) -> Marks:
        if turn == 0:
            return marks_for({"automata": self._start_automata}, ())
        return marks_for(self._events[turn - 1], self._automata_before(turn))

    def _name_of(self, turn: int) -> NameOf:
        frames = self._frames[max(0, turn - 1) : turn + 1][::-1]
        return lambda entity_id: name_in(frames, entity_id)

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

    def _on_level_edited(self, *_: object) -> None:
        level = self._level
        if level is not None and not self._stale and _play_key(level.to_data()) != self._played_key:
            self._stale = True
            self._show_outcome()

    # ------------------------------------------------------------ building
    def _build(self, renderer: TileRenderer) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        header = QHBoxLayout()
        back = QToolButton(self)
        back.setObjectName("playBackButton")
        back.setIcon(icon("stop"))
        back.setText("Back to Editing")
        back.setToolTip("Back to editing (Esc): the level is as you left it")
        back.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        back.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        back.clicked.connect(self.stop)
        header.addWidget(back)
        self.title = QLabel(self)
        self.title.setObjectName("playTitle")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        header.addWidget(self.title, 1)
        self.counter = QLabel("Moves: 0", self)
        self.counter.setObjectName("playMoves")
        self.counter.setFont(font)
        header.addWidget(self.counter)
        layout.addLayout(header)
        self.banner = Banner(self)
        layout.addWidget(self.banner)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("playSplitter")
        column = QWidget(split)
        column_layout = QVBoxLayout(column)
        column_layout.setContentsMargins(0, 0, 0, 0)
        self.board = PlayBoard(renderer, column)
        self.board.animation_finished.connect(self._drain)
        self.board.clicked.connect(self._back_to_now)
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
        self.log.turn_selected.connect(self.show_turn)
        self.log.rewind_requested.connect(self.rewind_to)
        side_layout.addWidget(self.log, 1)
        split.addWidget(column)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout.addWidget(split, 1)
        self._control_lost = False


def _play_key(data: Mapping[str, Any]) -> Json:
    """What a game depends on: the level without its names and intended solution."""
    return {k: v for k, v in data.items() if k not in ("title", "author", "solution")}


def _merge_blocked(base: Marks, blocked: Marks) -> Marks:
    """The current marks plus the bars of a rejected step."""
    return replace(base, blocked_steps=blocked.blocked_steps)
