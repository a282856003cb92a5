"""Hostile inputs: the time and peak memory of answering each (issue 20).

Run: ``python bench/bench_hostile.py`` (``--only WORD`` runs the cases whose name
holds WORD; ``--quick`` skips the multi-megabyte ones). Each case is built here,
written to a file, and answered in a fresh child process, so its peak memory is
its own: the child reads the file, notes its resident size, answers, and reports
the wall and CPU time of the answer and how far the resident size grew.

The cases: rule bombs of several sizes (issue 20's row of two-word cells, a
stack of k nouns against k values, a search with no sentence at the end, many
boards near the budget in one pack); large lists and maps (patterns, automata,
nouns, FRAIL leaves, fields); floods of problems; and each of those again as a
share payload (``decode``). "Answered" is ``load_pack`` of the file, or
``share.decode`` of the payload text; a few rows also play (``Game`` + a step +
``state()``) a board that fits the budget.

Issue 39's B2 and B6 (issue 34 checks them): levels of entities that all fail the
schema (``{}``, or ``{"id": n}``: nothing equal to explain once), answered by
``load_pack``, by the editor's open (``open``: ``editor.io.pack_tasks.open_work``,
headless) and by the Problems panel's first check after opening for repair
(``panel``: every level's report, kept per level, then the pack); and files whose
JSON would build far more than any pack (64 MiB of ``[]``, ``levels: [{}, …]``),
made as bytes (``RAW_CASES``).

Goal: every input under 1 MB of JSON is answered in under 2 s and under 200 MB
(``ok`` or ``OVER``); every larger input is refused by a size cap before any
walk (the code that refused it is printed), or, within every cap, answered in
under 1 GB (``walked, under 1 GB``). The verdict uses the CPU time: on a
machine shared with other work the wall time grows, the CPU time and the memory
do not.

Issue 39's cases (bench/hostile_work.py) follow: valid inputs under 1 MB whose
*turns* cost too much, answered by ``rulegrid`` commands and the editor's open
(goal: 15 s of CPU, this process and its finished children, and 600 MB), and the
breaks of recovery, saving and trust, each answered ``ok`` or ``BROKEN``.

The solver's cases (issue 39, B5; ``bench/hostile_solve.py`` builds them) run
``rulegrid solve`` and ``rulegrid verify --jobs 1`` with their default budgets
(60 s and a share of memory a level; ``solve: ... no time limit`` lifts the time
budget and sets ``--memory 256M``, to show the memory budget stopping a search).
Their goal is issue 39's: a default solve of any valid level within 90 s and 1 GB
(``ok`` or ``OVER``; verify: within 90 s a level). The search's budget is wall
time, so these verdicts use the wall time; the outcome column is the command's
exit code and the first line it wrote to standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import hostile_work  # noqa: E402
from bench.hostile_solve import OPEN_ROOM, crowd, rock_room, rock_rooms  # noqa: E402
from tests.hostile import (  # noqa: E402
    failing_entities,
    issue_bomb,
    pack_of,
    search_bomb,
    stacked_bomb,
)
from tests.support import grid_level, pack_document  # noqa: E402

MB = 2**20
GOAL_SECONDS, GOAL_MB = 2.0, 200
#: The codes of the caps that refuse an input by its size before walking it.
SIZE_CODES = {"bad-size", "too-many", "too-large", "too-many-values", "too-deep"}

Doc = dict[str, Any]


def _level(**extra: Any) -> Doc:
    return {
        "id": "one",
        "width": 4,
        "height": 2,
        "entities": [
            {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 1},
            {"id": 2, "kind": "word", "text": "BABA", "x": 0, "y": 0},
            {"id": 3, "kind": "word", "text": "IS", "x": 1, "y": 0},
            {"id": 4, "kind": "word", "text": "YOU", "x": 2, "y": 0},
        ],
        **extra,
    }


def long_pattern(steps: int) -> Doc:
    pattern = [{"action": "wait"}] * steps
    return pack_document(_level(automata=[{"id": "a", "property": "TICK", "pattern": pattern}]))


def many_automata(count: int) -> Doc:
    automata = [
        {"id": f"a{i}", "property": "TICK", "pattern": [{"action": "wait"}]} for i in range(count)
    ]
    return pack_document(_level(automata=automata))


def many_nouns(count: int, leaves: bool = False) -> Doc:
    doc = pack_document(_level(), nouns=["BABA"])
    doc["nouns"].update({f"N{i}": {"color": "#808080"} for i in range(count)})
    if leaves:
        frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived"}
        doc["levels"][0]["mechanics"] = [
            {**frail, "leaves": {f"N{i}": "BABA" for i in range(count)}}
        ]
    return doc


def many_fields(count: int) -> Doc:
    doc = pack_document(_level())
    doc["levels"][0]["entities"][0].update({f"k{i}": i for i in range(count)})
    return doc


def semantic_flood(levels: int, per_level: int) -> Doc:
    """Every object of every level lies outside its 1x1 grid: levels x per_level problems."""
    return pack_document(
        *(
            {
                "id": f"l{n}",
                "width": 1,
                "height": 1,
                "entities": [
                    {"id": i + 1, "kind": "object", "noun": "ROCK", "x": 5, "y": 0}
                    for i in range(per_level)
                ],
            }
            for n in range(levels)
        )
    )


def schema_flood(levels: int) -> Doc:
    bad = [{"id": f"l{n}", "width": "wide", "height": 1, "entities": []} for n in range(levels)]
    return pack_document(*bad, nouns=[])


def _filled(head: bytes, item: bytes, tail: bytes, size: int) -> bytes:
    """``head``, ``item`` repeated (comma-separated) up to ``size`` bytes, ``tail``."""
    count = max(1, (size - len(head) - len(tail)) // (len(item) + 1))
    return head + b",".join([item] * count) + tail


def bombs_to_fill(size: int) -> Doc:
    """As many small boards near the parse budget as fit in ``size`` bytes."""
    one = issue_bomb(4, 4, 12)  # about 5 KB, 2 units short of nothing: refused or near
    board = stacked_bomb(200)
    per = len(json.dumps(board))
    return pack_of(*[board] * max(1, size // per), one)


CASES: list[tuple[str, Callable[[], Doc], str]] = [
    # name, builder, what the child does: "pack" (load_pack) or "play" (load + Game)
    ("bomb: issue row 7x8 + 12 singles", lambda: pack_of(issue_bomb(7, 8, 12)), "pack"),
    ("bomb: issue row 5x5 + 12 singles", lambda: pack_of(issue_bomb(5, 5, 12)), "pack"),
    ("bomb: issue row 12x12 + 12 singles", lambda: pack_of(issue_bomb(12, 12, 12)), "pack"),
    ("bomb: 200 nouns IS 200 values (fits)", lambda: pack_of(stacked_bomb(200)), "pack"),
    ("bomb: 200 x 200, played", lambda: pack_of(stacked_bomb(200)), "play"),
    ("bomb: 400 nouns IS 400 values", lambda: pack_of(stacked_bomb(400)), "pack"),
    ("bomb: search of 2^13 paths x 20 IS", lambda: pack_of(search_bomb(13, 20)), "pack"),
    ("bomb: 21 boards of 240,400 units", lambda: pack_of(*[stacked_bomb(200)] * 21), "pack"),
    ("bomb: 1 MB of boards near the budget", lambda: bombs_to_fill(MB - 64 * 1024), "pack"),
    ("list: pattern of 1,000,000 steps", lambda: long_pattern(1_000_000), "pack"),
    ("list: pattern of 20,000 steps", lambda: long_pattern(20_000), "pack"),
    ("list: 300,000 automata", lambda: many_automata(300_000), "pack"),
    ("list: 5,000 automata", lambda: many_automata(5_000), "pack"),
    ("map: 200,000 nouns", lambda: many_nouns(200_000), "pack"),
    ("map: 700,000 nouns and leaves", lambda: many_nouns(700_000, leaves=True), "pack"),
    ("map: 10,000 nouns", lambda: many_nouns(10_000), "pack"),
    ("map: an entity of 100,000 fields", lambda: many_fields(100_000), "pack"),
    ("flood: 1,000,000 semantic problems", lambda: semantic_flood(50, 20_000), "pack"),
    ("flood: 15,000 semantic problems", lambda: semantic_flood(3, 5_000), "pack"),
    ("flood: 10,000 levels failing the schema", lambda: schema_flood(10_000), "pack"),
    *(
        (f"B2: 17 x {count:,} {shape} entities{label}", builder, kind)
        for count, shape, builder in (
            (20_000, "{}", lambda: failing_entities(17, 20_000)),
            (1_000, "{}", lambda: failing_entities(17, 1_000)),
            (20_000, "{id: n}", lambda: failing_entities(17, 20_000, distinct=True)),
        )
        for label, kind in (("", "pack"), (", editor open", "open"), (", Problems panel", "panel"))
    ),
]

#: Files made as bytes: their parsed form would not fit in the parent either.
RAW_CASES: list[tuple[str, Callable[[], bytes], str]] = [
    *(
        (f"B6: {name}{label}", make, kind)
        for name, make in (
            (
                "64 MiB of [] in an unknown field",
                lambda: _filled(b'{"x": [', b"[]", b"]}", 64 * MB - 64),
            ),
            (
                "levels: [{}, ...] of 64 MiB",
                lambda: _filled(b'{"levels": [', b"{}", b"]}", 64 * MB - 64),
            ),
        )
        for label, kind in (("", "pack"), (", editor open", "open"))
    ),
    ("B6: 8 MiB of [] (1.4 M lists)", lambda: _filled(b'{"x": [', b"[]", b"]}", 8 * MB), "pack"),
]


def replay_payload(levels: int, share_of_limit: float) -> str:
    """A valid pack payload whose replays walk back and forth, costing a share of
    the replay work limit (entity-moves)."""
    from engine import load_pack, share
    from engine.limits import MAX_PAYLOAD_REPLAY_WORK

    row = " ".join(["baba"] + ["."] * 7)
    rows = [row, "BABA IS YOU . . . . .", *(["rock rock rock rock . . . ."] * 6)]
    from tests.support import grid_level

    docs = [grid_level(rows, f"walk{n}") for n in range(levels)]
    pack = load_pack(pack_document(*docs))
    per_level = int(MAX_PAYLOAD_REPLAY_WORK * share_of_limit) // levels
    moves = per_level // len(docs[0]["entities"]) - 1
    walk = ("R" * 7 + "L" * 7) * (moves // 14)
    return share.encode(pack, replays=[(level.id, walk) for level in pack.levels])


def snapshot_payload(moves: int) -> str:
    """A level payload with a snapshot of a long game (every move in the history)."""
    from engine import Game, load_level, share
    from tests.support import grid_level

    level = load_level(grid_level(["baba . . . . . . .", "BABA IS YOU . . . . ."], "walk"))
    game = Game(level)
    for n in range(moves):
        game.step("right" if (n // 7) % 2 == 0 else "left")
    return share.encode(level, snapshot=game, nouns={"BABA": {"color": "#ffffff"}})


PAYLOADS: list[tuple[str, Callable[[], str]]] = [
    ("payload: replays at the work limit", lambda: replay_payload(4, 1.0)),
    ("payload: replays at a tenth of it", lambda: replay_payload(2, 0.1)),
    ("payload: snapshot of a 1,000-move game", lambda: snapshot_payload(1_000)),
]

#: The solver's cases: name, pack builder, the command's arguments after the pack file.
SOLVER_CASES: list[tuple[str, Callable[[], Doc], list[str]]] = [
    ("solve: 7,200 YOU objects on 128x128", lambda: pack_document(crowd()), ["solve"]),
    (
        "solve: 19,997 YOU objects (the entity cap)",
        lambda: pack_document(crowd(19_997)),
        ["solve"],
    ),
    (
        "solve: a room of 110 YOU rocks",
        lambda: pack_document(rock_room("room")),
        ["solve"],
    ),
    (
        "solve: 8x8, 10 rocks, no time limit",
        lambda: pack_document(grid_level(OPEN_ROOM, "room")),
        ["solve", "--seconds", "none", "--max-states", "100000000", "--memory", "256M"],
    ),
    ("verify: 4 rooms of 110 YOU rocks", rock_rooms, ["verify", "--jobs", "1"]),
]
SOLVE_GOAL_SECONDS, SOLVE_GOAL_MB = 90.0, 1024

PAYLOAD_CASES = {
    "bomb: issue row 7x8 + 12 singles",
    "bomb: issue row 12x12 + 12 singles",
    "bomb: 200 nouns IS 200 values (fits)",
    "bomb: search of 2^13 paths x 20 IS",
    "bomb: 21 boards of 240,400 units",
    "list: pattern of 20,000 steps",
    "list: 5,000 automata",
    "map: 10,000 nouns",
    "map: 200,000 nouns",
    "flood: 15,000 semantic problems",
    "flood: 10,000 levels failing the schema",
}


# ------------------------------------------------------------------------ child


def _status_mb(field: str) -> float | None:
    """A ``/proc/self/status`` size in MB (Linux); ``None`` elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _rss_mb() -> float:
    """The resident size now."""
    now = _status_mb("VmRSS")
    return now if now is not None else _peak_mb()


def _peak_mb() -> float:
    """The peak resident size of this process image. On Linux ``ru_maxrss`` survives
    ``exec`` (it would report the parent's peak), so VmHWM is read instead."""
    peak = _status_mb("VmHWM")
    if peak is not None:
        return peak
    import resource

    value = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return value / (MB if sys.platform == "darwin" else 1024)


def solver_child(path: str, command: list[str]) -> None:
    """Run ``rulegrid`` on the pack; report time, memory, exit code and its first complaint."""
    import contextlib
    import io

    from engine.cli import main

    base = _rss_mb()
    started, cpu = time.perf_counter(), time.process_time()
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main([command[0], path, *command[1:]])
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    first = err.getvalue().strip().splitlines()
    said = first[0].split("): ", 1)[-1] if first else ""
    outcome = f"exit {code}: {said}"
    peak = max(0.0, _peak_mb() - base)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "mb": peak, "outcome": outcome}))


def child(kind: str, path: str) -> None:
    if kind not in ("pack", "play", "payload"):  # issue 39's (bench/hostile_work.py)
        print(json.dumps(_measured(lambda: hostile_work.child(kind, path))))
        return
    import engine
    from engine import Game, ValidationError, load_pack, share

    raw = Path(path).read_bytes()
    text = raw.decode("ascii") if kind == "payload" else None
    engine.Vocabulary.builtin()
    base = _rss_mb()
    started, cpu = time.perf_counter(), time.process_time()
    outcome = "valid"
    try:
        if kind == "payload":
            assert text is not None
            preview = share.decode(text)
            if preview.problems:
                outcome = _codes(preview.problems)
        elif kind == "open":
            outcome = _open_in_editor(Path(path))
        elif kind == "panel":
            outcome = _panel_check(Path(path))
        else:
            pack = load_pack(path)
            if kind == "play":
                game = Game(pack.levels[0])
                game.step("right")
                outcome = f"played: {len(json.dumps(game.state())) / MB:.1f} MB state"
    except ValidationError as exc:
        outcome = _codes(exc.errors)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = max(0.0, _peak_mb() - base)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "mb": peak, "outcome": outcome}))


def _measured(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``answer()`` timed: wall, CPU of this process and its finished children, growth."""
    import resource

    import engine

    engine.Vocabulary.builtin()
    base = _rss_mb()
    started, cpu = time.perf_counter(), time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = answer()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu + (after.ru_utime + after.ru_stime)
    cpu -= kids.ru_utime + kids.ru_stime
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "cpu": cpu, "mb": max(0.0, _peak_mb() - base), **result}


def _open_in_editor(path: Path) -> str:
    """What the editor's open does off the UI thread (no window: the documents it
    would then make from the plan are the same for any pack)."""
    from editor.io.pack_tasks import OpenRequest, open_work
    from editor.tasks.background import CancelToken
    from editor.tasks.progress import Progress

    opened = open_work(OpenRequest(path, False, Progress()), CancelToken())
    if opened.plan is not None:
        return "opened"
    repair = "repair offered" if opened.repaired is not None else "not opened"
    return f"{_codes(opened.problems)}, {repair}"


def _panel_check(path: Path) -> str:
    """The Problems panel's first check after opening for repair: every level's report
    (what the panel keeps, level by level), then the pack over them."""
    import engine

    doc = engine.read_json_file(path)
    nouns = engine.declared_nouns(doc)
    reports = [engine.report_level(level, nouns=nouns) for level in doc["levels"]]
    report = engine.check_pack({**doc, "levels": []}, levels=reports)
    kept = sum(len(r.errors) for r in reports)
    return f"{_codes(report.errors)}, {kept:,} problems kept in {len(reports)} reports"


def _codes(problems: Any) -> str:
    codes: dict[str, int] = {}
    for p in problems:
        codes[p.code] = codes.get(p.code, 0) + 1
    return ", ".join(f"{c} x{n}" if n > 1 else c for c, n in codes.items())


# ----------------------------------------------------------------------- parent


def run(
    name: str, kind: str, data: bytes, folder: Path, command: list[str] | None = None
) -> dict[str, Any]:
    path = folder / ("case.txt" if kind == "payload" else "case.json")
    path.write_bytes(data)
    argv = ["--child", kind, str(path)]
    if command is not None:
        argv = ["--solver-child", str(path), *command]
    try:
        done = subprocess.run(
            [sys.executable, __file__, *argv],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    except subprocess.TimeoutExpired:
        return {"seconds": 600.0, "cpu": float("nan"), "mb": float("nan"), "outcome": "TIMEOUT"}
    if done.returncode != 0 or not done.stdout.strip():
        nan = float("nan")
        return {"seconds": nan, "cpu": nan, "mb": nan, "outcome": "CRASH " + done.stderr[-300:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def verdict(size: int, result: dict[str, Any], levels: int = 0) -> str:
    if levels:  # a solver case: within 90 s a level (the budget is wall time) and 1 GB
        fast = result["seconds"] < SOLVE_GOAL_SECONDS * levels and result["mb"] < SOLVE_GOAL_MB
        return "ok" if fast else "OVER"
    codes = {part.split(" x")[0] for part in str(result["outcome"]).split(", ")}
    if size > MB:
        if codes & SIZE_CODES:
            return "refused by size"
        # under the file cap, within issue 39's bound for any input: 1 GB
        return "walked, under 1 GB" if result["mb"] < 1024 else "walked, OVER 1 GB"
    # CPU time: on a machine shared with other work the wall time says little
    fast = result["cpu"] < GOAL_SECONDS and result["mb"] < GOAL_MB
    return "ok" if fast else "OVER"


def payload_text(doc: Doc) -> bytes | None:
    from engine import share
    from engine.share.codec import seal, to_text

    try:
        return to_text(seal({"pack": doc})).encode("ascii")
    except share.ShareError as exc:  # refused while being made: the size caps of a payload
        return None if not exc.errors else ("!" + exc.errors[0].code).encode("ascii")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", default="", help="run the cases whose name holds this")
    parser.add_argument("--quick", action="store_true", help="skip inputs over 8 MB")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--solver-child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0
    if args.solver_child:
        solver_child(args.solver_child[0], args.solver_child[1:])
        return 0
    print(f"{'case':48} {'input':>9} {'wall':>8} {'cpu':>7} {'memory':>8}  verdict / outcome")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, build, kind in CASES:
            if args.only not in name:
                continue
            doc = build()
            data = json.dumps(doc).encode("utf-8")
            if args.quick and len(data) > 8 * MB:
                continue
            _report(name, kind, data, run(name, kind, data, folder))
            if name in PAYLOAD_CASES and (not args.quick or len(data) < MB):
                text = payload_text(doc)
                label = f"  as a payload ({len(data) / MB:.1f} MB of JSON)"
                if text is not None and text.startswith(b"!"):
                    print(f"{label:48} {'':>35}  refused by encode: {text[1:].decode()}")
                elif text is not None:
                    _report(
                        label,
                        "payload",
                        text,
                        run(name, "payload", text, folder),
                        json_size=len(data),
                    )
        for name, make_bytes, kind in RAW_CASES:
            if args.only not in name:
                continue
            raw = make_bytes()
            if args.quick and len(raw) > 8 * MB:
                continue
            _report(name, kind, raw, run(name, kind, raw, folder))
            del raw
        for name, make in PAYLOADS:
            if args.only not in name:
                continue
            text = make().encode("ascii")
            _report(name, "payload", text, run(name, "payload", text, folder))
        for name, kind, build in hostile_work.TIMED:
            if args.only in name:
                _report_39(name, kind, build(), folder)
        for name, kind in hostile_work.CHECKED:
            if args.only in name:
                with tempfile.TemporaryDirectory() as own:
                    outcome = run(name, kind, b"", Path(own))["outcome"]
                print(f"{name[:48]:48} {'':>35}  {outcome}")
        for name, build, command in SOLVER_CASES:
            if args.only not in name:
                continue
            doc = build()
            data = json.dumps(doc).encode("utf-8")
            result = run(name, "pack", data, folder, command)
            _report(name, "pack", data, result, levels=len(doc["levels"]))
    return 0


def _report_39(name: str, kind: str, made: bytes | tuple[bytes, bytes], folder: Path) -> None:
    """One of issue 39's timed cases; the verdict is against its goal (15 s, 600 MB)."""
    data, stdin = made if isinstance(made, tuple) else (made, None)
    stdin_path = folder / "case.json.stdin"
    stdin_path.unlink(missing_ok=True)
    if stdin is not None:
        stdin_path.write_bytes(stdin)
    result = run(name, kind, data, folder)
    size = len(data) + len(stdin or b"")
    cpu_goal, mb_goal = hostile_work.GOAL_39
    fast = result["cpu"] < cpu_goal and result["mb"] < mb_goal
    verdict = ("ok" if fast else "OVER") if size < MB else "walked (over 1 MB)"
    shown = f"{size / 1024:,.0f} KB"
    print(
        f"{name[:48]:48} {shown:>9} {result['seconds']:7.2f}s {result['cpu']:6.2f}s "
        f"{result['mb']:6.0f}MB  {verdict}: {str(result['outcome'])[:90]}"
    )
    sys.stdout.flush()


def _report(
    name: str,
    kind: str,
    data: bytes,
    result: dict[str, Any],
    *,
    json_size: int | None = None,
    levels: int = 0,
) -> None:
    size = json_size if json_size is not None else len(data)
    shown = f"{len(data) / 1024:,.0f} KB" if len(data) < 10 * MB else f"{len(data) / MB:,.0f} MB"
    width = 150 if levels else 70  # the solver's one-line budget message, whole
    print(
        f"{name[:48]:48} {shown:>9} {result['seconds']:7.2f}s {result['cpu']:6.2f}s "
        f"{result['mb']:6.0f}MB  "
        f"{verdict(size, result, levels)}: {str(result['outcome'])[:width]}"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
