"""Public turn benchmark: ``Game.step`` on big boards, next to the plain turn (issue 21 item 1).

Run: ``python bench/bench_turn.py`` (about half a minute).

Each scenario plays the same intents twice in one process: through ``engine.Game``
(the incremental turn: a live board kept up to date, contacts checked only where
something changed, rules read again only when a word moved or was destroyed) and
through the plain turn (``engine.play.turn.resolve_step``: the board rebuilt from
the frame, every candidate cell checked, the frame frozen whole), alternating
turn by turn so a drift of the shared machine hits both alike. The two must agree
on every event; the script stops if they do not. Per turn it prints the median and
95th percentile of the wall clock and of this process's CPU time
(``time.process_time``), for:

The boards hold 100 words (32x32) and 300 words (64x64), as the play and rules
panel benchmarks do.

* ``32x32, 400 entities, walk``: a BABA walks to and fro on a free row while an
  automaton ticks a MOUSE. Goal: median under 0.3 ms.
* ``32x32, 400 entities, word pushed``: a BABA pushes a WIN word along a row under
  ``FLAG / IS`` columns, so every turn moves a word and the rules are read again
  (a FLAG IS WIN rule forms and breaks turn by turn). Goal: median under 1 ms.
* ``64x64, 5,000 entities, walk`` and ``..., word pushed``: the same on the big
  board. Goal: median under 2 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.context import LevelContext  # noqa: E402
from engine.play.board import Frame  # noqa: E402
from engine.play.turn import resolve_step, settle  # noqa: E402

FILLER_NOUNS = ["ROCK", "WALL", "FLAG", "WATER", "LAVA", "KEKE"]
FILLER_WORDS = ["ROCK", "FLAG", "WATER", "IS", "AND", "WIN", "SINK", "PUSH", "KEKE"]
RUN = 24  # turns per run before a reset (the pushed word needs room)


def bench_level(size: int, count: int, words: int, *, push: bool, seed: int = 13) -> dict[str, Any]:
    """Rules on top, random filler (``words`` words in all), a free lane for BABA."""
    rng = random.Random(seed)
    entities: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    lane = size // 2

    def add(kind: str, token: str, x: int, y: int) -> None:
        key = "noun" if kind == "object" else "text"
        entities.append({"id": len(entities) + 1, "kind": kind, key: token, "x": x, "y": y})
        taken.add((x, y))

    for row, sentence in enumerate(
        (["BABA", "IS", "YOU"], ["ROCK", "IS", "PUSH"], ["MOUSE", "IS", "TICK"]),
        start=0,
    ):
        for x, word in enumerate(sentence):
            add("word", word, x, row)
    for x, word in enumerate(["WATER", "IS", "SINK"]):
        add("word", word, x + 4, 0)
    for x, word in enumerate(["LAVA", "IS", "DEFEAT"]):
        add("word", word, x + 4, 1)
    add("object", "BABA", 1, lane)
    add("object", "MOUSE", size // 2, lane + 2)
    if push:
        add("word", "WIN", 2, lane)
        for x in range(5, 2 + RUN, 3):  # FLAG / IS above the lane: WIN below forms a rule
            add("word", "FLAG", x, lane - 2)
            add("word", "IS", x, lane - 1)
    reserved = {lane - 2, lane - 1, lane, lane + 1, lane + 2}
    placed = sum(e["kind"] == "word" for e in entities)
    while len(entities) < count:
        x, y = rng.randrange(size), rng.randrange(3, size)
        if y in reserved:
            continue
        if rng.random() < (words - placed) / (count - len(entities)):
            add("word", rng.choice(FILLER_WORDS), x, y)
            placed += 1
        else:
            add("object", rng.choice(FILLER_NOUNS), x, y)
    automaton = {
        "id": "clock",
        "property": "TICK",
        "pattern": [
            {"action": "move", "dx": 1, "dy": 0},
            {"action": "move", "dx": -1, "dy": 0},
        ],
    }
    return {
        "id": "bench",
        "width": size,
        "height": size,
        "entities": entities,
        "automata": [automaton],
    }


def quantile(samples: list[float], q: int) -> float:
    return statistics.quantiles(samples, n=100)[q - 1]


def measure(
    level: dict[str, Any], moves: list[str], runs: int
) -> dict[str, dict[str, list[float]]]:
    """Per-turn wall and CPU milliseconds of the incremental and the plain turn, interleaved."""
    model = engine.load_level(level)
    ctx = LevelContext.of(model)
    game = engine.Game(model)
    start = settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
    out: dict[str, dict[str, list[float]]] = {
        way: {"wall": [], "cpu": []} for way in ("incremental", "plain")
    }

    def timed(way: str, call: Callable[..., Any], *args: Any) -> Any:
        w0, c0 = time.perf_counter(), time.process_time()
        result = call(*args)
        c1, w1 = time.process_time(), time.perf_counter()
        out[way]["wall"].append((w1 - w0) * 1000)
        out[way]["cpu"].append((c1 - c0) * 1000)
        return result

    for _ in range(runs):
        game.reset()
        frame: Frame = start
        for move in moves:
            event = timed("incremental", game.step, move)
            after, plain = timed("plain", resolve_step, ctx, frame, move)
            if event.to_dict() != plain.to_dict() or not event.accepted:
                raise SystemExit(f"the incremental and the plain turn disagree on {move!r}")
            frame = after
        if (
            game.state()["entities"]
            != engine.Game.from_snapshot(model, game.snapshot()).state()["entities"]
        ):
            raise SystemExit("the incremental frame does not survive a snapshot")
    return out


def report(title: str, goal: float, data: dict[str, dict[str, list[float]]]) -> None:
    print(f"-- {title} (goal: median under {goal:g} ms)")
    for way, clocks in data.items():
        cells = "   ".join(
            f"{clock} median {statistics.median(v):6.3f} p95 {quantile(v, 95):6.3f} ms"
            for clock, v in clocks.items()
        )
        print(f"   {way:<12} {cells}")
    inc = statistics.median(data["incremental"]["cpu"])
    plain = statistics.median(data["plain"]["cpu"])
    by_cpu = "met" if inc < goal else "NOT met"
    by_wall = "met" if statistics.median(data["incremental"]["wall"]) < goal else "NOT met"
    print(
        f"   incremental is {plain / inc:4.1f}x the plain turn (CPU); "
        f"goal {by_cpu} by CPU time, {by_wall} by the wall clock"
    )


def main() -> int:
    walk = ["right", "left"] * (RUN // 2)
    push = ["right"] * RUN
    scenarios = [
        ("32x32, 400 entities, walk", 0.3, bench_level(32, 400, 100, push=False), walk, 20),
        ("32x32, 400 entities, word pushed", 1.0, bench_level(32, 400, 100, push=True), push, 20),
        ("64x64, 5,000 entities, walk", 2.0, bench_level(64, 5_000, 300, push=False), walk, 10),
        (
            "64x64, 5,000 entities, word pushed",
            2.0,
            bench_level(64, 5_000, 300, push=True),
            push,
            10,
        ),
    ]
    for title, goal, level, moves, runs in scenarios:
        report(title, goal, measure(level, moves, runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
