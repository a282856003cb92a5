"""``TaskRunner``: off the UI thread, newest wins, stale results dropped, failures surfaced."""

from __future__ import annotations

import threading
from typing import ClassVar

import shiboken6
from PySide6.QtCore import QObject

from editor.tasks.background import CancelToken, TaskFailure, TaskResult, collect_now, wait_idle
from editor.tasks.scheduler import Priority, TaskRunner, scheduler


class Gate:
    """Holds a task until the test lets it finish, and records where it ran."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = threading.Event()
        self.threads: list[object] = []
        self.ran: list[int] = []
        self.saw_cancel: list[bool] = []

    def work(self, value: int, token: CancelToken) -> int:
        self.threads.append(threading.get_ident())
        self.started.set()
        assert self.open.wait(5)
        self.ran.append(value)
        self.saw_cancel.append(token.cancelled())
        if value < 0:
            raise ValueError(f"bad value {value}")
        return value * 10


def events_of(runner: TaskRunner) -> list[tuple[str, object]]:
    got: list[tuple[str, object]] = []
    runner.finished.connect(lambda r: got.append(("finished", (r.task, r.value))))
    runner.superseded.connect(lambda r: got.append(("superseded", (r.task, r.value))))
    runner.failed.connect(lambda f: got.append(("failed", (f.task, str(f)))))
    runner.busy_changed.connect(lambda busy: got.append(("busy", busy)))
    return got


def test_the_result_comes_back_on_the_ui_thread_from_another(qtbot) -> None:
    runner: TaskRunner[int, int] = TaskRunner()
    gate = Gate()
    got = events_of(runner)
    gate.open.set()
    with qtbot.waitSignal(runner.finished, timeout=5000) as blocker:
        number = runner.submit(gate.work, 4)
    [result] = blocker.args
    assert isinstance(result, TaskResult)
    assert (result.task, result.value) == (number, 40)
    assert gate.threads[0] != threading.get_ident()
    qtbot.waitUntil(lambda: not runner.is_busy())
    assert got == [("busy", True), ("finished", (number, 40)), ("busy", False)]


def test_newest_wins_a_stale_result_is_offered_aside_and_a_queued_task_is_dropped(qtbot) -> None:
    runner: TaskRunner[int, int] = TaskRunner()
    gate = Gate()
    got = events_of(runner)
    first = runner.submit(gate.work, 1)
    assert gate.started.wait(5)
    runner.submit(gate.work, 2)  # queued, then replaced before it runs
    third = runner.submit(gate.work, 3)
    gate.open.set()
    qtbot.waitUntil(lambda: not runner.is_busy(), timeout=5000)
    assert gate.ran == [1, 3]
    assert gate.saw_cancel == [True, False]  # the running task was told it is stale
    assert got == [
        ("busy", True),
        ("superseded", (first, 10)),
        ("finished", (third, 30)),
        ("busy", False),
    ]


def test_an_exception_is_surfaced_with_its_traceback_never_swallowed(qtbot) -> None:
    runner: TaskRunner[int, int] = TaskRunner()
    gate = Gate()
    gate.open.set()
    with qtbot.waitSignal(runner.failed, timeout=5000) as blocker:
        number = runner.submit(gate.work, -1)
    [failure] = blocker.args
    assert isinstance(failure, TaskFailure)
    assert failure.task == number
    assert str(failure) == "ValueError: bad value -1"
    assert "in work" in failure.traceback
    qtbot.waitUntil(lambda: not runner.is_busy())


def test_even_a_stale_task_that_fails_is_reported(qtbot) -> None:
    runner: TaskRunner[int, int] = TaskRunner()
    gate = Gate()
    got = events_of(runner)
    runner.submit(gate.work, -2)
    assert gate.started.wait(5)
    runner.submit(gate.work, 5)
    gate.open.set()
    qtbot.waitUntil(lambda: not runner.is_busy(), timeout=5000)
    assert [kind for kind, _ in got] == ["busy", "failed", "finished", "busy"]


def test_cancel_drops_the_queue_and_keeps_the_running_result_from_finished(qtbot) -> None:
    runner: TaskRunner[int, int] = TaskRunner()
    gate = Gate()
    got = events_of(runner)
    runner.submit(gate.work, 1)
    assert gate.started.wait(5)
    runner.submit(gate.work, 2)
    runner.cancel()
    gate.open.set()
    qtbot.waitUntil(lambda: not runner.is_busy(), timeout=5000)
    assert gate.ran == [1]
    assert [kind for kind, _ in got] == ["busy", "superseded", "busy"]


# --------------------------------------------------- no Qt on a worker thread
class Tracked:
    """Records the thread its last reference died on."""

    died_on: ClassVar[list[int]] = []

    def __del__(self) -> None:
        Tracked.died_on.append(threading.get_ident())


def test_results_arrive_and_what_the_work_held_is_released_on_the_ui_thread(qtbot) -> None:
    Tracked.died_on = []
    held = Tracked()
    ran_on: list[int] = []
    got: list[tuple[object, object]] = []

    def work(thing: Tracked = held) -> Tracked:
        ran_on.append(threading.get_ident())
        return Tracked()

    del held
    scheduler().in_thread(
        None, Priority.INPUT, work, lambda value, failure: got.append((value, failure))
    )
    del work
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert ran_on != [threading.get_ident()]
    value, failure = got.pop()
    assert isinstance(value, Tracked)
    assert failure is None
    del value
    assert Tracked.died_on == [threading.get_ident()] * 2  # the work's and the result


def test_a_failure_is_delivered_and_a_destroyed_owner_hears_nothing(qtbot) -> None:
    owner = QObject()
    heard: list[object] = []
    failures: list[TaskFailure | None] = []

    def boom() -> int:
        raise ValueError("boom")

    scheduler().in_thread(None, Priority.INPUT, boom, lambda _v, failure: failures.append(failure))
    scheduler().in_thread(owner, Priority.INPUT, lambda: 1, lambda value, _f: heard.append(value))
    shiboken6.delete(owner)
    qtbot.waitUntil(lambda: bool(failures), timeout=5000)
    assert wait_idle(5.0)
    collect_now()
    [failure] = failures
    assert failure is not None
    assert isinstance(failure.error, ValueError)
    assert "boom" in failure.traceback
    assert heard == []
