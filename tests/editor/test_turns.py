"""Steps that each get a turn of the event loop to themselves (``editor.tasks.turns``)."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

from editor.tasks.turns import in_own_turn, queued_steps


class Posted(QObject):
    """Counts the events posted to it: Qt delivers them at the start of a pass."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.User:
            self.seen += 1
            return True
        return super().event(event)


def test_queued_steps_run_in_order_each_in_a_pass_of_its_own(qtbot) -> None:
    """What one step leaves for the event loop (here a posted event, as a repaint is)
    is handled before the next step runs. Two timers due at once would have run back
    to back in one pass, the event after both."""
    owner, posted = QObject(), Posted()
    log: list[tuple[str, int]] = []

    def step(name: str) -> None:
        log.append((name, posted.seen))
        QCoreApplication.postEvent(posted, QEvent(QEvent.Type.User))

    for name in ("fill the list", "first check", "third"):
        in_own_turn(owner, lambda name=name: step(name))
    assert queued_steps() == 3
    qtbot.waitUntil(lambda: len(log) == 3)
    assert log == [("fill the list", 0), ("first check", 1), ("third", 2)]
    assert queued_steps() == 0

    # the old way, for contrast: two timers due together share a pass
    log.clear()
    for name in ("a", "b"):
        QTimer.singleShot(0, lambda name=name: step(name))
    qtbot.waitUntil(lambda: len(log) == 2)
    assert log == [("a", 3), ("b", 3)]


def test_a_step_of_a_destroyed_owner_is_skipped_and_the_next_still_runs(qtbot) -> None:
    gone, kept = QObject(), QObject()
    ran: list[str] = []
    in_own_turn(gone, lambda: ran.append("gone"))
    in_own_turn(kept, lambda: ran.append("kept"))
    shiboken6.delete(gone)  # its window closed before the turn came
    qtbot.waitUntil(lambda: ran == ["kept"])
    qtbot.wait(20)
    assert ran == ["kept"]


def test_a_step_that_raises_leaves_the_others_their_turns(qtbot, monkeypatch) -> None:
    owner = QObject()
    ran: list[str] = []
    raised: list[BaseException] = []
    monkeypatch.setattr("sys.excepthook", lambda _type, value, _tb: raised.append(value))

    def fails() -> None:
        raise RuntimeError("a broken step")

    in_own_turn(owner, fails)
    in_own_turn(owner, lambda: ran.append("after"))
    qtbot.waitUntil(lambda: ran == ["after"])
    assert [str(e) for e in raised] == ["a broken step"]
