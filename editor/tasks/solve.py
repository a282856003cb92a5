"""Solving off the UI thread: the editor's one process pool, and the solver panel's runner.

The solver is pure Python and holds the GIL, so a thread would take turns with
painting; it runs in processes instead, started with the ``spawn`` method (a Qt
process must never be forked). ``editor.tasks.solve_worker`` is the child's side
(Qt-free); this module is the editor's.

**One pool.** Every solver process of the application belongs to one pool
(``_POOL``): the workers running jobs and the idle ones kept between jobs (starting
one costs about half a second), so the next job, or the next window, reuses them;
workers left at exit are terminated. The scheduler (:mod:`editor.tasks.scheduler`)
reads the pool's pipes in its passes while jobs are outstanding: every callback
runs on the UI thread, and a read costs microseconds. Inputs are plain data
captured when a job is submitted (``level.to_data()``), never documents.

**Lanes.** A :class:`SolverPool` is one client's lane of the pool: how many jobs of
it may run at once (``size``, and ``spare`` more for urgent jobs, so an urgent job
never waits behind long ones), and at which priority its workers run (``niceness``
over the editor's). The pack check's lane runs at the lowest priority
(:data:`~editor.tasks.solve_worker.NICENESS`), the solver panel's at the editor's
own (a solve the author asked for and waits on must not share a core's leftovers
with the background check). A process cannot raise its priority again, so idle
workers are kept per niceness. The panel's lane starts a worker before the first
Solve (:meth:`SolverPool.warm`): spawning one and loading the engine takes a
second or more, and it was the panel's "starting…".

Cancel is cooperative and quick (a shared integer the solver reads before every
expansion, so well under 100 ms); a worker that does not answer within
:data:`KILL_AFTER` seconds, or that dies, is terminated and replaced, and its job
reported failed. A cancelled job's late answer is dropped.

:class:`SolveRunner` is the solver panel's single solve: at most one at a time,
with progress and cancel (the panel keeps the level's content to tell a stale result).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import itertools
import multiprocessing
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import SpawnProcess
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal

import engine
from editor.tasks.scheduler import Scheduler, scheduler
from editor.tasks.solve_worker import FOREGROUND, NICENESS, serve

KILL_AFTER = 2.0  # seconds a cancelled job may take to stop before its worker is replaced
MAX_KEPT = 4  # idle workers kept for the next job
_CANCEL_ALL = 2**62
_job_ids = itertools.count(1)  # one sequence for every lane: workers move between lanes


@dataclass(eq=False)
class _Job:
    id: int
    kind: str
    payload: Any
    on_done: Callable[[Any], None]
    on_failed: Callable[[str], None]
    on_progress: Callable[[Any], None] | None
    on_check: Callable[[Any], None] | None
    urgent: bool = False
    cancelled_at: float | None = None


class _Worker:
    """One spawned process, its end of the pipe, its cancel number and its niceness."""

    def __init__(self, niceness: int = NICENESS) -> None:
        context = multiprocessing.get_context("spawn")
        self.niceness = niceness
        self.conn, child = context.Pipe(duplex=True)
        self.cancel_up_to = context.RawValue("q", 0)
        self.process: SpawnProcess = context.Process(
            target=serve,
            args=(child, self.cancel_up_to, niceness),
            daemon=True,
            name="rulegrid-solver",
        )
        self.process.start()
        child.close()
        self.job: _Job | None = None

    def send(self, job: _Job) -> None:
        self.job = job
        self.conn.send((job.kind, job.id, job.payload))

    def messages(self) -> list[tuple[str, int, Any]]:
        """Everything the worker has said so far; raises ``EOFError`` once it is gone."""
        out = []
        while self.conn.poll():
            out.append(self.conn.recv())
        return out

    def signal_stop(self) -> None:
        """Ask the worker to end: stop its job, close its pipe, and terminate it.

        A worker holds nothing worth saving, so it is terminated rather than
        awaited (it may still be importing the engine, deaf to its pipe).
        """
        self.cancel_up_to.value = _CANCEL_ALL
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.process.is_alive():
            self.process.terminate()

    def reap(self, wait: float = 1.0) -> None:
        """Wait for the process to end (killing it if SIGTERM was not enough)."""
        self.process.join(wait)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(wait)


class _Pool:
    """The application's one process pool: its idle workers and its lanes.

    Lanes (:class:`SolverPool`) hold the workers running their jobs; a worker with
    nothing to do comes back here and waits for the next job of its niceness.
    The scheduler polls the pool, which polls each lane with work.
    """

    def __init__(self) -> None:
        self.idle: list[_Worker] = []
        self._lanes: list[weakref.ref[SolverPool]] = []  # held weakly: a window's lanes go with it
        self._polled_by: Scheduler | None = None

    def join(self, lane: SolverPool) -> None:
        self._lanes.append(weakref.ref(lane))
        polling = scheduler()
        if polling is not self._polled_by:  # the first lane, or a new application's
            self._polled_by = polling
            polling.add_poller(self)

    def leave(self, lane: SolverPool) -> None:
        self._lanes = [ref for ref in self._lanes if ref() not in (lane, None)]

    def lanes(self) -> list[SolverPool]:
        """The living lanes, the author's first (the lowest niceness)."""
        living = [lane for ref in self._lanes if (lane := ref()) is not None]
        living = [lane for lane in living if shiboken6.isValid(lane)]
        return sorted(living, key=lambda lane: lane.niceness)

    def outstanding(self) -> bool:
        """Whether a lane has jobs queued or running (the scheduler polls while so)."""
        return any(not lane.idle() for lane in self.lanes())

    def poll(self) -> None:
        """Read every busy lane's pipes, the author's lanes first."""
        for lane in self.lanes():
            if not lane.idle():
                lane._poll()

    def wake(self) -> None:
        if self._polled_by is not None and shiboken6.isValid(self._polled_by):
            self._polled_by.wake()

    def acquire(self, niceness: int = NICENESS) -> _Worker:
        while worker := self._take(niceness):
            try:
                worker.messages()  # nothing is expected: an idle worker says nothing
            except (EOFError, OSError):
                worker.signal_stop()
                worker.reap()
                continue
            if worker.process.is_alive():
                return worker
            worker.reap()
        return _Worker(niceness)

    def _take(self, niceness: int) -> _Worker | None:
        for place in range(len(self.idle) - 1, -1, -1):
            if self.idle[place].niceness == niceness:
                return self.idle.pop(place)
        return None

    def warm(self, niceness: int) -> None:
        """Start a worker of ``niceness`` to wait idle, unless one already does.

        When the pool keeps its most idle workers, the one kept longest makes room.
        """
        if any(w.niceness == niceness for w in self.idle):
            return
        if len(self.idle) >= MAX_KEPT:
            oldest = self.idle.pop(0)
            oldest.signal_stop()
            oldest.reap()
        self.release(_Worker(niceness))

    def release(self, worker: _Worker) -> None:
        if worker.job is None and worker.process.is_alive() and len(self.idle) < MAX_KEPT:
            self.idle.append(worker)
        else:
            worker.signal_stop()
            worker.reap()

    def close(self) -> None:
        workers, self.idle = self.idle, []
        for worker in workers:
            worker.signal_stop()
        for worker in workers:
            worker.reap()


_POOL = _Pool()
atexit.register(_POOL.close)


def _abandon(workers: list[_Worker]) -> None:
    """Empty ``workers`` in place: idle ones go back to the pool, busy ones end."""
    taken = list(workers)
    workers.clear()
    for worker in taken:
        if worker.job is not None:
            worker.signal_stop()
    for worker in taken:
        if worker.job is None:
            _POOL.release(worker)
        else:
            worker.reap()


def kept_worker_pids() -> list[int]:
    """The idle workers waiting for the next job (tests: anything else is a leak)."""
    return [w.process.pid for w in _POOL.idle if w.process.pid is not None]


def stop_kept_workers() -> None:
    _POOL.close()


class SolverPool(QObject):
    """One lane of the process pool: solve and verify jobs on up to ``size`` workers.

    ``spare`` more workers may run urgent jobs only, so an urgent job never
    waits behind long ones. Workers run at ``niceness`` over the editor (default
    the lowest priority, for background work).
    """

    def __init__(
        self,
        size: int,
        parent: QObject | None = None,
        *,
        spare: int = 0,
        niceness: int = NICENESS,
    ) -> None:
        super().__init__(parent)
        self.size = max(1, size)
        self.spare = spare
        self.niceness = niceness
        self.jobs_started = 0  # jobs handed to a worker (tests count them)
        self._queue: deque[_Job] = deque()
        self._workers: list[_Worker] = []
        _POOL.join(self)
        # A lane deleted without shutdown (its window's close was refused, then the
        # window went away) must not leave processes behind: the hook sees only the list.
        self.destroyed.connect(functools.partial(_abandon, self._workers))

    def submit(
        self,
        kind: str,
        payload: Any,
        *,
        on_done: Callable[[Any], None],
        on_failed: Callable[[str], None],
        on_progress: Callable[[Any], None] | None = None,
        on_check: Callable[[Any], None] | None = None,
        urgent: bool = False,
    ) -> int:
        """Queue a job (``urgent``: before the others); returns its id for :meth:`cancel`."""
        job = _Job(next(_job_ids), kind, payload, on_done, on_failed, on_progress, on_check, urgent)
        if urgent:
            self._queue.appendleft(job)
        else:
            self._queue.append(job)
        self._dispatch()
        return job.id

    def cancel(self, job_id: int) -> None:
        """Drop a queued job, or stop a running one; its callbacks are never called."""
        for job in self._queue:
            if job.id == job_id:
                self._queue.remove(job)
                return
        for worker in self._workers:
            if worker.job is not None and worker.job.id == job_id:
                worker.cancel_up_to.value = job_id
                if worker.job.cancelled_at is None:
                    worker.job.cancelled_at = time.monotonic()

    def cancel_all(self) -> None:
        self._queue.clear()
        for worker in self._workers:
            if worker.job is not None:
                self.cancel(worker.job.id)

    def running(self) -> int:
        return sum(1 for w in self._workers if w.job is not None)

    def idle(self) -> bool:
        return not self._queue and all(w.job is None for w in self._workers)

    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def warm(self) -> None:
        """Have a worker of this pool's priority started and waiting for the first job."""
        if not self._workers:
            _POOL.warm(self.niceness)

    def shutdown(self) -> None:
        """Stop every job now; idle workers are kept for the next job, busy ones end."""
        self._queue.clear()
        _abandon(self._workers)
        _POOL.leave(self)

    # ---------------------------------------------------------------- internal
    def _dispatch(self) -> None:
        while self._queue:
            job = self._queue[0]
            allowed = self.size + (self.spare if job.urgent else 0)
            if self.running() >= allowed:
                break
            worker = next((w for w in self._workers if w.job is None), None)
            if worker is None:
                worker = _POOL.acquire(self.niceness)
                self._workers.append(worker)
            self._queue.popleft()
            try:
                worker.send(job)
            except OSError:  # the worker died while idle: replace it and try again
                self._retire(worker)
                self._queue.appendleft(job)
                continue
            self.jobs_started += 1
        if not self.idle():
            _POOL.wake()  # the scheduler reads the pipes from its next pass

    def _poll(self) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            try:
                for kind, job_id, data in worker.messages():
                    self._handle(worker, kind, job_id, data)
            except (EOFError, OSError):
                self._fail(worker, "the solver process stopped unexpectedly")
                continue
            job = worker.job
            if job is None:
                continue
            if not worker.process.is_alive():
                code = worker.process.exitcode
                self._fail(worker, f"the solver process stopped unexpectedly (exit code {code})")
            elif job.cancelled_at is not None and now - job.cancelled_at > KILL_AFTER:
                self._retire(worker)  # it ignored the cancel: a fresh worker takes its place
        self._dispatch()
        if self.idle():
            _abandon(self._workers)  # idle workers wait in the pool, not in an idle lane

    def _handle(self, worker: _Worker, kind: str, job_id: int, data: Any) -> None:
        job = worker.job
        if job is None or job.id != job_id:
            return
        live = job.cancelled_at is None
        if kind == "progress":
            if live and job.on_progress is not None:
                job.on_progress(data)
            return
        if kind == "check":
            if live and job.on_check is not None:
                job.on_check(data)
            return
        worker.job = None
        if not live:
            return
        if kind == "done":
            job.on_done(data)
        else:
            job.on_failed(str(data))

    def _fail(self, worker: _Worker, message: str) -> None:
        job = worker.job
        self._retire(worker)
        if job is not None and job.cancelled_at is None:
            job.on_failed(message)

    def _retire(self, worker: _Worker) -> None:
        worker.job = None
        if worker in self._workers:
            self._workers.remove(worker)
        worker.signal_stop()
        worker.reap()


class SolveRunner(QObject):
    """The solver panel's solve: one at a time, with progress and cancel.

    ``started``, then ``progressed(SolveProgress)`` a few times a second (the first
    as the search begins), then one of ``finished(SolveResult)``, ``cancelled()``
    or ``failed(str)``. Its worker runs at the editor's priority.
    """

    started = Signal()
    progressed = Signal(object)  # engine.SolveProgress
    finished = Signal(object)  # engine.SolveResult
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, pool: SolverPool | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = pool if pool is not None else SolverPool(1, self, niceness=FOREGROUND)
        self._job: int | None = None

    @property
    def running(self) -> bool:
        return self._job is not None

    def warm(self) -> None:
        """Start the worker now, so the first Solve is answered at once."""
        self.pool.warm()

    def start(
        self,
        level: dict[str, Any],
        strategy: engine.Strategy,
        max_states: int,
        seconds: float | None = None,
        memory: int | None = None,
    ) -> None:
        """Solve ``level`` (a level document, captured now); a running solve is cancelled.

        ``seconds`` and ``memory`` are the search's budget (``None``: no time limit,
        the default memory share).
        """
        self.cancel(quiet=True)
        self._job = self.pool.submit(
            "solve",
            (level, str(strategy), max_states, seconds, memory),
            on_done=self._on_done,
            on_failed=self._on_failed,
            on_progress=self.progressed.emit,
            urgent=True,
        )
        self.started.emit()

    def cancel(self, *, quiet: bool = False) -> None:
        if self._job is None:
            return
        self.pool.cancel(self._job)
        self._job = None
        if not quiet:
            self.cancelled.emit()

    def shutdown(self) -> None:
        self.cancel(quiet=True)
        self.pool.shutdown()

    def _on_done(self, result: Any) -> None:
        self._job = None
        if isinstance(result, engine.SolveResult) and result.stopped_by == "cancel":
            self.cancelled.emit()
        else:
            self.finished.emit(result)

    def _on_failed(self, message: str) -> None:
        self._job = None
        self.failed.emit(message)
