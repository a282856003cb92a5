"""Automata and FRAIL panels benchmark on a 64x64 level with 5,000 entities.

Run offscreen: ``QT_QPA_PLATFORM=offscreen python bench/bench_mechanics_panels.py``.

The level has 300 words (``MOUSE IS TICK``, ``DRIFT IS FRAIL`` among them), two
automata and a FRAIL map, in the real main window. It prints, in milliseconds:

* **edit → settled move-0 facts**: a one-cell brush edit until everything the
  panels read is current: the shared analysis (its reading, then its validation,
  which waits for a 300 ms pause in editing) and the ghost paths (60 ms debounce,
  a worker thread); the crack badges and the move-0 notes follow the reading,
  before the validation;
* **UI-thread CPU per edit**: what the UI thread itself does in the whole window
  (snapshots, the rules, automata and FRAIL panels, the repaint);
* **longest UI-thread gap** while that happens, sampled by a 1 ms timer: the UI
  thread's own work plus its waits for the GIL, which the workers hold while they
  run the engine (a game's setup validates the level with pydantic in one call,
  tens of ms at 5,000 entities), so this number grows with the machine's load;
* **checked field edit**: one pattern step inserted through the panel (engine
  check of the candidate, the undo command, the panel refilled), and a property
  word edit, which the engine checks with the whole board.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

import engine
from editor.documents.pack import STARTER_NOUNS
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.values import OBJECT, Pos, Stamp

SIZE, ENTITIES, WORDS, RUNS = 64, 5_000, 300, 10
NOUNS = [*STARTER_NOUNS, "MOUSE", "DRIFT"]
RULES = [("MOUSE", "IS", "TICK"), ("DRIFT", "IS", "FRAIL"), ("WALL", "IS", "STOP")]


def big_pack() -> dict[str, object]:
    rng = random.Random(11)
    entities: list[dict[str, object]] = []
    taken: set[tuple[int, int]] = set()

    def add(kind: str, token: str, x: int, y: int) -> None:
        key = "noun" if kind == "object" else "text"
        entities.append({"id": len(entities) + 1, "kind": kind, key: token, "x": x, "y": y})
        taken.add((x, y))

    for row, words in enumerate(RULES):  # rules in the top-left corner, clear of the rest
        for col, word in enumerate(words):
            add("word", word, col, row)
    fillers = [*NOUNS, "AND", "PUSH", "WIN"]
    while len(entities) < WORDS:
        x, y = rng.randrange(4, SIZE), rng.randrange(4, SIZE)
        if (x, y) not in taken:  # words never stack: the parse stays within its budget
            add("word", rng.choice(fillers), x, y)
    while len(entities) < ENTITIES:
        add("object", rng.choice(NOUNS), rng.randrange(SIZE), rng.randrange(4, SIZE))
    move = {"action": "move", "dx": 1, "dy": 0}
    level = {
        "id": "bench",
        "width": SIZE,
        "height": SIZE,
        "entities": entities,
        "automata": [
            {"id": "clock", "property": "TICK", "phase": 0, "pattern": [move, {"action": "wait"}]},
            {"id": "spare", "property": "TOCK", "phase": 0, "pattern": [move]},
        ],
        "mechanics": [
            {
                "id": "frail",
                "type": "frail",
                "version": 1,
                "state": "derived",
                "leaves": {"DRIFT": "WATER"},
            }
        ],
    }
    nouns = {n: {"color": "#888888"} for n in NOUNS}
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "b",
        "title": "B",
        "nouns": nouns,
        "levels": [level],
    }


class BlockMeter:
    """The longest gap between ticks of a 1 ms timer: how long the UI thread was busy."""

    def __init__(self) -> None:
        self._timer = QTimer()
        self._timer.setInterval(1)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self.longest = 0.0

    def start(self) -> None:
        self.longest = 0.0
        self._clock.start()
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest

    def _tick(self) -> None:
        self.longest = max(self.longest, self._clock.nsecsElapsed() / 1e6)
        self._clock.restart()


def report(label: str, samples: list[float]) -> None:
    print(f"{label:<52} median {statistics.median(samples):7.1f} ms   worst {max(samples):7.1f} ms")


def timed(action: Callable[[], None], runs: int = RUNS) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        engine.save_pack(big_pack(), path)
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(path, settings=settings)
        window.resize(1400, 900)
        window.show()
        window.actions_by_id["actionGhostPreview"].setChecked(True)
        follower, level = window.move_zero, window.level
        assert level is not None

        def wait_facts() -> None:
            while window.move_zero.pending or window.move_zero.facts is None:
                app.processEvents()
                time.sleep(0.0005)

        wait_facts()
        facts = follower.facts
        assert facts is not None
        assert facts.problem is None, facts.problem
        print(
            f"level {SIZE}x{SIZE}, {level.entity_count()} entities, "
            f"{len(facts.paths)} carrier paths, {len(facts.frail)} FRAIL objects at move 0; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        meter = BlockMeter()
        latencies, blocks, busy = [], [], []
        for run in range(RUNS):
            meter.start()
            start, cpu = time.perf_counter(), time.thread_time()
            level.add_on_top([Pos(60, run % SIZE)], Stamp(OBJECT, "ROCK"))
            wait_facts()
            latencies.append((time.perf_counter() - start) * 1000)
            busy.append((time.thread_time() - cpu) * 1000)
            blocks.append(meter.stop())
        report("one-cell edit -> settled move-0 facts (incl. pauses)", latencies)
        report("UI-thread CPU per edit (snapshot, panels, repaint)", busy)
        report("longest UI-thread gap meanwhile (1 ms timer)", blocks)
        canvas = window.canvas
        report("full canvas repaint, ghost and cracks shown", timed(canvas.repaint))

        form = window.automata_panel.form
        window.automata_panel.select(0)
        report(
            "insert a pattern step (check + command + refill)",
            timed(lambda: form.insert_step(0, {"action": "wait"})),
        )
        words = iter(f"GEAR{i}" for i in range(RUNS))

        def property_edit() -> None:
            form.property_word.setCurrentText(next(words))
            form._on_property_edited()  # what Enter in the field does

        report("property word edit (checked with the whole board)", timed(property_edit))
        window.pack.undo_stack.setClean()
        window.close()

        # The same on an ordinary level: the tutorial's clockwork, TICK made active.
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.show()
        window.actions_by_id["actionGhostPreview"].setChecked(True)
        window.session.set_level(window.pack.levels[6])
        level = window.level
        assert level is not None
        level.move_region([Pos(4, 6)], -2, 0)
        wait_facts()
        latencies, blocks = [], []
        for run in range(RUNS):
            meter.start()
            start = time.perf_counter()
            level.add_on_top([Pos(run % 5, 7)], Stamp(OBJECT, "ROCK"))
            wait_facts()
            latencies.append((time.perf_counter() - start) * 1000)
            blocks.append(meter.stop())
        print(f"tutorial clockwork level: {level.entity_count()} entities")
        report("one-cell edit -> settled move-0 facts (incl. pauses)", latencies)
        report("longest UI-thread gap meanwhile (1 ms timer)", blocks)
        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
