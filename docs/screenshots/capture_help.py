"""Screenshots of help and the look for everyone (issue 22), offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_help.py``."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QPushButton

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.values import Pos

OUT = Path(__file__).resolve().parent


def settle(app: QApplication, seconds: float = 1.0) -> None:
    """Let the background readings (rules, validation) arrive before a picture is taken."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        settings.data_folder = Path(tmp) / "data"
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        settle(app)
        window.grab().save(str(OUT / "welcome.png"))
        for page, name in (("gettingStarted", "getting-started"), ("shortcuts", "shortcuts")):
            dialog = window.show_help(page)
            settle(app)
            dialog.grab().save(str(OUT / f"{name}.png"))
            dialog.close()
        welcome = window.findChild(QPushButton, "welcomeDismiss")
        if welcome is not None:
            welcome.click()
        window.actions_by_id["actionHighContrast"].trigger()
        window.session.set_level(window.pack.levels[4])  # rock is flag: words and objects
        window.canvas.setFocus()
        window.canvas.set_cursor_cell(Pos(2, 3))
        window.canvas.fit()
        settle(app)
        window.grab().save(str(OUT / "high-contrast.png"))
        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
