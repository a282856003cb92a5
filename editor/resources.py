"""The only code that knows where ``resources/`` and the bundled packs are.

Paths resolve relative to the repository root, which is where an editable
install runs from.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
ICONS = RESOURCES / "icons"
TUTORIAL_PACK = ROOT / "packs" / "tutorial.json"


@cache
def icon(name: str) -> QIcon:
    """The icon ``resources/icons/<name>.svg``; a missing file is a bug, so it raises."""
    path = ICONS / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(path)
    return QIcon(str(path))


def icon_names() -> list[str]:
    return sorted(p.stem for p in ICONS.glob("*.svg"))
