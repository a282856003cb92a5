"""The only editor code that knows where shipped files are: icons, sounds, bundled packs.

Everything under the repository's ``resources/`` is installed as the data package
``rulegrid_data.resources`` (pyproject.toml maps the folder in, whatever files it
holds) and read through :mod:`importlib.resources`; the bundled packs are the
engine's (``engine.bundled_pack``). So a wheel, an editable checkout and a
PyInstaller bundle find them alike, wherever they are installed. Qt wants file
names, so each function hands out a real path.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

import engine

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon

#: The installed name of ``resources/`` (docs/decisions.md).
RESOURCES_PACKAGE = "rulegrid_data.resources"


def resource(*parts: str) -> Traversable:
    """The shipped file or folder ``resources/<parts…>`` (it may not exist)."""
    return resources.files(RESOURCES_PACKAGE).joinpath(*parts)


def resource_path(*parts: str) -> Path:
    """:func:`resource` as a file system path, for Qt (which reads files by name)."""
    return engine.local_path(resource(*parts))


#: ``resources/`` itself, and its icon and sound folders, as paths.
RESOURCES = resource_path()
ICONS = RESOURCES / "icons"
SOUNDS = RESOURCES / "sounds"


def tutorial_pack() -> Path | None:
    """The bundled tutorial pack the editor opens by default; ``None`` if not shipped."""
    try:
        return engine.bundled_pack("tutorial")
    except FileNotFoundError:
        return None


#: The bundled tutorial's path (tests and tools open it by name). Read only.
TUTORIAL_PACK = tutorial_pack() or engine.bundled_pack_folder() / "tutorial.json"


@cache
def icon(name: str) -> QIcon:
    """The icon ``resources/icons/<name>.svg``; a missing file is a bug, so it raises."""
    from PySide6.QtGui import QIcon  # here: the command line's options need no Qt

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


def application_icon_path() -> Path:
    """The application's own icon (window, desktop entry)."""
    return ICONS / "rulegrid.svg"


def is_installation_folder(folder: Path) -> bool:
    """Whether ``folder`` lies inside what was installed, which Rulegrid never writes.

    The bundled packs, the interpreter's installation (site-packages, a venv, a
    pipx home) and a PyInstaller bundle's folder: a file dialog never starts
    there, and the bundled tutorial is saved elsewhere.
    """
    try:
        folder = folder.resolve()
    except OSError:
        return False
    roots = {engine.bundled_pack_folder(), Path(sys.prefix), Path(sys.base_prefix)}
    bundle = getattr(sys, "_MEIPASS", None)
    if isinstance(bundle, str):
        roots.add(Path(bundle))
    return any(folder.is_relative_to(_resolved(root)) for root in roots)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return path
