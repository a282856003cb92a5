"""Regenerate the automata and FRAIL screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_mechanics.py``.

* ``automata-ghost.png``: the tutorial's clockwork level with TICK pushed into
  ``MOUSE IS TICK`` and a five-step pattern: the automata panel's pattern editor
  and the ghost preview (the mouse walks left and up, waits, and the FLAG word it
  would push is held by the wall);
* ``frail-leaves.png``: the crumbling bridge with a two-link chain
  (DRIFT → SHOAL → WATER), the chains view and the crack badges.

Nothing is saved: the edits are made in memory and the window is closed clean.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.values import NounSpec, Pos

OUT = Path(__file__).resolve().parent


def settle(app: QApplication, window: MainWindow, seconds: float = 0.6) -> None:
    """Let the move-0 facts arrive from their worker thread and the window repaint."""
    end = time.monotonic() + seconds
    while time.monotonic() < end or window.move_zero.pending:
        app.processEvents()
        time.sleep(0.01)


def widen_right_docks(window: MainWindow, width: int) -> None:
    """The Stack / Automata / FRAIL tabs wide and tall, History short below them.

    The Problems dock is closed: these pictures are about the two panels.
    """
    if "validation" in window.docks:
        window.docks["validation"].hide()
    window.resizeDocks([window.docks["stackInspector"]], [width], Qt.Orientation.Horizontal)
    window.resizeDocks(
        [window.docks["stackInspector"], window.docks["history"]],
        [700, 120],
        Qt.Orientation.Vertical,
    )


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.welcomed = True  # an author who has started the editor before
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1440, 900)
        window.show()
        settle(app, window, 0.3)
        widen_right_docks(window, 470)

        # The clockwork level, with TICK pushed into MOUSE IS TICK so the mouse carries it.
        session = window.session
        session.set_level(window.pack.levels[6])
        assert window.level is not None
        window.level.move_region([Pos(4, 6)], -2, 0)
        left = {"action": "move", "dx": -1, "dy": 0}
        up = {"action": "move", "dx": 0, "dy": -1}
        clock = {
            "id": "clock",
            "property": "TICK",
            "phase": 0,
            "pattern": [
                {**left, "cue": "step", "sound": "tick"},
                left,
                up,
                {"action": "wait", "cue": "rest"},
                up,
            ],
        }
        window.level.set_authored("automata", [clock], text="Automaton clock: Pattern")
        window.automata_panel.beats.setValue(6)
        window.docks["automata"].raise_()
        window.actions_by_id["actionGhostPreview"].setChecked(True)
        window.automata_panel.form.strip.set_current(4)
        window.canvas.fit()
        settle(app, window)
        window.grab().save(str(OUT / "automata-ghost.png"))
        window.actions_by_id["actionGhostPreview"].setChecked(False)

        # The crumbling bridge, with a two-link chain through a new noun.
        session.set_level(window.pack.levels[7])
        window.pack.add_noun("SHOAL", NounSpec("#b9a36b"))
        panel = window.frail_panel
        mechanics = window.level.authored("mechanics") if window.level else None
        assert isinstance(mechanics, list)
        mechanics[0]["leaves"] = {"DRIFT": "SHOAL", "SHOAL": "WATER"}
        assert window.level is not None
        window.level.set_authored("mechanics", mechanics, text="Leaves: a two-link chain")
        window.docks["frail"].raise_()
        panel.table.setCurrentItem(panel.table.topLevelItem(0))
        window.canvas.fit()
        settle(app, window)
        window.grab().save(str(OUT / "frail-leaves.png"))

        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
