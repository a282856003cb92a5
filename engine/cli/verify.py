"""``rulegrid verify PACK [--jobs N] [--json]``: is every level of a pack release-ready?

Each level is checked by :func:`engine.solve.verify.verify_level` (the same checks
as the editor's level list): the intended solution still wins, the solver finds a
solution (none shorter than the intended one) or proves there is none. ``--jobs N``
(default: every core) verifies N levels at once: this process and N - 1 spawned
workers; ``--jobs 1`` runs them here, one after another. Rows come out in pack order; while levels run and
standard error is a terminal, a progress line there counts them.

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
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine.cli.common import open_pack
from engine.cli.solve import _count, _seconds
from engine.model import Level
from engine.solve.search import DEFAULT_MAX_STATES, Strategy
from engine.solve.verify import FAILING, LevelVerdict, VerdictStatus, VerifySettings, verify_level

SOME_FAILED = 3
_BEAT = 0.5  # seconds between progress-line refreshes
_CHOICES = ("unsolvable", "unknown", "broken", "shortcut")


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "verify",
        help="check every level: solvable, intended solution wins, no shortcut; exit 3 if not",
        description=__doc__,
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
    parser.add_argument(
        "--max-states",
        type=_count,
        default=DEFAULT_MAX_STATES,
        metavar="N",
        help=f"give up on a level after expanding N positions (default {DEFAULT_MAX_STATES:,})",
    )
    parser.add_argument(
        "--timeout", type=_seconds, metavar="S", help="give up on a level after S seconds"
    )
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
    parent holding threads or a GUI must not be copied) and this process take
    levels from one shared counter, a worker only once it has started (about half
    a second). This process starts at once, so a small pack is done before the
    workers are up (they are then terminated, not awaited), and a large one keeps
    every core busy. ``done`` and ``heartbeat``
    (about twice a second) are called on this thread.
    """
    runner = _Runner(levels, settings, done, heartbeat)
    workers = min(jobs, len(levels)) - 1
    if workers < 1:
        runner.work_here()
        return runner.results()
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:  # leaving the block terminates the workers
        runner.pool = pool
        for _ in range(workers):  # a worker gets levels once it has started
            pool.apply_async(_ready, callback=lambda _answer: runner.feed())
        runner.work_here()
    return runner.results()


def _ready() -> None:
    """A worker's first task: answering it says the worker has started."""


class _Runner:
    """The shared counter of levels, the answers, and the work this process does."""

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
        self.pool: Any = None  # a multiprocessing pool, once there is one
        self.verdicts: dict[int, LevelVerdict] = {}
        # (index, verdict), (index, error) or (index, None): "verify it here"
        self.answers: queue.SimpleQueue[tuple[int, LevelVerdict | BaseException | None]] = (
            queue.SimpleQueue()
        )
        self._next = 0
        self._lock = threading.Lock()

    def take(self) -> int | None:
        with self._lock:
            if self._next >= len(self.levels):
                return None
            self._next += 1
            return self._next - 1

    def feed(self) -> None:
        """Give the pool the next level (also called from the pool's result thread)."""
        index = self.take()
        if index is None:
            return
        try:
            self.pool.apply_async(
                verify_level,
                (self.levels[index], self.settings),
                callback=lambda verdict: self._answered(index, verdict),
                error_callback=lambda error: self.answers.put((index, error)),
            )
        except ValueError:  # the pool no longer takes work: this process does the level
            self.answers.put((index, None))

    def _answered(self, index: int, verdict: LevelVerdict) -> None:
        self.answers.put((index, verdict))
        self.feed()

    def work_here(self) -> None:
        beat = None if self.heartbeat is None else (lambda _report: self._collect())
        while len(self.verdicts) < len(self.levels):
            index = self.take()
            if index is not None:
                self._record(index, verify_level(self.levels[index], self.settings, progress=beat))
                self._collect()
                continue
            with contextlib.suppress(queue.Empty):
                self._receive(*self.answers.get(timeout=_BEAT))
            self._collect()

    def _collect(self) -> None:
        while True:
            try:
                self._receive(*self.answers.get_nowait())
            except queue.Empty:
                break
        if self.heartbeat is not None:
            self.heartbeat()

    def _receive(self, index: int, answer: LevelVerdict | BaseException | None) -> None:
        if answer is None:
            self._record(index, verify_level(self.levels[index], self.settings))
        elif isinstance(answer, BaseException):
            raise answer
        else:
            self._record(index, answer)

    def _record(self, index: int, verdict: LevelVerdict) -> None:
        self.verdicts[index] = verdict
        if self.done is not None:
            self.done(index, verdict)

    def results(self) -> list[LevelVerdict]:
        return [self.verdicts[i] for i in range(len(self.levels))]


def run(args: argparse.Namespace) -> int:
    pack = open_pack(args.pack, trust=args.trust)
    settings = VerifySettings(Strategy(args.strategy), args.max_states, args.timeout)
    levels = list(pack.levels)
    jobs = args.jobs if args.jobs is not None else default_jobs()
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
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no levels"
    verdict_line = f"{len(failing)} failing" if failing else "release-ready"
    print(
        f"{len(levels)} level(s): {parts} — {verdict_line} ({seconds:.1f} s, {jobs} job(s))",
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
