"""The open pack's problems, kept up to date in the background (the Problems panel's source).

After an edit the validator waits until the author pauses (``DEBOUNCE_MS``), then
checks again, off the UI thread (:func:`editor.tasks.validation_check.check`),
through :func:`engine.check_pack` — the check ``rulegrid validate --lint`` runs,
so both list the same problems. Only what changed is redone: each level's
:class:`engine.LevelReport` is kept for as long as the level is not edited, and a
check re-reads only the levels edited since (every level when the pack's nouns
change, since a level's report depends on them); the pack-wide checks are always
redone over the kept reports, which costs little, and each unchanged level's
placed warnings and rows are taken over from the check shown now
(:class:`~editor.tasks.validation_check.Reuse`). ``check_all()`` (F7) forgets
every report and checks everything.

On the UI thread an edit costs a version count; a check costs a snapshot — the
pack's own fields, the levels' keys in order (kept until levels are added, removed
or moved), a copy of the map of kept reports, and ``level.written()`` of each level
to re-read, taken one level per step of a sliced job of the scheduler
(:mod:`editor.tasks.scheduler`, at the Problems check's priority) so a full check
of a large pack never blocks — and, when it finishes, swapping the rows in. A
result of a pack that changed meanwhile is never shown (the next check is already
scheduled); its reports of levels that did not change are kept.

Saving asks :meth:`PackValidator.ask_errors` for the pack's errors, whatever panel
shows them: the current result answers at once, else the scheduled check starts
now and answers; if that check fails, the whole pack is checked the engine's way.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks.background import TaskFailure, TaskResult
from editor.tasks.progress import Progress
from editor.tasks.scheduler import Priority, TaskRunner, scheduler
from editor.tasks.validation_check import (
    CHANGED,
    ERROR,
    SEVERITIES,
    WARNING,
    EntityTarget,
    KeptLevel,
    LevelDoc,
    ProblemRow,
    Snapshot,
    ValidationResult,
    check,
)

__all__ = [
    "CHANGED",
    "DEBOUNCE_MS",
    "ERROR",
    "SEVERITIES",
    "WARNING",
    "EntityTarget",
    "PackValidator",
    "ProblemRow",
    "ValidationResult",
]

#: Quiet time after an edit before the pack is checked again.
DEBOUNCE_MS = 80
#: How many levels' keys cost a millisecond of the UI thread (a new pack's are all
#: given in one step: 10,000 in 3-4 ms); its first list of problems costs about as
#: much to show, so it waits for a pass with room for it.
KEYS_PER_MS = 2_500

#: What a save waits for: the pack's errors, or why they could not be found.
Answer = Callable[[list[engine.Problem] | TaskFailure], None]


@dataclass(frozen=True, slots=True)
class _Seeds:
    """What opening a pack made for its first check (``PackValidator.seed``)."""

    pack: PackDocument
    reports: tuple[KeptLevel | None, ...]
    first: ValidationResult | None
    first_key: int | None


@dataclass(frozen=True, slots=True)
class _First:
    """The adopted pack's first check, made while opening, until it is shown or dropped."""

    result: ValidationResult
    key: int  # the key its rows give the first level (the rest follow in order)
    generation: int  # the pack's generation it stands for: any change since drops it


class PackValidator(QObject):
    """Keeps the open pack's problem rows current; see the module docstring."""

    results_changed = Signal(object)  # ValidationResult, on the UI thread
    busy_changed = Signal(bool)
    failed = Signal(str)  # a check raised: the message, then its traceback

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pack: PackDocument | None = None
        self._keys: dict[LevelDocument, int] = {}
        self._by_key: dict[int, LevelDocument] = {}
        self._versions: dict[int, int] = {}  # key -> edits so far
        self._kept: dict[int, KeptLevel] = {}  # key -> report of the level as it is now
        self._order: tuple[int, ...] | None = None  # keys in pack order; None: to rebuild
        self._next_key = 0
        self._generation = 0
        self._full_pending = False
        self._seeds: _Seeds | None = None
        #: The adopted pack's first check, made while it was opened, and the generation
        #: it stands for (any change since: it is dropped and the pack checked here).
        self._first: _First | None = None
        #: The adopted pack's levels and their seeds, until the first check keys them.
        self._seeded: tuple[list[LevelDocument], tuple[KeptLevel | None, ...]] | None = None
        #: How far the running check is (a save waiting for it shows this).
        self.progress = Progress()
        #: Work each re-read level's lint may spend replaying its intended solution
        #: (the window sets it from ``EditorSettings.lint_budget``).
        self.lint_budget = engine.LINT_WORK_BUDGET
        self.result: ValidationResult | None = None
        self.last_failure: TaskFailure | None = None
        self._runner: TaskRunner[Snapshot, ValidationResult] = TaskRunner(
            self, priority=Priority.PROBLEMS
        )
        self._runner.finished.connect(self._on_runner_finished)
        self._runner.superseded.connect(lambda outcome: self._keep(outcome.value))
        self._runner.failed.connect(self._on_runner_failed)
        self._runner.busy_changed.connect(lambda _busy: self.busy_changed.emit(self.is_busy()))
        #: The check: due after the author pauses, its snapshot taken in steps.
        self._check = scheduler().job(self, Priority.PROBLEMS, self._check_steps, name="check")
        #: A save's question when the check failed: the whole pack, the engine's way.
        self._whole = scheduler().job(self, Priority.INPUT, self._whole_steps, name="whole")
        self._asking: list[Answer] = []  # saves waiting for the errors
        self._pack_links = Connections()
        session.pack_changed.connect(self._on_session_pack_changed)
        if session.pack is not None:
            self._on_session_pack_changed(session.pack)

    # ------------------------------------------------------------------ API
    def check_all(self) -> None:
        """Forget every kept report and check the whole pack now (``actionValidate``)."""
        self._kept.clear()
        self._seeded = None
        self._full_pending = True
        self._changed(delay=False)

    @property
    def pack(self) -> PackDocument | None:
        """The pack it follows (the session's)."""
        return self._pack

    def check_now(self) -> None:
        """Start the check an edit scheduled without waiting for the author to pause."""
        if self._check.is_due():
            self._check.run_now()

    def ask_errors(self, answer: Answer) -> None:
        """``answer(errors)`` as soon as the pack's errors as it is now are known.

        The errors are ``engine.load_pack``'s, in its order. At once when the result
        is current; else the check an edit scheduled starts now (its progress is
        :attr:`progress`) and answers when it ends. When a check fails, the whole
        pack is checked the engine's way instead (``engine.load_pack`` off the UI
        thread); when that fails too, ``answer`` gets the failure.
        """
        errors = self.current_errors()
        if errors is not None:
            answer(errors)
            return
        self._asking.append(answer)
        if self._check.is_pending() or self._runner.is_busy():
            self.check_now()
        elif self.last_failure is not None:
            self._whole.run_now()
        else:
            self._changed(delay=False)

    def is_current(self) -> bool:
        """Whether ``result`` describes the pack exactly as it is now (no edit since)."""
        return self.result is not None and self.result.generation == self._generation

    def current_errors(self) -> list[engine.Problem] | None:
        """The pack's errors as ``engine.load_pack`` lists them, when ``result`` is current."""
        return list(self.result.errors) if self.result is not None and self.is_current() else None

    def next_key(self) -> int:
        """The key the next level keyed gets (keys are consecutive, in pack order)."""
        return self._next_key

    def seed(
        self,
        pack: PackDocument,
        reports: Sequence[KeptLevel | None],
        first: ValidationResult | None = None,
        first_key: int | None = None,
    ) -> None:
        """Reports made while ``pack`` was opened, one per level (``None``: none).

        Call it just before the pack becomes the session's: the first check then
        uses them instead of reading those levels again. Each report must be of
        the level's ``to_data()`` as it is at that moment. ``first``: that check
        already made (from every report, its levels keyed from ``first_key``, which
        ``next_key()`` gave before opening): shown instead of checking again, unless
        keys were given meanwhile or the pack changed before it was shown.
        """
        self._seeds = _Seeds(pack, tuple(reports), first, first_key)

    def is_busy(self) -> bool:
        return self._check.is_pending() or self._runner.is_busy() or self._whole.is_pending()

    def is_checking(self) -> bool:
        """Whether a check runs on the background thread right now."""
        return self._runner.is_busy()

    def level_for(self, key: int | None) -> LevelDocument | None:
        """The level document a row's ``level_key`` names, while it is in the pack."""
        level = self._by_key.get(key) if key is not None else None
        if level is None or self._pack is None or not self._pack.has_level(level):
            return None
        return level

    def key_of(self, level: LevelDocument | None) -> int | None:
        return self._keys.get(level) if level is not None else None

    # ------------------------------------------------------------- following
    def _on_session_pack_changed(self, pack: PackDocument) -> None:
        # The levels are keyed by the first check (a pass later), not here: this
        # pass is the one in which every panel takes the new pack.
        self._pack = pack
        self._keys = {}
        self._by_key = {}
        self._versions.clear()
        self._kept.clear()
        self._order = None
        self.result = None
        seeds, self._seeds = self._seeds, None
        if seeds is not None and seeds.pack is not pack:
            seeds = None  # made when another pack was opened
        self._first = None
        self._whole.stop()
        self._seeded = (pack.levels, seeds.reports) if seeds is not None else None
        self._pack_links.follow(
            [
                (pack.level_edited, self._on_level_edited),
                (pack.level_inserted, lambda _i: self._reordered()),
                (pack.level_removed, lambda _i: self._reordered()),
                (pack.level_moved, lambda _s, _t: self._reordered()),
                (pack.nouns_changed, self._on_nouns_changed),
                (pack.properties_changed, lambda: self._changed()),
                (pack.dirty_changed, self._on_dirty_changed),
            ]
        )
        self._full_pending = True
        self._changed(soon=True)
        if seeds is not None and seeds.first is not None and seeds.first_key is not None:
            self._first = _First(seeds.first, seeds.first_key, self._generation)

    def _on_level_edited(self, level: LevelDocument) -> None:
        key = self._key(level)
        self._versions[key] = self._versions.get(key, 0) + 1
        self._kept.pop(key, None)
        self._changed()

    def _reordered(self) -> None:
        self._order = None
        self._changed()

    def _on_nouns_changed(self) -> None:
        self._kept.clear()  # every level's report depends on the nouns
        self._seeded = None
        self._changed()

    def _on_dirty_changed(self, dirty: bool) -> None:
        if not dirty:  # saved: what opening changed is now in the file
            self._changed()

    def _key(self, level: LevelDocument) -> int:
        key = self._keys.get(level)
        if key is None:
            key = self._keys[level] = self._next_key
            self._by_key[key] = level
            self._next_key += 1
        return key

    def _keyed(self, levels: list[LevelDocument]) -> tuple[int, ...]:
        """The keys of ``levels`` in order, keying new ones; the adopted pack's seeds kept."""
        keys = self._keys
        if not keys:  # a pack just adopted: every level keyed at once, in C
            order = range(self._next_key, self._next_key + len(levels))
            self._keys = keys = dict(zip(levels, order, strict=True))
            self._by_key = dict(zip(order, levels, strict=True))
            self._next_key += len(levels)
        elif not all(map(keys.__contains__, levels)):  # levels added: key just those
            for level in itertools.filterfalse(keys.__contains__, levels):
                self._key(level)
        seeded, self._seeded = self._seeded, None
        if seeded is not None:  # reports of levels unedited since they were read
            seeds = zip(map(keys.get, seeded[0]), seeded[1], strict=False)
            edited = self._versions
            self._kept.update(
                (key, report)
                for key, report in seeds
                if report is not None and key is not None and key not in edited
            )
        return tuple(map(keys.__getitem__, levels))

    def _changed(self, *, delay: bool = True, soon: bool = False) -> None:
        """Schedule a check: after the author pauses (``delay``), in a later pass
        (``soon``: a new pack, whose adoption already fills this pass), or now."""
        self._generation += 1
        if soon:
            self._check.start()
        elif delay:
            self._check.start(DEBOUNCE_MS)
        else:
            self._check.run_now()
        self.busy_changed.emit(True)

    # ------------------------------------------------------------ snapshots
    def _key_order(self, pack: PackDocument) -> tuple[int | None]:
        """Key the pack's levels in play order (``_order``); the first key a fresh pack's
        levels were given, or ``None`` when keys had been given before."""
        base = None if self._keys else self._next_key
        self._order = self._keyed(pack.levels)
        return (base,)

    def _check_steps(self) -> Iterator[object]:
        """The check, in steps: key the levels (a new pack's), then read each level to
        re-check, then hand the snapshot to the thread.

        Keying 10,000 levels and showing the list the open made are 3-4 ms each; in
        one pass, with that pass's repaints, they passed 16 ms: the step after the
        keying says what it costs, so it waits for a pass with room.
        """
        pack = self._pack
        if pack is None:
            return
        first, self._first = self._first, None
        prekeyed = None
        if self._order is None:
            prekeyed = self._key_order(pack)
            yield len(self._order or ()) / KEYS_PER_MS
        if prekeyed is not None and first is not None and self._show_first(pack, first, *prekeyed):
            return
        order = self._order
        assert order is not None  # keyed above, or by an earlier check
        missing = [key for key in order if key not in self._kept]
        path = pack.path
        name = "<pack>" if path is None else path.stem if path.suffix == ".json" else path.name
        generation, full = self._generation, self._full_pending
        shell, kept = pack.shell_data(), dict(self._kept)
        self._full_pending = False
        docs: dict[int, LevelDoc] = {}
        for key in missing:
            level = self._by_key[key]
            docs[key] = LevelDoc(self._versions.get(key, 0), level.written(), level.entity_count())
            yield None
        earlier = self.result.reuse if self.result is not None and not full else None
        snapshot = Snapshot(
            generation,
            shell,
            name,
            order,
            kept,
            docs,
            pack.changed_on_open,
            full,
            earlier,
            self.progress,
            lint_budget=self.lint_budget,
        )
        self._runner.submit(check, snapshot)

    def _whole_steps(self) -> Iterator[object]:
        """The whole pack's errors the engine's way, for a save whose check failed."""
        pack = self._pack
        if pack is None:
            return
        data = pack.shell_data()
        levels: list[Any] = []
        self.progress.begin("Collecting levels", pack.level_count())
        for level in pack.levels:
            levels.append(level.written())
            self.progress.step()
            yield None
        if levels or isinstance(data.get("levels"), list):  # else: kept as the file wrote it
            data["levels"] = levels
        self.progress.begin("Checking the pack")
        scheduler().in_thread(self, Priority.INPUT, lambda: _engine_errors(data), self._answered)

    def _answered(self, errors: list[engine.Problem] | None, failure: TaskFailure | None) -> None:
        asking, self._asking = self._asking, []
        reply: list[engine.Problem] | TaskFailure = (
            errors if failure is None and errors is not None else failure or _NO_ANSWER
        )
        for answer in asking:
            answer(reply)
        self.busy_changed.emit(self.is_busy())

    def _show_first(self, pack: PackDocument, first: _First, base: int | None) -> bool:
        """Show the check made while the pack was opened, if it is of the pack as it is."""
        if (
            first.key != base  # its rows name levels by other keys
            or first.generation != self._generation  # an edit, or F7, since it was adopted
            or not self._full_pending
            or pack.changed_on_open  # not listed in it
            or len(self._kept) != len(self._order or ())
        ):
            return False
        self._full_pending = False
        self.result = replace(first.result, generation=self._generation)
        self.last_failure = None
        self.results_changed.emit(self.result)
        if self._asking:
            self._answered(list(self.result.errors), None)
        self.busy_changed.emit(self.is_busy())
        return True

    # --------------------------------------------------------------- results
    def _keep(self, result: ValidationResult) -> None:
        """Keep the reports of levels that have not changed since they were read."""
        for key, entry in result.kept.items():
            if entry.version == self._versions.get(key, 0) and key in self._by_key:
                self._kept[key] = entry

    def _on_runner_finished(self, outcome: TaskResult[ValidationResult]) -> None:
        result = outcome.value
        self._keep(result)
        if result.complete and result.generation == self._generation:
            self.result = result  # else: the check already scheduled shows the pack as it is
            self.last_failure = None
            self.results_changed.emit(result)
        if self._asking:
            if self.is_current():
                self._answered(list(result.errors), None)
            elif not self._runner.is_busy():
                self.check_now()  # an edit since: its check, now
        self.busy_changed.emit(self.is_busy())

    def _on_runner_failed(self, failure: TaskFailure) -> None:
        self.last_failure = failure
        self.failed.emit(f"{failure}\n{failure.traceback}")
        if self._asking and not self._runner.is_busy():
            self._whole.run_now()
        self.busy_changed.emit(self.is_busy())


_NO_ANSWER = TaskFailure(0, RuntimeError("no answer"), "")


def _engine_errors(data: dict[str, Any]) -> list[engine.Problem]:
    """``engine.load_pack``'s errors of a pack document (none: it loads)."""
    try:
        engine.load_pack(data)
    except engine.ValidationError as exc:
        return list(exc.errors)
    return []
