"""``rulegrid solve PACK [LEVEL]``: run the solver on one level or on every level.

With LEVEL it prints the level's status, moves, length, states and time; without
it, one table row per level and a summary. ``--json`` prints one JSON object per
level instead (one per line). While a level is being solved and standard error is
a terminal, a progress line there shows states expanded against ``--max-states``.

Exit 0 when every level was solved, 3 when some level is unsolvable or hit a
limit, 1 for bad input (an invalid pack, an unknown level), 2 for wrong usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from engine.cli.common import open_playable, plain_help
from engine.model import Level
from engine.solve.search import DEFAULT_MAX_STATES, SolveProgress, SolveResult, Strategy, solve

NOT_ALL_SOLVED = 3
_BAR = 24


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "solve",
        help="solve one level (status, moves, states, time) or every level of a pack (a table)",
        description=plain_help(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pack", help="a pack .json file or pack folder")
    parser.add_argument(
        "level", nargs="?", help="level id or 1-based number (default: every level)"
    )
    parser.add_argument(
        "--timeout", type=_seconds, metavar="S", help="give up on a level after S seconds"
    )
    parser.add_argument(
        "--max-states",
        type=_count,
        default=DEFAULT_MAX_STATES,
        metavar="N",
        help=f"give up on a level after expanding N positions (default {DEFAULT_MAX_STATES:,})",
    )
    parser.add_argument(
        "--strategy",
        choices=[s.value for s in Strategy],
        default=Strategy.BFS.value,
        help="bfs: shortest solution or proof there is none (default); best-first: weighted A*, "
        "faster on big levels, not always shortest; auto: bfs on a budget, then best-first",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per level")
    parser.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    parser.set_defaults(run=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("the timeout must be more than 0 seconds")
    return value


def _count(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("max-states must be at least 1")
    return value


def run(args: argparse.Namespace) -> int:
    pack = open_playable(args.pack, trust=args.trust)
    levels = [pack.find(args.level)] if args.level is not None else list(pack.levels)
    pack.warn()
    results: list[tuple[Level, SolveResult]] = []
    table = not args.json and args.level is None
    if table:
        print(
            _row("level", "status", "length", "states", "time", "strategy", width=_width(levels)),
            flush=True,
        )
    for level in levels:
        result = _solve(level, args)
        results.append((level, result))
        if args.json:
            print(
                json.dumps({"level": level.id, **result.to_dict()}, ensure_ascii=False), flush=True
            )
        elif table:
            print(_table_row(level, result, _width(levels)), flush=True)
        else:
            _print_one(level, result)
    if table:
        print(_summary(results), file=sys.stderr)
    return 0 if all(r.status == "solved" for _, r in results) else NOT_ALL_SOLVED


def _solve(level: Level, args: argparse.Namespace) -> SolveResult:
    bar = _ProgressLine(sys.stderr, level.id, args.max_states) if sys.stderr.isatty() else None
    try:
        return solve(
            level,
            max_states=args.max_states,
            timeout=args.timeout,
            strategy=args.strategy,
            progress=bar.show if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.clear()


def _print_one(level: Level, result: SolveResult) -> None:
    length = f"{result.length}" + (" (shortest)" if result.shortest else "")
    lines = [
        ("level", level.id),
        ("status", str(result.status) + (f" ({result.stopped_by})" if result.stopped_by else "")),
        ("moves", result.moves if result.status == "solved" else "-"),
        ("length", length if result.status == "solved" else "-"),
        ("states", f"{result.states:,}"),
        ("time", f"{result.seconds:.2f} s"),
        ("strategy", str(result.strategy)),
    ]
    for name, value in lines:
        print(f"{name + ':':<10}{value}")


def _width(levels: list[Level]) -> int:
    return max(5, *(len(level.id) for level in levels))


def _row(*cells: str, width: int) -> str:
    level, status, length, states, time, strategy = cells
    return f"{level:<{width}}  {status:<10}  {length:>6}  {states:>10}  {time:>8}  {strategy}"


def _table_row(level: Level, result: SolveResult, width: int) -> str:
    solved = result.status == "solved"
    strategy = str(result.strategy) + (" (shortest)" if result.shortest else "")
    return _row(
        level.id,
        str(result.status),
        str(result.length) if solved else "-",
        f"{result.states:,}",
        f"{result.seconds:.2f}s",
        strategy if solved else (result.stopped_by or "-"),
        width=width,
    )


def _summary(results: list[tuple[Level, SolveResult]]) -> str:
    counts: dict[str, int] = {}
    for _, result in results:
        counts[str(result.status)] = counts.get(str(result.status), 0) + 1
    seconds = sum(r.seconds for _, r in results)
    parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return f"{len(results)} level(s): {parts} in {seconds:.1f} s"


class _ProgressLine:
    """One self-overwriting line on a terminal: the states expanded against the budget."""

    def __init__(self, stream: TextIO, name: str, budget: int) -> None:
        self.stream = stream
        self.name = name
        self.budget = budget
        self.shown = False

    def show(self, report: SolveProgress) -> None:
        done = min(1.0, report.states / self.budget)
        filled = int(done * _BAR)
        self.stream.write(
            f"\r{self.name} [{'#' * filled}{'.' * (_BAR - filled)}] {report.states:,} states, "
            f"{report.frontier:,} queued, depth {report.depth}, {report.seconds:.1f} s\x1b[K"
        )
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
