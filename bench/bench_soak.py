"""A long soak of the real window: random author actions, invariants checked as it goes.

Run: ``QT_QPA_PLATFORM=offscreen python bench/bench_soak.py [--actions N] [--seeds 1 2 ...]``.

The CI test (``tests/editor/test_soak.py``) runs 2,000 actions; this runs longer
(20,000 by default, over four seeds) and reports, per seed: actions done, each
action's count, invariants checked (history round trips, saved file == document,
reopened pack == saved file, playing leaves the level alone), uncaught exceptions
raised in Qt slots (which pytest-qt would turn into failures), the actions per
second and the process's peak memory. It stops a seed at its first broken
invariant and prints the last actions, so a finding can be replayed with the seed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import TracebackType

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.settings import EditorSettings  # noqa: E402
from tests.editor.scripted_dialogs import ScriptedDialogs  # noqa: E402
from tests.editor.soak import Soak  # noqa: E402

slot_errors: list[str] = []


def record(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """Qt slots report their exceptions here instead of stopping the event loop."""
    slot_errors.append("".join(traceback.format_exception(kind, value, tb)))


def soak_one(app: QApplication, seed: int, actions: int) -> tuple[Soak, str | None, float]:
    folder = Path(tempfile.mkdtemp(prefix=f"rulegrid-soak-{seed}-"))
    pack = folder / "tutorial.json"
    shutil.copy(ROOT / "packs" / "tutorial.json", pack)
    settings = EditorSettings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
    settings.data_folder = folder / "data"
    dialogs = ScriptedDialogs()
    window = MainWindow(pack, settings=settings, dialogs=dialogs)
    window.resize(1200, 800)
    window.show()
    app.processEvents()
    soak = Soak(window, dialogs, folder, seed)
    failure = None
    start = time.perf_counter()
    try:
        step = 500
        for done in range(0, actions, step):
            soak.run(min(step, actions - done))
    except AssertionError as exc:
        failure = f"{exc} (after {sum(soak.counts.values())} actions)"
    elapsed = time.perf_counter() - start
    window.pack.undo_stack.clear()
    window.close()
    window.deleteLater()
    app.processEvents()
    shutil.rmtree(folder, ignore_errors=True)
    return soak, failure, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--actions", type=int, default=20_000, help="actions in all (default 20,000)"
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    sys.excepthook = record
    per_seed = max(1, args.actions // len(args.seeds))
    print(f"soak: {per_seed:,} random author actions for each of seeds {args.seeds}")
    total_actions = total_checks = 0
    findings = 0
    for seed in args.seeds:
        errors_before = len(slot_errors)
        soak, failure, elapsed = soak_one(app, seed, per_seed)
        done = sum(soak.counts.values())
        total_actions += done
        total_checks += soak.checks
        raised = len(slot_errors) - errors_before
        findings += raised + (failure is not None)
        mix = ", ".join(f"{name} {count}" for name, count in soak.counts.most_common())
        print(
            f"  seed {seed}: {done:,} actions in {elapsed:.1f} s ({done / elapsed:.0f}/s), "
            f"{soak.checks:,} invariants checked, {raised} exceptions in slots"
        )
        print(f"    {mix}")
        if failure:
            print(f"    BROKEN INVARIANT: {failure}")
        for text in slot_errors[errors_before : errors_before + 3]:
            print("    " + text.replace("\n", "\n    "))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"total: {total_actions:,} actions, {total_checks:,} invariants checked, "
        f"{findings} findings; peak memory {peak:.0f} MB"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
