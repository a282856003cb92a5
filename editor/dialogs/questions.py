"""Every question the main window asks the author, behind one injectable object.

The window never opens a modal dialog directly: it asks its ``Dialogs``. The
application passes :class:`QtDialogs`; tests pass a scripted stand-in, so no
test ever blocks on a modal event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal, Protocol

from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox, QWidget

import engine
from editor.dialogs.forms import (
    LevelPropertiesDialog,
    NounDialog,
    NounStyleDialog,
    PackPropertiesDialog,
)
from editor.dialogs.picture_form import PictureDialog, PictureOptions
from editor.dialogs.problems import ProblemsDialog
from editor.dialogs.recovery import RecoveryAnswer, RecoveryDialog
from editor.dialogs.trusted import TrustedFoldersDialog
from editor.settings import EditorSettings
from editor.values import Anchor, LevelProperties, NounSpec, PackProperties

UnsavedAnswer = Literal["save", "discard", "cancel"]
ChangedAnswer = Literal["reload", "save_as", "overwrite", "cancel"]
PACK_FILTER = "Rulegrid packs (*.json);;All files (*)"


class Dialogs(Protocol):
    def ask_unsaved_changes(self, parent: QWidget, pack_name: str) -> UnsavedAnswer: ...

    def choose_pack_to_open(self, parent: QWidget, *, folder: bool, start: str) -> Path | None: ...

    def choose_save_path(self, parent: QWidget, *, folder: bool, start: str) -> Path | None: ...

    def choose_import_file(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        """A file in another tool's format to import (File ▸ Import)."""
        ...

    def ask_trust_folder(self, parent: QWidget, folder: Path, *, changed: bool = False) -> bool:
        """Whether the author trusts ``folder`` to run its ``pack.py`` as it is now
        (asked once per version; ``changed``: an earlier version was trusted)."""
        ...

    def manage_trusted_folders(self, parent: QWidget, settings: EditorSettings) -> None:
        """Show the trusted folders and let the author revoke trust (Edit menu)."""
        ...

    def show_problems(
        self,
        parent: QWidget,
        source: str,
        problems: list[engine.Problem],
        *,
        can_repair: bool,
        repair_notes: list[str],
        why_not: str = "",
    ) -> bool:
        """Show why a pack did not load; True when the author chose to open it anyway.

        ``why_not``: why it cannot be opened for repair (not JSON within the caps)."""
        ...

    def edit_level_properties(
        self, parent: QWidget, props: LevelProperties, taken: set[str], *, references: object = ()
    ) -> tuple[LevelProperties, Anchor] | None:
        """New properties and the resize anchor; ``references`` (the level's reference
        solutions, as authored) are shown read-only."""
        ...

    def new_noun(
        self, parent: QWidget, existing: set[str], vocabulary: engine.Vocabulary | None = None
    ) -> tuple[str, NounSpec] | None:
        """A new noun's name and style; ``vocabulary`` says which names are other words."""
        ...

    def edit_pack_properties(
        self, parent: QWidget, props: PackProperties
    ) -> PackProperties | None: ...

    def edit_noun_style(
        self, parent: QWidget, name: str, spec: NounSpec, written: object
    ) -> NounSpec | None:
        """A noun's new colour and glyph; ``written``: its style as the file wrote it,
        when the editor cannot show it (else ``None``)."""
        ...

    def confirm(self, parent: QWidget, title: str, text: str) -> bool: ...

    def error(self, parent: QWidget, title: str, text: str) -> None: ...

    def ask_changed_on_disk(self, parent: QWidget, file: Path, *, removed: bool) -> ChangedAnswer:
        """Before a save: the file changed on disk (``removed``: it is gone) since it was
        opened or last saved. Reload it (dropping the unsaved changes), save elsewhere,
        overwrite it, or cancel the save."""
        ...

    def offer_recovery(
        self, parent: QWidget, descriptions: list[str], compare: Callable[[int], str]
    ) -> RecoveryAnswer | None:
        """After a crash: ("restore" | "discard", index) of the offered work, or None (later)."""
        ...

    def choose_backup(self, parent: QWidget, descriptions: list[str]) -> int | None:
        """Which kept version of the pack to restore (newest first), or None."""
        ...

    def choose_export_path(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        """Where to write an exported file (a share payload); ``start`` suggests a name."""
        ...

    def picture_options(
        self, parent: QWidget, *, animated: bool, suggested: Path
    ) -> PictureOptions | None:
        """The file, scale and background of a picture (animated: of a solution)."""
        ...


class QtDialogs:
    """The real dialogs."""

    def ask_unsaved_changes(self, parent: QWidget, pack_name: str) -> UnsavedAnswer:
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            parent,
            "Unsaved changes",
            f"Save the changes to {pack_name} before closing it?",
            buttons.Save | buttons.Discard | buttons.Cancel,
            buttons.Save,
        )
        if answer == buttons.Save:
            return "save"
        return "discard" if answer == buttons.Discard else "cancel"

    def choose_pack_to_open(self, parent: QWidget, *, folder: bool, start: str) -> Path | None:
        if folder:
            chosen = QFileDialog.getExistingDirectory(parent, "Open Pack Folder", start)
        else:
            chosen, _ = QFileDialog.getOpenFileName(parent, "Open Pack", start, PACK_FILTER)
        return Path(chosen) if chosen else None

    def choose_save_path(self, parent: QWidget, *, folder: bool, start: str) -> Path | None:
        if folder:
            chosen = QFileDialog.getExistingDirectory(parent, "Save Pack in Folder", start)
        else:
            chosen, _ = QFileDialog.getSaveFileName(parent, "Save Pack As", start, PACK_FILTER)
            if chosen and not chosen.endswith(".json"):
                chosen += ".json"
        return Path(chosen) if chosen else None

    def choose_import_file(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        chosen, _ = QFileDialog.getOpenFileName(parent, title, start, name_filter)
        return Path(chosen) if chosen else None

    def ask_trust_folder(self, parent: QWidget, folder: Path, *, changed: bool = False) -> bool:
        buttons = QMessageBox.StandardButton
        news = (
            "Its Python files have CHANGED since you trusted this folder (pack.py, or a "
            "file beside it that pack.py may run): check the changes before you run it.\n\n"
            if changed
            else ""
        )
        answer = QMessageBox.question(
            parent,
            "Run this pack's Python code?",
            f"{folder}\n\n{news}This pack folder builds its levels with pack.py, a Python "
            "program that runs with your permissions. Open it only if you wrote it or trust "
            "its author.\n\nTrust this pack.py? Rulegrid remembers your answer until a Python "
            "file of the folder changes or you revoke it (Edit ▸ Trusted Pack Folders).",
            buttons.Yes | buttons.No,
            buttons.No,
        )
        return answer == buttons.Yes

    def manage_trusted_folders(self, parent: QWidget, settings: EditorSettings) -> None:
        TrustedFoldersDialog(settings, parent).exec()

    def show_problems(
        self,
        parent: QWidget,
        source: str,
        problems: list[engine.Problem],
        *,
        can_repair: bool,
        repair_notes: list[str],
        why_not: str = "",
    ) -> bool:
        dialog = ProblemsDialog(
            source,
            problems,
            can_repair=can_repair,
            repair_notes=repair_notes,
            why_not=why_not,
            parent=parent,
        )
        return dialog.exec() == QDialog.DialogCode.Accepted and can_repair

    def edit_level_properties(
        self, parent: QWidget, props: LevelProperties, taken: set[str], *, references: object = ()
    ) -> tuple[LevelProperties, Anchor] | None:
        dialog = LevelPropertiesDialog(props, taken, parent, references=references)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.result_properties(), dialog.anchor()

    def new_noun(
        self, parent: QWidget, existing: set[str], vocabulary: engine.Vocabulary | None = None
    ) -> tuple[str, NounSpec] | None:
        dialog = NounDialog(existing, parent, vocabulary=vocabulary)
        return dialog.result_noun() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def edit_pack_properties(self, parent: QWidget, props: PackProperties) -> PackProperties | None:
        dialog = PackPropertiesDialog(props, parent)
        return dialog.result_properties() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def edit_noun_style(
        self, parent: QWidget, name: str, spec: NounSpec, written: object
    ) -> NounSpec | None:
        dialog = NounStyleDialog(name, spec, written, parent)
        return dialog.result_style() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def confirm(self, parent: QWidget, title: str, text: str) -> bool:
        buttons = QMessageBox.StandardButton
        return (
            QMessageBox.question(parent, title, text, buttons.Yes | buttons.No, buttons.No)
            == buttons.Yes
        )

    def error(self, parent: QWidget, title: str, text: str) -> None:
        QMessageBox.warning(parent, title, text)

    def ask_changed_on_disk(self, parent: QWidget, file: Path, *, removed: bool) -> ChangedAnswer:
        what = "was removed" if removed else "was changed by another program or window"
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "File changed on disk",
            f"{file}\n\n{file.name} {what} since you opened or last saved it. Saving now "
            "would replace that version with yours.",
            QMessageBox.StandardButton.Cancel,
            parent,
        )
        reload = box.addButton("&Reload (drop my changes)", QMessageBox.ButtonRole.DestructiveRole)
        save_as = box.addButton("Save &As…", QMessageBox.ButtonRole.AcceptRole)
        overwrite = box.addButton("&Overwrite", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(save_as)
        box.exec()
        chosen = box.clickedButton()
        answers: dict[object, ChangedAnswer] = {
            reload: "reload",
            save_as: "save_as",
            overwrite: "overwrite",
        }
        return answers.get(chosen, "cancel")

    def offer_recovery(
        self, parent: QWidget, descriptions: list[str], compare: Callable[[int], str]
    ) -> RecoveryAnswer | None:
        dialog = RecoveryDialog(descriptions, compare, parent)
        dialog.exec()
        return dialog.answer

    def choose_backup(self, parent: QWidget, descriptions: list[str]) -> int | None:
        choice, ok = QInputDialog.getItem(
            parent,
            "Restore Backup",
            "Kept versions of this pack, newest first:",
            descriptions,
            0,
            False,
        )
        return descriptions.index(choice) if ok and choice in descriptions else None

    def choose_export_path(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        chosen, _ = QFileDialog.getSaveFileName(parent, title, start, name_filter)
        return Path(chosen) if chosen else None

    def picture_options(
        self, parent: QWidget, *, animated: bool, suggested: Path
    ) -> PictureOptions | None:
        dialog = PictureDialog(animated=animated, suggested=suggested, parent=parent)
        return dialog.options() if dialog.exec() == QDialog.DialogCode.Accepted else None
