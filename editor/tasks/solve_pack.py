"""``PackVerifier``: every level's verdict, kept current in the background on all cores.

It follows the session's pack. Each level's content is keyed with
``engine.verdict_key``; a key found in the :class:`VerdictCache` is answered at
once, any other is sent to a :class:`SolverPool` as a ``verify`` job (the same
``engine.verify_level`` that ``rulegrid verify`` runs). An edit makes the level's
verdict *stale* at once; after a pause (:data:`EDIT_DELAY_MS`) its key is taken
again and, unless an undo brought back known content, it is checked again. The
current level's job goes first and may use one spare worker, so the level being
edited is answered quickly even while long searches run.

Work on the UI thread is sliced: keys are computed one level per step of a job of
the scheduler (:mod:`editor.tasks.scheduler`, at background verification's
priority), within the budget of each pass of the event loop, so a large pack never
blocks painting; the scheduler holds it while the author waits for a file operation
or a check runs on its thread. ``LevelStatus`` is what the level list and the
solver panel show.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks.scheduler import Priority, scheduler
from editor.tasks.solve import SolverPool
from editor.tasks.solve_cache import VerdictCache

OPEN_DELAY_MS = 800  # after a pack opens: let the window paint before workers start
EDIT_DELAY_MS = 400  # after the last edit of a level
#: Budgets whose stop depends on the machine (and its load): such verdicts are not cached.
_MACHINE_BOUND = ("timeout", "memory")


@dataclass(frozen=True, slots=True)
class LevelStatus:
    """What is known about one level now.

    ``state`` is ``"done"`` (``verdict`` is about the level as it is), ``"stale"``
    (``verdict`` is about an earlier version: a check is coming), ``"checking"``
    (no verdict yet) or ``"failed"`` (the check itself failed: ``error``).
    ``check`` is the intended solution's replay for the current content, known
    before the search ends.
    """

    state: str
    verdict: engine.LevelVerdict | None = None
    check: engine.SolutionCheck | None = None
    error: str = ""

    @property
    def kind(self) -> str:
        """The one word the list shows: a verdict status, ``stale``, ``checking`` or ``error``."""
        if self.state == "failed":
            return "error"
        if self.check is not None and not self.check.wins and self.state != "done":
            return "broken"  # the replay already says so; the search is still running
        if self.state == "done" and self.verdict is not None:
            return str(self.verdict.status)
        return "stale" if self.state == "stale" else "checking"

    def short_text(self) -> str:
        """A few characters for the level list.

        "✓ 8" (proved shortest), "✓ 31–51" (solved in 51, the shortest is at least
        31), "✓ ≤12" (solved, nothing proved), "unknown ≥31" (no solution in 30 moves
        or fewer), "✗ move 7" (broken), "17 < 19" (shortcut).
        """
        kind = self.kind
        verdict = self.verdict if self.state == "done" else None
        if kind == "broken":
            check = self.check or (verdict.intended if verdict is not None else None)
            if check is not None and check.failed_at is not None:
                return f"✗ move {check.failed_at}"
            return "✗ not won"
        if verdict is None:
            return {"checking": "checking…"}.get(kind, kind)
        bound = verdict.lower_bound or 0
        if kind == "solved" and verdict.difficulty is not None:
            d = verdict.difficulty
            if d.shortest:
                return f"✓ {d.length}"
            return f"✓ {bound}–{d.length}" if bound > 1 else f"✓ ≤{d.length}"
        if kind == "shortcut" and verdict.shortcut is not None and verdict.intended is not None:
            return f"{len(verdict.shortcut)} < {verdict.intended.played}"
        if kind == "unknown" and bound > 1:
            return f"unknown ≥{bound}"
        return kind

    def long_text(self) -> str:
        """One sentence for tooltips and the solver panel."""
        if self.state == "failed":
            return f"the check failed: {self.error}"
        if self.kind == "broken" and self.check is not None and self.state != "done":
            return f"intended solution broken: {self.check.message}"
        if self.verdict is None:
            return "checking…"
        if self.state == "stale":
            return f"stale (the level changed; checking again): {self.verdict.message}"
        return self.verdict.message


class PackVerifier(QObject):
    """Verdicts for every level of the session's pack; ``status_changed(level)`` on news."""

    status_changed = Signal(object)  # LevelDocument
    order_changed = Signal()  # levels added, removed or moved

    def __init__(
        self,
        session: Session,
        cache: VerdictCache,
        *,
        settings: engine.VerifySettings | None = None,
        jobs: int | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.cache = cache
        workers = jobs if jobs is not None else background_workers()
        if settings is None:
            # the memory this machine can give shared by the checks and the panel's solve
            settings = engine.VerifySettings(memory=engine.default_memory_budget(workers + 2))
        self.settings = settings
        self.pool = SolverPool(workers, self, spare=1)
        self._pack: PackDocument | None = None
        # A level's entry is made the first time it is needed (the pack says which
        # levels are in it), and the levels of a new pack become "to key" in the
        # first pump: 10,000 entries, or even a dictionary of 10,000 keys, made at
        # once were 1-3 ms of the turn that adopts a pack, and of its first paint.
        self._entries: dict[LevelDocument, _Entry] = {}
        self._dirty: dict[LevelDocument, None] = {}  # ordered set: levels to key again
        self._unkeyed: list[LevelDocument] = []  # a new pack's levels, not yet in _dirty
        self._pack_links = Connections()
        self._submitting = False  # jobs wait until the pack has been open a moment
        #: Jobs may start: after the pack has been open a moment, or after an edit's pause.
        self._delay = scheduler().job(self, Priority.VERIFY, self._start_jobs, name="verify")
        #: Key the changed levels, a level per step.
        self._keying = scheduler().job(self, Priority.VERIFY, self._pump, name="keys")
        self.cache_hits = 0  # levels answered from the cache (tests count them)
        self.jobs_submitted = 0  # levels sent to a worker
        session.pack_changed.connect(self._on_session_pack_changed)
        if session.pack is not None:
            self._on_session_pack_changed(session.pack)

    # ------------------------------------------------------------ reading
    def status(self, level: LevelDocument) -> LevelStatus | None:
        entry = self._entry(level)
        return None if entry is None else entry.status()

    def statuses(self) -> list[tuple[LevelDocument, LevelStatus]]:
        """Every level of the pack in play order, with its status."""
        if self._pack is None:
            return []
        return [(lv, e.status()) for lv in self._pack.levels if (e := self._entry(lv))]

    def busy(self) -> bool:
        return (
            bool(self._dirty)
            or bool(self._unkeyed)
            or any(e.job is not None for e in self._entries.values())
        )

    def _entry(self, level: LevelDocument) -> _Entry | None:
        """What is known about ``level``; None when it is not in the pack."""
        entry = self._entries.get(level)
        if entry is None and self._pack is not None and self._pack.has_level(level):
            entry = self._entries[level] = _Entry()  # in the pack, not needed until now
        return entry

    def set_settings(self, settings: engine.VerifySettings) -> None:
        """Check every level again under ``settings`` (an author changed the budget).

        Verdicts the budget did not stop keep their keys' answers (the cache and the
        entries answer them at once); those a time or memory budget stopped are
        checked again, since a larger budget may now decide them.
        """
        if settings == self.settings:
            return
        self.settings = settings
        self.pool.cancel_all()
        for level, entry in self._entries.items():
            entry.job, entry.job_key, entry.dirty = None, None, True
            solved = entry.verdict.solve if entry.verdict is not None else None
            if solved is not None and solved.stopped_by in _MACHINE_BOUND:
                entry.verdict_key = None
            self._dirty[level] = None
        self._keying.start()

    def shutdown(self) -> None:
        self._delay.stop()
        self._keying.stop()
        self._pack_links.clear()
        self.pool.shutdown()
        self.cache.close()

    # -------------------------------------------------------------- slots
    def _on_session_pack_changed(self, pack: PackDocument) -> None:
        self.pool.cancel_all()
        self._pack = pack
        self._entries, self._dirty, self._unkeyed = {}, {}, pack.levels
        self._pack_links.follow(
            [
                (pack.level_edited, self._on_pack_level_edited),
                (pack.level_inserted, self._on_pack_level_inserted),
                (pack.level_about_to_be_removed, self._on_pack_level_leaving),
                (pack.level_removed, lambda _i: self.order_changed.emit()),
                (pack.level_moved, lambda _s, _t: self.order_changed.emit()),
            ]
        )
        self._submitting = False
        self._keying.start()  # the cache answers in the next passes of the event loop
        self._delay.start(OPEN_DELAY_MS)
        self.order_changed.emit()

    def _on_pack_level_edited(self, level: LevelDocument) -> None:
        entry = self._entry(level)
        if entry is None:
            return
        entry.dirty = True
        self._dirty[level] = None
        self.status_changed.emit(level)
        self._delay.start(EDIT_DELAY_MS)

    # The pack says where a level came or went: comparing every level before and
    # after (two sets of 10,000) cost 2-3 ms of each Add, Duplicate or Delete Level.
    def _on_pack_level_inserted(self, index: int) -> None:
        assert self._pack is not None
        level = self._pack.level_at(index)
        self._dirty[level] = None
        self._delay.start(EDIT_DELAY_MS)
        self.status_changed.emit(level)
        self.order_changed.emit()

    def _on_pack_level_leaving(self, index: int) -> None:
        assert self._pack is not None
        level = self._pack.level_at(index)
        entry = self._entries.pop(level, None)
        self._dirty.pop(level, None)
        if entry is not None and entry.job is not None:
            self.pool.cancel(entry.job)

    # ------------------------------------------------------------ the work
    def _start_jobs(self) -> None:
        self._submitting = True
        self._keying.start()

    def _pump(self) -> Iterator[object]:
        """Key the changed levels and answer each from the cache or with a job, a level
        per step, the current level first (also when the author switches meanwhile).

        Before jobs may start (just after opening) only the cache answers; the
        other levels stay "checking" until the delay ends.
        """
        if self._unkeyed:  # a new pack's levels, after any edited since it opened
            self._dirty.update(dict.fromkeys(self._unkeyed))
            self._unkeyed = []
        order = self._slice_order(self.session.level)
        seen: set[LevelDocument] = set()
        place = 0
        while place < len(order):
            current = self.session.level
            if current is not None and current in self._dirty and current not in seen:
                level = current
            else:
                level, place = order[place], place + 1
                if level in seen or level not in self._dirty:
                    continue  # done already, or answered since
            seen.add(level)
            entry = self._entry(level)
            if entry is None:
                del self._dirty[level]
                continue
            data = None
            if entry.dirty or entry.key is None:
                data = level.to_data()
                entry.key, entry.dirty = engine.verdict_key(data, self.settings), False
            if self._settle(level, entry, entry.key, data, urgent=level is current):
                del self._dirty[level]
            yield None

    def _slice_order(self, current: LevelDocument | None) -> list[LevelDocument]:
        """The levels to key, the current one first.

        Sorting a new pack's 10,000 levels by a Python key for that cost 0.4 ms of
        every slice; a copy of the keys is 0.1 ms.
        """
        order = list(self._dirty)
        if current is not None and current in self._dirty:
            order.remove(current)
            order.insert(0, current)
        return order

    def _settle(
        self,
        level: LevelDocument,
        entry: _Entry,
        key: str,
        data: dict[str, Any] | None,
        *,
        urgent: bool,
    ) -> bool:
        """Answer ``level`` for ``key``; false when it needs a job and jobs may not start yet."""
        if entry.verdict_key == key:  # an undo brought back content already checked
            self._cancel_job(entry)
            self.status_changed.emit(level)
            return True
        cached = self.cache.get(key)
        if cached is not None:
            self.cache_hits += 1
            self._cancel_job(entry)
            entry.verdict, entry.verdict_key = cached, key
            self.status_changed.emit(level)
            return True
        if entry.job is not None and entry.job_key == key:
            return True  # already being checked
        if not self._submitting:
            return False
        self._cancel_job(entry)
        entry.check, entry.error = None, ""
        entry.job_key = key
        entry.job = self.pool.submit(
            "verify",
            (queued(data if data is not None else level.to_data()), self.settings),
            on_done=lambda verdict: self._on_job_done(level, key, verdict),
            on_failed=lambda message: self._on_job_failed(level, key, message),
            on_check=lambda check: self._on_job_check(level, key, check),
            urgent=urgent,
        )
        self.jobs_submitted += 1
        self.status_changed.emit(level)
        return True

    def _cancel_job(self, entry: _Entry) -> None:
        if entry.job is not None:
            self.pool.cancel(entry.job)
        entry.job, entry.job_key = None, None

    def _on_job_check(self, level: LevelDocument, key: str, check: engine.SolutionCheck) -> None:
        entry = self._entry(level)
        if entry is not None and entry.key == key:
            entry.check = check
            self.status_changed.emit(level)

    def _on_job_done(self, level: LevelDocument, key: str, verdict: engine.LevelVerdict) -> None:
        if verdict.solve is None or verdict.solve.stopped_by not in _MACHINE_BOUND:
            self.cache.put(key, verdict)  # time and memory depend on the machine: never kept
        entry = self._entry(level)
        if entry is None or entry.job_key != key:
            return
        entry.job, entry.job_key = None, None
        if entry.key == key:
            entry.verdict, entry.verdict_key = verdict, key
            self.status_changed.emit(level)

    def _on_job_failed(self, level: LevelDocument, key: str, message: str) -> None:
        entry = self._entry(level)
        if entry is None or entry.job_key != key:
            return
        entry.job, entry.job_key = None, None
        entry.error = message.strip().splitlines()[-1] if message.strip() else "unknown error"
        self.status_changed.emit(level)


class _Entry:
    """What the verifier knows about one level (mutable, private)."""

    __slots__ = ("check", "dirty", "error", "job", "job_key", "key", "verdict", "verdict_key")

    def __init__(self) -> None:
        self.key: str | None = None  # the key of the level's content, once taken
        self.dirty = True  # edited since ``key`` was taken
        self.verdict: engine.LevelVerdict | None = None
        self.verdict_key: str | None = None  # the content ``verdict`` is about
        self.check: engine.SolutionCheck | None = None  # early replay for ``key``
        self.job: int | None = None
        self.job_key: str | None = None
        self.error = ""

    def status(self) -> LevelStatus:
        current = not self.dirty and self.key is not None and self.verdict_key == self.key
        if current:
            return LevelStatus("done", self.verdict)
        if self.error and not self.dirty and self.job is None:
            return LevelStatus("failed", self.verdict, error=self.error)
        check = self.check if not self.dirty else None
        return LevelStatus("stale" if self.verdict is not None else "checking", self.verdict, check)


def background_workers() -> int:
    """How many processes verify a pack in the background: every core but one.

    The editor keeps a core for its own threads (the UI and a file operation or a
    check, which share the interpreter). On two cores, two solver processes made a
    save's window stand still 25-35 ms at a time, the editor waiting for a core.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def queued(data: dict[str, Any]) -> str | dict[str, Any]:
    """A level's document as its verification job waits in the queue: as JSON text.

    A new pack's levels wait in the queue by the thousand (one worker process goes
    through them); as dictionaries, 10,000 levels were some 700,000 objects that
    every full collection on the UI thread walked (18-48 ms pauses, growing as the
    queue filled). Text is one object the collector never looks into.
    """
    try:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # not JSON: the worker gets it as it is
        return data
