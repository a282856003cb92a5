"""The one scheduler: priority order, one budget per pass, holds, waits, and failures."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtTest import QTest

from editor.tasks.background import collect_now, outstanding, wait_idle
from editor.tasks.scheduler import (
    MAX_SKIPS,
    MIN_SLICE_S,
    PASS_BUDGET_S,
    Priority,
    Scheduler,
    scheduler,
)
from editor.views.theme import DARK


class Clock:
    """A clock the test moves: each step of work below costs what it says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def spend(self, ms: float) -> None:
        self.now += ms / 1000


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def driven(qapp: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Scheduler]:
    """A scheduler of its own on the test's clock, whose passes the test runs by hand
    (its timer never fires: the event loop does not run while the test drives it)."""
    # Thread work an earlier test left undelivered would hold background jobs here;
    # delivering it may ask for more (a check that runs again), so until none is left.
    for _ in range(20):
        assert wait_idle(5.0)
        collect_now()
        if not outstanding():
            break
    made = Scheduler()
    made.clock = clock
    # What it holds for is its own tests' business: another window's thread work that
    # is still under way (a test before this one) must not hold its background jobs.
    monkeypatch.setattr(made, "threads_busy", lambda upto: False)
    yield made
    made._timer.stop()
    shiboken6.delete(made)


def run_pass(driven: Scheduler, clock: Clock, *, late_ms: float = 0.0) -> None:
    """One pass, ``late_ms`` after it was wanted (what other work took before it)."""
    driven._wanted_at = clock.now
    clock.spend(late_ms)
    driven._pass()
    driven._timer.stop()


def sliced(clock: Clock, log: list[str], name: str, steps: int, ms: float) -> Iterator[None]:
    for n in range(steps):
        clock.spend(ms)
        log.append(f"{name}{n}")
        yield None


def test_due_jobs_run_in_priority_order_whatever_order_they_were_asked_in(
    driven: Scheduler, clock: Clock
) -> None:
    owner = QObject()
    ran: list[Priority] = []
    for priority in (Priority.BACKGROUND, Priority.PROBLEMS, Priority.INPUT, Priority.VERIFY):
        driven.job(owner, priority, lambda p=priority: ran.append(p)).start()
    driven.job(owner, Priority.ANALYSIS, lambda: ran.append(Priority.ANALYSIS)).start(5)
    run_pass(driven, clock)
    assert ran == [Priority.INPUT, Priority.PROBLEMS, Priority.VERIFY, Priority.BACKGROUND]
    clock.spend(5)
    run_pass(driven, clock)
    assert ran[-1] == Priority.ANALYSIS  # due only after its pause


def test_every_services_slices_share_one_budget_per_pass(driven: Scheduler, clock: Clock) -> None:
    """Each service once took its own slice of the same pass (three 4 ms slices and an
    action: Add Level blocked the window 14-31 ms); now all of them share one."""
    owner = QObject()
    log: list[str] = []
    driven.job(owner, Priority.VERIFY, lambda: sliced(clock, log, "v", 10, 1.0)).start()
    driven.job(owner, Priority.PROBLEMS, lambda: sliced(clock, log, "p", 6, 1.0)).start()
    per_pass = []
    for _ in range(5):
        before = len(log)
        run_pass(driven, clock)
        per_pass.append(log[before:])
    budget = round(PASS_BUDGET_S * 1000)
    assert per_pass[0] == [f"p{n}" for n in range(budget)]  # the check first, alone
    assert all(len(steps) <= budget for steps in per_pass)
    assert [s for steps in per_pass for s in steps] == [
        *(f"p{n}" for n in range(6)),
        *(f"v{n}" for n in range(10)),
    ]


def test_a_pass_other_work_filled_begins_nothing_and_gives_running_work_a_minimum(
    driven: Scheduler, clock: Clock
) -> None:
    owner = QObject()
    log: list[str] = []
    running = driven.job(owner, Priority.VERIFY, lambda: sliced(clock, log, "k", 50, 0.25))
    running.start()
    run_pass(driven, clock)  # begins: a whole budget of 0.25 ms steps (give or take one)
    assert abs(len(log) - PASS_BUDGET_S * 1000 / 0.25) <= 1
    new = driven.job(owner, Priority.INPUT, lambda: log.append("new"))
    new.start()
    before = len(log)
    run_pass(driven, clock, late_ms=12)  # an action and its repaint took this pass
    assert "new" not in log
    assert abs(len(log) - before - MIN_SLICE_S * 1000 / 0.25) <= 1  # keying never stops
    for _ in range(MAX_SKIPS - 1):
        run_pass(driven, clock, late_ms=12)
    assert "new" not in log
    run_pass(driven, clock, late_ms=12)  # passes in a row full: it begins anyway
    assert "new" in log


def test_a_costly_job_begins_first_in_a_pass_never_after_other_work(
    driven: Scheduler, clock: Clock
) -> None:
    owner = QObject()
    ran: list[str] = []

    def work(name: str, ms: float) -> None:
        clock.spend(ms)
        ran.append(name)

    driven.job(owner, Priority.INPUT, lambda: work("cheap", 1)).start()
    costly = driven.job(owner, Priority.ANALYSIS, lambda: work("costly", 9))
    costly.cost_ms = 9
    costly.start()
    run_pass(driven, clock)
    assert ran == ["cheap"]
    run_pass(driven, clock)
    assert ran == ["cheap", "costly"]


def test_a_step_that_says_its_next_step_is_long_leaves_it_to_the_next_pass(
    driven: Scheduler, clock: Clock
) -> None:
    owner = QObject()
    ran: list[str] = []

    def steps() -> Iterator[object]:
        clock.spend(1)
        ran.append("keys")
        yield 3.5  # showing the list costs about this much
        clock.spend(3.5)
        ran.append("list")

    driven.job(owner, Priority.PROBLEMS, steps).start()
    run_pass(driven, clock)
    assert ran == ["keys"]
    run_pass(driven, clock)
    assert ran == ["keys", "list"]


def test_starting_again_restarts_the_pause_and_run_now_begins_at_once(
    driven: Scheduler, clock: Clock
) -> None:
    owner = QObject()
    ran: list[int] = []
    job = driven.job(owner, Priority.ANALYSIS, lambda: ran.append(1))
    job.start(50)
    clock.spend(30)
    job.start(50)  # another edit in the burst
    clock.spend(30)
    run_pass(driven, clock)
    assert ran == []
    assert job.is_due()
    clock.spend(25)
    run_pass(driven, clock)
    assert ran == [1]
    assert not job.is_pending()
    job.start(50)
    job.run_now()
    assert ran == [1, 1]
    assert not job.is_pending()


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


def test_long_steps_run_each_in_a_pass_of_its_own_after_what_the_last_one_posted(
    qtbot: Any,
) -> None:
    """What one step leaves for the event loop (a posted event, as a repaint is) is
    handled before the next step runs: adopting a large pack's list of names and its
    first check once ran back to back in one pass, 10-17 ms."""
    owner, posted = QObject(), Posted()
    log: list[tuple[str, int]] = []

    def step(name: str) -> None:
        log.append((name, posted.seen))
        QCoreApplication.postEvent(posted, QEvent(QEvent.Type.User))

    for name, priority in (
        ("fill the list", Priority.INPUT),
        ("first check", Priority.PROBLEMS),
        ("keys", Priority.VERIFY),
    ):
        job = scheduler().job(owner, priority, lambda name=name: step(name))
        job.cost_ms = 8
        job.start()
    qtbot.waitUntil(lambda: len(log) == 3)
    assert log == [("fill the list", 0), ("first check", 1), ("keys", 2)]


def test_a_destroyed_owners_job_is_dropped_and_the_next_still_runs(qtbot: Any) -> None:
    gone, kept = QObject(), QObject()
    ran: list[str] = []
    scheduler().job(gone, Priority.INPUT, lambda: ran.append("gone")).start()
    scheduler().job(kept, Priority.INPUT, lambda: ran.append("kept")).start()
    shiboken6.delete(gone)  # its window closed before the pass came
    qtbot.waitUntil(lambda: ran == ["kept"])
    qtbot.wait(20)
    assert ran == ["kept"]


def test_a_job_that_raises_is_reported_and_leaves_the_others_their_turns(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = QObject()
    ran: list[str] = []
    raised: list[BaseException] = []
    monkeypatch.setattr("sys.excepthook", lambda _type, value, _tb: raised.append(value))

    def fails() -> None:
        raise RuntimeError("a broken step")

    def broken_slices() -> Iterator[None]:
        yield None
        raise RuntimeError("a broken slice")

    scheduler().job(owner, Priority.INPUT, fails).start()
    scheduler().job(owner, Priority.ANALYSIS, broken_slices).start()
    scheduler().job(owner, Priority.PROBLEMS, lambda: ran.append("after")).start()
    qtbot.waitUntil(lambda: ran == ["after"] and len(raised) == 2)
    assert sorted(str(e) for e in raised) == ["a broken slice", "a broken step"]


def test_background_work_waits_while_the_author_waits_for_a_file_operation(
    qtbot: Any,
) -> None:
    owner = QObject()
    ran: list[str] = []
    ended: list[bool] = []
    QTimer.singleShot(150, lambda: ended.append(True))
    scheduler().job(owner, Priority.VERIFY, lambda: ran.append("keys")).start()
    scheduler().job(owner, Priority.BACKGROUND, lambda: ran.append("recovery")).start()
    scheduler().job(owner, Priority.PROBLEMS, lambda: ran.append("check")).start()
    scheduler().wait_until(lambda: bool(ended))  # as a save waits for its writing
    assert ran == ["check"]  # what the save may wait for goes on
    qtbot.waitUntil(lambda: len(ran) == 3)
    assert ran == ["check", "keys", "recovery"]


def test_background_slices_wait_while_a_check_runs_on_a_thread(qtbot: Any) -> None:
    """The UI thread's Python takes turns with a thread's: a keying slice beside a check
    took twice its time (6 ms slices took 13 ms). The check comes first."""
    owner = QObject()
    release = threading.Event()
    ran: list[str] = []
    checked: list[object] = []
    scheduler().in_thread(
        owner, Priority.PROBLEMS, lambda: release.wait(5), lambda value, _f: checked.append(value)
    )
    scheduler().job(owner, Priority.VERIFY, lambda: ran.append("keys")).start()
    scheduler().job(owner, Priority.ANALYSIS, lambda: ran.append("reading")).start()
    qtbot.waitUntil(lambda: ran == ["reading"])
    qtbot.wait(50)
    assert ran == ["reading"]
    release.set()
    qtbot.waitUntil(lambda: ran == ["reading", "keys"])
    assert checked == [True]
    assert wait_idle(5.0)


def test_serial_thread_work_of_one_owner_runs_one_at_a_time_in_order(qtbot: Any) -> None:
    owner = QObject()
    order: list[int] = []
    running = [0]
    most = [0]
    lock = threading.Lock()

    def write(n: int) -> int:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        threading.Event().wait(0.01)
        with lock:
            running[0] -= 1
            order.append(n)
        return n

    delivered: list[int | None] = []
    for n in range(5):
        scheduler().in_thread(
            owner,
            Priority.BACKGROUND,
            lambda n=n: write(n),
            lambda value, _f: delivered.append(value),
            serial=True,
        )
    qtbot.waitUntil(lambda: len(delivered) == 5, timeout=5000)
    assert order == [0, 1, 2, 3, 4]
    assert most == [1]
    assert delivered == [0, 1, 2, 3, 4]


def test_what_the_windows_services_put_off_is_a_job_of_the_one_scheduler(
    qtbot: Any, make_window: Any
) -> None:
    """No service keeps a timer of its own (the level search, the palette's and the
    welcome panel's refills, the play log's batches, the canvas's and the library's
    pictures each had one): what they put off is a job of the scheduler, named for
    the service, and it runs."""
    window = make_window()
    search = window.level_list.filter_bar
    search.search.setFocus()
    QTest.keyClicks(search.search, "zzz")
    window.look.set_theme(DARK)  # the palette and the welcome panel draw their tiles again
    pending = {job.name for job in scheduler().pending()}
    assert {"level search", "palette", "welcome"} <= pending
    assert window.findChildren(QTimer) == []
    qtbot.waitUntil(lambda: not pending & {job.name for job in scheduler().pending()})
    assert search.shown_rows() == []  # the search ran: no level matches
    assert not window.palette_panel._stale()
