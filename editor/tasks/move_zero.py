"""What the automata and FRAIL panels need to know about a level at move 0.

The level as the player first sees it (after the settle): which automata are
active and who carries them, where carriers would walk next (the ghost preview),
which objects are FRAIL and what they leave. :func:`move_zero_facts` is the one
place these are asked of the engine, so the panels can switch to the shared
move-0 analysis service with a one-line change when it lands.

:class:`MoveZeroFollower` keeps the facts of the session's current level fresh
without blocking the UI thread: an edit restarts a short timer, the facts are
computed on a worker thread from an immutable snapshot of the level (its cell map
of immutable stacks, copied on the UI thread), and a result is dropped when the
level changed again meanwhile. An exception in the worker is raised again on the UI
thread, never swallowed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.documents.values import OBJECT, Pos, Stack

Cell = tuple[int, int]

#: Quiet time after an edit before the facts are computed again (a brush stroke
#: sends many edits; one computation after it is enough).
DEBOUNCE_MS = 60


@dataclass(frozen=True, slots=True)
class MoveZeroFacts:
    """A level at move 0, or why it cannot be played (``problem``)."""

    automata: tuple[dict[str, Any], ...] = ()  # state entries: active, carriers, next
    rules: tuple[dict[str, Any], ...] = ()  # Rule.to_dict(), engine order
    frail: Mapping[int, tuple[str, Cell]] = field(default_factory=dict)  # id -> (noun, cell)
    paths: tuple[engine.AutomatonPath, ...] = ()
    beats: int = 0
    problem: str | None = None

    def givers(self, prop: str, subject: str | None = None) -> list[dict[str, Any]]:
        """The rules that give ``prop`` (to ``subject`` when it is given) at move 0."""
        return [
            r
            for r in self.rules
            if r["predicate"] == prop and (subject is None or r["subject"] == subject)
        ]


def move_zero_facts(data: Mapping[str, Any], beats: int) -> MoveZeroFacts:
    """The facts of a level document at move 0 (any thread: it only reads ``data``)."""
    try:
        game = engine.Game(data)
    except engine.ValidationError as exc:
        first = exc.errors[0] if exc.errors else None
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        where = f"{first.pointer}: " if first is not None and first.pointer else ""
        text = f"{where}{first.message}{more}" if first is not None else str(exc)
        return MoveZeroFacts(problem=f"the level cannot be played yet: {text}")
    state = game.state()
    rules = tuple(state["rules"])
    frail_nouns = {r["subject"] for r in rules if r["predicate"] == engine.FRAIL}
    frail = {
        e["id"]: (e["noun"], (e["x"], e["y"]))
        for e in state["entities"]
        if e["kind"] == "object" and e["noun"] in frail_nouns
    }
    return MoveZeroFacts(
        automata=tuple(state["automata"]),
        rules=rules,
        frail=frail,
        paths=game.preview_automata(beats),
        beats=min(beats, engine.MAX_PREVIEW_BEATS),
    )


class _Relay(QObject):
    """Carries a worker's result to the UI thread (a queued signal)."""

    done = Signal(int, object)  # revision, MoveZeroFacts | BaseException


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """A level at one moment, taken on the UI thread in well under a millisecond.

    Stacks are immutable tuples, so copying the cell map is enough; the level
    document is built from it on the worker thread (5,000 entities take longer
    than a frame to list).
    """

    level_id: str
    width: int
    height: int
    cells: dict[Pos, Stack]
    extra: dict[str, Any]

    @classmethod
    def of(cls, level: LevelDocument) -> _Snapshot:
        extra = {key: level.authored(key) for key in level.extra}
        return cls(level.level_id, level.width, level.height, dict(level.cells()), extra)

    def to_data(self) -> dict[str, Any]:
        """The level document (entity order is immaterial to the engine's facts)."""
        entities = [
            {"id": p.id, "kind": p.kind, ("noun" if p.kind == OBJECT else "text"): p.token}
            | {"x": pos.x, "y": pos.y}
            for pos, stack in self.cells.items()
            for p in stack
        ]
        return {
            "id": self.level_id,
            "width": self.width,
            "height": self.height,
            "entities": entities,
            **self.extra,
        }


class _Job(QRunnable):
    def __init__(self, relay: _Relay, revision: int, snapshot: _Snapshot, beats: int) -> None:
        super().__init__()
        self._relay, self._revision, self._snapshot, self._beats = relay, revision, snapshot, beats

    def run(self) -> None:
        result: MoveZeroFacts | BaseException
        try:
            result = move_zero_facts(self._snapshot.to_data(), self._beats)
        except BaseException as exc:  # handed to the UI thread, which raises it again
            result = exc
        with contextlib.suppress(RuntimeError):  # the window closed meanwhile: nobody to tell
            self._relay.done.emit(self._revision, result)


class MoveZeroFollower(QObject):
    """The move-0 facts of the session's current level, kept fresh off the UI thread."""

    changed = Signal()

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._facts: MoveZeroFacts | None = None
        self._beats = 8
        self._revision = 0  # grows with every change of the level or the request
        self._running = False
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start)
        self._links = Connections()
        session.level_changed.connect(self._on_level_changed)
        self._on_level_changed(session.level)

    @property
    def facts(self) -> MoveZeroFacts | None:
        """The facts of the current level, ``None`` until the first result arrives."""
        return self._facts

    @property
    def pending(self) -> bool:
        """Whether newer facts are on their way (tests wait for this to clear)."""
        return self._timer.isActive() or self._running

    @property
    def beats(self) -> int:
        return self._beats

    def set_beats(self, beats: int) -> None:
        if beats != self._beats:
            self._beats = beats
            self._schedule()

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._links.follow(
            []
            if level is None
            else [
                (level.cells_changed, self._schedule),
                (level.authored_changed, self._schedule),
                (level.properties_changed, self._schedule),
            ]
        )
        self._facts = None  # never show another level's facts
        self.changed.emit()
        self._schedule()

    def _schedule(self, *_: object) -> None:
        self._revision += 1
        self._timer.start()

    def _start(self) -> None:
        level = self._session.level
        if level is None or self._running:
            return  # a running job restarts the timer when it ends
        self._running = True
        job = _Job(self._relay, self._revision, _Snapshot.of(level), self._beats)
        QThreadPool.globalInstance().start(job)

    def _on_done(self, revision: int, result: object) -> None:
        self._running = False
        if isinstance(result, BaseException):
            raise result
        if revision != self._revision:
            self._timer.start()  # the level changed meanwhile: compute again
            return
        if isinstance(result, MoveZeroFacts):
            self._facts = result
            self.changed.emit()
