"""The progress window of opening a large pack (issue 20, finding 8), offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_progress.py``.

A window-modal dialog is a window of its own, so the picture is the main window
with the dialog's own grab painted where it sits over it.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_validate import NOUNS, generated_level  # noqa: E402
from PySide6.QtCore import QSettings, QTimer  # noqa: E402
from PySide6.QtGui import QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog  # noqa: E402

from editor.main_window import MainWindow  # noqa: E402
from editor.resources import TUTORIAL_PACK  # noqa: E402
from editor.settings import EditorSettings  # noqa: E402

OUT = Path(__file__).resolve().parent
LEVELS = 3_000


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        rng = random.Random(2024)
        pack = {
            "format": "rulegrid-pack",
            "version": 1,
            "id": "big",
            "title": "A big pack",
            "nouns": {noun: {"color": color} for noun, color in NOUNS.items()},
            "levels": [generated_level(i, rng) for i in range(LEVELS)],
        }
        path = Path(tmp) / "big-pack.json"
        path.write_text(json.dumps(pack), encoding="utf-8")
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        for _ in range(5):
            app.processEvents()
        taken: list[bool] = []

        def take() -> None:
            dialog = window.findChild(QDialog, "fileProgress")
            if taken or dialog is None or not dialog.isVisible():
                return
            if dialog.bar.maximum() == 0 or dialog.bar.value() < LEVELS // 3:
                return  # wait until the count is well under way
            picture = window.grab()
            painter = QPainter(picture)
            at = dialog.geometry().topLeft() - window.geometry().topLeft()
            if not window.rect().contains(at):  # offscreen: centre it as a desktop would
                at = window.rect().center() - dialog.rect().center()
            painter.drawPixmap(at, dialog.grab())
            painter.end()
            picture.save(str(OUT / "open-progress.png"))
            taken.append(True)

        timer = QTimer()
        timer.setInterval(20)
        timer.timeout.connect(take)
        timer.start()
        window.files.open_path(path)
        timer.stop()
        window.close()
    sys.stderr.write("saved open-progress.png\n" if taken else "no progress window seen\n")
    return 0 if taken else 1


if __name__ == "__main__":
    raise SystemExit(main())
