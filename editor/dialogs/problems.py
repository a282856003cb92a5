"""Shows every problem that kept a pack from loading, each with where it is.

The summary says why in words first: how many problems, the first few (where,
then what) and "and N more". Columns: the location (pack and JSON Pointer), the
level id, the problem's code and its message; the list is ``engine.load_pack``'s,
the one the Problems panel shows. When the file is JSON within the caps, an
"Open Anyway to Fix" button opens it for repair, and the dialog says what that
keeps (fields and entities it cannot show are kept as written); otherwise it says
why the pack cannot be opened at all.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine

TOO_MANY_PROBLEMS = "too-many-problems"

COLUMNS = ("Where", "Level", "Code", "Problem")


class ProblemsDialog(QDialog):
    def __init__(
        self,
        source: str,
        problems: list[engine.Problem],
        *,
        can_repair: bool,
        repair_notes: list[str] | None = None,
        why_not: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("problemsDialog")
        self.setWindowTitle("Pack problems")
        self.resize(860, 420)
        summary = QLabel(summary_text(source, problems, can_repair, why_not), self)
        summary.setObjectName("problemsSummary")
        summary.setTextFormat(Qt.TextFormat.RichText)
        summary.setWordWrap(True)
        self.table = QTreeWidget(self)
        self.table.setObjectName("problemsList")
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        self.table.setHeaderLabels(list(COLUMNS))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        for problem in problems:
            where = f"{problem.pack or ''}{problem.pointer or '/'}"
            item = QTreeWidgetItem([where, problem.level or "", problem.code, problem.message])
            item.setToolTip(3, problem.message)
            self.table.addTopLevelItem(item)
        header = self.table.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.table, 1)
        if can_repair:
            notes = QLabel(repair_text(repair_notes or []), self)
            notes.setObjectName("problemsRepairNotes")
            notes.setWordWrap(True)
            notes.setTextFormat(Qt.TextFormat.RichText)
            layout.addWidget(notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.repair_button: QPushButton | None = None
        if can_repair:
            self.repair_button = buttons.addButton(
                "Open Anyway to Fix", QDialogButtonBox.ButtonRole.AcceptRole
            )
            self.repair_button.setObjectName("problemsOpenAnyway")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def rows(self) -> list[tuple[str, str, str, str]]:
        out = []
        for i in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(i)
            assert item is not None
            out.append((item.text(0), item.text(1), item.text(2), item.text(3)))
        return out


#: Notes the dialog lists before it says "and N more" (the Problems panel has them all).
SHOWN_NOTES = 8
#: Problems the summary names in words before it says "and N more".
SHOWN_PROBLEMS = 3


def summary_text(
    source: str, problems: list[engine.Problem], can_repair: bool, why_not: str = ""
) -> str:
    """Why the pack did not load, in words: the count, the first problems, what next."""
    listed = [p for p in problems if p.code != TOO_MANY_PROBLEMS]
    cut = [p for p in problems if p.code == TOO_MANY_PROBLEMS]
    count = engine.counted(len(listed), "problem") + (" (and more, not listed)" if cut else "")
    first = "".join(
        f"<li>{html.escape(_where(p))}: {html.escape(p.message)}</li>"
        for p in listed[:SHOWN_PROBLEMS]
    )
    if len(listed) > SHOWN_PROBLEMS:
        first += f"<li>and {len(listed) - SHOWN_PROBLEMS:,} more (listed below)</li>"
    if can_repair:
        then = "You can open it anyway and fix them in the editor."
    elif why_not:
        then = f"It cannot be opened for repair: {html.escape(why_not)}."
    else:
        then = ""
    return f"<b>{html.escape(source)}</b> did not load: {count}.<ul>{first}</ul>{then}"


def _where(problem: engine.Problem) -> str:
    level = f' (level "{problem.level}")' if problem.level else ""
    return f"{problem.pointer or '/'}{level}"


def repair_text(notes: list[str]) -> str:
    """What opening anyway does: everything is kept, and these are the exceptions."""
    head = (
        "Opening it anyway keeps everything the pack holds. The problems stay listed in "
        "the Problems panel while you fix them."
    )
    if not notes:
        return head
    items = "".join(f"<li>{html.escape(n)}</li>" for n in notes[:SHOWN_NOTES])
    if len(notes) > SHOWN_NOTES:
        items += f"<li>and {len(notes) - SHOWN_NOTES:,} more (listed in the Problems panel)</li>"
    return f"{html.escape(head)}<br>Also:<ul>{items}</ul>"
