"""Canvas benchmark: full repaint of a 64x64 level holding 5,000 entities, and one
50-cell brush stroke.

Run offscreen: ``QT_QPA_PLATFORM=offscreen python bench/bench_canvas.py``.
Prints the median and worst of several runs in milliseconds. "cold" repaints
render every stack picture again (what a zoom change costs); "warm" repaints
reuse them (what scrolling, an overlay or a window expose costs).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

import engine
from editor.documents.level import LevelDocument
from editor.documents.pack import STARTER_NOUNS, PackDocument
from editor.documents.session import Session
from editor.tasks.collector import adopt_still
from editor.tools import BrushTool
from editor.values import OBJECT, WORD, NounSpec, Piece, Pos
from editor.views.canvas import GridCanvas
from editor.views.look import Look
from editor.views.theme import LIGHT
from editor.views.tiles import TileRenderer

SIZE, ENTITIES, RUNS = 64, 5_000, 15
WORDS = ["BABA", "ROCK", "FLAG", "WALL", "IS", "AND", "YOU", "WIN", "PUSH", "STOP"]


def big_level(seed: int = 7) -> LevelDocument:
    rng = random.Random(seed)
    stacks: dict[Pos, list[Piece]] = {}
    nouns = list(STARTER_NOUNS)
    for entity_id in range(1, ENTITIES + 1):
        pos = Pos(rng.randrange(SIZE), rng.randrange(SIZE))
        if rng.random() < 0.7:
            piece = Piece(entity_id, OBJECT, rng.choice(nouns))
        else:
            piece = Piece(entity_id, WORD, rng.choice(WORDS))
        stacks.setdefault(pos, []).append(piece)
    data = {
        "id": "bench",
        "width": SIZE,
        "height": SIZE,
        "entities": [
            {
                "id": pc.id,
                "kind": pc.kind,
                ("noun" if pc.kind == OBJECT else "text"): pc.token,
                "x": p.x,
                "y": p.y,
            }
            for p, s in stacks.items()
            for pc in s
        ],
    }
    return LevelDocument.from_data(data)


def timed(action: Callable[[], None], runs: int = RUNS) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def report(label: str, samples: list[float]) -> None:
    print(f"{label:<44} median {statistics.median(samples):7.2f} ms   worst {max(samples):7.2f} ms")


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    session = Session()
    look = Look(LIGHT)
    look.set_nouns({n: NounSpec(c) for n, c in STARTER_NOUNS.items()})
    renderer = TileRenderer(look)
    canvas = GridCanvas(session, renderer)
    level = big_level()
    canvas.resize(64 * 16 + 48, 64 * 16 + 48)  # the whole board visible at 16 px a cell
    canvas.show()
    # As the window opens a pack: the collector never walks what is open (gc.freeze).
    # Without it the bench's whole heap (Qt's and the editor's modules included) is
    # walked by each full collection: ~35 ms on this machine, in whatever step it hits.
    adopt_still(lambda: session.set_level(level))
    app.processEvents()
    print(
        f"level {level.width}x{level.height}, {level.entity_count()} entities in {len(level.cells())} cells, "
        f"cell {canvas.cell_size} px, widget {canvas.width()}x{canvas.height()}"
    )

    def cold() -> None:
        canvas.refresh_pictures()
        renderer.clear()
        canvas.repaint()
        refine()

    refined: list[float] = []
    longest_batch: list[float] = []

    def refine() -> None:
        """Let the progressive pictures finish, timing each batch and the repaint it asks for."""
        pictures = canvas._pictures
        start = time.perf_counter()
        while pictures.pending:
            batch = time.perf_counter()
            pictures._refine()  # what the scheduler runs: one batch ...
            pictures._refining.stop()  # (the next batch is this loop's next turn, not part of this one)
            app.processEvents()  # ... then the repaint of just the cells it drew
            longest_batch.append((time.perf_counter() - batch) * 1000)
        app.processEvents()
        refined.append((time.perf_counter() - start) * 1000)

    first_paints: list[float] = []
    for _ in range(5):
        canvas.refresh_pictures()
        renderer.clear()
        start = time.perf_counter()
        canvas.repaint()
        first_paints.append((time.perf_counter() - start) * 1000)
        refine()
    report("cold repaint, first paint (goal 16 ms)", first_paints)
    switched: list[float] = []
    for _ in range(5):
        session.set_level(None)
        renderer.clear()
        session.set_level(level)  # nothing known: not even what each cell's stack looks like
        start = time.perf_counter()
        canvas.repaint()
        switched.append((time.perf_counter() - start) * 1000)
        refine()
    report("level switched to, first paint (goal 16 ms)", switched)
    report("cold: every exact picture drawn after it", refined)
    zooms: list[float] = []
    for step in (+1, -1) * 3:
        start = time.perf_counter()
        canvas._step_zoom(step, QPoint(0, 0))
        canvas.repaint()
        zooms.append((time.perf_counter() - start) * 1000)
        refine()
    report("repaint after a zoom change, first paint (goal 16 ms)", zooms)
    actual: list[float] = []
    for _ in range(5):
        canvas.fit()
        canvas.finish_pictures()
        canvas.repaint()
        renderer.clear()  # no picture at 32 px yet: the 16 px ones stand in, enlarged
        start = time.perf_counter()
        canvas.zoom_actual()
        canvas.repaint()
        actual.append((time.perf_counter() - start) * 1000)
        refine()
    report("fit (16 px) to 100 %, first paint (goal 16 ms)", actual)
    report("longest event-loop batch while pictures refine", longest_batch)
    canvas.fit()
    canvas.repaint()  # asks for the pictures missing at this size ...
    canvas.finish_pictures()  # ... and has them all drawn: the repaints below are warm
    report("full repaint, warm", timed(canvas.repaint))

    brush = BrushTool(session)
    canvas.set_tool(brush)
    session.set_stamp(next(iter(level.cells().values()))[0].stamp)
    row = iter(range(SIZE))

    def stroke() -> None:
        y = next(row)
        brush.press(Pos(0, y), Qt.KeyboardModifier.NoModifier, Qt.MouseButton.LeftButton)
        for x in range(1, 50):
            brush.drag(Pos(x, y), Qt.KeyboardModifier.NoModifier)
        brush.release(Pos(49, y), Qt.KeyboardModifier.NoModifier)
        start = time.perf_counter()
        app.processEvents()  # includes the repaint of the 50 changed cells
        repaints.append((time.perf_counter() - start) * 1000)

    repaints: list[float] = []
    before = level.undo_stack.count()
    samples = timed(stroke, 10)
    assert level.undo_stack.count() == before + 10, "each stroke must be one undo step"
    report("brush stroke of 50 cells (edit + repaint)", samples)
    report("  of which the repaint of its 50 cells", repaints)
    canvas.set_cell_size(32, QPoint(0, 0))
    canvas.repaint()
    canvas.finish_pictures()
    report("full repaint at 32 px (visible part), warm", timed(canvas.repaint))
    report("one full garbage collection (open pack frozen)", timed(gc.collect, 5))

    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "bench",
        "title": "Bench",
        "nouns": {n: {"color": c} for n, c in STARTER_NOUNS.items()},
        "levels": [big_level().to_data()],
    }
    report(
        "open: validate the pack + build the document",
        timed(lambda: PackDocument.from_pack(engine.load_pack(pack)), 3),
    )
    canvas.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
