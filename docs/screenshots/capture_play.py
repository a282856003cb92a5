"""Regenerate the test-play screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_play.py``.

Three pictures of the tutorial's clockwork level: playing with beat feedback (the
mouse has just stepped up on its beat), the won banner, and the event log with a
past turn selected.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings

OUT = Path(__file__).resolve().parent
DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.reduced_motion = True  # the pictures show settled turns
        settings.welcomed = True  # the welcome panel is the first start's, not play's
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        window.session.set_level(window.pack.levels[6])  # clockwork: an automaton
        settle(app)
        view = window.play_view
        window.actions_by_id["actionPlay"].trigger()
        for letter in "DDRRRRDLL":  # the ninth move makes MOUSE IS TICK: it steps up
            view.press(DIRECTIONS[letter])
        settle(app)
        window.grab().save(str(OUT / "play-beat-feedback.png"))

        window.actions_by_id["actionPlay"].trigger()  # F5 restarts
        for letter in "RDDRRRDLLRRRRR":  # a winning path other than the stored one
            view.press(DIRECTIONS[letter])
        settle(app)
        window.grab().save(str(OUT / "play-won.png"))

        view.log.select_turn(9)
        item = view.log.tree.topLevelItem(9)
        assert item is not None
        item.setExpanded(True)
        view.log.tree.scrollToItem(item)
        settle(app)
        window.grab().save(str(OUT / "play-event-log.png"))
        view.stop()
        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
