"""A stand-in for ``editor.dialogs.questions.QtDialogs`` that answers from a script and
records every question, so window tests never block on a modal dialog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

import engine
from editor.dialogs.picture_form import PictureOptions
from editor.values import Anchor, LevelProperties, NounSpec, PackProperties


@dataclass
class ScriptedDialogs:
    unsaved_answer: str = "discard"
    open_path: Path | None = None
    save_path: Path | None = None
    import_path: Path | None = None
    open_anyway: bool = False
    level_properties: tuple[LevelProperties, Anchor] | None = None
    level_references: object = None  # the reference solutions Level Properties was shown
    noun: tuple[str, NounSpec] | None = None
    noun_style: NounSpec | None = None
    pack_properties: PackProperties | None = None
    confirm_answer: bool = True
    trust_answer: bool = False
    revoke: list[str] = field(default_factory=list)  # folders Trusted Pack Folders revokes
    asked: list[tuple[str, Any]] = field(default_factory=list)
    noun_vocabulary: engine.Vocabulary | None = None  # what the last Add Noun was given
    problems_shown: list[list[engine.Problem]] = field(default_factory=list)
    why_not: list[str] = field(default_factory=list)  # why each shown pack cannot be repaired
    errors: list[str] = field(default_factory=list)
    confirm_texts: list[str] = field(default_factory=list)
    recovery_answer: tuple[str, int] | None = None
    backup_choice: int | None = None
    backups_offered: list[list[str]] = field(default_factory=list)
    recovery_offers: list[list[str]] = field(default_factory=list)
    recovery_comparisons: list[str] = field(default_factory=list)
    export_path: Path | None = None
    picture: PictureOptions | None = None
    starts: list[str] = field(default_factory=list)  # where each file dialog started (or suggested)
    changed_answer: str = "cancel"  # reload, save_as, overwrite or cancel
    changed_asked: list[tuple[str, bool]] = field(default_factory=list)  # (file name, removed)

    def ask_unsaved_changes(self, parent: QWidget, pack_name: str) -> str:
        self.asked.append(("unsaved", pack_name))
        return self.unsaved_answer

    def choose_pack_to_open(self, parent: QWidget, *, folder: bool, start: str) -> Path | None:
        self.asked.append(("open", folder))
        self.starts.append(start)
        return self.open_path

    def choose_save_path(self, parent: QWidget, *, folder: bool, start: str) -> Path | None:
        self.asked.append(("save", folder))
        self.starts.append(start)
        return self.save_path

    def choose_import_file(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        self.asked.append(("import", title))
        self.starts.append(start)
        return self.import_path

    def ask_trust_folder(self, parent: QWidget, folder: Path, *, changed: bool = False) -> bool:
        self.asked.append(("trust-changed" if changed else "trust", folder))
        return self.trust_answer

    def manage_trusted_folders(self, parent: QWidget, settings: Any) -> None:
        """Revoke the folders listed in ``revoke`` (as the author would in the dialog)."""
        self.asked.append(("trusted-folders", sorted(settings.trusted_modules)))
        for folder in self.revoke:
            settings.revoke_trust(folder)

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
        self.asked.append(("problems", (source, can_repair, tuple(repair_notes))))
        self.why_not.append(why_not)
        self.problems_shown.append(list(problems))
        return self.open_anyway and can_repair

    def edit_level_properties(
        self, parent: QWidget, props: LevelProperties, taken: set[str], *, references: object = ()
    ) -> tuple[LevelProperties, Anchor] | None:
        self.asked.append(("level properties", props))
        self.level_references = references
        return self.level_properties

    def new_noun(
        self, parent: QWidget, existing: set[str], vocabulary: engine.Vocabulary | None = None
    ) -> tuple[str, NounSpec] | None:
        self.asked.append(("noun", frozenset(existing)))
        self.noun_vocabulary = vocabulary
        return self.noun

    def edit_pack_properties(self, parent: QWidget, props: PackProperties) -> PackProperties | None:
        self.asked.append(("pack properties", props))
        return self.pack_properties

    def edit_noun_style(
        self, parent: QWidget, name: str, spec: NounSpec, written: object
    ) -> NounSpec | None:
        self.asked.append(("noun style", (name, spec, written)))
        return self.noun_style

    def confirm(self, parent: QWidget, title: str, text: str) -> bool:
        self.asked.append(("confirm", title))
        self.confirm_texts.append(text)
        return self.confirm_answer

    def error(self, parent: QWidget, title: str, text: str) -> None:
        self.errors.append(f"{title}: {text}")

    def ask_changed_on_disk(self, parent: QWidget, file: Path, *, removed: bool) -> str:
        self.changed_asked.append((file.name, removed))
        return self.changed_answer

    def offer_recovery(
        self, parent: QWidget, descriptions: list[str], compare: Callable[[int], str]
    ) -> tuple[str, int] | None:
        self.recovery_offers.append(list(descriptions))
        self.recovery_comparisons = [compare(i) for i in range(len(descriptions))]
        return self.recovery_answer

    def choose_backup(self, parent: QWidget, descriptions: list[str]) -> int | None:
        self.backups_offered.append(list(descriptions))
        return self.backup_choice

    def choose_export_path(
        self, parent: QWidget, *, title: str, name_filter: str, start: str
    ) -> Path | None:
        self.asked.append(("export", title))
        self.starts.append(start)
        return self.export_path

    def picture_options(
        self, parent: QWidget, *, animated: bool, suggested: Path
    ) -> PictureOptions | None:
        self.asked.append(("picture", (animated, suggested.name)))
        self.starts.append(str(suggested))
        return self.picture
