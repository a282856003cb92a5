"""``AnalysisService``: the current level as the player sees it at move 0, kept live.

Panels (rules, automata, FRAIL, solver) all need the same reading of the level
being edited: its rules after the settle, what the settle changed, each object's
properties, the automata entries, hints and problems. The service computes it
once per edit with :func:`engine.analyze_level` and emits one ``changed`` signal.

It never runs on the paint path. An edit only restarts a short timer; when the
author pauses for :data:`DEBOUNCE_MS`, the service copies the level's cells (a
shallow copy: stacks are immutable tuples) and a worker thread of the global pool
does the rest. The reading (rules, effects, hints) is published first and the
validation problems follow in a second ``changed``, because validating thousands
of entities takes longer than reading them. A result that an edit made stale is
dropped, and the next job starts as soon as the running one ends, so the panel
shows the newest board within a job's time of the last edit.

Usage::

    service = AnalysisService(session)
    service.changed.connect(lambda: show(service.current))
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.documents.values import OBJECT, LevelProperties, Pos, Stack

#: Quiet time after an edit before the level is read again: short enough that the
#: panel follows within 50 ms, long enough that a brush stroke is read once per pause.
DEBOUNCE_MS = 12


@dataclass(frozen=True, slots=True)
class AnalysisState:
    """One reading of one level, and where its entities were when it was taken.

    ``analysis`` is the engine's reading (``problems`` fills in with the second
    ``changed``: ``validated`` says when). ``words`` maps each word id to its text
    and cell, ``cells`` every entity id to its cell, as they were in the snapshot
    the reading came from (an edit made since is read by the next state).
    """

    level: LevelDocument
    analysis: engine.LevelAnalysis
    words: Mapping[int, tuple[str, Pos]] = field(default_factory=dict)
    cells: Mapping[int, Pos] = field(default_factory=dict)
    validated: bool = False
    revision: int = 0

    @property
    def rules(self) -> tuple[engine.Rule, ...]:
        return self.analysis.rules

    def rule_words(self, rule: engine.Rule) -> list[tuple[str, Pos]]:
        """The text and cell of each source word of ``rule``, in reading order."""
        return [self.words[i] for i in rule.source_ids if i in self.words]

    def used_word_ids(self) -> frozenset[int]:
        """Words that form at least one rule at move 0."""
        return frozenset(i for rule in self.analysis.rules for i in rule.source_ids)


class _Relay(QObject):
    """Carries a worker's result to the UI thread (a queued signal: it lives there)."""

    read = Signal(int, object)  # revision, AnalysisState
    validated = Signal(int, object)  # revision, tuple[engine.Problem, ...] | None (stale)

    def __init__(self) -> None:
        super().__init__()
        self.latest = 0  # the newest revision asked for; a worker reads it (an int: atomic)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    level: LevelDocument
    revision: int
    props: LevelProperties
    cells: dict[Pos, Stack]
    extra: dict[str, Any]
    nouns: frozenset[str] | None

    def document(self) -> dict[str, Any]:
        """The level document, in ``LevelDocument.to_data()`` order (problem pointers agree)."""
        entities = [
            {
                "id": pc.id,
                "kind": pc.kind,
                ("noun" if pc.kind == OBJECT else "text"): pc.token,
                "x": pos.x,
                "y": pos.y,
            }
            for pos in sorted(self.cells, key=lambda q: (q.y, q.x))
            for pc in self.cells[pos]
        ]
        p = self.props
        doc: dict[str, Any] = {"id": p.level_id}
        if p.title:
            doc["title"] = p.title
        if p.author:
            doc["author"] = p.author
        doc.update(width=p.width, height=p.height, entities=entities)
        doc.update(self.extra)
        return doc


class _Job(QRunnable):
    def __init__(self, snapshot: _Snapshot, relay: _Relay) -> None:
        super().__init__()
        self._snapshot = snapshot
        self._relay = relay

    def run(self) -> None:
        snap = self._snapshot
        doc = snap.document()
        analysis = engine.analyze_level(doc, nouns=snap.nouns, validate=False)
        words: dict[int, tuple[str, Pos]] = {}
        cells: dict[int, Pos] = {}
        for pos, stack in snap.cells.items():
            for piece in stack:
                cells[piece.id] = pos
                if piece.kind != OBJECT:
                    words[piece.id] = (piece.token, pos)
        state = AnalysisState(snap.level, analysis, words, cells, False, snap.revision)
        self._relay.read.emit(snap.revision, state)
        if self._relay.latest != snap.revision:  # an edit came: its job validates instead
            self._relay.validated.emit(snap.revision, None)
            return
        problems = engine.check_level(doc, nouns=snap.nouns)
        self._relay.validated.emit(snap.revision, problems)


class AnalysisService(QObject):
    """Follows the session's current level and keeps :attr:`current` up to date."""

    changed = Signal()

    def __init__(
        self,
        session: Session,
        parent: QObject | None = None,
        *,
        delay_ms: int = DEBOUNCE_MS,
        pool: QThreadPool | None = None,
    ) -> None:
        super().__init__(parent)
        self._session = session
        self._pool = pool or QThreadPool.globalInstance()
        self._relay = _Relay()
        self._relay.read.connect(self._on_read)
        self._relay.validated.connect(self._on_validated)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._delay = delay_ms
        self._timer.timeout.connect(self._start)
        self._level: LevelDocument | None = None
        self._pack: PackDocument | None = None
        self._level_links = Connections()
        self._pack_links = Connections()
        self._revision = 0  # grows with every change the current reading must follow
        self._running = False
        self._current: AnalysisState | None = None
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
            not self._timer.isActive()
            and not self._running
            and (self._level is None or self._current is not None)
            and (self._current is None or self._current.validated)
        )

    def refresh(self) -> None:
        """Read the level again after the usual pause (a change the service cannot see)."""
        self._revision += 1
        self._relay.latest = self._revision
        self._timer.start(self._delay)

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: PackDocument) -> None:
        self._pack = pack
        self._pack_links.follow([(pack.nouns_changed, self.refresh)])

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._level_links.follow(
            []
            if level is None
            else [
                (level.cells_changed, self.refresh),
                (level.properties_changed, self.refresh),
                (level.authored_changed, self.refresh),
            ]
        )
        self._current = None
        self.changed.emit()
        if level is not None:
            self._revision += 1
            self._relay.latest = self._revision
            self._timer.start(0)  # a switch shows at once; edits wait for a pause

    def _start(self) -> None:
        self._timer.setInterval(self._delay)  # a level switch started it with no delay
        if self._running or self._level is None:
            return  # the running job's end starts the next one
        level = self._level
        pack = self._pack
        in_pack = pack is not None and level in pack.levels
        snapshot = _Snapshot(
            level=level,
            revision=self._revision,
            props=level.properties,
            cells=dict(level.cells()),
            extra=copy.deepcopy(dict(level.extra)),
            nouns=frozenset(pack.nouns) if in_pack and pack is not None else None,
        )
        self._running = True
        self._pool.start(_Job(snapshot, self._relay))

    def _on_read(self, revision: int, state: AnalysisState) -> None:
        if revision != self._revision or state.level is not self._level:
            return  # stale: the job's end (validated) starts the next one
        self._current = state
        self.changed.emit()

    def _on_validated(self, revision: int, problems: tuple[engine.Problem, ...] | None) -> None:
        self._running = False
        current = self._current
        fresh = current is not None and current.revision == revision == self._revision
        if problems is not None and fresh and current is not None:
            self._current = AnalysisState(
                current.level,
                current.analysis.with_problems(problems),
                current.words,
                current.cells,
                True,
                revision,
            )
            self.changed.emit()
        elif not self._timer.isActive() and self._level is not None:
            self._start()  # edits came while the job ran: read the newest board now
