"""The default layout at 1366×768 and 1920×1080, play's layout and the command palette
(issue 35), offscreen: ``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_layout.py``.

Each window is first shown at its size, so its default layout is the one an author
gets on that screen; the pack check is let finish so the level list shows its chips.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from capture_solver import settle  # this folder is the script's: its neighbour's settle
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings

OUT = Path(__file__).resolve().parent
KEKE = Path(__file__).resolve().parents[2] / "packs" / "keke-classics.json"


def window_at(app: QApplication, folder: Path, size: tuple[int, int], pack: Path) -> MainWindow:
    settings = EditorSettings(QSettings(str(folder / f"{size[0]}.ini"), QSettings.Format.IniFormat))
    settings.data_folder = folder / "data"
    settings.welcomed = True
    window = MainWindow(pack, settings=settings)
    window.resize(*size)
    window.show()
    settle(app, 120, lambda: not window.verifier.busy())  # every chip
    return window


def close(window: MainWindow) -> None:
    for stack in [window.pack.undo_stack, *(lv.undo_stack for lv in window.pack.levels)]:
        stack.setClean()
    window.close()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        window = window_at(app, folder, (1366, 768), TUTORIAL_PACK)
        window.session.set_level(window.pack.levels[6])  # clockwork: an automaton
        window.docks.bring_forward("automata")
        settle(app, 1.5)
        window.grab().save(str(OUT / "layout-1366x768.png"))
        window.actions_by_id["actionPlay"].trigger()
        settle(app, 1.0)
        window.grab().save(str(OUT / "layout-play-1366x768.png"))
        window.play_view.stop()
        palette = window.show_command_palette()
        palette.search.setText("panels")
        settle(app, 0.5)
        palette.grab().save(str(OUT / "command-palette.png"))
        palette.close()
        close(window)

        window = window_at(app, folder, (1920, 1080), KEKE)
        window.docks.bring_forward("solver")
        window.level_list.filter_bar.set_search("y'all")
        settle(app, 1.5)
        window.grab().save(str(OUT / "layout-1920x1080.png"))
        close(window)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
