"""Steps that each get a turn of the event loop to themselves.

Adopting a new pack is one turn in which every panel takes the pack; some of them
leave a few milliseconds of work for "a moment later" (the level list's 10,000
names, the Problems panel's first check). Each on its own timer, they all fell
due during the adopting turn and ran back to back in the next pass of the event
loop, with no paint and no input in between: 10-17 ms on 10,000 levels. Queued
here, they run one per pass, in the order they were queued.

Qt fires, in one pass, only the timers that were due when the pass began, so a
zero timer started in one pass fires in the next. But a pass starts with the
events posted before it (the repaints the last turn asked for), so a step would
share its pass with them; a queued step therefore runs in every other pass, and
the pass between two steps, or between the queueing turn and the first step, is
left to those repaints and to input.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QObject, QTimer

from editor.tasks.background import app_object


class _Turns(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._steps: deque[tuple[QObject, Callable[[], None]]] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next)
        self._skip = True  # the next pass is the repaints' (see the module docstring)

    def add(self, owner: QObject, step: Callable[[], None]) -> None:
        self._steps.append((owner, step))
        if not self._timer.isActive():
            self._skip = True
            self._timer.start()

    def pending(self) -> int:
        return len(self._steps)

    def _next(self) -> None:
        if self._skip:
            self._skip = False
            self._timer.start()
            return
        self._skip = True
        try:
            while self._steps:
                owner, step = self._steps.popleft()
                if shiboken6.isValid(owner):  # a closed window's panels hear nothing
                    step()
                    break
        finally:  # a step that raised leaves the others their turns
            if self._steps:
                self._timer.start()


_turns: _Turns | None = None


def _the_turns() -> _Turns:
    global _turns
    _turns = app_object(_turns, _Turns, "a queue of turns of the event loop")
    return _turns


def in_own_turn(owner: QObject, step: Callable[[], None]) -> None:
    """Run ``step()`` in a later pass of the event loop, alone among the queued steps.

    Skipped if ``owner`` (the QObject the step belongs to) is destroyed first.
    Call it from the UI thread.
    """
    _the_turns().add(owner, step)


def queued_steps() -> int:
    """How many steps wait for their turn (tests)."""
    return _turns.pending() if _turns is not None and shiboken6.isValid(_turns) else 0
