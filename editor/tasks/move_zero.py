"""What the automata and FRAIL panels need to know about a level at move 0.

The level as the player first sees it (after the settle) comes from the shared
:class:`~editor.tasks.analysis.AnalysisService`, which reads it leniently (an
author mid-edit still sees which automata are active and what is FRAIL):
:func:`move_zero_facts` is the one place these panels read it. The ghost preview
needs one thing the reading does not hold, where carriers would walk next; a
worker thread asks ``engine.Game.preview_automata`` for it, and only while the
preview is shown.

:class:`MoveZeroFollower` joins the two without blocking the UI thread: an edit
makes its job due again after a pause (:mod:`editor.tasks.scheduler`), the paths are computed on a worker thread from the level's
snapshot (the document play reads, built there), and a result is dropped when
the level changed again meanwhile. An exception in the worker is raised again on
the UI thread, never swallowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QObject, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.tasks.analysis import AnalysisService, AnalysisState
from editor.tasks.background import TaskFailure
from editor.tasks.scheduler import Priority, scheduler

Cell = tuple[int, int]

#: Quiet time after an edit before the ghost paths are computed again (a brush
#: stroke sends many edits; one computation after it is enough).
DEBOUNCE_MS = 60


@dataclass(frozen=True, slots=True)
class MoveZeroFacts:
    """A level at move 0: its automata entries, rules, FRAIL objects and ghost paths.

    ``problem`` says why the board has no reading (a board over the parse budget);
    ``paths_problem`` why there are no ghost paths (a level the engine cannot play).
    """

    automata: tuple[dict[str, Any], ...] = ()  # state entries: active, carriers, next
    rules: tuple[dict[str, Any], ...] = ()  # Rule.to_dict(), engine order
    frail: Mapping[int, tuple[str, Cell]] = field(default_factory=dict)  # id -> (noun, cell)
    paths: tuple[engine.AutomatonPath, ...] = ()
    beats: int = 0
    problem: str | None = None
    paths_problem: str | None = None

    def givers(self, prop: str, subject: str | None = None) -> list[dict[str, Any]]:
        """The rules that give ``prop`` (to ``subject`` when it is given) at move 0."""
        return [
            r
            for r in self.rules
            if r["predicate"] == prop and (subject is None or r["subject"] == subject)
        ]


def move_zero_facts(state: AnalysisState | None, level: LevelDocument) -> MoveZeroFacts | None:
    """The move-0 facts of ``level`` from the shared reading (``None`` until it has one)."""
    if state is None or state.level is not level:
        return None
    analysis = state.analysis
    frail: dict[int, tuple[str, Cell]] = {}
    wanted = set(analysis.frail_ids)
    for pos, stack in level.cells().items() if wanted else ():
        for piece in stack:
            if piece.id in wanted:
                frail[piece.id] = (analysis.nouns.get(piece.id, piece.token), (pos.x, pos.y))
    complexity = analysis.complexity
    return MoveZeroFacts(
        automata=tuple(dict(a) for a in analysis.automata),
        rules=tuple(r.to_dict() for r in analysis.rules),
        frail=frail,
        problem=None if complexity is None else complexity.message,
    )


def preview(
    data: Mapping[str, Any], beats: int
) -> tuple[tuple[engine.AutomatonPath, ...], str | None]:
    """The ghost paths of a level document (any thread: it only reads ``data``)."""
    try:
        game = engine.Game(data)
    except engine.ValidationError as exc:
        first = exc.errors[0] if exc.errors else None
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        where = place_in_words(data, first.pointer) if first is not None else ""
        where = f"{where}: " if where else ""
        text = f"{where}{first.message}{more}" if first is not None else str(exc)
        return (), f"the level cannot be played yet: {text}"
    return game.preview_automata(beats), None


#: A level's own fields, as an author names them.
LEVEL_FIELDS = {
    "id": "the level's id",
    "width": "the level's width",
    "height": "the level's height",
}
AUTOMATON_FIELDS = {
    "id": "id",
    "subject": "carrier",
    "property": "property word",
    "phase": "start phase",
    "pattern": "pattern",
}


def place_in_words(data: Mapping[str, Any], pointer: str) -> str:
    """What a JSON pointer into a level names, as an author says it ("" when unsure).

    ``/entities/3`` becomes "the TICK word at (4, 2)", ``/automata/0/pattern/2``
    "automaton “clock”, step 3 of its pattern"; captions never show raw pointers.
    """
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if not parts:
        return ""
    if len(parts) == 1 and parts[0] in LEVEL_FIELDS:
        return LEVEL_FIELDS[parts[0]]
    record = _record(data, parts)
    if record is None:
        return ""
    if parts[0] == "entities":
        kind = "word" if record.get("kind") == "word" else "object"
        token = record.get("text") if kind == "word" else record.get("noun")
        return f"the {token or '?'} {kind} at ({record.get('x', '?')}, {record.get('y', '?')})"
    if parts[0] == "automata":
        name = f"automaton “{record.get('id') or int(parts[1]) + 1}”"
        what = AUTOMATON_FIELDS.get(parts[2]) if len(parts) > 2 else None
        if what == "pattern" and len(parts) > 3 and parts[3].isdigit():
            key = f" ({parts[4]})" if len(parts) > 4 else ""  # the step's dx, dy, action …
            return f"{name}, step {int(parts[3]) + 1} of its pattern{key}"
        return f"{name}, its {what}" if what else name
    if parts[0] == "mechanics":
        kind = str(record.get("type") or "").upper()
        return f"the {kind} mechanic" if kind else f"mechanic {int(parts[1]) + 1}"
    return ""


def _record(data: Mapping[str, Any], parts: list[str]) -> Mapping[str, Any] | None:
    """The list entry ``parts`` starts with (``entities/3``), if the level has it."""
    if len(parts) < 2 or not parts[1].isdigit():
        return None
    items = data.get(parts[0])
    index = int(parts[1])
    if not isinstance(items, list) or index >= len(items):
        return None
    record = items[index]
    return record if isinstance(record, dict) else None


class MoveZeroFollower(QObject):
    """The move-0 facts of the session's current level: the shared reading plus ghost paths."""

    changed = Signal()

    def __init__(
        self, session: Session, analysis: AnalysisService, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._session = session
        self._analysis = analysis
        self._facts: MoveZeroFacts | None = None
        self._paths: tuple[tuple[engine.AutomatonPath, ...], str | None] = ((), None)
        self._beats = 8
        self._wanted = False  # whether the ghost preview is shown
        self._revision = 0  # grows with every change the paths must follow
        self._running = False
        self._job = scheduler().job(self, Priority.ANALYSIS, self._start, name="ghost paths")
        self._links = Connections()
        analysis.changed.connect(self._on_analysis_changed)
        session.level_changed.connect(self._on_level_changed)
        self._on_level_changed(session.level)

    @property
    def facts(self) -> MoveZeroFacts | None:
        """The facts of the current level, ``None`` until the first reading arrives."""
        if self._facts is None:
            return None
        paths, problem = self._paths if self._wanted else ((), None)
        beats = min(self._beats, engine.MAX_PREVIEW_BEATS) if self._wanted else 0
        return replace(self._facts, paths=paths, beats=beats, paths_problem=problem)

    @property
    def pending(self) -> bool:
        """Whether newer facts are on their way (tests wait for this to clear)."""
        paths_due = self._wanted and (self._job.is_due() or self._running)
        return paths_due or not self._analysis.up_to_date

    @property
    def beats(self) -> int:
        return self._beats

    def set_beats(self, beats: int) -> None:
        if beats != self._beats:
            self._beats = beats
            self._schedule()

    def want_paths(self, wanted: bool) -> None:
        """Compute ghost paths (only while the preview is shown: they cost a game's setup)."""
        if wanted != self._wanted:
            self._wanted = wanted
            self._schedule()
            self.changed.emit()

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
        self._paths = ((), None)
        self.changed.emit()
        self._schedule()

    def _on_analysis_changed(self) -> None:
        level = self._session.level
        facts = None if level is None else move_zero_facts(self._analysis.current, level)
        if facts is not None or self._facts is not None:
            self._facts = facts
            self.changed.emit()

    def _schedule(self, *_: object) -> None:
        self._revision += 1
        if self._wanted:
            self._job.start(DEBOUNCE_MS)

    def _start(self) -> None:
        level = self._session.level
        if level is None or self._running or not self._wanted:
            return  # a running job asks again when it ends
        self._running = True
        revision, snapshot, beats = self._revision, level.snapshot(), self._beats
        scheduler().in_thread(
            self,
            Priority.ANALYSIS,
            lambda: preview(snapshot.to_data(), beats),
            lambda result, failure: self._on_done(revision, result, failure),
        )

    def _on_done(self, revision: int, result: object, failure: TaskFailure | None) -> None:
        self._running = False
        if failure is not None:
            raise failure.error
        if revision != self._revision:
            if self._wanted:
                self._job.start(DEBOUNCE_MS)  # the level changed meanwhile: compute again
            return
        if isinstance(result, tuple):
            self._paths = result
            self.changed.emit()
