"""Regenerate the Trusted Pack Folders screenshot offscreen:
``QT_QPA_PLATFORM=offscreen python docs/screenshots/capture_trust.py``."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from editor.dialogs.trusted import TrustedFoldersDialog
from editor.settings import EditorSettings

OUT = Path(__file__).resolve().parent


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = EditorSettings(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        home = Path("/home/ada")
        settings.trust_folder(
            str(home / "packs" / "generated-mazes"), "3f9c" + "0a1b2c3d" * 7 + "e5f6"
        )
        settings.trust_folder(
            str(home / "packs" / "clockwork-lab"), "b41d" + "9e8f7a6b" * 7 + "c2d3"
        )
        dialog = TrustedFoldersDialog(settings)
        dialog.show()
        for _ in range(5):
            app.processEvents()
        dialog.grab().save(str(OUT / "trusted-folders.png"))
        dialog.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
