"""The open pack's problems, kept up to date in the background (the Problems panel's source).

After an edit the validator waits until the author pauses (``DEBOUNCE_MS``), then
checks again, off the UI thread, through :func:`engine.check_pack` — the check
``rulegrid validate --lint`` runs, so both list the same problems. Only what
changed is redone: each level's :class:`engine.LevelReport` is kept with the
version of the level it describes, and a check re-reads only the levels edited
since (plus every level when the pack's nouns change, since a level's report
depends on them); the pack-wide checks are always redone over the kept reports,
which costs little. ``check_all()`` (F7) forgets every report and checks
everything.

The UI thread only takes snapshots (``level.to_data()`` of the levels to re-read),
in slices of at most ``SLICE_SECONDS`` so a full check of a large pack never
blocks it, and swaps the finished rows in. Results of a pack that changed while
they were computed are never shown (the next check is already scheduled); their
reports of levels that did not change are kept.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.reading import is_int
from editor.documents.session import Session
from editor.tasks.background import CancelToken, TaskFailure, TaskResult, TaskRunner, yield_to_ui

#: Quiet time after an edit before the pack is checked again.
DEBOUNCE_MS = 80
#: The longest the UI thread spends taking snapshots before it lets events in.
SLICE_SECONDS = 0.006

ERROR, WARNING, CHANGED = "error", "warning", "changed"
SEVERITIES = (ERROR, WARNING, CHANGED)
_RANK = {ERROR: 0, WARNING: 1, CHANGED: 2}


@dataclass(frozen=True, slots=True)
class EntityTarget:
    """The entity a problem's pointer names, as the level held it when checked."""

    entity_id: int | None  # None: the record has no usable id
    cell: tuple[int, int] | None
    on_board: bool  # False: a record the board cannot show (off the grid, malformed)


@dataclass(frozen=True, slots=True)
class ProblemRow:
    """One line of the Problems panel."""

    severity: str  # ERROR, WARNING or CHANGED (what the editor changed when it opened the pack)
    record: dict[str, Any]  # the problem record: pack, level, pointer, code, message
    level_key: int | None  # the validator's key of its level document; None: the pack itself
    target: EntityTarget | None = None

    @property
    def pointer(self) -> str:
        return str(self.record["pointer"])

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What identifies the row across checks (to keep it selected)."""
        r = self.record
        return (self.severity, str(r["level"]), str(r["pointer"]), str(r["code"]))


@dataclass(frozen=True, slots=True)
class KeptLevel:
    """A level's report, with the version of the level it describes."""

    version: int
    report: engine.LevelReport
    targets: dict[int, EntityTarget]  # entity index -> what it was


@dataclass(frozen=True, slots=True)
class LevelInput:
    key: int
    version: int
    doc: dict[str, Any] | None  # None: ``kept`` stands for it
    board_entities: int  # how many of ``doc``'s entities are on the board (they come first)
    kept: KeptLevel | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a check reads: immutable, taken on the UI thread."""

    generation: int
    shell: dict[str, Any]  # the pack document with an empty ``levels`` list
    name: str  # names the pack in problems when its id is not usable
    levels: tuple[LevelInput, ...]
    changed_on_open: tuple[engine.Problem, ...]
    full: bool


@dataclass(frozen=True, slots=True)
class ValidationResult:
    generation: int
    rows: tuple[ProblemRow, ...]
    kept: dict[int, KeptLevel]  # key -> report, for the levels this check re-read
    rechecked: int
    seconds: float
    full: bool

    def count(self, severity: str) -> int:
        return sum(1 for row in self.rows if row.severity == severity)


def check(snapshot: Snapshot, token: CancelToken) -> ValidationResult:
    """The background task: re-check the levels given as documents, then the whole pack."""
    started = time.perf_counter()
    nouns = engine.declared_nouns(snapshot.shell)
    kept: dict[int, KeptLevel] = {}
    reports: list[engine.LevelReport] = []
    for item in snapshot.levels:
        entry = item.kept
        if entry is None or entry.report.nouns != nouns:
            if item.doc is None:
                raise ValueError(f"level {item.key} has neither a document nor a report to use")
            report = engine.check_level(item.doc, nouns=nouns)
            entry = KeptLevel(item.version, report, _targets(item.doc, item.board_entities, report))
            kept[item.key] = entry
            yield_to_ui()
            if token.cancelled():
                break  # stale: what was re-read so far is still kept
        reports.append(entry.report)
    if len(reports) < len(snapshot.levels):
        return ValidationResult(snapshot.generation, (), kept, len(kept), 0.0, snapshot.full)
    pack = engine.check_pack(snapshot.shell, name=snapshot.name, levels=reports)
    rows = _rows(snapshot, pack, [kept.get(i.key) or i.kept for i in snapshot.levels])
    seconds = time.perf_counter() - started
    return ValidationResult(snapshot.generation, rows, kept, len(kept), seconds, snapshot.full)


def _targets(
    doc: dict[str, Any], board_entities: int, report: engine.LevelReport
) -> dict[int, EntityTarget]:
    """The entities the report's pointers name (``/entities/3/x`` names entity 3)."""
    entities = doc.get("entities")
    entities = entities if isinstance(entities, list) else []
    found: dict[int, EntityTarget] = {}
    for problem in (*report.errors, *report.warnings):
        index = _entity_index(problem.pointer)
        if index is None or index in found or index >= len(entities):
            continue
        record = entities[index]
        record = record if isinstance(record, dict) else {}
        entity_id, x, y = record.get("id"), record.get("x"), record.get("y")
        cell = (x, y) if is_int(x) and is_int(y) else None
        found[index] = EntityTarget(
            entity_id if is_int(entity_id) else None, cell, index < board_entities
        )
    return found


def _entity_index(pointer: str) -> int | None:
    parts = pointer.split("/")
    if len(parts) >= 3 and parts[1] == "entities" and parts[2].isdigit():
        return int(parts[2])
    return None


def _rows(
    snapshot: Snapshot, pack: engine.PackReport, kept: Sequence[KeptLevel | None]
) -> tuple[ProblemRow, ...]:
    keys = [item.key for item in snapshot.levels]

    def row(problem: engine.Problem, severity: str) -> tuple[tuple[Any, ...], ProblemRow]:
        index = _level_index(problem.pointer)
        level_key = keys[index] if index is not None and index < len(keys) else None
        target = None
        if index is not None and index < len(kept) and severity != CHANGED:
            entry = kept[index]
            entity = _entity_index(problem.pointer.removeprefix(f"/levels/{index}"))
            if entry is not None and entity is not None:
                target = entry.targets.get(entity)
        order = (-1 if index is None else index, engine_path_key(problem.pointer), _RANK[severity])
        return order, ProblemRow(severity, problem.to_dict(), level_key, target)

    made = [row(p, ERROR) for p in pack.errors]
    made += [row(p, WARNING) for p in pack.warnings]
    made += [row(p, CHANGED) for p in snapshot.changed_on_open]
    made.sort(key=lambda pair: pair[0])
    return tuple(r for _order, r in made)


def _level_index(pointer: str) -> int | None:
    parts = pointer.split("/")
    if len(parts) >= 3 and parts[1] == "levels" and parts[2].isdigit():
        return int(parts[2])
    return None


def engine_path_key(pointer: str) -> list[tuple[int, int | str]]:
    """Pointers in document order (array indexes numerically), as the engine sorts them."""
    return [(0, int(t)) if t.isdigit() else (1, t) for t in pointer.split("/")[1:]]


@dataclass(slots=True)
class _Level:
    key: int
    version: int = 0
    kept: KeptLevel | None = None


@dataclass(slots=True)
class _Collecting:
    """A snapshot being taken, a slice at a time."""

    generation: int
    shell: dict[str, Any]
    name: str
    order: list[LevelDocument]
    full: bool
    done: list[LevelInput] = field(default_factory=list)


class PackValidator(QObject):
    """Keeps the open pack's problem rows current; see the module docstring."""

    results_changed = Signal(object)  # ValidationResult, on the UI thread
    busy_changed = Signal(bool)
    failed = Signal(str)  # a check raised: the message, its traceback in the log

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._levels: dict[LevelDocument, _Level] = {}
        self._next_key = 0
        self._generation = 0
        self._collecting: _Collecting | None = None
        self._full_pending = False
        self.result: ValidationResult | None = None
        self.last_failure: TaskFailure | None = None
        self._runner: TaskRunner[Snapshot, ValidationResult] = TaskRunner(self)
        self._runner.finished.connect(self._on_runner_finished)
        self._runner.superseded.connect(self._on_runner_superseded)
        self._runner.failed.connect(self._on_runner_failed)
        self._runner.busy_changed.connect(lambda _b: self.busy_changed.emit(self.is_busy()))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start)
        self._slicer = QTimer(self)
        self._slicer.setSingleShot(True)
        self._slicer.setInterval(0)
        self._slicer.timeout.connect(self._collect)
        self._pack: PackDocument | None = None
        self._pack_links = Connections()
        session.pack_changed.connect(self._on_session_pack_changed)
        if session.pack is not None:
            self._on_session_pack_changed(session.pack)

    # ------------------------------------------------------------------ API
    def check_all(self) -> None:
        """Forget every kept report and check the whole pack now (``actionValidate``)."""
        for state in self._levels.values():
            state.kept = None
        self._full_pending = True
        self._changed(delay=False)

    def is_busy(self) -> bool:
        return self._timer.isActive() or self._collecting is not None or self._runner.is_busy()

    def level_for(self, key: int | None) -> LevelDocument | None:
        """The level document a row's ``level_key`` names, while it is in the pack."""
        if key is None or self._pack is None:
            return None
        for level, state in self._levels.items():
            if state.key == key:
                return level if level in self._pack.levels else None
        return None

    def key_of(self, level: LevelDocument | None) -> int | None:
        state = self._levels.get(level) if level is not None else None
        return state.key if state is not None else None

    # ------------------------------------------------------------- following
    def _on_session_pack_changed(self, pack: PackDocument) -> None:
        self._pack = pack
        self._levels.clear()
        self.result = None
        self._pack_links.follow(
            [
                (pack.level_edited, self._on_level_edited),
                (pack.level_inserted, lambda _i: self._changed()),
                (pack.level_removed, lambda _i: self._changed()),
                (pack.level_moved, lambda _s, _t: self._changed()),
                (pack.nouns_changed, self._on_nouns_changed),
                (pack.properties_changed, lambda: self._changed()),
                (pack.dirty_changed, self._on_dirty_changed),
            ]
        )
        self._full_pending = True
        self._changed(delay=False)

    def _on_level_edited(self, level: LevelDocument) -> None:
        self._state(level).version += 1
        self._changed()

    def _on_nouns_changed(self) -> None:
        for state in self._levels.values():
            state.kept = None  # every level's report depends on the nouns
        self._changed()

    def _on_dirty_changed(self, dirty: bool) -> None:
        if not dirty:  # saved: what opening changed is now in the file
            self._changed()

    def _state(self, level: LevelDocument) -> _Level:
        state = self._levels.get(level)
        if state is None:
            state = self._levels[level] = _Level(self._next_key)
            self._next_key += 1
        return state

    def _changed(self, *, delay: bool = True) -> None:
        self._generation += 1
        if delay:
            self._timer.start()
        else:
            self._timer.stop()
            self._start()
        self.busy_changed.emit(True)

    # ------------------------------------------------------------ snapshots
    def _start(self) -> None:
        pack = self._pack
        if pack is None:
            return
        shell = pack.shell_data()
        path = pack.path
        name = "<pack>" if path is None else path.stem if path.suffix == ".json" else path.name
        self._collecting = _Collecting(
            self._generation, shell, name, pack.levels, self._full_pending
        )
        self._full_pending = False
        self._collect()

    def _collect(self) -> None:
        """Take the next slice of the snapshot; submit it once every level is in."""
        job = self._collecting
        if job is None:
            return
        started = time.perf_counter()
        while len(job.done) < len(job.order):
            level = job.order[len(job.done)]
            state = self._state(level)
            kept = (
                state.kept
                if state.kept is not None and state.kept.version == state.version
                else None
            )
            if kept is not None:
                job.done.append(LevelInput(state.key, state.version, None, 0, kept))
                continue
            job.done.append(
                LevelInput(state.key, state.version, level.to_data(), level.entity_count(), None)
            )
            if time.perf_counter() - started > SLICE_SECONDS:
                self._slicer.start()  # let the author's events in, then go on
                return
        self._collecting = None
        pack = self._pack
        notes = pack.changed_on_open if pack is not None else ()
        snapshot = Snapshot(job.generation, job.shell, job.name, tuple(job.done), notes, job.full)
        self._runner.submit(check, snapshot)

    # --------------------------------------------------------------- results
    def _keep(self, result: ValidationResult) -> None:
        """Keep the reports of levels that have not changed since they were read."""
        for state in self._levels.values():
            entry = result.kept.get(state.key)
            if entry is not None and entry.version == state.version:
                state.kept = entry

    def _on_runner_finished(self, outcome: TaskResult[ValidationResult]) -> None:
        result = outcome.value
        self._keep(result)
        if result.generation == self._generation:  # else: the next check shows the pack as it is
            self.result = result
            self.last_failure = None
            self.results_changed.emit(result)
        self.busy_changed.emit(self.is_busy())

    def _on_runner_superseded(self, outcome: TaskResult[ValidationResult]) -> None:
        self._keep(outcome.value)

    def _on_runner_failed(self, failure: TaskFailure) -> None:
        self.last_failure = failure
        self.failed.emit(f"{failure}\n{failure.traceback}")
        self.busy_changed.emit(self.is_busy())
