"""The validation task itself: pure data in, problem rows out (runs off the UI thread).

:func:`check` reads a :class:`Snapshot` — the pack without its levels, the levels'
keys in order, the reports kept from earlier checks, and documents of the levels
to re-read — and returns a :class:`ValidationResult`: the rows of the Problems
panel in document order, counted, and the new reports. Everything here is
immutable or owned by the task; nothing touches a document or a widget.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import engine
from editor.documents.reading import is_int
from editor.tasks.background import CancelToken, yield_to_ui
from editor.tasks.collector import collector_paused, freeze_if_large
from editor.tasks.progress import Progress

ERROR, WARNING, CHANGED = "error", "warning", "changed"
SEVERITIES = (ERROR, WARNING, CHANGED)
_RANK = {ERROR: 0, WARNING: 1, CHANGED: 2}


@dataclass(frozen=True, slots=True)
class EntityTarget:
    """The entity a problem's pointer names, as the level held it when checked."""

    entity_id: int | None  # None: the record has no usable id
    cell: tuple[int, int] | None
    on_board: bool  # False: a record the board cannot show (off the grid, malformed)
    unshown_index: int | None = None  # its place in ``LevelDocument.unshown()``, when off it


@dataclass(frozen=True, slots=True)
class ProblemRow:
    """One line of the Problems panel."""

    severity: str  # ERROR, WARNING or CHANGED (what the editor changed when it opened the pack)
    record: dict[str, Any]  # the problem record: pack, level, pointer, code, message
    level_key: int | None  # the validator's key of its level document; None: the pack itself
    target: EntityTarget | None = None
    problem: engine.Problem | None = None  # what the record was made from
    order: tuple[Any, ...] = ()  # where it sorts: the level, the pointer, the severity

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
class LevelDoc:
    """A level to re-read: its document, taken on the UI thread at ``version``."""

    version: int
    doc: Any  # the level as saving writes it (``LevelDocument.written``): an object, mostly
    board_entities: int  # how many of ``doc``'s entities are on the board (they come first)


@dataclass(frozen=True, slots=True)
class LevelRows:
    """A level's warning rows, valid while its placed warnings and its report stay."""

    placed: engine.PlacedWarnings
    entry: KeptLevel
    level_key: int
    rows: tuple[ProblemRow, ...]


@dataclass(frozen=True, slots=True)
class Reuse:
    """What a check leaves for the next check of the same pack.

    An edit of one level of 10,000 re-reads that level; without this the check
    then located, keyed and wrapped in rows all 15,000 warnings again (about 90 ms
    of Python on the thread that shares the interpreter with the window).
    """

    pack: engine.PackReport  # its levels' located warnings (``placed``)
    levels: Mapping[int, LevelRows]  # level index -> its warning rows
    others: tuple[ProblemRow, ...]  # every other row: errors, changes, pack-wide warnings


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a check reads. Each level is a kept report or a document to re-read."""

    generation: int
    shell: dict[str, Any]  # the pack document with an empty ``levels`` list
    name: str  # names the pack in problems when its id is not usable
    order: tuple[int, ...]  # the levels' keys, in pack order
    kept: Mapping[int, KeptLevel]  # key -> report still valid for its level
    docs: Mapping[int, LevelDoc]  # key -> document, for the levels without one
    changed_on_open: tuple[engine.Problem, ...] = ()
    full: bool = False
    earlier: Reuse | None = None  # what the check shown now left, reused where unchanged
    progress: Progress | None = None  # how many of ``docs`` are re-read (a save waiting shows it)
    lint_budget: int = engine.LINT_WORK_BUDGET  # work each re-read level's lint may spend


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """A finished check: the rows to show, counted, and the reports it re-read."""

    generation: int
    rows: tuple[ProblemRow, ...]
    kept: dict[int, KeptLevel]  # key -> report, for the levels this check re-read
    rechecked: int
    seconds: float
    full: bool
    counts: tuple[tuple[str, int], ...] = ()  # severity -> rows (counted off the UI thread)
    level_counts: tuple[tuple[int, int], ...] = ()  # level key -> rows
    complete: bool = True  # False: cancelled before every level was read (no rows)
    errors: tuple[engine.Problem, ...] = ()  # exactly engine.load_pack's, in its order
    reuse: Reuse | None = None  # for the next check of the same pack

    def count(self, severity: str) -> int:
        return dict(self.counts).get(severity, 0)


def check(snapshot: Snapshot, token: CancelToken, *, freeze: bool = True) -> ValidationResult:
    """Re-read the levels given as documents, then check the whole pack over the reports.

    ``freeze``: freeze what it made for the collector if the pack is large. Opening
    passes False: it freezes the whole new pack itself once adopted, and a freeze
    before that would make adopting collect the whole pack (0.4 s on 10,000 levels).
    """
    started = time.perf_counter()
    nouns = engine.declared_nouns(snapshot.shell)
    progress = snapshot.progress if snapshot.progress is not None else Progress()
    progress.begin("Checking levels", len(snapshot.docs))
    fresh: dict[int, KeptLevel] = {}
    levels: list[KeptLevel] = []
    agreed = nouns  # a noun set seen equal to ``nouns``: reports share one (10,000 compares)
    for key in snapshot.order:
        entry = snapshot.kept.get(key)
        if entry is not None and entry.report.nouns is not agreed:
            if entry.report.nouns == nouns:
                agreed = entry.report.nouns
            else:
                entry = None
        if entry is None:
            given = snapshot.docs.get(key)
            if given is None:
                raise ValueError(f"level {key} has neither a document nor a report to use")
            with collector_paused():  # its temporaries die young (collector.py)
                work = engine.lint_work(snapshot.lint_budget)  # the level's own
                report = engine.report_level(given.doc, nouns=nouns, work=work)
                entry = fresh[key] = kept_level(given, report)
            progress.step()
            yield_to_ui()
            if token.cancelled():  # stale: what was re-read so far is still worth keeping
                return ValidationResult(
                    snapshot.generation, (), fresh, len(fresh), 0.0, snapshot.full, complete=False
                )
        levels.append(entry)
    with collector_paused():
        reports = [entry.report for entry in levels]
        earlier = snapshot.earlier
        pack = engine.check_pack(
            snapshot.shell,
            name=snapshot.name,
            levels=reports,
            reuse=earlier.pack if earlier is not None else None,
        )
        rows, reuse = _rows(snapshot, pack, levels, frozenset(fresh))
        errors = pack.errors
        # Every row of a level's own is a warning; the other rows are few.
        per_level = Counter({level.level_key: len(level.rows) for level in reuse.levels.values()})
        counts = Counter({WARNING: sum(per_level.values())} if per_level else {})
        counts.update(row.severity for row in reuse.others)
        per_level.update(row.level_key for row in reuse.others if row.level_key is not None)
        del pack, reports
        if freeze:  # the reports and rows live until the levels change
            freeze_if_large(len(levels))
    return ValidationResult(
        snapshot.generation,
        rows,
        fresh,
        len(fresh),
        time.perf_counter() - started,
        snapshot.full,
        tuple(counts.items()),
        tuple(per_level.items()),
        errors=errors,
        reuse=reuse,
    )


def kept_level(level: LevelDoc, report: engine.LevelReport) -> KeptLevel:
    """A level's report as the validator keeps it (also for reports made when opening)."""
    return KeptLevel(level.version, report, _targets(level.doc, level.board_entities, report))


def _targets(doc: Any, board_entities: int, report: engine.LevelReport) -> dict[int, EntityTarget]:
    """The entities the report's pointers name (``/entities/3/x`` names entity 3)."""
    entities = doc.get("entities") if isinstance(doc, dict) else None
    entities = entities if isinstance(entities, list) else []
    found: dict[int, EntityTarget] = {}
    for problem in (*report.errors, *report.warnings):
        index = _index_after(problem.pointer, "entities")
        if index is None or index in found or index >= len(entities):
            continue
        record = entities[index]
        record = record if isinstance(record, dict) else {}
        entity_id, x, y = record.get("id"), record.get("x"), record.get("y")
        cell = (x, y) if is_int(x) and is_int(y) else None
        on_board = index < board_entities
        found[index] = EntityTarget(
            entity_id if is_int(entity_id) else None,
            cell,
            on_board,
            None if on_board else index - board_entities,
        )
    return found


def _index_after(pointer: str, name: str) -> int | None:
    """``N`` when the pointer starts ``/name/N``."""
    parts = pointer.split("/", 3)
    if len(parts) >= 3 and parts[1] == name and parts[2].isdigit():
        return int(parts[2])
    return None


def _rows(
    snapshot: Snapshot,
    pack: engine.PackReport,
    levels: Sequence[KeptLevel],
    fresh: frozenset[int],
) -> tuple[tuple[ProblemRow, ...], Reuse]:
    """The rows in document order; a row of a level not re-read is the previous row object.

    A level's warning rows are reused whole while the engine reuses its placed
    warnings (same report, same place); the few other rows are matched one by one.
    Keeping the row objects of unchanged levels also means an edit leaves almost
    nothing new behind for Python's collector, whose full passes over a large
    pack's heap would otherwise pause the UI thread.
    """
    keys = snapshot.order
    earlier = snapshot.earlier
    before = earlier.levels if earlier is not None else {}
    previous = {
        (r.severity, r.level_key, r.problem): r
        for r in (earlier.others if earlier is not None else ())
        if r.level_key not in fresh and r.problem is not None
    }

    def row(problem: engine.Problem, severity: str) -> ProblemRow:
        index = _index_after(problem.pointer, "levels")
        level_key = keys[index] if index is not None and index < len(keys) else None
        same = previous.get((severity, level_key, problem))
        if same is not None:
            return same
        target = None
        if index is not None and index < len(levels) and severity != CHANGED:
            entity = _index_after(problem.pointer.removeprefix(f"/levels/{index}"), "entities")
            if entity is not None:
                target = levels[index].targets.get(entity)
        order = (-1 if index is None else index, path_key(problem.pointer), _RANK[severity])
        return ProblemRow(severity, problem.to_dict(), level_key, target, problem, order)

    by_level: dict[int, LevelRows] = {}
    made: list[ProblemRow] = []
    for index, placed in pack.placed.items():
        entry, level_key = levels[index], keys[index]
        kept = before.get(index)
        if (
            kept is None
            or kept.placed is not placed
            or kept.entry is not entry
            or kept.level_key != level_key
        ):
            rows = tuple(row(p, WARNING) for _key, p in placed.keyed)
            kept = LevelRows(placed, entry, level_key, rows)
        by_level[index] = kept
        made += kept.rows
    others = [row(p, ERROR) for p in pack.errors]
    others += [row(p, WARNING) for p in pack.pack_wide]  # unused nouns, duplicate boards
    others += [row(p, CHANGED) for p in snapshot.changed_on_open]
    if others:  # the levels' own rows are in order already
        made += others
        made.sort(key=attrgetter("order"))
    return tuple(made), Reuse(pack, by_level, tuple(others))


def path_key(pointer: str) -> list[tuple[int, int | str]]:
    """Pointers in document order (array indexes numerically), as the engine sorts them."""
    return [(0, int(t)) if t.isdigit() else (1, t) for t in pointer.split("/")[1:]]
