"""Thread work: a pure function on an immutable snapshot, off the UI thread.

This is the thread lane of the scheduler (:mod:`editor.tasks.scheduler`), which
decides what runs here and delivers the results; services ask it through
``scheduler().in_thread(...)`` or a ``TaskRunner`` (newest wins, below). Every task follows one
pattern, so none of them can freeze the window or show a result for a board the
author has already changed:

1. **Snapshot on the UI thread.** Take plain, immutable data — a level's
   ``snapshot()``, tuples, frozen dataclasses, engine reports — never a document or
   any QObject: the author keeps editing while the task runs, and documents are
   not thread-safe.
2. **Submit.** ``runner.submit(work, snapshot)`` calls ``work(snapshot, token)`` on
   one of a few daemon threads of this module (:data:`WORKERS`; no Qt thread pool).
   ``work`` must be pure: it reads the snapshot and returns a new value. Long work
   checks ``token.cancelled()`` now and then and may return early; a result
   computed after cancelling is never shown anyway.
3. **Results come back on the UI thread.** ``finished(result)`` delivers the result
   of the newest task. An exception is never swallowed, not even a stale task's: it
   arrives as ``failed(TaskFailure)`` with its traceback text, and the caller shows
   it (the validation panel puts it in its status line).
4. **Newest wins, one at a time.** A runner runs one task at a time. Submitting
   while one runs queues the new task (a queued one it replaces is dropped unrun)
   and cancels the running one. The result of a cancelled task is *stale*: it never
   reaches ``finished``, but is offered on ``superseded`` to callers that can reuse
   part of it (the validator keeps the per-level reports of levels that have not
   changed since). The number ``submit`` returns names the task in every signal.

Python runs one thread at a time. The interpreter's switch interval is lowered to
0.2 ms (:data:`~editor.tasks.collector.SWITCH_INTERVAL`), so a busy task gives the
interpreter back to the UI thread quickly; ``work`` should also let the UI thread in
between its steps (``time.sleep(0)``, as :func:`yield_to_ui` does), which keeps
the longest pause of the UI thread near one step of the work; and it should run
each step under :func:`~editor.tasks.collector.collector_paused`, so its
temporaries never trigger a full garbage collection, which would pause the UI
thread far longer.

Worker threads never call Qt. A result travels back through a plain Python queue
that the scheduler's passes empty while work is outstanding (:func:`collect_now`;
they read the solver pool's pipes the same way). An earlier design emitted queued
signals from the workers: PySide copies a Python argument of a queued signal under
one of Qt's internal locks and needs the interpreter lock to do it, while the UI
thread may hold the interpreter lock and wait for that Qt lock, a deadlock no
timeout can break. It hung a CI run.

The tests' ``_no_dangling_tasks`` fixture waits for the workers (:func:`wait_idle`),
so a test never leaves a task running into the next one.
"""

from __future__ import annotations

import functools
import queue
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject

S = TypeVar("S")
R = TypeVar("R")


class CancelToken:
    """Set by the runner when a task's result can no longer be shown; read by the task."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    def cancelled(self) -> bool:
        return self._event.is_set()


def yield_to_ui() -> None:
    """Let the UI thread take the interpreter now (call it between steps of long work)."""
    time.sleep(0)


@dataclass(frozen=True, slots=True)
class TaskFailure:
    """A task that raised: which one, the exception and its formatted traceback."""

    task: int
    error: BaseException
    traceback: str

    def __str__(self) -> str:
        return f"{type(self.error).__name__}: {self.error}"


@dataclass(frozen=True, slots=True)
class TaskResult(Generic[R]):
    """What a task returned, and its number (``submit``'s return value)."""

    task: int
    value: R


#: Worker threads. They share one interpreter, so more would not compute faster;
#: a few keep a long task (a whole pack's check) from holding up a short one.
WORKERS = 4


class _Workers:
    """A few daemon threads that run plain Python callables; no Qt is involved.

    Daemon threads do not hold the process open at exit. Jobs of one *lane* run
    one at a time, in the order they were started (the recovery file's writes).
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._pending = 0  # queued or running
        self._idle = 0  # threads waiting for a job
        self._lanes: dict[
            int, deque[Callable[[], None]]
        ] = {}  # lane -> jobs behind its running one
        self._changed = threading.Condition()

    def start(self, job: Callable[[], None], lane: int | None = None) -> None:
        with self._changed:
            self._pending += 1
            if lane is not None:
                waiting = self._lanes.get(lane)
                if waiting is not None:  # one of the lane's jobs runs: this one follows it
                    waiting.append(job)
                    return
                self._lanes[lane] = deque()
            self._dispatch(job, lane)

    def _dispatch(self, job: Callable[[], None], lane: int | None) -> None:
        """Hand ``job`` to a thread (``self._changed`` held)."""
        if self._idle > 0:
            self._idle -= 1
        elif len(self._threads) < self._size:
            name = f"rulegrid-task-{len(self._threads) + 1}"
            thread = threading.Thread(target=self._serve, name=name, daemon=True)
            self._threads.append(thread)
            thread.start()
        self._jobs.put(job if lane is None else functools.partial(self._in_lane, job, lane))

    def _in_lane(self, job: Callable[[], None], lane: int) -> None:
        try:
            job()
        finally:
            del job
            with self._changed:  # the lane's next job (counted when it was started)
                waiting = self._lanes[lane]
                if waiting:
                    self._dispatch(waiting.popleft(), lane)
                else:
                    del self._lanes[lane]

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                job()  # never raises: run_in_background catches everything
            finally:
                del job  # keep nothing of a finished job alive on this thread
                with self._changed:
                    self._pending -= 1
                    self._idle += 1
                    self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._pending == 0, timeout)


_workers = _Workers(WORKERS)

_Delivery = Callable[[Any, "TaskFailure | None"], None]


class _Mailbox:
    """Worker threads leave results in its queue; the UI thread delivers them.

    Who receives a result (``owner``, ``deliver``) stays on the UI thread, under a
    ticket; a worker only sees the ticket. Everything a worker made or used is
    posted along, so the last reference to it (a document, a QObject) dies here,
    never on a worker thread. The scheduler empties it in its passes while any
    ticket is out (:func:`outstanding`); a pass with an empty queue costs
    microseconds.
    """

    def __init__(self) -> None:
        self._mail: queue.SimpleQueue[tuple[int, list[Any]]] = queue.SimpleQueue()
        #: ticket -> who gets the result, its priority, and what to call if nobody does
        self._waiting: dict[int, tuple[QObject | None, _Delivery, int, Callable[[], None]]] = {}
        self._tickets = 0

    def expect(
        self, owner: QObject | None, deliver: _Delivery, priority: int, dropped: Callable[[], None]
    ) -> int:
        self._tickets += 1
        self._waiting[self._tickets] = (owner, deliver, priority, dropped)
        return self._tickets

    def post(self, ticket: int, parcel: list[Any]) -> None:
        """Any thread: leave ``[work, outcome, failure]`` (plain Python; the queue is thread-safe)."""
        self._mail.put((ticket, parcel))

    def outstanding(self, upto: int | None = None) -> bool:
        """Whether results are expected (of priority ``upto`` or above, when given)."""
        if upto is None:
            return bool(self._waiting)
        return any(priority <= upto for _o, _d, priority, _n in self._waiting.values())

    def collect(self) -> None:
        """Deliver everything that arrived; skip owners destroyed meanwhile."""
        while True:
            try:
                ticket, parcel = self._mail.get_nowait()
            except queue.Empty:
                break
            work, outcome, failure = parcel
            parcel.clear()
            del work
            owner, deliver, _priority, dropped = self._waiting.pop(ticket)
            if owner is None or shiboken6.isValid(owner):
                deliver(outcome, failure)
            else:
                dropped()


_mailbox = _Mailbox()
_wake: Callable[[], None] = lambda: None  # noqa: E731 (the scheduler's, once it exists)


def set_waker(wake: Callable[[], None]) -> None:
    """Call ``wake()`` whenever work is handed to a thread (the scheduler collects it)."""
    global _wake
    _wake = wake


Q = TypeVar("Q", bound=QObject)


def app_object(held: Q | None, make: Callable[[QObject], Q], needs: str) -> Q:
    """``held`` while its C++ object lives, else a new one made as the application's child.

    For the UI thread's process-wide helper (the scheduler): a test's application
    may end and another begin, taking its children with it.
    """
    if held is not None and shiboken6.isValid(held):
        return held
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError(f"{needs} needs a QApplication")
    return make(app)


def run_in_background(
    work: Callable[[], R],
    deliver: Callable[[R | None, TaskFailure | None], None],
    *,
    owner: QObject | None = None,
    priority: int = 0,
    lane: object | None = None,
    dropped: Callable[[], None] = lambda: None,
) -> None:
    """Run ``work()`` on a worker thread; then, on the UI thread, ``deliver(result, failure)``.

    The scheduler's thread lane (services call ``scheduler().in_thread``). Call it
    from the UI thread. ``failure`` is ``None`` unless ``work`` raised (its ``task``
    is 0: callers number their own tasks). ``deliver`` is skipped (``dropped()`` is
    called instead) when ``owner`` has been destroyed meanwhile: a closed window
    hears nothing. ``work`` should hold plain data, not QObjects: it runs on another
    thread. Work with the same ``lane`` runs one at a time, in order.
    """
    mailbox = _mailbox
    ticket = mailbox.expect(owner, deliver, priority, dropped)
    box: list[Callable[[], R]] = [work]
    del work

    def job() -> None:
        # The parcel carries the work, its outcome and its failure to the UI thread,
        # which empties it: what it holds is released there, not here.
        parcel: list[Any] = [box.pop(), None, None]
        try:
            parcel[1] = parcel[0]()
        except BaseException as exc:  # surfaced to the caller, never swallowed
            parcel[2] = TaskFailure(0, exc, traceback.format_exc())
        mailbox.post(ticket, parcel)

    _workers.start(job, None if lane is None else id(lane))
    _wake()


def wait_idle(timeout: float) -> bool:
    """Block until no background work is queued or running (tests, benchmarks, exit)."""
    return _workers.wait_idle(timeout)


def collect_now() -> None:
    """Deliver finished work now (the scheduler's passes; tests, benchmarks)."""
    _mailbox.collect()


def outstanding(upto: int | None = None) -> bool:
    """Whether thread work (of priority ``upto`` or above) is still to be delivered."""
    return _mailbox.outstanding(upto)


def run_now(work: Callable[[S, CancelToken], Any], snapshot: S) -> Any:
    """Run a task's function on this thread (scripts and benchmarks compare with it)."""
    return work(snapshot, CancelToken())
