"""Regenerate the solver screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_solver.py``.

The level-list picture uses a copy of the tutorial with planted faults (a longer
intended solution, a blocked one, an unsolvable level, a large Keke level) and the
pack check's budget lowered to 30,000 states, so every status shows in seconds.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

import engine
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.values import OBJECT, Pos, Stamp

OUT = Path(__file__).resolve().parent
KEKE = engine.bundled_pack("keke-classics")


def settle(
    app: QApplication, seconds: float = 0.0, until: Callable[[], bool] | None = None
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (until is not None and until()):
        app.processEvents()
        time.sleep(0.005)
    for _ in range(5):
        app.processEvents()


def demo_pack(folder: Path) -> Path:
    """The tutorial with one fault of each kind, and a large Keke level."""
    data = json.loads(TUTORIAL_PACK.read_text(encoding="utf-8"))
    levels = data["levels"]
    levels[1]["solution"] = "DU" + levels[1]["solution"]  # wins, two moves longer: a shortcut
    levels[2]["solution"] = "RRRRRUU"  # the fifth move walks into the wall
    stuck = copy.deepcopy(levels[0])
    stuck.update(id="no-win", title="No way to win")
    stuck["entities"] = [e for e in stuck["entities"] if e.get("text") not in ("WIN",)]
    stuck.pop("solution", None)
    keke = json.loads(KEKE.read_text(encoding="utf-8"))
    big = next(lv for lv in keke["levels"] if lv["id"] == "biy-153")
    big = dict(big, title="A large Keke level")
    big.pop("solution", None)
    for noun, style in keke["nouns"].items():
        data["nouns"].setdefault(noun, style)
    levels.extend([stuck, big])
    path = folder / "demo.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    engine.load_pack(path)  # the demo must stay a valid pack
    return path


def window_on(path: Path, folder: Path) -> MainWindow:
    settings = EditorSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    settings.welcomed = True
    window = MainWindow(path, settings=settings)
    window.resize(1360, 860)
    window.show()
    docks = window.docks
    for other in ("validation", "stackInspector", "automata", "frail"):
        docks[other].hide()  # these pictures are about the solver: room for the curve
    docks["solver"].raise_()
    window.resizeDocks([docks["levelList"], docks["palette"]], [430, 330], Qt.Orientation.Vertical)
    window.resizeDocks([docks["solver"], docks["levelList"]], [330, 300], Qt.Orientation.Horizontal)
    window.resizeDocks(
        [docks["stackInspector"], docks["solver"]], [110, 700], Qt.Orientation.Vertical
    )
    return window


def close(window: MainWindow) -> None:
    window.play_view.stop()
    window.pack.undo_stack.setClean()
    window.close()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["RULEGRID_CACHE_DIR"] = str(folder / "cache")

        # 1. Playback of a solution on the tutorial's clockwork level.
        window = window_on(TUTORIAL_PACK, folder)
        window.session.set_level(window.pack.levels[6])
        panel = window.solver_panel
        window.actions_by_id["actionSolve"].trigger()
        settle(app, 30, lambda: panel.property("status") != "running")
        panel.play_solution()  # in the play view's playback
        playback = window.play_view.playback
        assert playback is not None
        playback.seek(9)
        settle(app, 3, lambda: not window.verifier.busy())
        settle(app, 0.3)  # the pack curve catches up
        window.grab().save(str(OUT / "solver-playback.png"))
        close(window)

        # 2. The level list with every status, and 3. the panel mid-solve.
        window = window_on(demo_pack(folder), folder)
        window.verifier.set_settings(engine.VerifySettings(max_states=30_000))
        settle(app, 60, lambda: not window.verifier.busy())
        level = window.pack.levels[4]
        window.session.set_level(level)
        level.add_on_top([Pos(3, 1)], Stamp(OBJECT, "ROCK"))  # this level's verdict goes stale
        window.actions_by_id["actionAddLevel"].trigger()  # a new level: still to check
        settle(app, 0.25)  # the pack curve catches up; the checks have not started yet
        window.grab().save(str(OUT / "solver-level-list.png"))

        big = next(lv for lv in window.pack.levels if lv.level_id == "biy-153")
        window.session.set_level(big)
        settle(app, 5, lambda: not window.verifier.busy())
        window.actions_by_id["actionSolve"].trigger()
        settle(app, 2.5)
        window.grab().save(str(OUT / "solver-mid-solve.png"))
        window.actions_by_id["actionCancelSolve"].trigger()
        close(window)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
