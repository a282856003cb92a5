"""Where Save As, Export and picture dialogs start, and the name they suggest.

An installed Rulegrid lives in site-packages (or a bundle's folder), and so does
the bundled tutorial it opens first: a dialog that started beside the open pack
would offer to write into the installation. So each kind of file an author
saves (a pack, a share payload, a picture) starts in the folder they last saved
that kind in, else their documents folder (``platformdirs``), else their home;
never an installation folder (:func:`editor.resources.is_installation_folder`),
and never a folder that is gone. The suggested name comes from the pack or level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import platformdirs

from editor.resources import is_installation_folder
from editor.settings import EditorSettings

Kind = Literal["pack", "payload", "picture"]
KINDS: tuple[Kind, ...] = ("pack", "payload", "picture")


def documents_folder() -> Path:
    """The author's documents folder when it exists, else their home folder.

    A missing documents folder (no ``~/Documents``, an ``XDG_DOCUMENTS_DIR`` that
    points nowhere) is not created: the dialog starts at home and the author
    chooses. Only when home is gone too does it start in the working folder.
    """
    for candidate in (Path(platformdirs.user_documents_dir()), Path.home()):
        if candidate.is_dir():
            return candidate
    return Path.cwd()


class SaveFolders:
    """The start folder of each kind of save dialog, remembered in the editor's settings."""

    def __init__(self, settings: EditorSettings) -> None:
        self._settings = settings

    def start(self, kind: Kind, *, beside: Path | None = None) -> Path:
        """Where a dialog for ``kind`` starts.

        ``beside`` is the folder of the file being saved again under another name
        (Save As of a pack that has a file of its own): it comes first, unless it is
        part of the installation.
        """
        remembered = self._settings.save_folder(kind)
        for candidate in (beside, remembered):
            if candidate is not None and usable(candidate):
                return candidate
        return documents_folder()

    def suggest(self, kind: Kind, name: str, *, beside: Path | None = None) -> Path:
        """The path a dialog for ``kind`` offers: its start folder and ``name``."""
        return self.start(kind, beside=beside) / safe_file_name(name)

    def remember(self, kind: Kind, path: Path) -> None:
        """The author saved ``path``: the next dialog of this kind starts in its folder."""
        folder = path.parent
        if usable(folder):
            self._settings.set_save_folder(kind, folder)


def usable(folder: Path) -> bool:
    """A folder a save dialog may start in: it exists and is not part of the installation."""
    try:
        return folder.is_dir() and not is_installation_folder(folder)
    except OSError:
        return False


def safe_file_name(name: str) -> str:
    """``name`` without path separators or a leading dot (ids are safe; titles may not be)."""
    cleaned = "".join("_" if c in '/\\:*?"<>|\0' else c for c in name).strip().lstrip(".")
    return cleaned or "untitled"
