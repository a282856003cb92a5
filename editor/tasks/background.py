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

The tests' ``_no_dangling_tasks`` fixture waits for the global pool, so a test
never leaves a task running into the next one.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, QThreadPool, Signal

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


#: How long a thread may keep the interpreter while another waits for it. Python's
#: default, 5 ms, lets a busy task hold the UI thread back several milliseconds at
#: every timer tick and repaint; 1 ms keeps those waits well under a frame.
SWITCH_INTERVAL = 0.001


def share_interpreter_fairly() -> None:
    """Make a busy background thread hand the interpreter back to the UI thread within 1 ms."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


def yield_to_ui() -> None:
    """Let the UI thread take the interpreter now (call it between steps of long work)."""
    time.sleep(0)


_paused = 0
_paused_lock = threading.Lock()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Keep Python's cyclic garbage collector off during one step of a task.

    A step's temporaries live as long as the step, long enough for the young
    collections to promote them to the oldest generation; enough of them push
    Python into a full pass over the whole heap, which pauses every thread (the
    UI thread of a 1,000-level pack for a quarter of a second). With the collector
    off, they die young by reference counting and never reach it. Keep each step
    short: nothing cyclic is collected meanwhile. Nested and concurrent uses count.
    """
    global _paused
    with _paused_lock:
        _paused += 1
        if _paused == 1:
            gc.disable()
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0:
                gc.enable()


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


class _Relay(QObject):
    """Carries a task's outcome from the worker thread to the UI thread (a queued signal).

    It has no parent and lives as long as a runner or a task still refers to it, so
    a task that ends after its runner was destroyed emits into a live object whose
    connections are already gone, instead of into a deleted one.
    """

    done = Signal(int, bool, object)  # task number, ok, value or TaskFailure


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

    def __init__(self, parent: QObject | None = None, *, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        share_interpreter_fairly()
        self._pool = pool if pool is not None else QThreadPool.globalInstance()
        self._relay = _Relay()
        self._relay.done.connect(self._on_relay_done)
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
        relay = self._relay

        def run() -> None:
            try:
                outcome: object = task.work(task.snapshot, task.token)
                ok = True
            except BaseException as exc:  # surfaced on ``failed``, never swallowed
                outcome = TaskFailure(task.number, exc, traceback.format_exc())
                ok = False
            with contextlib.suppress(RuntimeError):  # the application is gone: no one to tell
                relay.done.emit(task.number, ok, outcome)

        self._pool.start(run)

    def _on_relay_done(self, number: int, ok: bool, outcome: object) -> None:
        task = self._running
        if task is None or task.number != number:
            return  # cannot happen: one task runs at a time
        self._running = None
        if not ok:  # even from a stale task: a failure is never swallowed
            assert isinstance(outcome, TaskFailure)
            self.failed.emit(outcome)
        elif task.token.cancelled():
            self.superseded.emit(TaskResult(number, outcome))
        else:
            self.finished.emit(TaskResult(number, outcome))
        queued, self._queued = self._queued, None
        if queued is not None:
            self._start(queued)
        else:
            self.busy_changed.emit(False)


def run_now(work: Callable[[S, CancelToken], Any], snapshot: S) -> Any:
    """Run a task's function on this thread (scripts and benchmarks compare with it)."""
    return work(snapshot, CancelToken())
