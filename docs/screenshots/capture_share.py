"""Regenerate the sharing screenshots and the README's pictures offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_share.py``.

- ``share-preview.png``: File ▸ Import Shared Payload on the tutorial pack shared with its
  solutions, while a pack of the same id is installed (so the rename choice shows);
- ``installed-packs.png``: File ▸ Installed Packs with a few installed packs;
- ``docs/pictures/*``: a tutorial level and one solution, drawn by ``rulegrid-editor render``.

Packs are installed into a temporary folder, never the user's.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

import engine
from editor import app as editor_app
from editor.main_window import MainWindow
from editor.resources import TUTORIAL_PACK
from editor.settings import EditorSettings
from editor.tasks import background

OUT = Path(__file__).resolve().parent
PICTURES = OUT.parent / "pictures"
PACKS = TUTORIAL_PACK.parent


def settle(app: QApplication, until: object = None, rounds: int = 400) -> None:
    """Let workers and thumbnail timers finish (``until``: a callable that says when)."""
    for _ in range(rounds):
        background.wait_idle(0.02)
        app.processEvents()
        if callable(until) and until():
            break
    for _ in range(5):
        app.processEvents()


def pictures() -> None:
    """The README's pictures, made with the headless command exactly as documented."""
    PICTURES.mkdir(exist_ok=True)
    tutorial = str(TUTORIAL_PACK)
    for args in (
        [tutorial, "clockwork", "-o", str(PICTURES / "clockwork.png")],
        [tutorial, "rock-is-flag", "--solution", "-o", str(PICTURES / "rock-is-flag.gif")],
    ):
        assert editor_app.main(["render", *args]) == 0


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    pictures()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "packs"
        os.environ[engine.share.PACKS_DIR_VARIABLE] = str(folder)
        tutorial = engine.load_pack(TUTORIAL_PACK)
        for level in ("clockwork", "crumbling-bridge"):
            engine.share.decode(engine.share.export(tutorial, level=level)).install(
                folder, confirm=True
            )
        engine.share.decode(engine.share.export(tutorial)).install(folder, confirm=True)
        keke = engine.load_pack(PACKS / "keke-classics.json")
        engine.share.decode(engine.share.export(keke)).install(folder, confirm=True)

        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window = MainWindow(TUTORIAL_PACK, settings=settings)
        window.resize(1360, 860)
        window.show()
        settle(app)

        QGuiApplication.clipboard().setText(engine.share.export(tutorial, with_solutions=True))
        window.actions_by_id["actionImportShare"].trigger()
        settle(app, lambda: window.sharing.importer.dialog is not None)
        preview = window.sharing.importer.dialog
        assert preview is not None
        preview.resize(900, 760)
        settle(app, lambda: preview.thumbnails.pending == 0)
        preview.grab().save(str(OUT / "share-preview.png"))
        preview.reject()
        settle(app)

        window.actions_by_id["actionInstalledPacks"].trigger()
        library = window.sharing.library
        assert library is not None
        library.resize(900, 560)
        settle(app, lambda: not library.loading and library.thumbnails.pending == 0)
        library.grab().save(str(OUT / "installed-packs.png"))
        library.reject()
        window.close()
        settle(app)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
