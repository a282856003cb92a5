"""Opening and saving a 10,000-level pack in the editor: time and the UI thread's longest block.

Run: ``QT_QPA_PLATFORM=offscreen python bench/bench_open_save.py [--levels N]``.
Issue 20, finding 8: "a 10,000-level pack takes 36 s to open, and every Ctrl+S
validates again for 15 s with the window frozen". The pack is ``bench_validate``'s
generator at 10,000 levels (16x16, 60 entities each: 36 MB of JSON). In the real
window (offscreen) it measures:

- **open**: File ▸ Open to the pack shown (the levels listed, the canvas painted),
  and on to the Problems panel's first full check;
- **save, edited**: one cell painted, then Ctrl+S, to the file written;
- **save, unchanged**: Ctrl+S again with nothing changed since;
- the resident memory before and after opening, and its peak while opening (Linux);
- for each, the **longest UI-thread block** (goal 16 ms): the largest gap between
  the ticks of a 1 ms timer on the UI thread, minus the tick. It counts every pause
  of the event loop — work done on the UI thread, the background thread holding the
  interpreter, Python's garbage collector — and a modal dialog would not count, so
  none is shown (the scripted answers of the tests' dialogs are used).

It also counts the engine's checks in each phase (``engine.report_level`` calls:
levels checked; ``engine.load_pack`` calls: whole-pack checks), so a save that
checks the pack again shows. By default the entities are in the order the editor
writes them (a pack it saved); ``--file-order`` keeps the generator's order, as
another tool might write it: the Problems panel then reads each level once more
after the pack is shown.

Numbers on a shared 2-core machine vary with the other work; the load average is
printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_hostile import _status_mb  # noqa: E402
from bench_problems import Heartbeat  # noqa: E402
from bench_validate import NOUNS, generated_level  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import engine  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402
from editor.settings import EditorSettings  # noqa: E402
from editor.values import OBJECT, Pos, Stamp  # noqa: E402
from tests.editor.scripted_dialogs import ScriptedDialogs  # noqa: E402

CALLS = {"report_level": 0, "load_pack": 0}


def count_checks() -> None:
    """Count the engine's level checks and whole-pack checks, from any thread."""
    for name in CALLS:
        original = getattr(engine, name)

        def counted(
            *args: object, _name: str = name, _f: object = original, **kw: object
        ) -> object:
            CALLS[_name] += 1
            return _f(*args, **kw)  # type: ignore[operator]

        setattr(engine, name, counted)


def checks() -> str:
    """The checks counted since the last call."""
    text = f"levels checked {CALLS['report_level']:,}, whole-pack checks {CALLS['load_pack']}"
    for name in CALLS:
        CALLS[name] = 0
    return text


def pack_of(levels: int, *, as_saved: bool = True) -> dict[str, object]:
    """The benchmark pack; ``as_saved``: entities in the order the editor writes them."""
    rng = random.Random(2024)
    made = [generated_level(i, rng) for i in range(levels)]
    if as_saved:  # row by row, each stack bottom first (a stable sort keeps stacks)
        for level in made:
            level["entities"].sort(key=lambda e: (e["y"], e["x"]))
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "bench",
        "title": "Benchmark",
        "nouns": {noun: {"color": color} for noun, color in NOUNS.items()},
        "levels": made,
    }


def measure(
    app: QApplication, action: Callable[[], object], done: Callable[[], bool]
) -> tuple[float, float]:
    """Run ``action`` and spin the event loop until ``done``: (seconds, longest block in ms).

    Also records in ``BUSIEST`` the most CPU time the UI thread spent between two
    ticks: what the editor itself did in one go, as opposed to waiting for a core.
    """
    beat = Heartbeat()
    beat.start()
    started = time.perf_counter()
    action()
    while True:
        app.processEvents()  # also ticks once after an action that blocked the whole time
        if done():
            break
        time.sleep(0.0005)
        if time.perf_counter() - started > 600:
            raise TimeoutError("did not finish in 10 minutes")
    longest = beat.stop()
    BUSIEST.append(beat.busiest)
    return time.perf_counter() - started, longest


BUSIEST: list[float] = []


def own(block: float) -> str:
    """The block next to the UI thread's own work in its busiest stretch."""
    return f"{block:8.1f} ms (UI thread's own work at most {BUSIEST[-1]:5.1f} ms)"


def reset_peak() -> None:
    """Start the peak resident size afresh (Linux: ``/proc/self/clear_refs``), so that
    what is reported is the open's, not the benchmark's own making of the pack."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        pass


def memory() -> tuple[float, float] | None:
    """The resident size now and its peak since :func:`reset_peak` (MB), where known."""
    now, peak = _status_mb("VmRSS"), _status_mb("VmHWM")
    return None if now is None or peak is None else (now, peak)


def busy(window: MainWindow) -> bool:
    """Whether a file task (open, save) is still running; the editor before issue 20 had none."""
    check = getattr(window.files, "is_busy", None)
    return bool(check()) if check is not None else False


def checked(validator: object) -> bool:
    """Whether the Problems panel's check of the pack as it is now is done."""
    current = getattr(validator, "is_current", None)
    if current is not None:
        return bool(current())
    return not validator.is_busy() and validator.result is not None  # type: ignore[attr-defined]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", type=int, default=10_000)
    parser.add_argument(
        "--file-order",
        action="store_true",
        help="entities in the generator's order, not the editor's (a pack another tool wrote)",
    )
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    count_checks()
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (other work slows every number)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        pack = pack_of(args.levels, as_saved=not args.file_order)
        path.write_text(json.dumps(pack), encoding="utf-8")
        size = path.stat().st_size / 2**20
        order = "another tool's entity order" if args.file_order else "as the editor saves it"
        print(
            f"pack: {args.levels:,} levels of 16x16, 60 entities each ({size:.1f} MB of JSON, "
            f"{order})"
        )
        ini = str(Path(folder) / "s.ini")
        dialogs = ScriptedDialogs()
        window = MainWindow(
            settings=EditorSettings(QSettings(ini, QSettings.Format.IniFormat)), dialogs=dialogs
        )
        window.resize(1360, 860)
        window.show()
        for _ in range(20):
            app.processEvents()
        validator = window.validation_panel.validator

        def opened() -> bool:
            return window.pack.path == path and not busy(window)

        checks()  # the new window's own first check
        del pack
        before = memory()
        reset_peak()
        seconds, block = measure(app, lambda: window.files.open_path(path), opened)
        print(f"\nopen: pack shown after {seconds:6.2f} s   longest UI-thread block {own(block)}")
        after = memory()
        if before is not None and after is not None:
            print(
                f"      resident memory {before[0]:,.0f} MB before opening, {after[0]:,.0f} MB "
                f"after (peak while opening {after[1]:,.0f} MB)"
            )
        seconds2, block2 = measure(app, lambda: None, lambda: checked(validator))
        print(
            f"      first full check done {seconds + seconds2:6.2f} s after File ▸ Open   "
            f"longest UI-thread block meanwhile {own(block2)}"
        )
        print(f"      {checks()}")

        window.level.add_on_top([Pos(1, 1)], Stamp(OBJECT, "ROCK"))
        written = path.stat().st_mtime_ns

        def saved() -> bool:
            return (
                path.stat().st_mtime_ns != written
                and not busy(window)
                and not window.pack.is_dirty()
            )

        seconds, block = measure(app, lambda: window.actions_by_id["actionSave"].trigger(), saved)
        print(
            f"save, one cell edited: written after {seconds:6.2f} s   longest UI-thread block {own(block)}"
        )
        print(f"      {checks()}")
        for _ in range(50):
            app.processEvents()
            time.sleep(0.002)
        checks()  # the panel's check after the save (the file now holds the pack)
        written = path.stat().st_mtime_ns
        seconds, block = measure(app, lambda: window.actions_by_id["actionSave"].trigger(), saved)
        print(
            f"save, unchanged:       written after {seconds:6.2f} s   longest UI-thread block {own(block)}"
        )
        print(f"      {checks()}")
        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
