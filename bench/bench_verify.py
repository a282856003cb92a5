"""Verification and solver-panel benchmark (issue 16).

Run offscreen: ``QT_QPA_PLATFORM=offscreen python bench/bench_verify.py`` (about
three minutes on two cores; ``--skip-keke`` leaves out the two long runs).

1. ``rulegrid verify`` — the same function the command runs (``verify_levels``:
   ``engine.verify_level`` per level, on a spawned process pool when jobs > 1) — on
   the tutorial pack and on the Keke corpus (``packs/keke-classics.json``: its 113
   levels with their human solutions as intended solutions), with one job and with
   every core. Wall time including the pool's start; the speed-up should approach
   the core count. The tutorial's time is the median of three runs. The CPU time
   spent here and in the workers says how evenly the work was split (the speed-up
   the split allows on free cores), which a shared, loaded machine cannot show in
   wall time; the load average is printed with it.
2. The UI thread while the solver panel solves: the real window on the Keke pack
   (so the level list's background verification runs too), ``actionSolve`` on a
   level whose search runs for seconds, a 1 ms probe timer on the UI thread; the
   longest gap between its ticks (minus the tick) is the longest block. Goal:
   under 16 ms. Measured with a cold worker (the first solve starts the process)
   and a warm one, and with nothing running, so a loaded machine's own noise can
   be told from the panel's cost.
3. Cancel: from ``actionCancelSolve`` to the worker's answer that it stopped
   (the pool idle again). Goal: under 100 ms.
4. What the author sees of the solve (issue 36), on the same window while the
   pack's background check runs: the time from ``actionSolve`` to the panel's
   first progress report (goal: under 0.5 s; the panel starts its worker before
   the first Solve), and the rate the panel shows (states per CPU second of its
   worker) against ``engine.solve``'s own CPU rate for the same states of the same
   level, measured in this process right after (goal: within 20%). The rate a
   wall clock gives (states over the seconds since the search began, what the
   panel showed before) is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.cli.verify import default_jobs, verify_levels  # noqa: E402

TUTORIAL = ROOT / "packs" / "tutorial.json"
KEKE = ROOT / "packs" / "keke-classics.json"
HEAVY = "biy-153"  # breadth-first search runs past a million positions on this one


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds of this process and of its finished children so far."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def bench_verify(path: Path, runs: int) -> None:
    pack = engine.load_pack(path)
    settings = engine.VerifySettings()
    cores = default_jobs()
    times: dict[int, float] = {}
    for jobs in sorted({1, cores}):
        samples = []
        here = workers = 0.0
        for _ in range(runs):
            self_before, kids_before = cpu_seconds()
            began = time.perf_counter()
            verdicts = verify_levels(list(pack.levels), settings, jobs=jobs)
            samples.append(time.perf_counter() - began)
            self_after, kids_after = cpu_seconds()
            here += (self_after - self_before) / runs
            workers += (kids_after - kids_before) / runs
        times[jobs] = statistics.median(samples)
        counts: dict[str, int] = {}
        for verdict in verdicts:
            counts[str(verdict.status)] = counts.get(str(verdict.status), 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
        split = f"; CPU {here:.1f} s here + {workers:.1f} s in workers" if jobs > 1 else ""
        print(f"   {path.name:<22} --jobs {jobs}: {times[jobs]:7.2f} s wall   ({summary}{split})")
        if jobs > 1 and here > 0:
            bound = (here + workers) / max(here, workers / (jobs - 1))
            print(
                f"   {path.name:<22} work split: at most {bound:.2f}x faster on {jobs} free cores"
            )
    if cores > 1:
        speedup = times[1] / times[cores]
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"   {path.name:<22} measured speed-up with {cores} jobs: {speedup:.2f}x "
            f"(goal: approach {cores}x; machine load {load:.1f} on {cores} cores)"
        )


class Probe:
    """A 1 ms timer on the UI thread; the longest gap between ticks is the longest block.

    Each gap is measured twice: in wall time, and in the UI thread's own CPU time
    (``time.thread_time``). On a loaded machine a gap can be long only because the
    thread waited for a core; its CPU time says how long our code kept it busy.
    """

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.gaps: list[float] = []
        self.busy: list[float] = []
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._timer = QTimer()
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append((now - self._last) * 1000 - 1)
        self.busy.append((cpu - self._last_cpu) * 1000)
        self._last, self._last_cpu = now, cpu

    def run(self, app: object, seconds: float, until: Callable[[], bool] | None = None) -> None:
        self.gaps.clear()
        self.busy.clear()
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self._timer.start()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end and not (until is not None and until()):
            app.processEvents()  # type: ignore[attr-defined]
            time.sleep(0.0002)
        self._timer.stop()

    def line(self, label: str) -> str:
        gaps, busy = sorted(self.gaps) or [0.0], sorted(self.busy) or [0.0]
        p99 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))]
        return (
            f"   {label:<40} longest block: {busy[-1]:5.1f} ms CPU, {gaps[-1]:6.1f} ms wall"
            f"   (wall p99 {p99:5.1f} ms, {len(gaps)} ticks)"
        )


def bench_ui() -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from editor.main_window import MainWindow
    from editor.settings import EditorSettings
    from editor.tasks.solve import stop_kept_workers

    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RULEGRID_CACHE_DIR"] = str(Path(tmp) / "cache")
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.welcomed = True
        probe = Probe()
        probe.run(app, 2.0)
        idle = probe.line("idle (no window: the machine's own noise)")
        window = MainWindow(KEKE, settings=settings)
        window.resize(1360, 860)
        window.show()
        probe.run(app, 0.3)
        first_paint = probe.line("the window's first paint (not the solver)")
        probe.run(app, 3.0)
        opening = probe.line("the Keke pack's checks starting")
        panel = window.solver_panel
        level = next(lv for lv in window.pack.levels if lv.level_id == HEAVY)
        window.session.set_level(level)
        lines = []
        first_reports: list[float] = []
        rates: list[tuple[int, float, float]] = []  # states, shown rate, wall rate
        asked = [0.0]

        def heard(report: engine.SolveProgress) -> None:
            if len(first_reports) < len(rates) + 1:
                first_reports.append(time.perf_counter() - asked[0])

        panel.runner.progressed.connect(heard)
        for label in ("first solve (worker started by the panel)", "second solve"):
            asked[0] = time.perf_counter()
            window.actions_by_id["actionSolve"].trigger()
            probe.run(app, 4.0)
            report = panel.last_progress
            reports = report.states if report else 0
            if report is not None and report.rate is not None:
                rates.append((report.states, report.rate, report.states / report.seconds))
            status = panel.property("status")
            lines.append(probe.line(f"{label}") + f"   ({status}, {reports:,} states shown)")
            began = time.perf_counter()
            window.actions_by_id["actionCancelSolve"].trigger()
            while not panel.runner.pool.idle():
                app.processEvents()
                time.sleep(0.0005)
            lines.append(
                f"   cancel -> worker stopped: {(time.perf_counter() - began) * 1000:.1f} ms"
            )
        busy = window.verifier.busy()
        data = level.to_data()
        for n, (states, shown, wall) in enumerate(rates, start=1):
            cpu = time.process_time()
            engine.solve(data, max_states=states)  # the same states, in this process
            own = states / (time.process_time() - cpu)
            lines.append(
                f"   solve {n}: first progress {first_reports[n - 1] * 1000:.0f} ms after Solve"
                f" (goal: under 500 ms); panel shows {shown:,.0f} states per CPU s,"
                f" engine.solve {own:,.0f}: {shown / own:.2f}x (goal: 0.8-1.2x);"
                f" by the wall clock {wall:,.0f}/s"
            )
        window.verifier.shutdown()
        panel.shutdown()
        for stack in [window.pack.undo_stack]:
            stack.setClean()
        window.close()
        stop_kept_workers()
    print(f"{idle}\n{first_paint}\n{opening}")
    for line in lines:
        print(line)
    print(f"   (background checks of the pack still running during the solves: {busy})")
    print("   goal: longest UI-thread block under 16 ms; cancel under 100 ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-keke", action="store_true", help="only the tutorial pack")
    parser.add_argument("--skip-ui", action="store_true", help="leave out the UI-thread part")
    args = parser.parse_args()
    print(
        f"1. rulegrid verify (default settings: auto strategy, 1,000,000 states; {default_jobs()} cores)"
    )
    bench_verify(TUTORIAL, runs=3)
    if not args.skip_keke:
        bench_verify(KEKE, runs=1)
    if not args.skip_ui:
        print("2./3. the UI thread while the solver panel solves, and cancel")
        bench_ui()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
