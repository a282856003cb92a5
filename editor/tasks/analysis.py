"""``AnalysisService``: the current level as the player sees it at move 0, kept live.

Panels (rules, automata, FRAIL, solver) all need the same reading of the level
being edited: its rules after the settle, what the settle changed, each object's
properties, the automata entries, hints and problems. The service computes it
once per edit with :func:`engine.analyze_level` and emits one ``changed`` signal.

It never runs on the paint path. An edit only makes the service's job due again
(:mod:`editor.tasks.scheduler`, at the current level's priority); when the author
pauses for :data:`DEBOUNCE_MS`, the service takes the level's snapshot
(:meth:`~editor.documents.level.LevelDocument.snapshot`: a shallow copy of the
cells, whose stacks are immutable tuples) and a background worker does the rest,
reading the document saving writes (one builder: the Problems panel checks the
same one, so the problems listed here are that panel's for this level). The reading (rules, effects, hints) is published first and the
validation problems follow in a second ``changed``, because validating thousands
of entities takes longer than reading them. A result that an edit made stale is
dropped, and the next job starts as soon as the running one ends, so the panel
shows the newest board within a job's time of the last edit.

Usage::

    service = AnalysisService(session)
    service.changed.connect(lambda: show(service.current))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QObject, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument, LevelSnapshot
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks.background import TaskFailure
from editor.tasks.scheduler import Priority, scheduler
from editor.values import OBJECT, Pos, Stack

#: Quiet time after an edit before the level is read again: short enough that the
#: panel follows within 50 ms, long enough that a brush stroke is read once per pause.
DEBOUNCE_MS = 12
#: Quiet time after a reading before the level is validated. Validating thousands
#: of entities takes tens of milliseconds of Python; run while the author edits, it
#: would hold the interpreter lock the UI thread needs, so it waits for a pause.
VALIDATE_MS = 300


@dataclass(frozen=True, slots=True)
class AnalysisState:
    """One reading of one level.

    ``analysis`` is the engine's reading (``problems`` fills in with the second
    ``changed``: ``validated`` says when). ``words`` maps each word on the board at
    move 0 to its text and cell, as they were when the reading was taken (an edit
    made since is read by the next state). ``cell_properties`` unites the
    properties of each cell's objects at move 0, while someone asked for them
    (:meth:`AnalysisService.want_cell_properties`: the property overlay).
    ``derived`` holds what panels asked to derive from the reading in the worker
    (:meth:`AnalysisService.derive`), by name.
    """

    level: LevelDocument
    analysis: engine.LevelAnalysis
    words: Mapping[int, tuple[str, Pos]] = field(default_factory=dict)
    validated: bool = False
    revision: int = 0
    cell_properties: Mapping[Pos, frozenset[str]] | None = None  # when asked for
    derived: Mapping[str, object] = field(default_factory=dict)

    @property
    def rules(self) -> tuple[engine.Rule, ...]:
        return self.analysis.rules

    def rule_words(self, rule: engine.Rule) -> list[tuple[str, Pos]]:
        """The text and cell of each source word of ``rule``, in reading order."""
        return [self.words[i] for i in rule.source_ids if i in self.words]

    def used_word_ids(self) -> frozenset[int]:
        """Words that form at least one rule at move 0."""
        return frozenset(i for rule in self.analysis.rules for i in rule.source_ids)


Derivation = Callable[[AnalysisState], object]


class _Latest:
    """The newest revision asked for; a worker reads it to skip stale work (an int: atomic)."""

    __slots__ = ("revision",)

    def __init__(self) -> None:
        self.revision = 0


@dataclass(frozen=True, slots=True)
class _Snapshot:
    level: LevelDocument
    revision: int
    parts: LevelSnapshot
    nouns: frozenset[str] | None
    reader: engine.LevelReader | None = None  # to edit; None: read the document afresh
    changed: frozenset[Pos] = frozenset()
    epoch: int = 0  # readers of an older epoch read a vocabulary that changed since
    cell_properties: bool = False
    derivations: tuple[tuple[str, Derivation], ...] = ()

    @property
    def cells(self) -> Mapping[Pos, Stack]:
        return self.parts.cells

    def document(self) -> Any:
        """The level as saving writes it: what the Problems panel checks (pointers agree)."""
        return self.parts.written()


def _read(snap: _Snapshot) -> tuple[AnalysisState, engine.LevelReader | None, int]:
    """On a worker: read one snapshot (edit the level's reader, or build one)."""
    reader = snap.reader
    if reader is None:
        reader = engine.LevelReader.from_document(snap.document())
    else:
        reader.edit(
            {
                (pos.x, pos.y): [(pc.id, pc.kind, pc.token) for pc in snap.cells.get(pos, ())]
                for pos in snap.changed
            }
        )
    analysis = engine.LevelAnalysis() if reader is None else reader.analyze()
    words = {i: (text, Pos(x, y)) for i, text, x, y in analysis.words}
    by_cell = _cell_properties(snap.cells, analysis) if snap.cell_properties else None
    state = AnalysisState(snap.level, analysis, words, False, snap.revision, by_cell)
    if snap.derivations:
        derived = {name: derive(state) for name, derive in snap.derivations}
        state = replace(state, derived=derived)
    return state, reader, snap.epoch


def _validate(snap: _Snapshot, latest: _Latest) -> tuple[engine.Problem, ...] | None:
    """On a worker: the snapshot's problems, or ``None`` when an edit made it stale first."""
    if latest.revision != snap.revision:
        return None
    # The Problems panel's check of one level (its errors, without the lints): the
    # panels list the same problems for the same level.
    return engine.report_level(snap.document(), nouns=snap.nouns, lint=False).errors


def _cell_properties(
    cells: Mapping[Pos, Stack], analysis: engine.LevelAnalysis
) -> dict[Pos, frozenset[str]]:
    props = analysis.properties
    found: dict[Pos, frozenset[str]] = {}
    for pos, stack in cells.items():
        names: set[str] = set()
        for piece in stack:
            if piece.kind == OBJECT:
                names |= props.get(piece.id, frozenset())
        if names:
            found[pos] = frozenset(names)
    return found


class AnalysisService(QObject):
    """Follows the session's current level and keeps :attr:`current` up to date."""

    changed = Signal()

    def __init__(
        self,
        session: Session,
        parent: QObject | None = None,
        *,
        delay_ms: int = DEBOUNCE_MS,
    ) -> None:
        super().__init__(parent)
        self._session = session
        self._latest = _Latest()
        self._delay = delay_ms
        self._read_job = scheduler().job(self, Priority.ANALYSIS, self._start, name="read")
        self._validate_job = scheduler().job(
            self, Priority.ANALYSIS, self._start_validation, name="validate"
        )
        self._level: LevelDocument | None = None
        self._pack: PackDocument | None = None
        self._level_links = Connections()
        self._pack_links = Connections()
        self._revision = 0  # grows with every change the current reading must follow
        self._running = False
        self._current: AnalysisState | None = None
        self._reader: engine.LevelReader | None = None  # the current level's, between jobs
        self._changed: set[Pos] = set()  # cells edited since the reader last read
        self._epoch = 0  # grows when the level's vocabulary or size may change
        self._cell_properties = 0  # how many asked for them
        self._derivations: list[tuple[str, Derivation]] = []
        session.pack_changed.connect(self._on_pack_changed)
        session.level_changed.connect(self._on_level_changed)
        if session.pack is not None:
            self._on_pack_changed(session.pack)
        self._on_level_changed(session.level)

    # ----------------------------------------------------------------- reading
    @property
    def current(self) -> AnalysisState | None:
        """The newest reading of the current level; ``None`` until the first one (or no level)."""
        return self._current

    @property
    def up_to_date(self) -> bool:
        """Whether :attr:`current` reads the level as it is now, problems included."""
        return (
            not self._read_job.is_pending()
            and not self._validate_job.is_pending()
            and not self._running
            and (self._level is None or self._current is not None)
            and (self._current is None or self._current.validated)
        )

    def derive(self, name: str, derivation: Derivation) -> None:
        """Compute ``derivation(state)`` in the worker with every reading, kept in ``derived[name]``.

        For panels whose view of a reading costs time to build (the rules panel's
        rows): the UI thread then only shows it. ``derivation`` must only read the
        state. After validation it runs once more on the UI thread, with problems.
        """
        self._derivations.append((name, derivation))
        if self._level is not None:
            self.refresh()

    def want_cell_properties(self, wanted: bool) -> None:
        """Ask for (or stop asking for) :attr:`AnalysisState.cell_properties`."""
        self._cell_properties = max(0, self._cell_properties + (1 if wanted else -1))
        if self._level is not None:
            self.refresh()

    def reread(self, *_: object) -> None:
        """Read the whole level afresh after the usual pause (its vocabulary may have changed)."""
        self._reader = None
        self._epoch += 1
        self.refresh()

    def _on_cells_changed(self, cells: frozenset[Pos]) -> None:
        self._changed |= cells
        self.refresh()

    def refresh(self) -> None:
        """Read the level again after the usual pause (a change the service cannot see)."""
        self._revision += 1
        self._latest.revision = self._revision
        self._validate_job.stop()
        self._read_job.start(self._delay)

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: PackDocument) -> None:
        self._pack = pack
        self._pack_links.follow([(pack.nouns_changed, self.refresh)])  # problems only

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._level_links.follow(
            []
            if level is None
            else [
                (level.cells_changed, self._on_cells_changed),
                (level.properties_changed, self.reread),
                (level.authored_changed, self.reread),
            ]
        )
        self._current = None
        self._reader = None
        self._epoch += 1
        self.changed.emit()
        if level is not None:
            self._revision += 1
            self._latest.revision = self._revision
            self._read_job.start()  # a switch shows at once; edits wait for a pause

    def _snapshot(self, level: LevelDocument, **reading: Any) -> _Snapshot:
        pack = self._pack
        in_pack = pack is not None and pack.has_level(level)
        return _Snapshot(
            level=level,
            revision=self._revision,
            parts=level.snapshot(),
            nouns=frozenset(pack.nouns) if in_pack and pack is not None else None,
            **reading,
        )

    def _start(self) -> None:
        if self._running or self._level is None:
            return  # the running job's end starts the next one
        snapshot = self._snapshot(
            self._level,
            reader=self._reader,
            changed=frozenset(self._changed),
            epoch=self._epoch,
            cell_properties=self._cell_properties > 0,
            derivations=tuple(self._derivations),
        )
        self._reader = None  # the job holds it now; it comes back with the reading
        self._changed.clear()
        self._running = True
        revision = snapshot.revision
        scheduler().in_thread(
            self,
            Priority.ANALYSIS,
            lambda: _read(snapshot),
            lambda found, failure: self._on_read(revision, found, failure),
        )

    def _start_validation(self) -> None:
        current = self._current
        if self._running or self._read_job.is_due() or self._level is None or current is None:
            return  # a reading is due: it arms validation again
        if current.revision != self._revision or current.validated:
            return
        self._running = True
        snapshot, latest = self._snapshot(self._level), self._latest
        scheduler().in_thread(
            self,
            Priority.ANALYSIS,
            lambda: _validate(snapshot, latest),
            lambda problems, failure: self._on_validated(snapshot.revision, problems, failure),
        )

    def _on_read(
        self,
        revision: int,
        found: tuple[AnalysisState, engine.LevelReader | None, int] | None,
        failure: TaskFailure | None,
    ) -> None:
        self._running = False
        if failure is not None or found is None:
            raise failure.error if failure is not None else AssertionError("no reading")
        state, reader, epoch = found
        if state.level is self._level and epoch == self._epoch:
            self._reader = reader  # it has read every edit up to this job's snapshot
        if state.level is self._level and revision == self._revision:
            self._current = state
            self.changed.emit()
            self._validate_job.start(VALIDATE_MS)
        elif not self._read_job.is_due() and self._level is not None:
            self._start()  # edits came while the job ran: read the newest board now

    def _on_validated(
        self,
        revision: int,
        problems: tuple[engine.Problem, ...] | None,
        failure: TaskFailure | None,
    ) -> None:
        self._running = False
        if failure is not None:
            raise failure.error
        current = self._current
        fresh = current is not None and current.revision == revision == self._revision
        if problems is not None and fresh and current is not None:
            validated = replace(current, validated=True)
            validated = replace(
                validated, analysis=current.analysis.with_problems(problems), derived={}
            )
            derived = {name: derive(validated) for name, derive in self._derivations}
            self._current = replace(validated, derived=derived)
            self.changed.emit()
        elif not self._read_job.is_due() and self._level is not None:
            self._start()
