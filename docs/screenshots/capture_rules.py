"""Regenerate the rules panel screenshots offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_rules.py``."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QItemSelectionModel, QSettings
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.values import OBJECT, WORD, Pos, Stamp

OUT = Path(__file__).resolve().parent


def wait(app: QApplication, window: MainWindow) -> None:
    """Let the analysis read (and validate) the level, then let Qt paint."""
    deadline = time.monotonic() + 10
    while not window.analysis.up_to_date and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.005)
    for _ in range(5):
        app.processEvents()


def select(window: MainWindow, kind: str, index: int = 0) -> None:
    panel = window.rules_panel
    item = panel.items_of_kind(kind)[index]
    panel.view.setFocus()
    panel.view.selectionModel().setCurrentIndex(
        item.index(), QItemSelectionModel.SelectionFlag.ClearAndSelect
    )


def paint(window: MainWindow, row: int, *cells: str) -> None:
    level = window.level
    assert level is not None
    for x, cell in enumerate(cells):
        for token in [] if cell == "." else cell.split("+"):
            kind = OBJECT if token.islower() else WORD
            level.add_on_top([Pos(x, row)], Stamp(kind, token.upper()))


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        session = window.session

        session.set_level(window.pack.levels[5])  # sink, defeat, win: five rules
        wait(app, window)
        select(window, "rule", 1)
        wait(app, window)
        window.grab().save(str(OUT / "rules-selected.png"))

        window.actions_by_id["actionPropertyOverlay"].setChecked(True)
        window.rules_panel.view.clearSelection()
        wait(app, window)
        window.grab().save(str(OUT / "rules-overlay.png"))
        window.actions_by_id["actionPropertyOverlay"].setChecked(False)

        window.level_actions.add_level()
        level = window.level
        assert level is not None
        paint(window, 1, ".", "ROCK+FLAG", "IS", "PUSH")
        paint(window, 3, ".", "rock", "flag", "baba")
        paint(window, 5, ".", "BABA", "IS", ".")
        paint(window, 7, ".", "YOU", "IS", "WIN")
        wait(app, window)
        select(window, "rule", 0)  # ROCK IS PUSH: its ROCK lies under FLAG (a ring on the chip)
        wait(app, window)
        window.grab().save(str(OUT / "rules-stacked.png"))

        window.actions_by_id["actionDimUnusedWords"].setChecked(True)
        select(window, "hint", 0)
        wait(app, window)
        window.grab().save(str(OUT / "rules-hint.png"))
        window.pack.undo_stack.setClean()
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
