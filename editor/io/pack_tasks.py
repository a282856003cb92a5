"""Opening and writing a pack off the UI thread (issue 20, finding 8).

The pure halves of ``PackFiles.open_path`` and ``PackFiles._write``: each is a
task function for ``editor.io.waiting.Busy.run`` and touches no document the
window holds.

**Opening** reads the file, checks sizes first, then checks each level in the
one bounded pass ``engine.load_pack`` makes (``engine.report_levels``, counting
on a :class:`~editor.tasks.progress.Progress`) and the pack over those reports
with ``engine.check_pack``, which gives exactly ``engine.load_pack``'s errors: a
hostile pack costs what it costs the engine (1,000 records explained at most),
never one explanation per broken entity of every level. Each level is read here too, into plain parts (a
``PackPlan``): the UI thread makes the documents from them a level at a time,
because QObjects must never be made on a worker (they and their Python-connected
signals risk a deadlock between the interpreter lock and Qt's locks). The reports of levels the editor holds exactly as the file has them
seed the Problems panel, so its first check reads no level again. Packs a
trusted ``pack.py`` builds go through ``engine.load_pack_document`` whole.
When every level has its seed, the panel's first list of problems is made here
too (``Opened.first``), so that check does not run beside the pack's first paints.

**Writing** takes the pack document (collected on the UI thread), encodes it,
keeps a backup and replaces the file atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from editor.documents.pack import PackPlan, read_pack_plan
from editor.io.backups import BackupStore
from editor.io.disk import DiskStamp, check_unchanged, written_stamp
from editor.io.pack_io import (
    PACK_FILE,
    RepairImpossibleError,
    is_generated_pack,
    plan_open,
    plan_read_for_repair,
    plan_repair,
)
from editor.tasks.background import CancelToken, yield_to_ui
from editor.tasks.collector import collector_paused
from editor.tasks.progress import Progress
from editor.tasks.validation_check import (
    KeptLevel,
    LevelDoc,
    Snapshot,
    ValidationResult,
    check,
    kept_level,
)


@dataclass(frozen=True, slots=True)
class OpenRequest:
    path: Path
    trust: bool | str
    progress: Progress
    #: The key the Problems panel's validator will give the first level (its keys are
    #: consecutive): with it, opening also makes the panel's first list of problems.
    first_key: int | None = None
    #: Work the lints of all the levels may spend replaying intended solutions, together.
    lint_budget: int = engine.LINT_WORK_BUDGET


@dataclass(slots=True)
class Opened:
    """A pack ready to edit, or why not: the engine's problems, and maybe a repair."""

    plan: PackPlan | None = None  # made a document on the UI thread (PackBuilder)
    seeds: tuple[KeptLevel | None, ...] = ()  # per level: its report, when it is as read
    first: ValidationResult | None = None  # the Problems panel's first check, made here
    problems: list[engine.Problem] = field(default_factory=list)
    repaired: PackPlan | None = None
    notes: list[engine.Problem] = field(default_factory=list)
    why_not: str = ""  # why the pack cannot be opened for repair
    cancelled: bool = False


def data_file(path: Path) -> Path | None:
    """The JSON file of a data pack (a ``.json`` file or a folder's ``pack.json``)."""
    if path.is_dir():
        file = path / PACK_FILE
        return file if file.is_file() and not is_generated_pack(path) else None
    return path if path.is_file() else None


def open_work(request: OpenRequest, token: CancelToken) -> Opened:
    path, progress = request.path, request.progress
    file = data_file(path)
    if request.trust or file is None:  # pack.py, or nothing to read: the engine says why
        progress.begin(f"Opening {path.name}")
        planned = plan_open(path, trust=request.trust)
        if planned.plan is not None:
            return Opened(planned.plan)
        return _refused(path, planned.problems, None)
    name = path.stem if path.suffix == ".json" else path.name
    progress.begin(f"Reading {file.name}")
    try:
        doc = engine.read_json_file(file, name=name)
    except engine.ValidationError as exc:
        return _refused(path, list(exc.errors), None)
    levels = doc.get("levels") if isinstance(doc, dict) else None
    sizes = engine.check_pack_sizes(doc, name=name)
    if sizes or not isinstance(levels, list):  # nothing to walk level by level
        errors = list(sizes) or list(engine.check_pack(doc, name=name, lint=False).errors)
        return _refused(path, errors, doc) if errors else _built(path, doc, None, token, progress)
    progress.begin("Checking levels", len(levels))
    reports: list[engine.LevelReport] = []
    checking = engine.report_levels(doc, work=engine.lint_work(request.lint_budget))
    for _level in levels:
        with collector_paused():  # its temporaries die young (collector.py)
            reports.append(next(checking))
        progress.step()
        yield_to_ui()
        if token.cancelled():
            return Opened(cancelled=True)
    with collector_paused():
        errors = list(engine.check_pack(doc, name=name, levels=reports).errors)
    if errors:
        return _refused(path, errors, doc)
    opened = _built(path, doc, reports, token, progress)
    if request.first_key is not None and opened.seeds and all(opened.seeds):
        opened.first = _first_check(request.first_key, name, doc, opened.seeds, token, progress)
    # The file's levels as parsed (700,000 dictionaries at 10,000 levels): dropped
    # with this frame they were freed in one go, 30 ms with the interpreter held
    # and the window still, just before the pack showed.
    release_levels(levels)
    return opened


def _built(
    path: Path,
    doc: dict[str, Any],
    reports: list[engine.LevelReport] | None,
    token: CancelToken,
    progress: Progress,
) -> Opened:
    """The plan of a valid pack (as written), and the reports it can reuse."""
    progress.begin(f"Reading {path.name}")
    with collector_paused():
        plan = read_pack_plan(doc, path=path, folder=path.is_dir())
    seeds: list[KeptLevel | None] = []
    if reports is not None:
        progress.begin("Preparing the Problems panel", len(reports))
        for index, (raw, report) in enumerate(zip(doc["levels"], reports, strict=True)):
            with collector_paused():
                same = _same_report(plan.level_data(index), raw, report)
                on_board = sum(len(s) for s in plan.levels[index].stacks.values())
                seed = kept_level(LevelDoc(0, raw, on_board), report)
                seeds.append(seed if same else None)
            progress.step()
            yield_to_ui()
            if token.cancelled():
                return Opened(cancelled=True)
    return Opened(plan, tuple(seeds))


def _first_check(
    first_key: int,
    name: str,
    doc: dict[str, Any],
    seeds: tuple[KeptLevel | None, ...],
    token: CancelToken,
    progress: Progress,
) -> ValidationResult | None:
    """The Problems panel's first check of the pack, when every level is as the file has it.

    Made here, the check does not run beside the window's first paints of the pack
    (on 10,000 levels it is 0.1-0.2 s of Python that took turns with them, and the
    window waited). The validator takes it only if its keys start at ``first_key``
    and nothing changed since (``PackValidator.seed``).
    """
    progress.begin("Preparing the Problems panel")
    order = tuple(range(first_key, first_key + len(seeds)))
    kept = {key: seed for key, seed in zip(order, seeds, strict=True) if seed is not None}
    shell = {**doc, "levels": []}
    result = check(Snapshot(0, shell, name, order, kept, {}, full=True), token, freeze=False)
    return result if result.complete and not token.cancelled() else None


def _same_report(held: dict[str, Any], raw: object, report: engine.LevelReport) -> bool:
    """Whether ``report`` (of the file's level) is the report of the editor's version.

    True when they are equal, or differ only in the order of their entities and no
    problem points into the entities: the engine reads entities by id, not by place
    in the list (another tool's order, say by kind, is read exactly like ours, row by
    row). Else the Problems panel checks the editor's version again.
    """
    if held == raw:
        return True
    if not isinstance(raw, dict) or held.keys() != raw.keys():
        return False
    if any("/entities" in problem.pointer for problem in (*report.errors, *report.warnings)):
        return False
    if any(held[key] != raw[key] for key in held if key != "entities"):
        return False
    mine, theirs = _by_id(held.get("entities")), _by_id(raw.get("entities"))
    return mine is not None and mine == theirs


def _by_id(entities: object) -> list[Any] | None:
    if not isinstance(entities, list) or not all(
        isinstance(e, dict) and type(e.get("id")) is int for e in entities
    ):
        return None
    return sorted(entities, key=lambda e: e["id"])


def _refused(path: Path, problems: list[engine.Problem], doc: object) -> Opened:
    """The engine's problems, and the pack as the editor could still hold it for repair."""
    try:
        if doc is None:
            repaired, notes = plan_read_for_repair(path)  # names why it cannot be read
        else:
            with collector_paused():
                repaired, notes = plan_repair(doc, path)
    except RepairImpossibleError as exc:
        return Opened(problems=problems, why_not=str(exc))
    return Opened(problems=problems, repaired=repaired, notes=notes)


@dataclass(frozen=True, slots=True)
class WriteRequest:
    data: dict[str, Any]
    target: Path
    backups: BackupStore | None
    keep: int
    progress: Progress
    #: The file as the editor opened or last saved it: written only while it still is.
    expected: DiskStamp | None = None


def write_work(request: WriteRequest, _token: CancelToken) -> DiskStamp | None:
    """Encode, check the file is as expected, keep a backup, replace atomically
    (``pack_io.save_pack``'s order); the stamp of what was written.

    Raises:
        ValueError, TypeError: what no JSON file can hold; nothing was written.
        ChangedOnDiskError: the file is no longer ``request.expected``; nothing was written.
        OSError: the file could not be written; the old one is untouched.
    """
    levels = request.data.get("levels")
    request.progress.begin(
        f"Writing {request.target.name}", len(levels) if isinstance(levels, list) else 0
    )
    # A level at a time, letting the UI thread in between: the whole text in one
    # piece holds the interpreter lock for 100 ms and more on a large pack.
    pieces: list[bytes] = []
    for piece in engine.dump_pack_chunks(request.data):
        with collector_paused():
            pieces.append(piece.encode("utf-8"))
        request.progress.step()
        yield_to_ui()
    if request.expected is not None:  # as late as can be: just before anything is written
        check_unchanged(request.expected)
    if request.backups is not None:
        request.backups.keep(request.target, request.keep)
    engine.write_atomic(request.target, pieces)
    release_levels(levels)
    return written_stamp(request.target, pieces)


#: How many level documents are freed between two turns given to the UI thread.
RELEASE_BATCH = 64


def release_levels(levels: object) -> None:
    """Free a list of level documents (written, or read from a file) here, a few at a time.

    Dropped at once, 10,000 levels (700,000 dictionaries) hold the interpreter for
    30-70 ms, on whichever thread lets go of them last, with nothing else answered.
    Freed here, the interpreter changes hands between batches. The list is left empty.
    """
    if not isinstance(levels, list):
        return
    while levels:
        del levels[-RELEASE_BATCH:]
        yield_to_ui()
