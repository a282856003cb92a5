"""``rulegrid solve PACK [LEVEL]``: run the solver on one level or on every level.

With LEVEL it prints the level's status, moves, length, states and time; without
it, one table row per level and a summary. ``--json`` prints one JSON object per
level instead (one per line). While a level is being solved and standard error is
a terminal, a progress line there shows states expanded against ``--max-states``.

Every level's search has a budget: ``--max-states`` positions expanded,
``--seconds`` (default 60; ``none`` for no limit) and ``--memory`` bytes (default
a quarter of the memory available, at most 768 MiB). A search stopped by one
reports what it proved ("no solution in 30 moves or fewer") and says on standard
error, in one line naming the pack and the level, which budget stopped it and
the option that raises it.

Exit 0 when every level was solved, 3 when some level is unsolvable or hit a
limit, 1 for bad input (an invalid pack, an unknown level), 2 for wrong usage.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, TextIO

from engine.cli.common import open_playable, plain_help
from engine.errors import counted
from engine.model import Level
from engine.solve.search import (
    DEFAULT_MAX_STATES,
    SolveBudget,
    SolveProgress,
    SolveResult,
    Strategy,
    default_memory_budget,
    solve,
)
from engine.solve.verify import DEFAULT_SECONDS, no_solution_words

NOT_ALL_SOLVED = 3
_BAR = 24
#: The option that raises each budget, by what ``stopped_by`` calls it.
RAISE_WITH = {"max-states": "--max-states", "timeout": "--seconds", "memory": "--memory"}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


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
    add_budget_arguments(parser)
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


def add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """``--max-states``, ``--seconds`` (alias ``--timeout``) and ``--memory``: one budget."""
    parser.add_argument(
        "--max-states",
        type=_count,
        default=DEFAULT_MAX_STATES,
        metavar="N",
        help=f"give up on a level after expanding N positions (default {DEFAULT_MAX_STATES:,})",
    )
    parser.add_argument(
        "--seconds",
        "--timeout",
        dest="timeout",
        type=_seconds,
        default=DEFAULT_SECONDS,
        metavar="S",
        help=f"give up on a level after S seconds (default {DEFAULT_SECONDS:g}; 'none': no limit)",
    )
    parser.add_argument(
        "--memory",
        type=_size,
        default=None,
        metavar="SIZE",
        help="give up on a level when its search holds SIZE bytes (512M, 2G; default a quarter "
        "of the memory available, at most 768 MiB, shared by the jobs)",
    )


def _seconds(text: str) -> float | None:
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("the timeout must be more than 0 seconds")
    return value


def _size(text: str) -> int:
    """Bytes from "512M", "2G", "1.5GiB", "800000000" (K, M, G, T are powers of 1,024)."""
    found = _SIZE.match(text.replace("_", "").replace(",", ""))
    if found is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size (write bytes, or a number with K, M, G or T: 512M, 2G)"
        )
    value = float(found.group(1)) * 1024 ** " kmgt".index(found.group(2).lower() or " ")
    if value < 1 or value > 2**60:
        raise argparse.ArgumentTypeError(f"{text!r}: a memory budget is 1 byte to 1 EiB")
    return int(value)


def _count(text: str) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("max-states must be at least 1")
    return value


def budget_of(args: argparse.Namespace, searches: int = 1) -> SolveBudget:
    """The budget the options give, the default memory share made explicit."""
    memory = args.memory if args.memory is not None else default_memory_budget(searches)
    return SolveBudget(args.max_states, args.timeout, memory)


def budget_line(where: str, result: SolveResult, budget: SolveBudget) -> str | None:
    """One line for a search a budget stopped: where, which budget, what is known, the option."""
    option = RAISE_WITH.get(result.stopped_by or "")
    if result.status != "limit" or option is None:
        return None
    return (
        f"{where}: {budget.stop_text(result)}; {no_solution_words(result)} (raise it with {option})"
    )


def run(args: argparse.Namespace) -> int:
    pack = open_playable(args.pack, trust=args.trust)
    levels = [pack.find(args.level)] if args.level is not None else list(pack.levels)
    pack.warn()
    budget = budget_of(args)
    results: list[tuple[Level, SolveResult]] = []
    table = not args.json and args.level is None
    if table:
        print(
            _row("level", "status", "length", "states", "time", "strategy", width=_width(levels)),
            flush=True,
        )
    for level in levels:
        result = _solve(level, args, budget)
        results.append((level, result))
        line = budget_line(f'{args.pack} (level "{level.id}")', result, budget)
        if line is not None:
            print(line, file=sys.stderr, flush=True)
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


def _solve(level: Level, args: argparse.Namespace, budget: SolveBudget) -> SolveResult:
    bar = _ProgressLine(sys.stderr, level.id, args.max_states) if sys.stderr.isatty() else None
    try:
        return solve(
            level,
            max_states=budget.max_states,
            timeout=budget.seconds,
            memory=budget.memory,
            strategy=args.strategy,
            progress=bar.show if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.clear()


def _print_one(level: Level, result: SolveResult) -> None:
    if result.status != "solved":
        length = f"at least {result.lower_bound}" if result.lower_bound > 1 else "-"
    elif result.shortest:
        length = f"{result.length} (shortest)"
    elif result.lower_bound > 1:
        length = f"{result.length} (shortest is at least {result.lower_bound})"
    else:
        length = f"{result.length} (not proved shortest)"
    lines = [
        ("level", level.id),
        ("status", str(result.status) + (f" ({result.stopped_by})" if result.stopped_by else "")),
        ("moves", result.moves if result.status == "solved" else "-"),
        ("length", length if result.status != "unsolvable" else "-"),
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
    if solved:
        length = str(result.length)
    else:  # what the search proved: no solution shorter than this
        length = f"≥{result.lower_bound}" if result.status == "limit" else "-"
    return _row(
        level.id,
        str(result.status),
        length,
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
    return f"{counted(len(results), 'level')}: {parts} in {seconds:.1f} s"


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
