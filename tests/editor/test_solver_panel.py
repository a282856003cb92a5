"""The solver panel, the level list's verified statuses and the verdict cache, driven
through the real window: actions, buttons, the brush, undo.

Solves run in real worker processes, so tests wait for answers with
``qtbot.waitUntil``; no test asserts a duration.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest

import editor.io.files
import engine
from editor.main_window import MainWindow
from editor.panels.solver.panel import WARM_DELAY_MS
from editor.tasks.scheduler import Priority, scheduler
from editor.tasks.solve import kept_worker_pids
from editor.tasks.solve_pack import LevelStatus
from editor.values import OBJECT, Pos, Stamp
from editor.views.level_list import STATUS_ROLE
from tests.editor.window_driver import click, trigger, use
from tests.support import ROOT, grid_level, pack_document

WAIT = 60_000  # ms: generous, the machine may be busy; no test measures time
WALK = grid_level(["baba . . flag", "BABA IS YOU .", "FLAG IS WIN ."], "walk")
# A wall forces a detour: the intended "DRRRU" is the shortest until the wall goes.
DETOUR = grid_level(
    ["baba wall . flag", ". . . .", "BABA IS YOU .", "FLAG IS WIN .", "WALL IS STOP ."],
    "detour",
    solution="DRRRU",
)
# A straight walk to the flag; a rock painted on the way blocks the third move.
CORRIDOR = grid_level(
    ["BABA IS YOU . . .", "baba . . . . flag", "ROCK IS STOP . . .", "FLAG IS WIN . . ."],
    "corridor",
    solution="RRRRR",
)
# Ten pushable rocks and no WIN: breadth-first search runs for a long time.
ROOM = grid_level(
    [
        "BABA IS YOU . . . . .",
        *[". rock . . rock . . ."] * 5,
        "baba . . . . . . .",
        "ROCK IS PUSH . . . . .",
    ],
    "room",
)


@pytest.fixture(autouse=True)
def _no_busy_workers() -> Iterator[None]:
    """Every worker process a test started is gone, or idle and kept for the next window."""
    before = {p.pid for p in multiprocessing.active_children()}
    yield
    leaked = {p.pid for p in multiprocessing.active_children()} - before - set(kept_worker_pids())
    assert not leaked, f"solver processes still running: {leaked}"


def write_pack(tmp_path: Path, *levels: dict[str, Any], name: str = "solver") -> Path:
    path = tmp_path / f"{name}.json"
    nouns = ["BABA", "FLAG", "ROCK", "WALL"]  # every noun the tests paint
    document = pack_document(*levels, pack_id=name, nouns=nouns)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def status_of(window: MainWindow, row: int) -> LevelStatus | None:
    model = window.level_list.model
    status = model.data(model.index(row), STATUS_ROLE)
    assert status is None or isinstance(status, LevelStatus)
    return status


def kinds(window: MainWindow) -> list[str]:
    return [getattr(status_of(window, r), "kind", "none") for r in range(len(window.pack.levels))]


def wait_for_kinds(qtbot: Any, window: MainWindow, expected: list[str]) -> None:
    qtbot.waitUntil(lambda: kinds(window) == expected, timeout=WAIT)


def select_row(window: MainWindow, row: int) -> None:
    """Click the row in the level list, as an author picks a level."""
    view = window.level_list.view
    rect = view.visualRect(view.model().index(row, 0))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.level is window.pack.levels[row]


def solve_current(qtbot: Any, window: MainWindow) -> None:
    trigger(window, "actionSolve")
    panel = window.solver_panel
    qtbot.waitUntil(lambda: panel.property("status") != "running", timeout=WAIT)


# ----------------------------------------------------------------- solving
def test_solve_shows_live_progress_and_cancel_stops_the_worker(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, ROOM, WALK))
    panel = window.solver_panel
    assert panel.property("status") == "idle"
    assert panel.objectName() == panel.accessibleName() == "solverPanel"
    trigger(window, "actionSolve")
    assert panel.property("status") == "running"
    assert panel.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: panel.last_progress is not None, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.last_progress.states > 1_000, timeout=WAIT)
    report = panel.last_progress
    assert report.lower_bound == report.depth + 1  # breadth-first: the layers before
    assert report.rate == report.states / report.cpu  # the worker's CPU time, not the wall
    assert panel.progress_label.text() == (
        f"{report.states:,} states · depth {report.depth} · {report.frontier:,} queued"
        f" · no solution in {report.depth} moves or fewer"
        f" · {report.rate:,.0f} states per CPU second"
    )
    assert panel.progress.maximum() == 1_000_000
    assert panel.progress.value() == report.states
    QTest.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert panel.property("status") == "cancelled"
    assert panel.headline.text() == "Cancelled"
    assert panel.details.text().startswith("after ")
    pool = panel.runner.pool
    qtbot.waitUntil(pool.idle, timeout=WAIT)  # the worker stopped and said so
    assert pool.running() == 0
    # The next solve, of another level, is answered by the same worker.
    window.session.set_level(window.pack.levels[1])
    assert panel.property("status") == "idle"
    solve_current(qtbot, window)
    assert panel.property("status") == "solved"
    assert panel.property("moves") == "RRR"
    assert panel.headline.text() == "Solved in 3 moves (proved shortest)"
    assert panel.details.text().endswith("· breadth-first")
    assert panel.moves_label.text() == "RRR"
    # Each level keeps its own last solve.
    window.session.set_level(window.pack.levels[0])
    assert panel.property("status") == "cancelled"


def test_fast_strategy_and_budget_are_used(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, ROOM))
    panel = window.solver_panel
    panel.strategy.setCurrentIndex(panel.strategy.findData("best-first"))
    panel.budget.setValue(2_000)
    solve_current(qtbot, window)
    assert panel.property("status") == "limit"
    assert panel.result is not None
    assert (panel.result.strategy, panel.result.states) == ("best-first", 2_000)
    # best-first proves no bound of its own (the pack check's may be known by now)
    assert panel.result.lower_bound == 1
    known = panel._outcomes[window.level].known_bound
    assert panel.headline.text() == (
        f"No solution in {known - 1} moves or fewer" if known > 1 else "No solution found"
    )
    assert panel.details.text().startswith(
        "stopped at the state budget of 2,000 states (raise Budget above) · 2,000 states · "
    )
    assert panel.property("moves") == ""


def test_a_breadth_first_bound_and_a_best_first_solution_combine(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    rocks = grid_level(
        [
            "BABA IS YOU . . .",
            ". . . rock . .",
            "baba . . rock . flag",
            "ROCK IS PUSH . . .",
            "FLAG IS WIN . . .",
        ],
        "rocks",
    )
    window = make_window(write_pack(tmp_path, rocks))
    panel = window.solver_panel
    panel.budget.setMinimum(1)  # the panel's least is 1,000: this search stops at 30
    panel.budget.setValue(30)
    solve_current(qtbot, window)
    assert panel.property("status") == "limit"
    assert panel.result is not None
    bound = panel.result.lower_bound
    assert bound > 1
    assert panel.headline.text() == f"No solution in {bound - 1} moves or fewer"
    assert panel.details.text().startswith(
        "stopped at the state budget of 30 states (raise Budget above) · "
    )
    panel.strategy.setCurrentIndex(panel.strategy.findData("best-first"))
    solve_current(qtbot, window)
    assert panel.property("status") == "solved"
    assert panel.result is not None
    assert panel.result.shortest is False  # best-first alone proves nothing
    length = panel.result.length
    assert length >= bound
    assert panel.headline.text() == (
        f"Solved in {length} moves (proved shortest)"  # it reached the bound
        if length == bound
        else f"Solved in {length} moves, shortest is at least {bound}"
    )


def test_a_result_goes_stale_after_an_edit_and_fresh_again_on_undo(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, WALK))
    panel = window.solver_panel
    solve_current(qtbot, window)
    assert panel.property("stale") is False
    assert panel.stale_label.isHidden()
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(1, 2))
    qtbot.waitUntil(lambda: panel.property("stale") is True, timeout=WAIT)
    assert not panel.stale_label.isHidden()
    assert panel.stale_label.text().startswith("Stale: the level changed since this solve")
    assert not panel.use_button.isEnabled()
    assert not panel.play_button.isEnabled()
    assert panel.property("status") == "solved"  # still the old answer, marked stale
    trigger(window, "actionUndo")
    qtbot.waitUntil(lambda: panel.property("stale") is False, timeout=WAIT)
    assert panel.use_button.isEnabled()


# ----------------------------------------------------------------- playback
def test_playback_in_the_play_view_steps_scrubs_and_plays_to_the_won_state(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path, settings: Any
) -> None:
    settings.reduced_motion = True
    window = make_window(write_pack(tmp_path, WALK))
    panel = window.solver_panel
    solve_current(qtbot, window)
    QTest.mouseClick(panel.play_button, Qt.MouseButton.LeftButton)
    view = window.play_view
    assert view.playing
    playback = view.playback
    assert playback is not None
    assert (playback.moves, playback.title, playback.position) == ("RRR", "Solver solution", 0)
    bar = view.playback_bar
    bar.buttons["forward"].click()
    assert (playback.position, view.property("moves"), view.property("won")) == (1, 1, False)
    bar.slider.setValue(3)  # scrub to the end
    assert (playback.position, view.property("won")) == (3, True)
    bar.buttons["start"].click()
    assert (view.property("moves"), view.property("won")) == (0, False)
    bar.buttons["play"].click()
    qtbot.waitUntil(lambda: view.property("won") is True, timeout=WAIT)
    assert playback.position == 3
    QTest.keyClick(view, Qt.Key.Key_Escape)  # back to editing, the level untouched
    assert not view.playing
    assert window.level is not None
    assert window.level.authored("solution") is None


def test_a_stale_solution_is_not_played(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, WALK))
    panel = window.solver_panel
    solve_current(qtbot, window)
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(1, 2))
    qtbot.waitUntil(lambda: panel.property("stale") is True, timeout=WAIT)
    panel.play_solution()  # the button is off; the call does nothing either
    assert not window.play_view.playing


def test_use_as_intended_solution_is_one_undoable_edit(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, WALK))
    level = window.level
    assert level is not None
    assert level.authored("solution") is None
    solve_current(qtbot, window)
    panel = window.solver_panel
    QTest.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    assert level.authored("solution") == "RRR"
    assert window.pack.undo_stack.undoText() == "Use Solver Solution as Intended"
    assert panel.property("stale") is False  # the intended solution does not change a solve
    trigger(window, "actionUndo")
    assert level.authored("solution") is None
    trigger(window, "actionRedo")
    assert level.authored("solution") == "RRR"


# --------------------------------------------------- verified statuses
def test_the_level_list_shows_each_levels_verified_status(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    stuck = grid_level(["baba . . . . flag", "BABA IS YOU . . ."], "stuck")
    window = make_window(write_pack(tmp_path, WALK, DETOUR, stuck))
    wait_for_kinds(qtbot, window, ["solved", "solved", "unsolvable"])
    walk, detour, unsolvable = (status_of(window, r) for r in range(3))
    assert walk is not None
    assert walk.short_text() == "✓ 3"
    assert detour is not None
    assert detour.short_text() == "✓ 5"
    assert detour.long_text() == "proved shortest: 5 moves"
    assert unsolvable is not None
    assert unsolvable.short_text() == "unsolvable"
    model = window.level_list.model
    tip = model.data(model.index(2), Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith("\nunsolvable: every reachable position was searched (9)")
    # An edit makes the verdict stale at once; the check then runs again.
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(3, 1))
    assert kinds(window)[0] == "stale"
    wait_for_kinds(qtbot, window, ["solved", "solved", "unsolvable"])


def test_breaking_the_intended_solution_shows_its_first_failing_move(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, CORRIDOR))
    wait_for_kinds(qtbot, window, ["solved"])
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(3, 1))  # on the third step of the walk: ROCK IS STOP
    wait_for_kinds(qtbot, window, ["broken"])
    status = status_of(window, 0)
    assert status is not None
    assert status.short_text() == "✗ move 3"
    assert status.long_text() == "intended solution broken: move 3 (R) is blocked"
    check_view = window.solver_panel.check_view
    qtbot.waitUntil(
        lambda: check_view.intended.text() == "Intended solution broken: move 3 (R) is blocked",
        timeout=WAIT,
    )
    qtbot.waitUntil(lambda: status_of(window, 0).state == "done", timeout=WAIT)
    verdict = status_of(window, 0).verdict
    assert verdict is not None
    assert verdict.intended is not None
    assert (verdict.intended.failed_at, verdict.intended.reason) == (3, "blocked")


def test_a_planted_shortcut_is_flagged_and_can_be_played(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, DETOUR))
    wait_for_kinds(qtbot, window, ["solved"])
    use(window, "actionToolEraser")
    click(window, Pos(1, 0))  # the wall that forced the detour
    wait_for_kinds(qtbot, window, ["shortcut"])
    status = status_of(window, 0)
    assert status is not None
    assert status.short_text() == "3 < 5"
    assert status.long_text() == "shortcut: 3 moves vs. intended 5"
    check_view = window.solver_panel.check_view
    qtbot.waitUntil(lambda: check_view.play_button.isVisible(), timeout=WAIT)
    assert check_view.shortcut.text() == "Shortcut: 3 moves vs. intended 5 — RRR"
    QTest.mouseClick(check_view.play_button, Qt.MouseButton.LeftButton)
    playback = window.play_view.playback
    assert playback is not None
    assert (playback.moves, playback.title) == ("RRR", "Shortcut")
    playback.seek(3)
    assert window.play_view.property("won") is True


def test_reopening_a_pack_answers_from_the_cache_and_solves_nothing(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    path = write_pack(tmp_path, WALK, DETOUR, CORRIDOR)
    first = make_window(path)
    wait_for_kinds(qtbot, first, ["solved"] * 3)
    assert first.verifier.jobs_submitted == 3
    assert first.verifier.cache_hits == 0
    first.close()
    second = make_window(path)
    wait_for_kinds(qtbot, second, ["solved"] * 3)
    assert second.verifier.cache_hits == 3
    assert second.verifier.jobs_submitted == 0
    assert second.verifier.pool.jobs_started == 0
    qtbot.wait(1_500)  # past the delay after opening: still nothing to solve
    assert second.verifier.pool.jobs_started == 0


def test_the_pack_curve_follows_the_verdicts_and_opens_a_level(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    window = make_window(write_pack(tmp_path, WALK, DETOUR, CORRIDOR))
    wait_for_kinds(qtbot, window, ["solved"] * 3)
    window.docks["solver"].raise_()  # the curve is drawn when it can be seen
    curve = window.solver_panel.curve_box.curve
    qtbot.waitUntil(lambda: [p.length for p in curve.points] == [3, 5, 5], timeout=WAIT)
    assert [p.current for p in curve.points] == [True, False, False]
    assert [p.rule_changes for p in curve.points] == [0, 0, 0]
    bar = curve._bar(2).center().toPoint()
    QTest.mouseClick(curve, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar)
    assert window.level is window.pack.levels[2]
    difficulty = window.solver_panel.check_view.difficulty.text()
    assert difficulty.startswith("Difficulty: 5 moves, shortest · ")
    assert difficulty.endswith(" states · 0 rule changes")


def test_the_worker_module_does_not_load_qt() -> None:
    code = "import sys, editor.tasks.solve_worker; print('PySide6' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_a_hidden_pack_curve_is_drawn_when_shown(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    """A point per level is tens of milliseconds on a 10,000-level pack, redone as
    statuses stream in: behind another tab the curve waits until it is shown."""
    window = make_window(write_pack(tmp_path, WALK, DETOUR, CORRIDOR))
    window.docks["history"].raise_()
    curve = window.solver_panel.curve_box.curve
    wait_for_kinds(qtbot, window, ["solved"] * 3)
    qtbot.wait(300)  # past the curve's coalescing delay
    assert [p.length for p in curve.points] != [3, 5, 5]
    window.docks["solver"].raise_()
    qtbot.waitUntil(lambda: [p.length for p in curve.points] == [3, 5, 5], timeout=WAIT)


def hold_by_file_operation(window: MainWindow, monkeypatch: Any, held: Callable[[], None]) -> None:
    """``held()`` runs while a save waits for its writing (the scheduler's wait)."""
    release = threading.Event()
    write = editor.io.files.write_work

    def slow(request: Any, token: Any) -> Any:
        release.wait(10)
        return write(request, token)

    def during_the_save() -> None:
        try:
            held()
        finally:
            release.set()

    monkeypatch.setattr(editor.io.files, "write_work", slow)
    QTimer.singleShot(50, during_the_save)
    assert window.files.save()


def hold_by_check(window: MainWindow, monkeypatch: Any, held: Callable[[], None]) -> None:
    """``held()`` runs while thread work at the Problems check's priority runs."""
    release = threading.Event()
    scheduler().in_thread(
        window, Priority.PROBLEMS, lambda: release.wait(10), lambda _value, _failure: None
    )
    try:
        held()
    finally:
        release.set()


@pytest.mark.parametrize(
    "hold",
    [hold_by_file_operation, hold_by_check],
    ids=["while a file operation runs", "while the Problems panel checks"],
)
def test_levels_are_not_keyed_while_other_work_shares_the_interpreter(
    qtbot: Any,
    make_window: Callable[..., MainWindow],
    tmp_path: Path,
    monkeypatch: Any,
    hold: Callable[[MainWindow, Any, Callable[[], None]], None],
) -> None:
    """Keying is UI-thread work: during a save its slices would stack on the save's own,
    and during a check (Python on its thread) the two threads would take turns."""
    window = make_window(write_pack(tmp_path, WALK, DETOUR))
    wait_for_kinds(qtbot, window, ["solved", "solved"])
    keyed: list[object] = []
    original = engine.verdict_key

    def counting(*args: Any, **kwargs: Any) -> str:
        keyed.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "verdict_key", counting)
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))

    def held() -> None:
        click(window, Pos(3, 1))
        assert kinds(window)[0] == "stale"
        qtbot.wait(1_000)  # past the edit delay: the verifier would have keyed the level
        assert keyed == []
        assert kinds(window)[0] == "stale"

    hold(window, monkeypatch, held)
    wait_for_kinds(qtbot, window, ["solved", "solved"])
    assert len(keyed) >= 1


def test_added_duplicated_moved_and_deleted_levels_keep_their_verdicts_in_step(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    stuck = grid_level(["baba . . . . flag", "BABA IS YOU . . ."], "stuck")
    window = make_window(write_pack(tmp_path, WALK, stuck))
    wait_for_kinds(qtbot, window, ["solved", "unsolvable"])
    select_row(window, 1)
    trigger(window, "actionDuplicateLevel")  # the copy's content is known: the cache answers
    wait_for_kinds(qtbot, window, ["solved", "unsolvable", "unsolvable"])
    trigger(window, "actionMoveLevelUp")
    assert [lv.level_id for lv in window.pack.levels] == ["walk", "stuck-copy", "stuck"]
    wait_for_kinds(qtbot, window, ["solved", "unsolvable", "unsolvable"])
    select_row(window, 0)
    removed = window.pack.levels[0]
    trigger(window, "actionDeleteLevel")
    wait_for_kinds(qtbot, window, ["unsolvable", "unsolvable"])
    assert window.verifier.status(removed) is None  # no longer in the pack
    assert [lv for lv, _status in window.verifier.statuses()] == window.pack.levels
    trigger(window, "actionAddLevel")  # a new, empty level: no YOU, so no solution
    assert len(window.pack.levels) == 3
    qtbot.waitUntil(
        lambda: "none" not in kinds(window) and "checking" not in kinds(window), timeout=WAIT
    )
    assert not window.verifier.busy()


# ------------------------------------ priorities, bounds and budgets (issue 36)
@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")
def test_the_authors_solve_runs_at_the_editors_priority_on_a_warm_worker(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    """The pack check keeps the lowest priority; the solve the author waits on does not."""
    window = make_window(write_pack(tmp_path, ROOM))
    panel = window.solver_panel
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    # the panel starts its worker before the first Solve, at the editor's priority
    qtbot.waitUntil(lambda: bool(warm_pids(mine)), timeout=WAIT)
    (warm,) = warm_pids(mine)
    reports: list[engine.SolveProgress] = []
    panel.runner.progressed.connect(reports.append)
    trigger(window, "actionSolve")
    assert panel.runner.pool.worker_pids() == [warm]  # no process to start: it was waiting
    qtbot.waitUntil(lambda: bool(reports), timeout=WAIT)
    assert reports[0].states == 0  # the first report comes as the search begins
    qtbot.waitUntil(lambda: bool(window.verifier.pool.worker_pids()), timeout=WAIT)
    for pid in window.verifier.pool.worker_pids():
        assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    trigger(window, "actionCancelSolve")
    qtbot.waitUntil(panel.runner.pool.idle, timeout=WAIT)


def test_the_solver_worker_is_warmed_once_the_author_pauses_not_between_edits(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    """Spawning the worker stops the UI thread about 20 ms, and its start-up takes a
    core for about a second: run between two edits, it made the edits that followed
    stutter (bench_problems: 19-26 ms). Each edit puts the warm off again."""
    clock = scheduler().clock
    skipped = [0.0]  # seconds the scheduler's clock is moved on: the author's pauses
    scheduler().clock = lambda: time.perf_counter() + skipped[0]
    try:
        window = make_window(write_pack(tmp_path, CORRIDOR))
        panel = window.solver_panel

        def warm_waits() -> bool:
            return any(job.name == "warm" and job.owner is panel for job in scheduler().pending())

        assert warm_waits()
        use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
        for x in (1, 2, 3):  # each a little sooner than the pause after the last
            skipped[0] += WARM_DELAY_MS / 1000 * 0.7
            click(window, Pos(x, 1))
            qtbot.wait(300)
            assert warm_waits()
        skipped[0] += WARM_DELAY_MS / 1000  # the author pauses
        qtbot.waitUntil(lambda: not warm_waits(), timeout=WAIT)
    finally:
        scheduler().clock = clock


def warm_pids(priority: int) -> list[int]:
    found = []
    for pid in kept_worker_pids():
        try:
            if os.getpriority(os.PRIO_PROCESS, pid) == priority:
                found.append(pid)
        except OSError:  # it ended meanwhile
            pass
    return found


def test_the_list_curve_and_check_show_what_a_stopped_search_proved(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    stuck = grid_level(["baba . . . . flag", "BABA IS YOU . . ."], "stuck")
    window = make_window(write_pack(tmp_path, DETOUR, stuck))
    # a pack check of two states a level: it proves a little and stops
    window.verifier.set_settings(engine.VerifySettings("bfs", max_states=2))
    qtbot.waitUntil(
        lambda: (
            [getattr(status_of(window, r), "state", "") for r in range(2)] == ["done"] * 2
            and kinds(window) == ["solved", "unknown"]
        ),
        timeout=WAIT,
    )
    detour, unknown = status_of(window, 0), status_of(window, 1)
    assert detour is not None
    assert unknown is not None
    assert detour.verdict is not None
    bound = detour.verdict.lower_bound
    assert bound is not None
    assert 1 < bound < 5
    assert detour.short_text() == f"✓ {bound}–5"  # solved in 5, the shortest at least the bound
    assert detour.long_text().startswith(f"solved, shortest at least {bound}: the intended ")
    assert unknown.short_text() == "unknown ≥3"
    assert unknown.long_text() == (
        "unknown within budget: no solution in 2 moves or fewer "
        "(stopped at the state budget of 2 states)"
    )
    window.docks["solver"].raise_()
    curve = window.solver_panel.curve_box.curve
    qtbot.waitUntil(lambda: [p.lower_bound for p in curve.points] == [bound, 3], timeout=WAIT)
    assert [p.length for p in curve.points] == [5, None]
    window.session.set_level(window.pack.levels[1])
    difficulty = window.solver_panel.check_view.difficulty.text()
    assert difficulty == "Difficulty: at least 3 moves"
    hint = window.solver_panel.check_view.hint.text()
    assert hint == "Solve it above with a larger Budget to search further."


def test_the_pack_checks_time_budget_is_a_setting_that_checks_again(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path, settings: Any
) -> None:
    window = make_window(write_pack(tmp_path, WALK))
    spin = window.solver_panel.check_view.check_seconds
    assert spin.value() == 60
    assert window.verifier.settings.timeout == 60.0
    wait_for_kinds(qtbot, window, ["solved"])
    submitted = window.verifier.jobs_submitted
    spin.setValue(5)
    assert settings.check_seconds == 5  # kept for the next session
    assert window.verifier.settings.timeout == 5.0
    wait_for_kinds(qtbot, window, ["solved"])
    assert window.verifier.jobs_submitted == submitted + 1  # a new budget: a new key
    window.close()
    again = make_window(write_pack(tmp_path, WALK, name="other"))
    assert again.solver_panel.check_view.check_seconds.value() == 5
    assert again.verifier.settings.timeout == 5.0


def test_a_verdict_a_budget_stopped_is_not_cached_and_a_larger_budget_checks_again(
    qtbot: Any, make_window: Callable[..., MainWindow], tmp_path: Path
) -> None:
    stuck = grid_level(["baba . . . . flag", "BABA IS YOU . . ."], "stuck")
    window = make_window(write_pack(tmp_path, stuck))
    verifier = window.verifier
    verifier.set_settings(engine.VerifySettings("bfs", memory=1))  # not even the start fits
    wait_for_kinds(qtbot, window, ["unknown"])
    status = status_of(window, 0)
    assert status is not None
    assert status.verdict is not None
    assert status.verdict.stopped_by_budget == "memory"
    key = engine.verdict_key(window.pack.levels[0].to_data(), verifier.settings)
    assert verifier.cache.get(key) is None  # it depends on the machine: never kept
    submitted = verifier.jobs_submitted
    verifier.set_settings(engine.VerifySettings("bfs"))  # the same key: memory is not in it
    assert engine.verdict_key(window.pack.levels[0].to_data(), verifier.settings) == key
    wait_for_kinds(qtbot, window, ["unsolvable"])
    assert verifier.jobs_submitted == submitted + 1
    assert verifier.cache.get(key) is not None
