"""``rulegrid verify PACK [--jobs N] [--json]``: is every level of a pack release-ready?

Each level is checked by :func:`engine.solve.verify.verify_level` (the same checks
as the editor's level list): the intended solution still wins, the solver finds a
solution (none shorter than the intended one) or proves there is none. ``--jobs N``
(default: every core) verifies N levels at once: this process and N - 1 spawned
workers; ``--jobs 1`` runs them here, one after another. Rows come out in pack order; while levels run and
standard error is a terminal, a progress line there counts them.

Each level's search has the budget of ``rulegrid solve`` (``--max-states``,
``--seconds``, default 60, and ``--memory``, whose default share of the available
memory is divided among the jobs). The detail column says what is known in the
words the editor uses (proved shortest; solved, shortest at least N; unknown
within budget ...); each level a budget stopped gets one line on standard error
naming the budget and the option that raises it.

Exit 0 when no level fails, 3 when some level's status is one of ``--fail-on``
(default: unsolvable, unknown, broken, shortcut), 1 for bad input (an invalid
pack), 2 for wrong usage.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from multiprocessing.process import BaseProcess
from typing import Any, TextIO, cast

from engine.cli.common import open_pack, plain_help
from engine.cli.solve import _count, add_budget_arguments, budget_line, budget_of
from engine.errors import counted
from engine.model import Level
from engine.solve.search import Strategy
from engine.solve.verify import FAILING, LevelVerdict, VerdictStatus, VerifySettings, verify_level

SOME_FAILED = 3
_BEAT = 0.5  # seconds between progress-line refreshes
_BUDGET_LINES = 20  # levels stopped by a budget named one by one; the rest are counted
_CHOICES = ("unsolvable", "unknown", "broken", "shortcut")


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "verify",
        help="check every level: solvable, intended solution wins, no shortcut; exit 3 if not",
        description=plain_help(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pack", help="a pack .json file or pack folder")
    parser.add_argument(
        "--jobs",
        type=_count,
        default=None,
        metavar="N",
        help="solve N levels at once in worker processes (default: every core)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON report")
    parser.add_argument(
        "--strategy",
        choices=[s.value for s in Strategy],
        default=Strategy.AUTO.value,
        help="the solver's strategy (default auto: shortest on a budget, then best-first)",
    )
    add_budget_arguments(parser)
    parser.add_argument(
        "--fail-on",
        type=_failing,
        default=FAILING,
        metavar="KINDS",
        help="comma-separated statuses that fail the run, or 'none' "
        f"(default: {','.join(_CHOICES)})",
    )
    parser.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    parser.set_defaults(run=run)


def _failing(text: str) -> frozenset[VerdictStatus]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["none"]:
        return frozenset()
    unknown = [n for n in names if n not in _CHOICES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"--fail-on takes 'none' or some of {', '.join(_CHOICES)}, not {text!r}"
        )
    return frozenset(VerdictStatus(n) for n in names)


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def verify_levels(
    levels: Sequence[Level],
    settings: VerifySettings,
    *,
    jobs: int,
    done: Callable[[int, LevelVerdict], None] | None = None,
    heartbeat: Callable[[], None] | None = None,
) -> list[LevelVerdict]:
    """Verify ``levels``, ``jobs`` at a time; ``done(index, verdict)`` as each finishes.

    With more than one job, ``jobs - 1`` spawned worker processes (never forked: a
    parent holding threads or a GUI must not be copied) help this process, which
    starts at once: a worker gets a level only once it has started (about half a
    second), so a small pack is done before the workers are up (they are then
    terminated, not awaited), and a large one keeps every core busy. This process
    verifies from the first level on and workers from the last one back, and it
    hands out levels between its own solver's progress reports. A worker that
    dies is not replaced: its level is done here. ``done`` and ``heartbeat``
    (about twice a second) are called on this thread.
    """
    runner = _Runner(levels, settings, done, heartbeat)
    try:
        runner.start_workers(min(jobs, len(levels)) - 1)
        runner.run()
    finally:
        runner.stop_workers()
    return [runner.verdicts[i] for i in range(len(levels))]


def _serve(conn: Connection) -> None:
    """A worker: say it is ready, then verify each ``(index, level, settings)`` sent."""
    conn.send(("ready", -1, None))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        index, level, settings = job
        try:
            conn.send(("done", index, verify_level(level, settings)))
        except Exception:  # report it: the parent raises it
            conn.send(("error", index, traceback.format_exc()))


class _Runner:
    """Levels handed out in order to this process and to started workers."""

    def __init__(
        self,
        levels: Sequence[Level],
        settings: VerifySettings,
        done: Callable[[int, LevelVerdict], None] | None,
        heartbeat: Callable[[], None] | None,
    ) -> None:
        self.levels = levels
        self.settings = settings
        self.done = done
        self.heartbeat = heartbeat
        self.verdicts: dict[int, LevelVerdict] = {}
        # This process takes levels from the front, so rows come out in pack order as
        # it goes; workers take them from the back: packs tend to end with their
        # hardest levels, and starting those first leaves no long level for last.
        self.pending = deque(range(len(levels)))
        self.workers: dict[
            Connection, tuple[BaseProcess, int | None]
        ] = {}  # conn: (process, level)
        self.last_beat = time.perf_counter()

    def start_workers(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        for _ in range(max(0, count)):
            conn, child = context.Pipe(duplex=True)
            process = context.Process(target=_serve, args=(child,), daemon=True)
            process.start()
            child.close()
            self.workers[conn] = (process, None)

    def stop_workers(self) -> None:
        for conn, (process, _) in self.workers.items():
            with contextlib.suppress(OSError):
                conn.close()
            process.terminate()
        for process, _ in self.workers.values():
            process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(2.0)
        self.workers.clear()

    def run(self) -> None:
        progress = (lambda _report: self.service(0.0)) if self.workers or self.heartbeat else None
        while len(self.verdicts) < len(self.levels):
            if self.pending:
                index = self.pending.popleft()
                self.record(
                    index, verify_level(self.levels[index], self.settings, progress=progress)
                )
                self.service(0.0)
            else:
                self.service(_BEAT)

    def service(self, timeout: float) -> None:
        """Read what workers said (waiting up to ``timeout``), give idle ones a level."""
        if self.workers:
            for conn in connection_wait(list(self.workers), timeout):
                self.hear(cast(Connection, conn))
        elif timeout:
            time.sleep(timeout)
        now = time.perf_counter()
        if self.heartbeat is not None and now - self.last_beat >= _BEAT / 2:
            self.last_beat = now
            self.heartbeat()

    def hear(self, conn: Connection) -> None:
        process, index = self.workers[conn]
        try:
            kind, number, answer = conn.recv()
        except (EOFError, OSError):  # the worker died: its level is done here
            del self.workers[conn]
            if index is not None:
                self.pending.appendleft(index)
            return
        if kind == "error":
            raise RuntimeError(f"verifying level {number + 1} failed in a worker:\n{answer}")
        if kind == "done":
            self.record(number, answer)
        self.workers[conn] = (process, None)
        if self.pending:
            next_index = self.pending.pop()
            conn.send((next_index, self.levels[next_index], self.settings))
            self.workers[conn] = (process, next_index)

    def record(self, index: int, verdict: LevelVerdict) -> None:
        self.verdicts[index] = verdict
        if self.done is not None:
            self.done(index, verdict)


def run(args: argparse.Namespace) -> int:
    pack = open_pack(args.pack, trust=args.trust)
    levels = list(pack.levels)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    budget = budget_of(args, searches=max(1, min(jobs, len(levels))))
    settings = VerifySettings(
        Strategy(args.strategy), budget.max_states, budget.seconds, budget.memory
    )
    began = time.perf_counter()
    width = max(5, *(len(level.id) for level in levels)) if levels else 5
    table = _Table(sys.stdout, levels, width) if not args.json else None
    line = _ProgressLine(sys.stderr, len(levels)) if sys.stderr.isatty() else None

    def finished(index: int, verdict: LevelVerdict) -> None:
        if line is not None:
            line.clear()
        if table is not None:
            table.add(index, verdict)
        if line is not None:
            line.tick()

    if table is not None:
        table.header()
    try:
        verdicts = verify_levels(
            levels,
            settings,
            jobs=jobs,
            done=finished,
            heartbeat=None if line is None else line.refresh,
        )
    finally:
        if line is not None:
            line.clear()
    seconds = time.perf_counter() - began
    failing = [lv.id for lv, v in zip(levels, verdicts, strict=True) if v.fails(args.fail_on)]
    counts: dict[str, int] = {}
    for verdict in verdicts:
        counts[str(verdict.status)] = counts.get(str(verdict.status), 0) + 1
    if args.json:
        report = {
            "pack": pack.id,
            "settings": settings.to_dict(),
            "failOn": sorted(str(s) for s in args.fail_on),
            "levels": [
                {"level": lv.id, "number": n, **_row_dict(v)}
                for n, (lv, v) in enumerate(zip(levels, verdicts, strict=True), start=1)
            ],
            "counts": dict(sorted(counts.items())),
            "failing": failing,
        }
        print(json.dumps(report, indent=2, ensure_ascii=False))
    stopped = [
        said
        for lv, v in zip(levels, verdicts, strict=True)
        if v.solve is not None
        and (said := budget_line(f'{args.pack} (level "{lv.id}")', v.solve, budget)) is not None
    ]
    for said in stopped[:_BUDGET_LINES]:
        print(said, file=sys.stderr)
    if len(stopped) > _BUDGET_LINES:
        print(
            f"… and {counted(len(stopped) - _BUDGET_LINES, 'more level')} stopped by a budget",
            file=sys.stderr,
        )
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no levels"
    verdict_line = f"{len(failing)} failing" if failing else "release-ready"
    print(
        f"{counted(len(levels), 'level')}: {parts} — {verdict_line} "
        f"({seconds:.1f} s, {counted(jobs, 'job')})",
        file=sys.stderr,
    )
    return SOME_FAILED if failing else 0


def _row_dict(verdict: LevelVerdict) -> dict[str, Any]:
    row = verdict.to_dict()
    del row["settings"]  # the report says them once
    return row


class _Table:
    """Rows in pack order: a level that finishes early waits for the ones before it."""

    def __init__(self, stream: TextIO, levels: list[Level], width: int) -> None:
        self.stream = stream
        self.levels = levels
        self.width = width
        self.waiting: dict[int, LevelVerdict] = {}
        self.next = 0

    def header(self) -> None:
        self._write(["#", "level", "status", "length", "states", "rules", "detail"])

    def add(self, index: int, verdict: LevelVerdict) -> None:
        self.waiting[index] = verdict
        while self.next in self.waiting:
            self._row(self.next, self.waiting.pop(self.next))
            self.next += 1

    def _row(self, index: int, verdict: LevelVerdict) -> None:
        d = verdict.difficulty
        length = "-" if d is None else f"{d.length}" + ("*" if d.shortest else "")
        states = "-" if verdict.solve is None else f"{verdict.solve.states:,}"
        rules = "-" if d is None else str(d.rule_changes)
        self._write(
            [
                str(index + 1),
                self.levels[index].id,
                str(verdict.status),
                length,
                states,
                rules,
                verdict.message,
            ]
        )

    def _write(self, cells: list[str]) -> None:
        number, level, status, length, states, rules, detail = cells
        self.stream.write(
            f"{number:>3}  {level:<{self.width}}  {status:<10}  {length:>6}  {states:>10}"
            f"  {rules:>5}  {detail}\n"
        )
        self.stream.flush()


class _ProgressLine:
    """One self-overwriting line on a terminal: levels verified so far."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.count = 0
        self.began = time.perf_counter()
        self.shown = False
        self.tick(0)

    def tick(self, step: int = 1) -> None:
        self.count += step
        self.refresh()

    def refresh(self) -> None:
        elapsed = time.perf_counter() - self.began
        self.stream.write(f"\rverified {self.count}/{self.total} levels, {elapsed:.0f} s\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
