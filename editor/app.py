"""Start the editor: ``rulegrid-editor [PACK | FILE.rulegrid]`` or ``python -m editor``.

With no argument it opens the bundled tutorial pack, or a new untitled pack
when the tutorial is not there; a ``.rulegrid`` payload file opens the import
preview over it. ``rulegrid-editor render …`` draws pictures without a window
(:mod:`editor.render`). ``--version`` and the desktop integration options answer
before Qt or the window's modules are loaded; where Qt cannot start, one
paragraph says why instead of a core dump (:mod:`editor.qt_start`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import engine
from editor import desktop
from editor.resources import tutorial_pack

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from editor.main_window import MainWindow
    from editor.settings import EditorSettings

#: What a payload file ends with (``engine.share.PAYLOAD_SUFFIX``): it opens the import preview.
PAYLOAD_SUFFIX = engine.share.PAYLOAD_SUFFIX
RENDER_COMMAND = "render"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulegrid-editor", description="Rulegrid level editor")
    parser.add_argument(
        "pack",
        nargs="?",
        help="a pack .json file or pack folder (default: the bundled tutorial), "
        f"or a {PAYLOAD_SUFFIX} share payload to preview before importing it",
    )
    parser.add_argument(
        "--version", action="version", version=f"rulegrid-editor {engine.version()}"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--install-desktop",
        action="store_true",
        help="add Rulegrid to the desktop's applications, with its icon and file types "
        "(Linux: under the XDG data folder)",
    )
    group.add_argument(
        "--uninstall-desktop",
        action="store_true",
        help="remove exactly what --install-desktop wrote",
    )
    return parser.parse_args(list(argv))


def default_pack(argument: str | None) -> Path | None:
    """The pack the window opens: the argument's (unless it is a payload), else the tutorial."""
    if argument and not is_payload_file(argument):
        return Path(argument)
    return tutorial_pack()


def is_payload_file(argument: str | None) -> bool:
    return bool(argument) and Path(str(argument)).suffix.lower() == PAYLOAD_SUFFIX


def main(argv: Sequence[str] | None = None) -> int:
    command_line = argv is None  # the console script: this process ends with the command
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == RENDER_COMMAND:  # a pack named "render" opens as ./render
        from editor import render

        code = render.main(argv[1:])
        if command_line:
            quick_exit(code)
        return code
    args = parse_args(argv)
    if args.install_desktop or args.uninstall_desktop:
        return desktop.main(install=args.install_desktop)
    return run_window(args.pack)


def quick_exit(code: int) -> None:
    """End a finished command at once, skipping the interpreter's teardown.

    The picture is written (atomically) and the terminal told; what is left is
    freeing some 400 modules and Qt's objects, 45 ms of CPU, a seventh of a render
    (docs/benchmarks.md, issue 35). Only the console script does this; ``main``
    called with arguments (tests, scripts) returns as usual.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def run_window(argument: str | None) -> int:
    """Build the application and the window, show it, and run until it closes."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from editor.qt_start import guarded_start

    with guarded_start():
        app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    from editor.io.clipboard import release_clipboard
    from editor.main_window import APP_NAME, MainWindow
    from editor.settings import EditorSettings

    app.setApplicationName(APP_NAME)
    app.setOrganizationName("Rulegrid")
    app.aboutToQuit.connect(release_clipboard)
    settings = EditorSettings.for_user()
    if settings.sound_enabled:
        from editor.panels.play.sound import preload as preload_sounds

        preload_sounds()  # once, before the window shows: no beat waits for Qt Multimedia
    window = open_window(argument, MainWindow, settings)
    smoke = os.environ.get(SMOKE_VARIABLE)
    if smoke:  # CI starts the editor as the README prints it and checks that it comes up
        _report_when_painted(app, window)
        QTimer.singleShot(int(float(smoke) * 1000), app.quit)
    return app.exec()


def open_window(
    argument: str | None, window_class: type[MainWindow], settings: EditorSettings
) -> MainWindow:
    """Show the window on the argument's pack (the tutorial by default).

    A payload file opens the import preview over it once the window is up, as
    File ▸ Import Shared Payload would: nothing is installed before the author
    says so.
    """
    from PySide6.QtCore import QTimer

    window = window_class(default_pack(argument), settings=settings)
    window.show()
    if is_payload_file(argument):
        path = Path(str(argument))
        QTimer.singleShot(0, lambda: window.sharing.importer.preview_file(path))
    return window


#: Seconds after which the editor quits by itself, having said that it came up (CI's check).
SMOKE_VARIABLE = "RULEGRID_EDITOR_SMOKE_SECONDS"


def _report_when_painted(app: QApplication, window: MainWindow) -> None:
    """Say the editor is up once the window has painted, with the CPU time it took.

    The figure is the process's CPU time from its start, imports included: the
    goal of bench/bench_install.py (docs/install.md).
    """
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QWidget

    class FirstPaint(QObject):
        def __init__(self) -> None:
            super().__init__(window)
            self.reported = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if (
                not self.reported
                and event.type() == QEvent.Type.Paint
                and isinstance(watched, QWidget)
                and watched.window() is window
            ):
                self.report(time.process_time())
            return False

        def report(self, cpu: float) -> None:
            self.reported = True
            app.removeEventFilter(self)
            QTimer.singleShot(0, lambda: _report_up(window, f"first paint after {cpu:.2f} s CPU"))

        def quitting(self) -> None:
            if not self.reported:  # the platform never painted: still up, and said so
                self.reported = True
                _report_up(window, "no paint seen")

    watcher = FirstPaint()
    app.installEventFilter(watcher)
    app.aboutToQuit.connect(watcher.quitting)


def _report_up(window: MainWindow, seen: str) -> None:
    pack = window.pack
    sys.stdout.write(
        f"rulegrid-editor: up, {pack.display_name()} with {len(pack.levels)} levels ({seen})\n"
    )
    sys.stdout.flush()
