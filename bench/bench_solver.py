"""Solver benchmark: the three goals of issue 6, measured and printed.

Run: ``python bench/bench_solver.py`` (about three minutes on two cores);
``--skip-corpus`` or ``--skip-memory`` leave a part out, ``--tracemalloc`` also
measures memory with ``tracemalloc`` (five times slower than the RSS measure).

1. **Speed.** Breadth-first expansions per second on the corpus's heaviest levels
   — the six whose breadth-first search needs the most positions (22, 36, 45, 76,
   82 and 112 in list order; over 800,000 each, most never finish) — for the
   compact path (``engine.solve``) and for a baseline that re-runs the public
   ``Game`` for every state (``bench/solver_baseline.py``). Goal: every ratio at
   least 20.
2. **Corpus.** ``engine.solve(level, strategy="auto")`` on all 113 Keke levels;
   every solution is replayed and compared with the human one. Goal: under 60 s.
3. **Memory.** Breadth-first search on a constructed 8x8 room (ten pushable rocks,
   the six rule words, no WIN: every position reachable is new work) until about a
   million positions are visited, in a fresh process; the growth of its peak RSS
   divided by the positions visited. Goal: under 100 bytes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bench.solver_baseline import public_bfs  # noqa: E402
from tests.support import grid_level, keke_corpus, keke_level  # noqa: E402

HEAVIEST = (22, 36, 45, 76, 82, 112)  # 1-based corpus positions
COMPACT_STATES = 40_000
BASELINE_STATES, BASELINE_SECONDS = 2_000, 4.0
MEMORY_EXPANSIONS = 440_000  # about 1,000,000 positions visited in the room
ROOM = [
    "BABA IS YOU . . . . .",
    *[". rock . . rock . . ."] * 5,
    "baba . . . . . . .",
    "ROCK IS PUSH . . . . .",
]


def speed() -> float:
    print("1. breadth-first expansions per second (compact vs public Game)")
    print(f"   {'level':<14}{'compact/s':>12}{'baseline/s':>12}{'ratio':>8}")
    ratios = []
    records = keke_corpus()["levels"]
    for n in HEAVIEST:
        level = engine.load_level(keke_level(records[n - 1]))
        fast = engine.solve(level, max_states=COMPACT_STATES)
        slow_states, slow_seconds, _ = public_bfs(level, BASELINE_STATES, BASELINE_SECONDS)
        compact_rate, baseline_rate = fast.states / fast.seconds, slow_states / slow_seconds
        ratios.append(compact_rate / baseline_rate)
        print(
            f"   {n:>3} {level.id:<10}{compact_rate:>12,.0f}{baseline_rate:>12,.0f}{ratios[-1]:>7.1f}x"
        )
    print(f"   lowest ratio {min(ratios):.1f}x (goal: at least 20x)")
    return min(ratios)


def corpus() -> float:
    print("2. the Keke corpus with strategy='auto'")
    records = keke_corpus()["levels"]
    total, shortest, worst = 0.0, 0, (0.0, "")
    failures = []
    for n, record in enumerate(records, start=1):
        level = engine.load_level(keke_level(record))
        result = engine.solve(level, strategy="auto")
        total += result.seconds
        shortest += result.shortest
        worst = max(worst, (result.seconds, f"{n} {level.id}"))
        events = engine.replay(level, result.moves) if result.status == "solved" else []
        if not (events and events[-1].won and result.length <= len(record["solution"])):
            failures.append(f"{n} {level.id}: {result.status}, {result.length} moves")
    print(
        f"   {len(records) - len(failures)}/{len(records)} solved, replayed to a win, no longer than the human"
    )
    print(
        f"   {shortest} proved shortest by breadth-first; slowest level {worst[1]} ({worst[0]:.1f} s)"
    )
    for failure in failures:
        print(f"   FAILED {failure}")
    print(f"   total {total:.1f} s (goal: under 60 s)")
    return total if not failures else float("inf")


def memory(trace: bool) -> float:
    print("3. memory per visited position, breadth-first, near one million positions")

    def child(*flags: str) -> dict[str, float]:
        command = [sys.executable, __file__, "--memory-child", *flags]
        found: dict[str, float] = json.loads(
            subprocess.run(command, check=True, capture_output=True, text=True).stdout
        )
        return found

    found = child()
    per_state = found["rss"] / found["visited"]
    print(
        f"   room 8x8, 10 rocks: {found['visited']:,.0f} visited, {found['states']:,.0f} expanded in {found['seconds']:.1f} s"
    )
    print(
        f"   peak RSS growth {found['rss'] / 2**20:.1f} MiB: {per_state:.1f} bytes per visited position"
    )
    if trace:  # a separate run: tracemalloc's own bookkeeping would swell the RSS above
        traced = child("--tracemalloc")
        print(
            f"   tracemalloc peak {traced['traced'] / 2**20:.1f} MiB: {traced['traced'] / traced['visited']:.1f} bytes per visited position"
        )
    print("   (goal: under 100 bytes)")
    return per_state


def peak_rss() -> int:
    """This process's peak resident set in bytes.

    ``VmHWM`` belongs to the address space, which ``exec`` replaces, whereas
    ``ru_maxrss`` keeps the parent's peak from before the fork.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status (the memory measure needs Linux)")


def memory_child(trace: bool) -> None:
    import tracemalloc

    level = engine.load_level(grid_level(ROOM, "room"))
    engine.solve(level, max_states=10)  # warm imports and caches outside the measure
    if trace:
        tracemalloc.start()
    before = peak_rss()
    result = engine.solve(level, max_states=MEMORY_EXPANSIONS)
    after = peak_rss()
    traced = tracemalloc.get_traced_memory()[1] if trace else 0
    found = {"visited": result.visited, "states": result.states, "seconds": result.seconds}
    print(json.dumps({**found, "rss": after - before, "traced": traced}))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.tracemalloc)
        return 0
    began = time.perf_counter()
    ratio = speed()
    total = corpus() if not args.skip_corpus else None
    per_state = memory(args.tracemalloc) if not args.skip_memory else None
    print(f"summary: ratio {ratio:.1f}x (>= 20)", end="")
    if total is not None:
        print(f", corpus {total:.1f} s (< 60)", end="")
    if per_state is not None:
        print(f", {per_state:.1f} bytes/state (< 100)", end="")
    print(f"; benchmark took {time.perf_counter() - began:.0f} s")
    met = ratio >= 20 and (total is None or total < 60) and (per_state is None or per_state < 100)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
