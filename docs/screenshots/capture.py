"""Regenerate the README screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture.py``."""

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
from editor.values import OBJECT, WORD, Pos, Stamp

OUT = Path(__file__).resolve().parent


def settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        session = window.session
        session.set_level(window.pack.levels[6])  # clockwork: words, objects and an automaton
        window.canvas.fit()
        settle(app)
        window.grab().save(str(OUT / "editor-tutorial.png"))

        level = window.pack.levels[2]
        session.set_level(level)
        cell = Pos(4, 3)
        for stamp in (Stamp(OBJECT, "ROCK"), Stamp(WORD, "BABA"), Stamp(OBJECT, "FLAG")):
            level.add_on_top([cell], stamp)
        window.palette_panel.choose(Stamp(OBJECT, "FLAG"))
        session.inspect(cell)
        window.docks["stackInspector"].raise_()  # the Stack tab in front: the panel shown
        window.inspector.select_row(1)
        window.canvas.fit()
        settle(app)
        window.canvas._set_hover(cell)  # show the hover outline on the inspected cell
        settle(app)
        window.grab().save(str(OUT / "stack-inspector.png"))

        window.actions_by_id["actionDarkTheme"].setChecked(True)
        settle(app)
        window.grab().save(str(OUT / "dark-theme.png"))
        for stack in [window.pack.undo_stack, *(lv.undo_stack for lv in window.pack.levels)]:
            stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
