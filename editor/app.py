"""Start the editor: ``rulegrid-editor [PACK]`` or ``python -m editor [PACK]``.

With no argument it opens the bundled tutorial pack, or a new untitled pack
when the tutorial is not there. ``rulegrid-editor render …`` draws pictures
without a window (:mod:`editor.render`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from editor import render
from editor.io.clipboard import release_clipboard
from editor.main_window import APP_NAME, MainWindow
from editor.resources import tutorial_pack
from editor.settings import EditorSettings


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulegrid-editor", description="Rulegrid level editor")
    parser.add_argument(
        "pack", nargs="?", help="a pack .json file or pack folder (default: the tutorial)"
    )
    return parser.parse_args(list(argv))


def default_pack(argument: str | None) -> Path | None:
    if argument:
        return Path(argument)
    return tutorial_pack()


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == render.COMMAND:  # a pack named "render" opens as ./render
        return render.main(argv[1:])
    args = parse_args(argv)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("Rulegrid")
    app.aboutToQuit.connect(release_clipboard)
    window = MainWindow(default_pack(args.pack), settings=EditorSettings.for_user())
    window.show()
    smoke = os.environ.get(SMOKE_VARIABLE)
    if smoke:  # CI starts the editor as the README prints it and checks that it comes up
        QTimer.singleShot(0, lambda: _report_up(window))
        QTimer.singleShot(int(float(smoke) * 1000), app.quit)
    return app.exec()


#: Seconds after which the editor quits by itself, having said that it came up (CI's check).
SMOKE_VARIABLE = "RULEGRID_EDITOR_SMOKE_SECONDS"


def _report_up(window: MainWindow) -> None:
    pack = window.pack
    sys.stdout.write(f"rulegrid-editor: up, {pack.display_name()} with {len(pack.levels)} levels\n")
    sys.stdout.flush()
