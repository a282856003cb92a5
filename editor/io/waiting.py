"""Waiting for a long file operation without freezing the window.

A file operation (open, save) keeps its simple shape — a method that returns
when the pack is open or written — but while it waits, a local event loop runs:
the window paints, timers tick, a progress window (``editor.dialogs.progress``)
says how far it is. The work itself runs in two kinds of steps:

- pure work on a snapshot, off the UI thread (``Busy.run``: a ``TaskRunner``,
  the background module's rules);
- work that must touch documents, on the UI thread in slices of at most
  ``SLICE_SECONDS`` (``Busy.slices``), with the event loop running in between.

The progress window is window-modal, so the author cannot edit the pack being
read or written meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QWidget

from editor.dialogs.progress import FileProgress
from editor.tasks.background import CancelToken, TaskFailure, TaskResult, TaskRunner
from editor.tasks.progress import Progress

S = TypeVar("S")
R = TypeVar("R")

#: The longest a slice of UI-thread work runs before the event loop gets a turn.
SLICE_SECONDS = 0.004
#: How often the progress window reads the task's progress.
POLL_MS = 50


def next_turn() -> None:
    """Let the event loop take one turn (timers, posted events) before going on.

    For a step that must not share a turn with the slice before it: the last
    slice of building a pack's documents, then adopting the pack, were one 20 ms
    stretch with no timer or paint in between. The author's input waits for the
    step (it would act on what the step replaces); it is not lost.
    """
    loop = QEventLoop()
    QTimer.singleShot(0, loop.quit)
    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[R]):
    """How a background step ended: its value, its failure, or cancelled by the author."""

    value: R | None = None
    failure: TaskFailure | None = None
    cancelled: bool = False


class Busy:
    """One long operation: its progress window, and the local event loop it waits in."""

    def __init__(self, parent: QWidget, title: str, *, can_cancel: bool = False) -> None:
        self.progress = Progress()
        self._dialog = FileProgress(parent, title, can_cancel=can_cancel)
        self._dialog.cancel_requested.connect(self._cancel)
        self._poll = QTimer(self._dialog)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._show_progress)
        self._poll.start()
        self._runner: TaskRunner[Any, Any] | None = None
        self.cancelled = False

    def __enter__(self) -> Busy:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._poll.stop()
        self._dialog.finish()

    def run(self, work: Callable[[S, CancelToken], R], snapshot: S) -> Outcome[R]:
        """``work(snapshot, token)`` off the UI thread; the event loop runs until it ends."""
        if self.cancelled:
            return Outcome(cancelled=True)
        loop = QEventLoop()
        ended: list[Outcome[R]] = []

        def finished(result: TaskResult[R]) -> None:
            ended.append(Outcome(result.value, cancelled=self.cancelled))
            loop.quit()

        def superseded(_result: TaskResult[R]) -> None:
            ended.append(Outcome(cancelled=True))
            loop.quit()

        def failed(failure: TaskFailure) -> None:
            ended.append(Outcome(failure=failure))
            loop.quit()

        runner: TaskRunner[S, R] = TaskRunner(self._dialog)
        runner.finished.connect(finished)
        runner.superseded.connect(superseded)
        runner.failed.connect(failed)
        self._runner = runner
        runner.submit(work, snapshot)
        while not ended:  # results arrive as queued signals, so only while the loop runs
            loop.exec()
        self._runner = None
        return ended[0]

    def until(self, done: Callable[[], bool]) -> None:
        """Let the event loop run until ``done()`` (work another object runs, like a check)."""
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(POLL_MS // 5)
        timer.timeout.connect(loop.quit)
        timer.start()
        while not done():
            loop.exec()
        timer.stop()

    def slices(self, steps: Iterator[object]) -> bool:
        """Run ``steps`` on the UI thread, a slice at a time; False when the author cancelled."""
        loop = QEventLoop()
        timer = QTimer()
        timer.setSingleShot(True)
        timer.setInterval(0)
        done: list[bool] = []

        def slice_() -> None:
            started = time.perf_counter()
            for _ in steps:
                if self.cancelled:
                    done.append(False)
                    loop.quit()
                    return
                if time.perf_counter() - started > SLICE_SECONDS:
                    timer.start()  # let the event loop in, then go on
                    return
            done.append(True)
            loop.quit()

        timer.timeout.connect(slice_)
        timer.start()
        while not done:
            loop.exec()
        return done[0]

    def _cancel(self) -> None:
        self.cancelled = True
        if self._runner is not None:
            self._runner.cancel()

    def _show_progress(self) -> None:
        p = self.progress
        self._dialog.update_to(p.stage, p.done, p.total)
