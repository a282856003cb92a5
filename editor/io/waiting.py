"""Waiting for a long file operation without freezing the window.

A file operation (open, save) keeps its simple shape — a method that returns
when the pack is open or written — and declares its work to the scheduler
(:mod:`editor.tasks.scheduler`) like any other service:

- pure work on a snapshot, off the UI thread (``Busy.run``: a ``TaskRunner`` at the
  author's priority);
- work that must touch documents, on the UI thread a step at a time
  (``Busy.slices``: a job of the scheduler, within each pass's budget);
- work another service does (``Busy.answer``: the Problems check answering a save).

Meanwhile the scheduler runs its one nested event loop (``Scheduler.wait_until``):
the window paints, and background work (verification, the recovery file) is held.
A progress window (``editor.dialogs.progress``) shows how far the work waited for
is, whoever does it. It is window-modal, so the author cannot edit the pack being
read or written meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtWidgets import QWidget

from editor.dialogs.progress import FileProgress
from editor.tasks.background import CancelToken, TaskFailure, TaskResult
from editor.tasks.progress import Progress
from editor.tasks.scheduler import Priority, TaskRunner, scheduler

S = TypeVar("S")
R = TypeVar("R")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Outcome(Generic[R]):
    """How a background step ended: its value, its failure, or cancelled by the author."""

    value: R | None = None
    failure: TaskFailure | None = None
    cancelled: bool = False


class Busy:
    """One long operation: its progress window, and the work it waits for."""

    def __init__(self, parent: QWidget, title: str, *, can_cancel: bool = False) -> None:
        #: The operation's own progress (its thread work and its steps report here).
        self.progress = Progress()
        self._shown = self.progress  # the progress of the work waited for now
        self._dialog = FileProgress(parent, title, can_cancel=can_cancel)
        self._dialog.cancel_requested.connect(self._cancel)
        self._runner: TaskRunner[Any, Any] | None = None
        self.cancelled = False

    def __enter__(self) -> Busy:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._dialog.finish()

    def run(self, work: Callable[[S, CancelToken], R], snapshot: S) -> Outcome[R]:
        """``work(snapshot, token)`` off the UI thread; returns once it has ended."""
        if self.cancelled:
            return Outcome(cancelled=True)
        ended: list[Outcome[R]] = []

        def finished(result: TaskResult[R]) -> None:
            ended.append(Outcome(result.value, cancelled=self.cancelled))

        def failed(failure: TaskFailure) -> None:
            ended.append(Outcome(failure=failure))

        runner: TaskRunner[S, R] = TaskRunner(self._dialog, priority=Priority.INPUT)
        runner.finished.connect(finished)
        runner.superseded.connect(lambda _result: ended.append(Outcome(cancelled=True)))
        runner.failed.connect(failed)
        self._runner = runner
        runner.submit(work, snapshot)
        self._wait(lambda: bool(ended), self.progress)
        self._runner = None
        return ended[0]

    def answer(self, ask: Callable[[Callable[[T], None]], None], progress: Progress) -> T:
        """What another service answers (``ask(reply)``), showing ``progress``, its own."""
        got: list[T] = []
        ask(got.append)
        self._wait(lambda: bool(got), progress)
        return got[0]

    def slices(self, steps: Iterator[object]) -> bool:
        """Run ``steps`` on the UI thread, a step at a time within each pass's budget;
        False when the author cancelled."""
        done: list[bool] = []

        def stepping() -> Iterator[object]:
            for step in steps:
                if self.cancelled:
                    break
                yield step
            done.append(not self.cancelled)

        job = scheduler().job(self._dialog, Priority.INPUT, stepping, name="file operation")
        job.run_now()
        self._wait(lambda: bool(done), self.progress)
        return done[0]

    def _wait(self, done: Callable[[], bool], progress: Progress) -> None:
        self._shown = progress
        try:
            scheduler().wait_until(done, tick=self._show_progress)
        finally:
            self._shown = self.progress

    def _cancel(self) -> None:
        self.cancelled = True
        if self._runner is not None:
            self._runner.cancel()

    def _show_progress(self) -> None:
        p = self._shown
        self._dialog.update_to(p.stage, p.done, p.total)
