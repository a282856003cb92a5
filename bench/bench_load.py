"""Loading benchmark: ``load_level`` on a 64x64 level and opening a 1,000-level pack (issue 21 item 2).

Run: ``QT_QPA_PLATFORM=offscreen python bench/bench_load.py`` (about half a minute).

Prints medians of the wall clock and of this process's CPU time
(``time.process_time``):

* ``load_level``, 64x64 with 5,000 entities (300 words; bench_turn's board), the
  quick way that a plainly valid level takes (engine/packs/quick.py), next to the
  full way (``engine.packs.validate.full_level``: compiled schema, models,
  semantic checks) timed alternately in the same run. Goal: under 10 ms.
* ``open_pack``: what the editor does to open the 1,000-level pack of
  bench_validate.py from a file (read, validate every level, build the documents
  from the document as written), with the quick way and with it turned off (every
  level the full way), alternately.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bench.bench_turn import bench_level  # noqa: E402
from bench.bench_validate import generated_pack  # noqa: E402
from editor.io.pack_io import open_pack  # noqa: E402
from engine.packs import parts  # noqa: E402
from engine.packs.validate import full_level  # noqa: E402


def alternate(ways: dict[str, Callable[[], Any]], runs: int) -> dict[str, dict[str, float]]:
    """Median wall and CPU milliseconds of each way, the ways taking turns run by run."""
    samples: dict[str, dict[str, list[float]]] = {w: {"wall": [], "cpu": []} for w in ways}
    for call in ways.values():
        call()  # warm: schemas compiled, caches filled
    for _ in range(runs):
        for way, call in ways.items():
            w0, c0 = time.perf_counter(), time.process_time()
            call()
            c1, w1 = time.process_time(), time.perf_counter()
            samples[way]["wall"].append((w1 - w0) * 1000)
            samples[way]["cpu"].append((c1 - c0) * 1000)
    return {
        way: {clock: statistics.median(v) for clock, v in clocks.items()}
        for way, clocks in samples.items()
    }


def show(title: str, figures: dict[str, dict[str, float]], unit: str = "ms") -> None:
    print(f"-- {title}")
    scale = 1 if unit == "ms" else 1 / 1000
    for way, clocks in figures.items():
        print(
            f"   {way:<28} wall median {clocks['wall'] * scale:8.3f} {unit}"
            f"   cpu median {clocks['cpu'] * scale:8.3f} {unit}"
        )


def main() -> int:
    level = bench_level(64, 5_000, 300, push=False)
    assert engine.load_level(level) == full_level(level)
    figures = alternate(
        {
            "quick way (load_level)": lambda: engine.load_level(level),
            "full way (full_level)": lambda: full_level(level),
        },
        runs=21,
    )
    show("load_level, 64x64, 5,000 entities (goal: median under 10 ms)", figures)
    quick = figures["quick way (load_level)"]
    print(
        f"   goal {'met' if quick['cpu'] < 10 else 'NOT met'} by CPU time, "
        f"{'met' if quick['wall'] < 10 else 'NOT met'} by the wall clock "
        "(on a shared machine it also counts waiting for a core)"
    )

    doc = generated_pack()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        path.write_text(json.dumps(doc), encoding="utf-8")

        def full_open() -> object:
            saved = parts.quick_parts
            parts.quick_parts = lambda *_args, **_kwargs: None  # type: ignore[assignment]
            try:
                return open_pack(path)
            finally:
                parts.quick_parts = saved

        assert open_pack(path).document is not None
        figures = alternate({"quick way": lambda: open_pack(path), "full way": full_open}, runs=5)
        show("open_pack, 1,000 levels of 16x16 (60,000 entities), from a file", figures, "s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
