"""The solver's background machinery on its own: the worker pool and the verdict cache."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks import scheduler as scheduling
from editor.tasks import solve as solve_tasks
from editor.tasks import solve_cache, solve_pack
from editor.tasks.solve import SolverPool
from editor.tasks.solve_cache import VerdictCache
from tests.editor.test_solver_panel import ROOM, WALK
from tests.support import pack_document

WAIT = 60_000
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


class Recorder:
    def __init__(self) -> None:
        self.done: list[Any] = []
        self.failed: list[str] = []
        self.progress: list[Any] = []

    def submit(self, pool: SolverPool, level: dict[str, Any], **options: Any) -> int:
        return pool.submit(
            "solve",
            (level, "bfs", 1_000_000),
            on_done=self.done.append,
            on_failed=self.failed.append,
            on_progress=self.progress.append,
            **options,
        )


def alive() -> set[int | None]:
    return {p.pid for p in multiprocessing.active_children()}


@pytest.fixture
def pool(qapp: Any) -> Any:
    pool = SolverPool(1)
    yield pool
    pool.shutdown()


def test_a_queued_job_can_be_dropped_before_it_starts(qtbot: Any, pool: SolverPool) -> None:
    first, second = Recorder(), Recorder()
    running = first.submit(pool, ROOM)
    queued = second.submit(pool, WALK)
    pool.cancel(queued)
    qtbot.waitUntil(lambda: bool(first.progress), timeout=WAIT)
    pool.cancel(running)
    qtbot.waitUntil(pool.idle, timeout=WAIT)
    assert (first.done, first.failed, second.done, second.failed) == ([], [], [], [])
    assert pool.jobs_started == 1


def test_an_urgent_job_uses_the_spare_worker(qtbot: Any, qapp: Any) -> None:
    pool = SolverPool(1, spare=1)
    try:
        slow, quick = Recorder(), Recorder()
        long_job = slow.submit(pool, ROOM)
        quick.submit(pool, WALK, urgent=True)
        qtbot.waitUntil(lambda: bool(quick.done), timeout=WAIT)
        assert quick.done[0].moves == "RRR"
        assert slow.done == []  # still searching on the other worker
        pool.cancel(long_job)
        qtbot.waitUntil(pool.idle, timeout=WAIT)
    finally:
        pool.shutdown()


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")
def test_a_solver_process_runs_at_the_lowest_priority(qtbot: Any, pool: SolverPool) -> None:
    """It only uses the CPU the editor leaves: its UI thread never waits for a core."""
    job = Recorder()
    running = job.submit(pool, ROOM)
    qtbot.waitUntil(lambda: bool(job.progress), timeout=WAIT)
    (pid,) = pool.worker_pids()
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    pool.cancel(running)
    qtbot.waitUntil(pool.idle, timeout=WAIT)


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (8, 7)])
def test_background_verification_leaves_the_editor_a_core(
    monkeypatch: pytest.MonkeyPatch, cores: int, workers: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)), raising=False)
    assert solve_pack.background_workers() == workers


@posix_only
def test_a_worker_that_dies_fails_its_job_and_is_replaced(qtbot: Any, pool: SolverPool) -> None:
    dying = Recorder()
    dying.submit(pool, ROOM)
    qtbot.waitUntil(lambda: bool(dying.progress), timeout=WAIT)
    (pid,) = pool.worker_pids()
    os.kill(pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: bool(dying.failed), timeout=WAIT)
    assert dying.failed[0].startswith("the solver process stopped unexpectedly")
    after = Recorder()
    after.submit(pool, WALK)
    qtbot.waitUntil(lambda: bool(after.done), timeout=WAIT)
    assert after.done[0].status == "solved"
    assert pid not in alive()


@posix_only
def test_a_worker_deaf_to_cancel_is_terminated(
    qtbot: Any, pool: SolverPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solve_tasks, "KILL_AFTER", 0.2)
    frozen = Recorder()
    job = frozen.submit(pool, ROOM)
    qtbot.waitUntil(lambda: bool(frozen.progress), timeout=WAIT)
    (pid,) = pool.worker_pids()
    os.kill(pid, signal.SIGSTOP)  # it can no longer read the cancel
    pool.cancel(job)
    qtbot.waitUntil(pool.idle, timeout=WAIT)
    assert pid not in alive()
    assert (frozen.done, frozen.failed) == ([], [])


# ------------------------------------------------------------------- the cache
def verdict() -> engine.LevelVerdict:
    return engine.verify_level(WALK)


def test_the_cache_keeps_verdicts_across_instances(tmp_path: Path) -> None:
    first = VerdictCache(tmp_path)
    first.put("k1", verdict())
    first.close()
    again = VerdictCache(tmp_path)
    got = again.get("k1")
    assert got is not None
    assert got.to_dict() == verdict().to_dict() | {"solver": got.to_dict()["solver"]}
    assert got.solve is not None
    assert got.solve.moves == "RRR"
    assert again.get("missing") is None
    assert len(again) == 1


def test_a_cache_folder_that_cannot_be_made_turns_the_cache_off(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    cache = VerdictCache(blocker / "cache")
    assert not cache.enabled
    assert cache.problem.startswith("the solver cache is off")
    cache.put("k", verdict())  # quietly nothing
    assert cache.get("k") is None


def test_a_record_of_another_shape_is_a_miss(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    cache.put("k", verdict())
    assert cache._db is not None
    cache._db.execute("UPDATE verdicts SET record = ?", ('{"status": "solved"}',))
    assert cache.get("k") is None


def test_the_cache_drops_its_oldest_entries_beyond_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solve_cache, "MAX_ENTRIES", 5)
    monkeypatch.setattr(solve_cache, "PRUNE_EVERY", 2)
    clock = itertools.count(1000)
    monkeypatch.setattr(solve_cache.time, "time", lambda: float(next(clock)))
    cache = VerdictCache(tmp_path)
    record = verdict()
    for n in range(9):
        cache.put(f"k{n}", record)
    assert len(cache) == 5  # the ninth put checked the size
    assert [cache.get(f"k{n}") is not None for n in range(9)] == [False] * 4 + [True] * 5


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RULEGRID_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert solve_cache.user_cache_folder() == tmp_path / "elsewhere"
    monkeypatch.delenv("RULEGRID_CACHE_DIR")
    assert "rulegrid" in solve_cache.user_cache_folder().parts


def test_a_verification_waits_in_the_queue_as_text_and_gets_the_same_verdict(
    qtbot: Any, pool: SolverPool
) -> None:
    """A new pack's levels wait by the thousand; as dictionaries they were objects that
    every full collection on the UI thread walked (pauses of 18-48 ms at 10,000 levels)."""
    settings = engine.VerifySettings()
    text = solve_pack.queued(WALK)
    assert isinstance(text, str)
    assert json.loads(text) == WALK
    odd = {"not json": float("nan")}
    assert solve_pack.queued(odd) is odd  # what JSON cannot hold goes as it is
    blocker, waiting = Recorder(), Recorder()
    busy = blocker.submit(pool, ROOM)  # the one worker is busy: the verification waits
    pool.submit(
        "verify", (text, settings), on_done=waiting.done.append, on_failed=waiting.failed.append
    )
    assert [type(job.payload[0]) for job in pool._queue] == [str]
    pool.cancel(busy)
    qtbot.waitUntil(lambda: bool(waiting.done or waiting.failed), timeout=WAIT)
    assert waiting.failed == []
    assert waiting.done[0].status == engine.verify_level(WALK, settings).status


@pytest.mark.parametrize(
    ("late_ms", "keyed"),
    [(0.0, 4.0 / 0.3), (2.0, 2.0 / 0.3), (30.0, 1.0 / 0.3)],
    ids=[
        "an idle pass",
        "a pass with 2 ms of other work",
        "a pass after an action and its repaint",
    ],
)
def test_keying_takes_only_what_is_left_of_the_passs_budget(
    qapp: Any, tmp_path: Path, monkeypatch: Any, late_ms: float, keyed: float
) -> None:
    """Keying a level is UI-thread work, a level per step of the verifier's job. A slice
    that ran in the pass of an Add Level and its repaint stacked its 4 ms on theirs
    (15-20 ms on 10,000 levels): a pass gives its steps only what is left of the
    scheduler's budget, never less than ``MIN_SLICE_S`` once keying is under way, so
    keying goes on. Each key costs 0.3 ms of the test's clock."""
    levels = [dict(json.loads(json.dumps(WALK)), id=f"walk-{n}") for n in range(60)]
    session = Session()
    session.set_pack(PackDocument.from_data(pack_document(*levels)))
    passes = scheduling.scheduler()
    now = [passes.clock()]
    monkeypatch.setattr(passes, "clock", lambda: now[0])
    counted: list[object] = []
    original = engine.verdict_key

    def counting(*args: Any, **kwargs: Any) -> str:
        now[0] += 0.0003
        counted.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "verdict_key", counting)
    verifier = solve_pack.PackVerifier(session, VerdictCache(tmp_path / "cache"), jobs=1)

    def one_pass(late: float) -> int:
        before = len(counted)
        passes._wanted_at = now[0]
        now[0] += late / 1000  # what ran in the pass before the scheduler's turn
        passes._pass()
        return len(counted) - before

    try:
        assert scheduling.PASS_BUDGET_S == 0.004
        assert scheduling.MIN_SLICE_S == 0.001
        passes._skipped = 0  # no pass was left to other work before
        assert one_pass(30.0) == 0  # nothing new begins in a pass other work filled
        assert abs(one_pass(0.0) - 4.0 / 0.3) <= 1  # it begins in the next
        assert abs(one_pass(late_ms) - keyed) <= 1
        assert verifier.busy()  # the rest waits for the next passes
    finally:
        verifier.shutdown()
