"""An author's everyday actions in a 10,000-level pack: the UI thread's longest block.

Run: ``QT_QPA_PLATFORM=offscreen python bench/bench_large_pack_actions.py [--levels N]``.
The pack is ``bench_open_save``'s (16x16 levels, 60 entities each). After it is
open and the Problems panel has its first list, each action runs through the
window as an author would trigger it (menu actions, the level's edit API the
brush calls), then the event loop runs until the Problems panel is current and
another 0.1 s. For each action it prints:

- **call**: the action's own time (what the author waits for before anything moves);
- **longest block** (goal 16 ms): the longest gap between the ticks of a 1 ms UI
  timer from the action to the end, and the most CPU the UI thread spent between
  two ticks ("own"), as ``bench_open_save`` does;
- **collections**: Python's full collections on the UI thread over 5 ms in that
  time. The verifier keys levels in the background meanwhile, as it does after
  any open.

Numbers on a shared 2-core machine vary with the other work; the load average is
printed first.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_open_save import busy, checked, measure, pack_of  # noqa: E402
from bench_problems import Heartbeat, spin  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.settings import EditorSettings  # noqa: E402
from editor.values import OBJECT, Pos, Stamp  # noqa: E402
from tests.editor.scripted_dialogs import ScriptedDialogs  # noqa: E402

#: Full collections on the UI thread longer than this are listed.
LONG_COLLECTION_MS = 5.0


class Collections:
    """Python's garbage collections on the UI thread longer than ``LONG_COLLECTION_MS``."""

    def __init__(self) -> None:
        self.long: list[float] = []
        self._began = 0.0
        self._ui = threading.get_ident()
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, _info: dict[str, int]) -> None:
        if threading.get_ident() != self._ui:
            return
        if phase == "start":
            self._began = time.perf_counter()
            return
        took = (time.perf_counter() - self._began) * 1000
        if took > LONG_COLLECTION_MS:
            self.long.append(took)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", type=int, default=10_000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (other work slows every number)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.json"
        path.write_text(json.dumps(pack_of(args.levels)), encoding="utf-8")
        window = MainWindow(
            settings=EditorSettings(
                QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
            ),
            dialogs=ScriptedDialogs(),
        )
        window.resize(1360, 860)
        window.show()
        spin(app, 0.1)
        validator = window.validation_panel.validator
        seconds, _block = measure(
            app,
            lambda: window.files.open_path(path),
            lambda: window.pack.path == path and not busy(window),
        )
        measure(app, lambda: None, lambda: checked(validator))
        print(f"pack: {args.levels:,} levels, opened in {seconds:.1f} s\n")
        spin(app, 0.3)
        collections = Collections()
        actions = window.actions_by_id
        pack = window.pack

        def act(name: str, action: Callable[[], object]) -> None:
            collections.long.clear()
            beat = Heartbeat()
            beat.start()
            started = time.perf_counter()
            action()
            call = (time.perf_counter() - started) * 1000
            while not checked(validator) or validator.is_busy():
                app.processEvents()
                time.sleep(0.0005)
            spin(app, 0.1)
            longest = beat.stop()
            gcs = ", ".join(f"{ms:.0f}" for ms in collections.long) or "none"
            print(
                f"{name:24s} call {call:6.1f} ms   longest block {longest:6.1f} ms "
                f"(own {beat.busiest:5.1f})   collections over 5 ms: {gcs}"
            )

        act("next level", actions["actionNextLevel"].trigger)
        act("previous level", actions["actionPreviousLevel"].trigger)
        act("paint one cell", lambda: window.level.add_on_top([Pos(3, 3)], Stamp(OBJECT, "ROCK")))
        act("undo the paint", pack.undo_stack.undo)
        act("go to level 5,000", lambda: window.session.set_level(pack.levels[5_000]))
        act("add level", actions["actionAddLevel"].trigger)
        act("add another level", actions["actionAddLevel"].trigger)
        act("undo the add", pack.undo_stack.undo)
        act("duplicate level", actions["actionDuplicateLevel"].trigger)
        act("delete level", actions["actionDeleteLevel"].trigger)
        act("move level down", actions["actionMoveLevelDown"].trigger)
        bar = window.level_list.filter_bar  # issue 35: finding levels
        act("filter by status", lambda: bar.set_status("checking"))
        act("and search levels", lambda: bar.set_search("level 12"))
        act("clear the filter", lambda: bar.set_status(""))
        act("search again", lambda: bar.set_search("level 4"))
        act("clear the search", lambda: bar.set_search(""))
        pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":  # the solver's worker processes import this module again
    raise SystemExit(main())
