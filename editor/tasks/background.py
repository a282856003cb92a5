"""Background tasks: a pure function on an immutable snapshot, off the UI thread.

Every panel that computes something slow (validation, lints, a preview) follows one
pattern, so none of them can freeze the window or show a result for a board the
author has already changed:

1. **Snapshot on the UI thread.** Take plain, immutable data — ``level.to_data()``,
   tuples, frozen dataclasses, engine reports — never a document or any QObject:
   the author keeps editing while the task runs, and documents are not thread-safe.
2. **Submit.** ``runner.submit(work, snapshot)`` calls ``work(snapshot, token)`` on
   Qt's global thread pool. ``work`` must be pure: it reads the snapshot and returns
   a new value. Long work checks ``token.cancelled()`` now and then and may return
   early; a result computed after cancelling is never shown anyway.
3. **Results come back through signals, on the UI thread.** ``finished(result)``
   delivers the result of the newest task. An exception is never swallowed, not
   even a stale task's: it arrives as ``failed(TaskFailure)`` with its traceback
   text, and the caller shows it (the validation panel puts it in its status line).
4. **Newest wins, one at a time.** A runner runs one task at a time. Submitting
   while one runs queues the new task (a queued one it replaces is dropped unrun)
   and cancels the running one. The result of a cancelled task is *stale*: it never
   reaches ``finished``, but is offered on ``superseded`` to callers that can reuse
   part of it (the validator keeps the per-level reports of levels that have not
   changed since). The number ``submit`` returns names the task in every signal.

Python runs one thread at a time. A runner lowers the interpreter's switch
interval to 1 ms (:func:`share_interpreter_fairly`), so a busy task gives the
interpreter back to the UI thread quickly; ``work`` should also let the UI thread in
between its steps (``time.sleep(0)``, as :func:`yield_to_ui` does), which keeps
the longest pause of the UI thread near one step of the work; and it should run
each step under :func:`collector_paused`, so its temporaries never trigger a full
garbage collection, which would pause the UI thread far longer.

Worker threads never call Qt. A result travels back through a plain Python queue
that the UI thread empties on a short timer while work is outstanding
(:func:`run_in_background`; the solver pool reads its pipes the same way). An
earlier design emitted queued signals from the workers: PySide copies a Python
argument of a queued signal under one of Qt's internal locks and needs the
interpreter lock to do it, while the UI thread may hold the interpreter lock and
wait for that Qt lock, a deadlock no timeout can break. It hung a CI run.

The tests' ``_no_dangling_tasks`` fixture waits for the workers (:func:`wait_idle`),
so a test never leaves a task running into the next one.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from editor.tasks.collector import share_interpreter_fairly

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


def weak_predicate(method: Callable[[], bool]) -> Callable[[], bool]:
    """``method()`` while its object lives, else False, without keeping the object alive.

    The window owns the objects that ask (the autosaver, the verifier); a strong
    reference back to the window's file handler would keep a closed window alive.
    """
    held = weakref.WeakMethod(method)
    return lambda: bool((alive := held()) is not None and alive())


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


#: How often the UI thread collects finished work while some is outstanding (ms).
COLLECT_MS = 4
#: Worker threads. They share one interpreter, so more would not compute faster;
#: a few keep a long task (a whole pack's check) from holding up a short one.
WORKERS = 4


class _Workers:
    """A few daemon threads that run plain Python callables; no Qt is involved.

    Daemon threads, like Qt's pool threads, do not hold the process open at exit.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._pending = 0  # queued or running
        self._idle = 0  # threads waiting for a job
        self._changed = threading.Condition()

    def start(self, job: Callable[[], None]) -> None:
        with self._changed:
            self._pending += 1
            if self._idle > 0:
                self._idle -= 1
            elif len(self._threads) < self._size:
                name = f"rulegrid-task-{len(self._threads) + 1}"
                thread = threading.Thread(target=self._serve, name=name, daemon=True)
                self._threads.append(thread)
                thread.start()
        self._jobs.put(job)

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


class _Mailbox(QObject):
    """Lives on the UI thread; worker threads leave results in its queue and it delivers them.

    Who receives a result (``owner``, ``deliver``) stays on the UI thread, under a
    ticket; a worker only sees the ticket. Everything a worker made or used is
    posted along, so the last reference to it (a document, a QObject) dies here,
    never on a worker thread. The timer runs only while results are expected; a
    tick with an empty queue costs microseconds.
    """

    def __init__(self, parent: QObject | None) -> None:
        super().__init__(parent)
        self._mail: queue.SimpleQueue[tuple[int, list[Any]]] = queue.SimpleQueue()
        self._waiting: dict[int, tuple[QObject | None, _Delivery]] = {}
        self._tickets = 0
        self._timer = QTimer(self)
        self._timer.setInterval(COLLECT_MS)
        self._timer.timeout.connect(self.collect)

    def expect(self, owner: QObject | None, deliver: _Delivery) -> int:
        self._tickets += 1
        self._waiting[self._tickets] = (owner, deliver)
        if not self._timer.isActive():
            self._timer.start()
        return self._tickets

    def post(self, ticket: int, parcel: list[Any]) -> None:
        """Any thread: leave ``[work, outcome, failure]`` (plain Python; the queue is thread-safe)."""
        self._mail.put((ticket, parcel))

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
            owner, deliver = self._waiting.pop(ticket)
            if not self._waiting:
                self._timer.stop()
            if owner is None or shiboken6.isValid(owner):
                deliver(outcome, failure)


_mailbox: _Mailbox | None = None


Q = TypeVar("Q", bound=QObject)


def app_object(held: Q | None, make: Callable[[QObject], Q], needs: str) -> Q:
    """``held`` while its C++ object lives, else a new one made as the application's child.

    For the UI thread's few process-wide helpers (the mailbox, the turns): a test's
    application may end and another begin, taking its children with it.
    """
    if held is not None and shiboken6.isValid(held):
        return held
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError(f"{needs} needs a QApplication")
    return make(app)


def _the_mailbox() -> _Mailbox:
    global _mailbox
    _mailbox = app_object(_mailbox, _Mailbox, "background work")
    return _mailbox


def run_in_background(
    work: Callable[[], R],
    deliver: Callable[[R | None, TaskFailure | None], None],
    *,
    owner: QObject | None = None,
) -> None:
    """Run ``work()`` on a worker thread; then, on the UI thread, ``deliver(result, failure)``.

    Call it from the UI thread. ``failure`` is ``None`` unless ``work`` raised
    (its ``task`` is 0: callers number their own tasks). ``deliver`` is skipped
    when ``owner`` has been destroyed meanwhile: a closed window hears nothing.
    ``work`` should hold plain data, not QObjects: it runs on another thread.
    """
    mailbox = _the_mailbox()
    ticket = mailbox.expect(owner, deliver)
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

    _workers.start(job)


def wait_idle(timeout: float) -> bool:
    """Block until no background work is queued or running (tests, benchmarks, exit)."""
    return _workers.wait_idle(timeout)


def collect_now() -> None:
    """Deliver finished work at once rather than at the next tick (tests, benchmarks)."""
    if _mailbox is not None and shiboken6.isValid(_mailbox):
        _mailbox.collect()


@dataclass(slots=True)
class _Task(Generic[S, R]):
    number: int
    work: Callable[[S, CancelToken], R]
    snapshot: S
    token: CancelToken


class TaskRunner(QObject, Generic[S, R]):
    """Runs one kind of task off the UI thread; the newest submitted task wins."""

    finished = Signal(object)  # TaskResult: the newest task's result
    superseded = Signal(object)  # TaskResult: a stale result, for callers that reuse parts
    failed = Signal(object)  # TaskFailure
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        share_interpreter_fairly()
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
        run_in_background(
            lambda: task.work(task.snapshot, task.token),
            lambda value, failure: self._on_done(task.number, value, failure),
            owner=self,
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


def run_now(work: Callable[[S, CancelToken], Any], snapshot: S) -> Any:
    """Run a task's function on this thread (scripts and benchmarks compare with it)."""
    return work(snapshot, CancelToken())
