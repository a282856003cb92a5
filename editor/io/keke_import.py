"""File ▸ Import ▸ Keke Levels…: a Keke AI Competition level file opened as a new pack.

The engine does the work (``engine.import_keke``, the code behind ``rulegrid
import-keke``); this module asks for the file, runs the import off the UI thread
(it replays every recorded solution: 0.7 s for the largest published file, more
for a hostile one within the engine's caps), shows what cannot be imported,
offers to open the rest, and hands the pack to the session as a new untitled
pack. Nothing is written to disk: the author saves it when ready, like any new
pack, so an import never overwrites a file by surprise.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QWidget

import engine
from editor.dialogs.questions import Dialogs
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.io.files import PackFiles
from editor.tasks.scheduler import Priority, scheduler

TITLE = "Import Keke Levels"
KEKE_FILTER = "Keke level files (*.json *.txt);;All files (*)"
#: Levels named in the question about unsupported levels before the rest are counted.
NAMED = 8


class KekeImporter(QObject):
    """One import at a time; ``busy_changed`` lets the window disable its action meanwhile."""

    busy_changed = Signal(bool)

    def __init__(
        self,
        parent: QWidget,
        *,
        session: Session,
        dialogs: Dialogs,
        files: PackFiles,
        show_message: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self._session = session
        self._dialogs = dialogs
        self._files = files
        self._show = show_message
        self.busy = False

    def start(self) -> bool:
        """Ask for a file and start importing it; False when there is nothing to do."""
        if self.busy:
            return False
        pack = self._session.pack
        start = str(pack.path.parent) if pack and pack.path else str(Path.home())
        path = self._dialogs.choose_import_file(
            self._parent, title=TITLE, name_filter=KEKE_FILTER, start=start
        )
        if path is None:
            return False
        self.busy = True
        self.busy_changed.emit(True)
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        self._show(f"Importing {path.name}…")
        scheduler().in_thread(
            self,
            Priority.INPUT,
            lambda: engine.import_keke(path, skip_unsupported=True),
            lambda result, failure: self._on_finished(
                path, result if failure is None else failure.error
            ),
        )
        return True

    def _on_finished(self, path: Path, outcome: engine.KekeImport | BaseException | None) -> None:
        self.busy = False
        self.busy_changed.emit(False)
        QApplication.restoreOverrideCursor()
        self._show("")
        if isinstance(outcome, engine.KekeImport):
            self._open(path, outcome)
        elif isinstance(outcome, engine.ValidationError):
            self._problems(path, outcome.errors)
        else:
            self._dialogs.error(self._parent, TITLE, f"{path.name}: {outcome}")

    def _open(self, path: Path, result: engine.KekeImport) -> None:
        if not result.pack.levels:
            self._problems(path, [u.problem(path.name) for u in result.unsupported])
            return
        if result.unsupported and not self._dialogs.confirm(
            self._parent, TITLE, question(path.name, result)
        ):
            return
        if not self._files.maybe_keep_changes():
            return
        self._session.set_pack(PackDocument.from_pack(result.pack))
        self._files.problems = []
        self._show(summary(path.name, result))

    def _problems(self, path: Path, problems: list[engine.Problem]) -> None:
        self._dialogs.show_problems(
            self._parent, path.name, problems, can_repair=False, repair_notes=[]
        )
        self._show(f"{path.name} was not imported: {engine.counted(len(problems), 'problem')}")


def question(name: str, result: engine.KekeImport) -> str:
    """Which levels use what Rulegrid lacks, and what: the author decides with this in view."""
    uses: dict[str, dict[str, None]] = {}
    for item in result.unsupported:
        uses.setdefault(item.level, {})[item.meaning] = None
    lines = [f"level {level}: {', '.join(meanings)}" for level, meanings in uses.items()]
    shown = lines[:NAMED] + ([f"… and {len(lines) - NAMED} more"] if len(lines) > NAMED else [])
    kept = len(result.pack.levels)
    return (
        f"{len(uses)} of the {len(uses) + kept} levels in {name} use what Rulegrid does not "
        "have:\n\n"
        + "\n".join(shown)
        + f"\n\nImport the other {engine.counted(kept, 'level')} as a new pack?"
    )


def summary(name: str, result: engine.KekeImport) -> str:
    wins, total = len(result.winning), len(result.replays)
    losing = [r.level for r in result.replays if not r.wins]
    more = f" and {len(losing) - 5} more" if len(losing) > 5 else ""
    tail = f"; not winning: {', '.join(losing[:5])}{more}" if losing else ""
    return (
        f"Imported {len(result.pack.levels)} Keke levels from {name}: {wins} of {total} "
        f"solutions win under Rulegrid's rules{tail}. Save the pack to keep it."
    )
