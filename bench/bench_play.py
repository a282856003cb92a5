"""Test-play benchmark: the time to show one turn after the engine stepped, on a 32x32
level holding 400 entities (goal: under 16 ms, one frame at 60 Hz).

Run offscreen: ``QT_QPA_PLATFORM=offscreen python bench/bench_play.py``.

A turn in the play view is: the engine's step and state record (reported on its
own), then the view's work (the next frame with its drawing order, the motion, the
beat feedback and the event-log entry) and a repaint of the whole board. With
animation on, each animation frame is one more repaint (measured mid-slide).
Prints the median, 95th percentile and worst of 400 turns in milliseconds, by the
wall clock and by the UI thread's CPU time (on a busy machine the wall clock also counts
waiting for the CPU).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

import engine
from editor.documents.pack import STARTER_NOUNS, PackDocument
from editor.documents.session import Session
from editor.panels.play.frames import motion_between
from editor.panels.play.view import PlayView
from editor.settings import EditorSettings
from editor.views.look import Look
from editor.views.theme import LIGHT
from editor.views.tiles import TileRenderer

SIZE, ENTITIES, TURNS = 32, 400, 400
#: Wall time is what the author waits; the UI thread's CPU time is the same work without
#: the waits for a busy machine's other processes (the median of both is printed).
CLOCKS = {"wall clock": time.perf_counter, "UI thread CPU time": time.thread_time}
FILLER_WORDS = ["ROCK", "FLAG", "WATER", "IS", "AND", "WIN", "SINK", "PUSH"]


def bench_level(seed: int = 13) -> dict[str, object]:
    """Rules in the top rows, baba in the middle of an empty row, 400 entities in all."""
    rng = random.Random(seed)
    entities: list[dict[str, object]] = []

    def add(kind: str, token: str, x: int, y: int) -> None:
        key = "noun" if kind == "object" else "text"
        entities.append({"id": len(entities) + 1, "kind": kind, key: token, "x": x, "y": y})

    for x, word in enumerate(["BABA", "IS", "YOU"]):
        add("word", word, x, 0)
    for x, word in enumerate(["ROCK", "IS", "PUSH"]):
        add("word", word, x, 1)
    add("object", "BABA", 10, 16)
    add("object", "MOUSE", 20, 16)
    for x, word in enumerate(["MOUSE", "IS", "TICK"]):
        add("word", word, x, 2)
    while len(entities) < ENTITIES:
        x, y = rng.randrange(SIZE), rng.randrange(4, SIZE)
        if y == 16:
            continue  # baba's and the mouse's row stays free to walk
        if rng.random() < 0.75:
            add("object", rng.choice(["ROCK", "WALL", "FLAG", "WATER"]), x, y)
        else:
            add("word", rng.choice(FILLER_WORDS), x, y)
    automaton = {
        "id": "clock",
        "property": "TICK",
        "pattern": [
            {"action": "move", "dx": 1, "dy": 0, "cue": "step"},
            {"action": "move", "dx": -1, "dy": 0},
        ],
    }
    return {
        "id": "bench",
        "width": SIZE,
        "height": SIZE,
        "entities": entities,
        "automata": [automaton],
    }


def report(label: str, samples: list[float]) -> None:
    p95 = statistics.quantiles(samples, n=20)[-1]
    print(
        f"{label:<52} median {statistics.median(samples):6.2f} ms   "
        f"p95 {p95:6.2f} ms   worst {max(samples):6.2f} ms"
    )


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    level = bench_level()
    pack = engine.load_pack(
        {
            "format": "rulegrid-pack",
            "version": 1,
            "id": "bench",
            "title": "Bench",
            "nouns": {
                **{n: {"color": c} for n, c in STARTER_NOUNS.items()},
                "MOUSE": {"color": "#b9b9d9"},
            },
            "levels": [level],
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.reduced_motion = True
        session = Session()
        session.set_pack(PackDocument.from_pack(pack))
        look = Look(LIGHT)
        look.follow(session)
        view = PlayView(session, TileRenderer(look), settings)
        view.resize(1280, 900)
        view.show()
        app.processEvents()
        assert view.start()
        app.processEvents()
        board = view.board
        print(
            f"level {SIZE}x{SIZE}, {len(level['entities'])} entities, "  # type: ignore[arg-type]
            f"board {board.width()}x{board.height()} px, cell {board.cell_size()} px"
        )
        moves = ["right", "left"] * (TURNS // 2)
        shadow = engine.Game(session.level.to_data())  # type: ignore[union-attr]
        samples: dict[str, dict[str, list[float]]] = {
            clock: {"engine": [], "view": [], "paint": []} for clock in CLOCKS
        }
        for direction in moves:
            marks = {clock: [read()] for clock, read in CLOCKS.items()}
            shadow.step(direction)
            shadow.state()
            for clock, read in CLOCKS.items():
                marks[clock].append(read())
            view.press(direction)  # the engine's step, then the view's bookkeeping
            for clock, read in CLOCKS.items():
                marks[clock].append(read())
            app.processEvents()  # layout and paint: the board, the beat text, the log
            for clock, read in CLOCKS.items():
                marks[clock].append(read())
            for clock, (t0, t1, t2, t3) in marks.items():
                engine_ms = (t1 - t0) * 1000
                samples[clock]["engine"].append(engine_ms)
                samples[clock]["view"].append(max(0.0, (t2 - t1) * 1000 - engine_ms))
                samples[clock]["paint"].append((t3 - t2) * 1000)
        assert view.property("moves") == TURNS, "every turn must be accepted"
        assert view.game.state() == shadow.state()  # type: ignore[union-attr]
        for clock, parts in samples.items():
            print(f"-- {clock}")
            render = [v + p for v, p in zip(parts["view"], parts["paint"], strict=True)]
            report("engine: step + state record", parts["engine"])
            report("view: frame, motion, beats, log (engine excluded)", parts["view"])
            report("paint: board, beat text and log", parts["paint"])
            report("render one turn after the engine step (goal < 16)", render)

        assert view.record is not None
        frames = view.record.frames
        motion = motion_between(frames[-2], frames[-1], view.log.events()[-1])
        mid = []
        for _ in range(50):
            board.show_frame(frames[-1], board.marks, before=frames[-2], motion=motion)
            board._on_progress(0.5)
            start = time.perf_counter()
            board.repaint()
            mid.append((time.perf_counter() - start) * 1000)
        board.finish()
        print("-- wall clock")
        report("one animation frame, mid-slide (repaint)", mid)
        view.stop()
        view.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
