"""The editor's one scheduler: every debounced or sliced job, in one priority order.

Services (the shared reading of the current level, the Problems check, the pack
verifier, the recovery file, the file operations) *declare* work here; none starts
a timer, a time-sliced loop or an event loop of its own. The scheduler owns:

- **one priority order** (:class:`Priority`): the author's input and what views owe
  the screen, then the current level's reading, then the Problems check, then
  background verification, then the rest (the recovery file, warming a solver);
- **one time-slice budget per pass** of the event loop (:data:`PASS_BUDGET_S`),
  shared by every service's UI-thread work: a pass that other work already filled
  (an action, its repaints) starts nothing new and gives running slices only
  :data:`MIN_SLICE_S`, so background work never stacks its share on theirs;
- **where work runs**: short steps and slices on the UI thread (:class:`Job`), pure
  work on a snapshot on a worker thread (:meth:`Scheduler.in_thread`, results
  delivered on the UI thread by the scheduler's passes), solver searches in the one
  process pool (:mod:`editor.tasks.solve`, its pipes read by the same passes);
- **the garbage-collector policy** (:mod:`editor.tasks.collector`);
- **waiting**: a file operation the author waits for (open, save) runs its steps
  through :meth:`Scheduler.wait_until`, the editor's only nested event loop, while
  the window paints and background work below the Problems check is held.

A :class:`Job` is one kind of work of one service: ``start(delay_ms)`` makes it due
after a pause (starting it again restarts the pause: a debounce), ``run_now()``
begins it at once. When it runs, its function does its work and returns nothing (a
*step*), or returns an iterator whose every ``next()`` is one small step (a *sliced*
job): the scheduler advances it pass after pass within the budget. A step may yield
the milliseconds it expects its next step to take; the scheduler then leaves that
step to a pass with room for it.

The scheduler is one per application (:func:`scheduler`), driven by one timer; each
pass delivers finished thread work, reads the solver pipes when due, then runs the
due jobs in priority order. A job whose owner (a QObject) is destroyed is dropped.
docs/architecture.md ("One scheduler") draws who asks for what.
"""

from __future__ import annotations

import functools
import math
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Generic, Protocol, TypeVar

import shiboken6
from PySide6.QtCore import QEventLoop, QObject, QTimer, Signal

from editor.tasks import background
from editor.tasks.background import CancelToken, TaskFailure, TaskResult, app_object
from editor.tasks.collector import share_interpreter_fairly

R = TypeVar("R")
S = TypeVar("S")


class Priority(IntEnum):
    """Who goes first when several services have work (lower first)."""

    INPUT = 0  # the author's input, what views owe the screen, work the author waits for
    ANALYSIS = 1  # the current level's reading: rules, automata, FRAIL, ghost paths
    PROBLEMS = 2  # the Problems check of the whole pack
    VERIFY = 3  # background verification: verdict keys and solver jobs
    BACKGROUND = 4  # the rest: the recovery file, warming a solver worker


#: UI-thread time all services together may take in one pass of the event loop. With
#: a pass's own work (an action, the repaints it asked for) the window answers within
#: a frame (16 ms): several services each taking a slice of one pass made Add Level
#: in a 10,000-level pack block 14-31 ms.
PASS_BUDGET_S = 0.004
#: What running sliced work still gets in a pass that other work already filled, so
#: it never stops (a pass during a playback or a drag is never empty).
MIN_SLICE_S = 0.001
#: Passes in a row that may be left to other work before jobs run anyway.
MAX_SKIPS = 2
#: Work at or below this priority waits while the author waits for a file operation,
#: or while work above it runs on a thread: the UI thread's Python then takes turns
#: with the thread's, and a slice took twice its time (a 6 ms keying slice 13 ms).
HELD_FROM = Priority.VERIFY
#: How often finished thread work is collected while some is outstanding (ms).
COLLECT_MS = 4
#: How often the solver processes' pipes are read while they have jobs (ms).
POLL_MS = 15
#: How often a held job looks again whether it may run (ms).
HELD_RETRY_MS = 100
#: How often a waiting file operation's progress window is brought up to date (ms).
TICK_MS = 50
#: The longest the timer waits for the next pass while work is pending: a pass with
#: nothing due costs microseconds, and no state can keep the work waiting longer.
LONGEST_WAIT_S = 1.0

Steps = Iterator[object]


class Poller(Protocol):
    """Work outside the interpreter to look at now and then (the solver pool's pipes)."""

    def outstanding(self) -> bool: ...

    def poll(self) -> None: ...


class Job:
    """One kind of work a service declares: its owner, priority and function.

    Make it with :meth:`Scheduler.job`. ``run()`` returns ``None`` (the work is
    done) or an iterator of steps (sliced work, advanced pass after pass).
    """

    __slots__ = (
        "__weakref__",  # its methods may be connected to signals
        "_due",
        "_hint",
        "_order",
        "_scheduler",
        "_steps",
        "cost_ms",
        "name",
        "owner",
        "priority",
        "run",
    )

    def __init__(
        self,
        scheduler: Scheduler,
        owner: QObject,
        priority: Priority,
        run: Callable[[], Steps | None],
        name: str,
    ) -> None:
        self._scheduler = scheduler
        self.owner = owner
        self.priority = priority
        self.run = run
        self.name = name
        self._due: float | None = None  # when it may begin (perf_counter); None: not asked
        self._steps: Steps | None = None  # sliced work under way
        self._hint = 0.0  # seconds the next step is expected to take
        self._order = 0  # first asked, first run among equals
        #: What beginning it is expected to cost (ms): it then begins only in a pass
        #: that has room for it, or alone (a large pack's list of names: 8-12 ms).
        self.cost_ms = 0.0

    def start(self, delay_ms: int = 0) -> None:
        """Run it once ``delay_ms`` have passed, never in the pass that asks (again:
        the wait starts over). Sliced work under way goes on meanwhile."""
        self._due = self._scheduler.clock() + delay_ms / 1000
        self._scheduler._asked(self)

    def start_within(self, delay_ms: int) -> None:
        """Like :meth:`start`, unless it is already due sooner."""
        due = self._scheduler.clock() + delay_ms / 1000
        if self._due is None or self._due > due:
            self._due = due
            self._scheduler._asked(self)

    def run_now(self) -> None:
        """Begin it here and now; its slices, if any, go on in the next passes."""
        self._due = None
        self._scheduler._begin(self)

    def stop(self) -> None:
        """Forget the pending run and any slices under way."""
        self._due = None
        self._steps = None

    def is_due(self) -> bool:
        """Whether it waits to begin."""
        return self._due is not None

    def is_running(self) -> bool:
        """Whether sliced work of it is under way."""
        return self._steps is not None

    def is_pending(self) -> bool:
        return self._due is not None or self._steps is not None


class _Waiter:
    __slots__ = ("done", "last_tick", "loop", "tick")

    def __init__(self, done: Callable[[], bool], tick: Callable[[], None] | None) -> None:
        self.done = done
        self.tick = tick
        self.loop = QEventLoop()
        self.last_tick = 0.0


class Scheduler(QObject):
    """Runs every service's declared work; see the module docstring."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: Seconds, as the jobs' pauses and the pass budget count them (tests set their own).
        self.clock: Callable[[], float] = time.perf_counter
        self._jobs: list[Job] = []  # due or running
        self._asks = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._pass)
        self._wanted_at = 0.0  # when the pass the timer brings was wanted
        #: Passes run so far (work that spans passes tells them apart by it).
        self.passes = 0
        self._skipped = 0
        self._pollers: list[Poller] = []
        self._next_poll = 0.0
        self._waiters: list[_Waiter] = []
        self._in_pass = False
        #: The longest a pass ran the services' work, in ms (benchmarks read it).
        self.longest_pass_ms = 0.0

    # ------------------------------------------------------------- declaring
    def job(
        self,
        owner: QObject,
        priority: Priority,
        run: Callable[[], Steps | None],
        *,
        name: str = "",
    ) -> Job:
        """Declare ``run`` as work of ``owner`` at ``priority`` (nothing runs yet)."""
        return Job(self, owner, priority, run, name or getattr(run, "__name__", "job"))

    def in_thread(
        self,
        owner: QObject | None,
        priority: Priority,
        work: Callable[[], R],
        deliver: Callable[[R | None, TaskFailure | None], None],
        *,
        serial: bool = False,
    ) -> None:
        """Run ``work()`` on a worker thread; ``deliver(result, failure)`` in a later pass.

        ``work`` reads plain data (a snapshot), never a document or a QObject. The
        delivery is skipped when ``owner`` is destroyed first. ``serial``: the
        owner's thread work runs one at a time, in the order asked (the recovery
        file's writes).
        """
        background.run_in_background(
            work, deliver, owner=owner, priority=priority, lane=owner if serial else None
        )

    def add_poller(self, poller: Poller) -> None:
        """Call ``poller.poll()`` every :data:`POLL_MS` while ``poller.outstanding()``
        (the solver pool's pipes); :meth:`wake` after giving it work."""
        self._pollers.append(poller)

    def wake(self) -> None:
        """Something to collect or poll was added: make sure a pass comes."""
        self._wake()

    # ----------------------------------------------------------------- state
    def is_waiting(self) -> bool:
        """Whether the author waits for a file operation (background work is held)."""
        return bool(self._waiters)

    def threads_busy(self, upto: Priority) -> bool:
        """Whether thread work at ``upto`` or above (lower numbers) is outstanding."""
        return background.outstanding(upto)

    def pending(self) -> list[Job]:
        """The jobs due or running (tests)."""
        return [job for job in self._jobs if job.is_pending()]

    # -------------------------------------------------------------- waiting
    def wait_until(
        self,
        done: Callable[[], bool],
        *,
        tick: Callable[[], None] | None = None,
        input_events: bool = True,
    ) -> None:
        """Let the event loop run until ``done()``, then return (a file operation's wait).

        The editor's one nested event loop: the window paints, the scheduler's
        passes run the work ``done`` waits for, ``tick()`` runs every
        :data:`TICK_MS` (a progress window). Background work from :data:`HELD_FROM`
        on is held meanwhile. Without ``input_events`` the author's input waits
        for the wait to end (it would act on what the operation replaces).
        """
        if done():
            return
        waiter = _Waiter(done, tick)
        self._waiters.append(waiter)
        flags = (
            QEventLoop.ProcessEventsFlag.AllEvents
            if input_events
            else QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
        )
        self._arm()
        try:
            while not done():
                waiter.loop.exec(flags)
        finally:
            self._waiters.remove(waiter)
            self._arm()

    def next_pass(self) -> None:
        """Let one pass of the event loop go by, the author's input held (see ``wait_until``)."""
        passes = [0]
        job = self.job(self, Priority.INPUT, lambda: passes.__setitem__(0, 1), name="next pass")
        job.start()
        self.wait_until(lambda: passes[0] > 0, input_events=False)

    # ---------------------------------------------------------------- passes
    def _asked(self, job: Job) -> None:
        if job not in self._jobs:
            self._jobs.append(job)
        self._asks += 1
        job._order = self._asks
        if self._in_pass:
            return  # the pass arms the timer when it ends
        if self._timer.isActive() and job._due is not None:
            wait_ms = (job._due - self.clock()) * 1000
            if self._timer.remainingTime() <= wait_ms:
                return  # a pass comes by then anyway: a burst of asks costs little
        self._arm()

    def _begin(self, job: Job) -> None:
        """Call the job's function now; keep its steps, if any, for the next passes."""
        job._steps = None
        steps = job.run()
        if isinstance(steps, Iterator):  # else: a step, done
            job._steps = steps
            job._hint = 0.0
            if job not in self._jobs:
                self._jobs.append(job)
            if not self._in_pass:
                self._arm()

    def _wake(self) -> None:
        if not self._in_pass:
            self._arm()

    def _held(self, job: Job) -> bool:
        return job.priority >= HELD_FROM and (
            bool(self._waiters) or self.threads_busy(Priority(HELD_FROM - 1))
        )

    def _pass(self) -> None:
        self.passes += 1
        began = self.clock()
        late = max(0.0, began - self._wanted_at)
        self._in_pass = True
        try:
            self._deliver(began)
            self._run_jobs(began, late)
            self._tick_waiters(began)
        finally:
            self._in_pass = False
            self._arm()

    def _deliver(self, now: float) -> None:
        """Finished thread work, then the solver pipes when due (their own callbacks)."""
        background.collect_now()
        if now >= self._next_poll and any(p.outstanding() for p in self._pollers):
            self._next_poll = now + POLL_MS / 1000
            for poller in list(self._pollers):
                if poller.outstanding():
                    _guarded(poller.poll)

    def _run_jobs(self, began: float, late: float) -> None:
        # A pass that other work filled begins nothing new, for a pass or two.
        full = late >= PASS_BUDGET_S and self._skipped < MAX_SKIPS
        self._skipped = self._skipped + 1 if full else 0
        limit = began + max(PASS_BUDGET_S - late, MIN_SLICE_S)
        worked = False
        for job in self._ready(began):
            if worked and self.clock() >= limit:
                break
            if job._steps is None:
                if full:
                    continue  # only work under way goes on in this pass
                if worked and self.clock() + job.cost_ms / 1000 > limit:
                    break  # it begins first in the next pass
                job._due = None
                worked = True
                if not _guarded(functools.partial(self._begin, job)):
                    job._steps = None
                if job._steps is None or self.clock() >= limit:
                    continue
            worked = True
            if self._slice(job, limit):
                break  # the pass's budget is spent
        spent = (self.clock() - began) * 1000
        self.longest_pass_ms = max(self.longest_pass_ms, spent)

    def _slice(self, job: Job, limit: float) -> bool:
        """Advance ``job`` until ``limit`` (one step at least); True when it has more."""
        steps = job._steps
        first = True
        while steps is not None and job._steps is steps:
            if not first and self.clock() + job._hint >= limit:
                return True
            first = False
            try:
                hint = next(steps)
            except StopIteration:
                job._steps = None
                return False
            except BaseException:
                job._steps = None
                sys.excepthook(*sys.exc_info())
                return False
            job._hint = hint / 1000 if isinstance(hint, (int, float)) else 0.0
        return False

    def _ready(self, now: float) -> list[Job]:
        """Due or running jobs of living owners, in priority order; the rest dropped."""
        kept: list[Job] = []
        ready: list[Job] = []
        for job in self._jobs:
            if not job.is_pending() or not shiboken6.isValid(job.owner):
                job.stop()
                continue
            kept.append(job)
            if (job._steps is not None or (job._due is not None and job._due <= now)) and not (
                self._held(job)
            ):
                ready.append(job)
        self._jobs = kept
        ready.sort(key=lambda job: (job.priority, job._steps is None, job._order))
        return ready

    def _tick_waiters(self, now: float) -> None:
        for waiter in list(self._waiters):
            if waiter.tick is not None and now - waiter.last_tick >= TICK_MS / 1000:
                waiter.last_tick = now
                _guarded(waiter.tick)
            if waiter.done():
                waiter.loop.quit()

    def _arm(self) -> None:
        """Start the timer for the next pass: when the first job is due, or sooner to
        collect thread work, read the pipes or tick a wait."""
        now = self.clock()
        nearest = math.inf
        for job in self._jobs:
            if not job.is_pending():
                continue
            if self._held(job):
                nearest = min(nearest, now + HELD_RETRY_MS / 1000)
            elif job._steps is not None:
                nearest = now
            elif job._due is not None:
                nearest = min(nearest, job._due)
        if background.outstanding():
            nearest = min(nearest, now + COLLECT_MS / 1000)
        if any(poller.outstanding() for poller in self._pollers):
            nearest = min(nearest, max(now, self._next_poll))
        if self._waiters:
            nearest = min(nearest, now + COLLECT_MS / 1000)
        if nearest == math.inf:
            self._timer.stop()
            return
        wait = min(max(0.0, nearest - now), LONGEST_WAIT_S)
        self._wanted_at = now + wait
        self._timer.start(math.ceil(wait * 1000))


def _guarded(call: Callable[[], Any]) -> bool:
    """``call()``; an exception is reported (never swallowed) and the pass goes on."""
    try:
        call()
    except BaseException:
        sys.excepthook(*sys.exc_info())
        return False
    return True


@dataclass(slots=True)
class _Task(Generic[S, R]):
    number: int
    work: Callable[[S, CancelToken], R]
    snapshot: S
    token: CancelToken


class TaskRunner(QObject, Generic[S, R]):
    """Runs one kind of task on a worker thread; the newest submitted task wins.

    See :mod:`editor.tasks.background` for the pattern its tasks follow.
    """

    finished = Signal(object)  # TaskResult: the newest task's result
    superseded = Signal(object)  # TaskResult: a stale result, for callers that reuse parts
    failed = Signal(object)  # TaskFailure
    busy_changed = Signal(bool)

    def __init__(
        self, parent: QObject | None = None, *, priority: Priority = Priority.INPUT
    ) -> None:
        super().__init__(parent)
        share_interpreter_fairly()
        self._priority = priority
        self._count = 0
        self._running: _Task[S, R] | None = None
        self._queued: _Task[S, R] | None = None

    def submit(self, work: Callable[[S, CancelToken], R], snapshot: S) -> int:
        """Run ``work(snapshot, token)`` in the background; returns the task's number."""
        self._count += 1
        task = _Task(self._count, work, snapshot, CancelToken())
        if self._running is None:
            self._start(task)
            self.busy_changed.emit(True)
        else:
            self._running.token.cancel()
            self._queued = task
        return task.number

    def cancel(self) -> None:
        """Drop the queued task and cancel the running one: nothing more reaches ``finished``."""
        self._queued = None
        if self._running is not None:
            self._running.token.cancel()

    def is_busy(self) -> bool:
        return self._running is not None

    def _start(self, task: _Task[S, R]) -> None:
        self._running = task
        scheduler().in_thread(
            self,
            self._priority,
            lambda: task.work(task.snapshot, task.token),
            lambda value, failure: self._on_done(task.number, value, failure),
        )

    def _on_done(self, number: int, value: R | None, failure: TaskFailure | None) -> None:
        task = self._running
        if task is None or task.number != number:
            return  # cannot happen: one task runs at a time
        self._running = None
        if failure is not None:  # even from a stale task: a failure is never swallowed
            self.failed.emit(TaskFailure(number, failure.error, failure.traceback))
        elif task.token.cancelled():
            self.superseded.emit(TaskResult(number, value))
        else:
            self.finished.emit(TaskResult(number, value))
        queued, self._queued = self._queued, None
        if queued is not None:
            self._start(queued)
        else:
            self.busy_changed.emit(False)


_scheduler: Scheduler | None = None


def scheduler() -> Scheduler:
    """The application's scheduler (made on first use, as the application's child)."""
    global _scheduler
    if _scheduler is None or not shiboken6.isValid(_scheduler):
        _scheduler = app_object(None, Scheduler, "the scheduler")
        background.set_waker(_scheduler.wake)  # thread work is collected by its passes
    return _scheduler
