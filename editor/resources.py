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
SOUNDS = RESOURCES / "sounds"
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


def sound_path(name: str) -> Path | None:
    """The bundled sound ``resources/sounds/<name>.wav``, or ``None`` when there is none.

    Unlike an icon, a missing sound is not a bug: authors name sounds freely, and
    the play view falls back to the default one.
    """
    path = SOUNDS / f"{name}.wav"
    return path if name and "/" not in name and "\\" not in name and path.is_file() else None


def sound_names() -> list[str]:
    return sorted(p.stem for p in SOUNDS.glob("*.wav"))
