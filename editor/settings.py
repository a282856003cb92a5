"""``EditorSettings``: typed preferences over an injected ``QSettings``.

Every key, its type and its default live here; the store is passed in so tests
use a throwaway INI file and never touch the author's real preferences.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs
from PySide6.QtCore import QByteArray, QSettings

import engine

MAX_RECENT = 10
DEFAULT_BACKUPS = 10
MAX_BACKUPS = 1_000
THEMES = ("light", "dark", "contrast")
DEFAULT_SOUND_VOLUME = 75
#: The volumes View ▸ Sound Volume offers, in percent.
SOUND_VOLUMES = (25, 50, 75, 100)
DEFAULT_CHECK_SECONDS = 60  # the pack check's time budget a level, as rulegrid verify's
MAX_CHECK_SECONDS = 24 * 3600
#: ``"<sha256> <folder>"`` entries: a folder's pack.py is trusted while it has that content.
_TRUSTED_KEY = "files/trusted_modules"
#: The Problems check's work budget for replaying intended solutions (no dialog yet).
_LINT_BUDGET_KEY = "work/lint_budget"


class EditorSettings:
    def __init__(self, store: QSettings) -> None:
        self._store = store

    @classmethod
    def for_user(cls) -> EditorSettings:
        """The author's real preferences (the platform's usual place)."""
        return cls(QSettings("Rulegrid", "Rulegrid Editor"))

    @property
    def store(self) -> QSettings:
        return self._store

    # ------------------------------------------------------------ recent packs
    @property
    def recent_packs(self) -> list[str]:
        value = self._store.value("files/recent_packs", [])
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value]
        return [str(p) for p in value] if isinstance(value, list) else []

    def add_recent_pack(self, path: str) -> None:
        recent = [path, *(p for p in self.recent_packs if p != path)][:MAX_RECENT]
        self._store.setValue("files/recent_packs", recent)

    def remove_recent_pack(self, path: str) -> None:
        self._store.setValue("files/recent_packs", [p for p in self.recent_packs if p != path])

    # -------------------------------------------------------- trusted folders
    @property
    def trusted_modules(self) -> dict[str, str]:
        """Pack folders whose ``pack.py`` the author allowed to run, each with the
        SHA-256 of the ``pack.py`` they trusted (``engine.module_digest``).

        Trust is in a content, not a path: when the file changes, the author is
        asked again. Folders trusted by an older Rulegrid (path only, under
        ``files/trusted_folders``) are not carried over, so each is asked once more.
        """
        value = self._store.value(_TRUSTED_KEY, [])
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value]
        pins: dict[str, str] = {}
        for item in value if isinstance(value, list) else []:
            digest, sep, folder = str(item).partition(" ")
            if sep and folder and len(digest) == 64:
                pins[folder] = digest
        return pins

    def trusted_digest(self, folder: str) -> str | None:
        return self.trusted_modules.get(folder)

    def is_trusted(self, folder: str) -> bool:
        """Whether the author trusted some version of ``folder``'s ``pack.py``."""
        return folder in self.trusted_modules

    def trust_folder(self, folder: str, digest: str) -> None:
        """Trust ``folder``'s ``pack.py`` while it has the content ``digest``."""
        pins = {**self.trusted_modules, folder: digest}
        self._store_pins(pins)

    def revoke_trust(self, folder: str) -> None:
        pins = self.trusted_modules
        pins.pop(folder, None)
        self._store_pins(pins)

    def _store_pins(self, pins: dict[str, str]) -> None:
        self._store.setValue(_TRUSTED_KEY, [f"{d} {f}" for f, d in sorted(pins.items())])
        self._store.remove("files/trusted_folders")  # the old, path-only trust

    # ------------------------------------------------------------- appearance
    @property
    def theme(self) -> str:
        value = str(self._store.value("view/theme", "light"))
        return value if value in THEMES else "light"

    @theme.setter
    def theme(self, value: str) -> None:
        if value not in THEMES:
            raise ValueError(f"unknown theme {value!r}")
        self._store.setValue("view/theme", value)

    @property
    def show_grid(self) -> bool:
        return _as_bool(self._store.value("view/show_grid", True))

    @show_grid.setter
    def show_grid(self, value: bool) -> None:
        self._store.setValue("view/show_grid", bool(value))

    @property
    def reduced_motion(self) -> bool:
        """Test-play applies each turn at once: no slides, fades or flashes."""
        return _as_bool(self._store.value("view/reduced_motion", False))

    @reduced_motion.setter
    def reduced_motion(self, value: bool) -> None:
        self._store.setValue("view/reduced_motion", bool(value))

    @property
    def sound_enabled(self) -> bool:
        """Automaton beats play sounds in test-play (View ▸ Sound); off stays off."""
        return _as_bool(self._store.value("view/sound", True))

    @sound_enabled.setter
    def sound_enabled(self, value: bool) -> None:
        self._store.setValue("view/sound", bool(value))

    @property
    def sound_volume(self) -> int:
        """The beat sounds' volume in percent (View ▸ Sound Volume)."""
        return self._bounded_int("view/sound_volume", DEFAULT_SOUND_VOLUME, 100)

    @sound_volume.setter
    def sound_volume(self, value: int) -> None:
        self._store.setValue("view/sound_volume", max(0, min(100, int(value))))

    # ----------------------------------------------------------- window state
    @property
    def window_geometry(self) -> QByteArray:
        return _as_bytes(self._store.value("window/geometry"))

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._store.setValue("window/geometry", value)

    @property
    def window_state(self) -> QByteArray:
        return _as_bytes(self._store.value("window/state"))

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._store.setValue("window/state", value)

    def sync(self) -> None:
        self._store.sync()

    @property
    def welcomed(self) -> bool:
        """Whether the author dismissed the first start's welcome panel."""
        return _as_bool(self._store.value("view/welcomed", False))

    @welcomed.setter
    def welcomed(self, value: bool) -> None:
        self._store.setValue("view/welcomed", bool(value))

    # ------------------------------------------------------ data and backups
    @property
    def data_folder(self) -> Path:
        """Where the editor keeps recovery files and backups (the platform's user data folder)."""
        value = self._store.value("paths/data", "")
        return Path(str(value)) if value else Path(platformdirs.user_data_dir("rulegrid", False))

    @data_folder.setter
    def data_folder(self, value: Path) -> None:
        self._store.setValue("paths/data", str(value))

    def save_folder(self, kind: str) -> Path | None:
        """The folder the author last saved a ``kind`` of file in (a pack, a payload, a picture)."""
        value = str(self._store.value(f"paths/save_{kind}", "") or "")
        return Path(value) if value else None

    def set_save_folder(self, kind: str, folder: Path) -> None:
        self._store.setValue(f"paths/save_{kind}", str(folder))

    @property
    def backup_count(self) -> int:
        """How many previous versions of each pack a save keeps (0 keeps none)."""
        return self._bounded_int("files/backup_count", DEFAULT_BACKUPS, MAX_BACKUPS)

    @backup_count.setter
    def backup_count(self, value: int) -> None:
        self._store.setValue("files/backup_count", max(0, min(MAX_BACKUPS, int(value))))

    def _bounded_int(self, key: str, default: int, most: int) -> int:
        """A whole number in ``0..most`` (a stored value that is not one reads as ``default``)."""
        try:
            value = int(str(self._store.value(key, default)))
        except ValueError:
            return default
        return max(0, min(most, value))

    # ------------------------------------------------------------------- work
    @property
    def lint_budget(self) -> int:
        """Units of work (``engine.WorkBudget``) the Problems check may spend replaying
        intended solutions: a level's when it is checked again, all of them when a
        pack opens (``engine.lint_work``). Past it, one ``solution-unchecked`` warning
        names this setting (``work/lint_budget``); there is no dialog for it yet."""
        try:
            value = int(str(self._store.value(_LINT_BUDGET_KEY, engine.LINT_WORK_BUDGET)))
        except ValueError:
            return engine.LINT_WORK_BUDGET
        return max(1, value)

    @lint_budget.setter
    def lint_budget(self, value: int) -> None:
        self._store.setValue(_LINT_BUDGET_KEY, max(1, int(value)))

    # ------------------------------------------------------------------ solver
    @property
    def check_seconds(self) -> int:
        """The pack check's time budget for each level's search, in seconds."""
        try:
            value = int(str(self._store.value("solver/check_seconds", DEFAULT_CHECK_SECONDS)))
        except ValueError:
            return DEFAULT_CHECK_SECONDS
        return max(1, min(MAX_CHECK_SECONDS, value))

    @check_seconds.setter
    def check_seconds(self, value: int) -> None:
        self._store.setValue("solver/check_seconds", max(1, min(MAX_CHECK_SECONDS, int(value))))


def _as_bool(value: object) -> bool:
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)


def _as_bytes(value: object) -> QByteArray:
    return value if isinstance(value, QByteArray) else QByteArray()
