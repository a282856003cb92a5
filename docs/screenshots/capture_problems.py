"""Regenerate the Problems panel screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_problems.py``.

It breaks a copy of the tutorial pack the ways hand-edited packs break, opens it
"for repair", and takes two pictures: the panel listing errors, warnings and what
the editor changed on open; and a jump to a problem's entity on the canvas.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QWidget

import engine
from editor.dialogs.questions import QtDialogs
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings

OUT = Path(__file__).resolve().parent


class OpenAnyway(QtDialogs):
    """The real dialogs, except that "Open Anyway to Fix" is chosen without a modal."""

    def show_problems(
        self,
        parent: QWidget,
        source: str,
        problems: list[engine.Problem],
        *,
        can_repair: bool,
        repair_notes: list[str],
        why_not: str = "",
    ) -> bool:
        return can_repair


def broken_tutorial() -> dict[str, object]:
    doc = json.loads(TUTORIAL_PACK.read_text(encoding="utf-8"))
    doc["id"] = "tutorial-draft"
    doc["title"] = "Tutorial (draft)"
    levels = doc["levels"]
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}
    levels[0]["mechanics"] = [frail]  # opted into FRAIL, no FRAIL word: a warning
    levels[1]["entities"][4]["id"] = levels[1]["entities"][3]["id"]  # an id used twice
    levels[2]["entities"].append({"id": 90, "kind": "object", "noun": "GHOST", "x": 5, "y": 3})
    levels[2]["entities"].append({"id": 91, "kind": "object", "noun": "ROCK", "x": 13, "y": 2})
    levels[4]["solution"] = "RRRRDLLR"  # an intended solution that no longer wins
    levels[6]["automata"][0]["phase"] = 5  # past the end of the pattern
    doc["nouns"]["KEY"] = {"color": "#e0b030"}  # no level uses it
    return doc


def settle(app: QApplication, window: MainWindow, seconds: float = 0.3) -> None:
    validator = window.validation_panel.validator
    deadline = time.perf_counter() + 10
    while (validator.is_busy() or validator.result is None) and time.perf_counter() < deadline:
        app.processEvents()
        time.sleep(0.005)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.005)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tutorial-draft.json"
        path.write_text(json.dumps(broken_tutorial(), indent=2), encoding="utf-8")
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.welcomed = True  # no first-start welcome panel in the pictures
        window = MainWindow(path, settings=settings, dialogs=OpenAnyway())
        window.resize(1360, 900)
        window.show()
        panel = window.validation_panel
        window.resizeDocks([window.docks["validation"]], [270], Qt.Orientation.Vertical)
        window.session.set_level(window.pack.levels[4])
        window.canvas.fit()
        settle(app, window)
        row = next(i for i, r in enumerate(panel.rows()) if r.record["code"] == "solution-fails")
        panel.view.setCurrentIndex(panel.model.index(row, 0))
        settle(app, window)
        window.grab().save(str(OUT / "problems-panel.png"))

        row = next(i for i, r in enumerate(panel.rows()) if r.record["code"] == "unknown-noun")
        panel.view.setCurrentIndex(panel.model.index(row, 0))
        panel.activate_row(row)
        window.canvas.fit()
        settle(app, window)
        window.grab().save(str(OUT / "problems-jump.png"))
        window.pack.undo_stack.setClean()  # close without asking to save
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
