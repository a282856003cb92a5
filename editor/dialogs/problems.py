"""Shows every problem that kept a pack from loading, each with where it is.

Columns: the location (pack and JSON Pointer), the level id, the problem's
code and its message. When the editor can still read the pack, an
"Open Anyway to Fix" button opens it for repair, and the dialog says what that
keeps aside (entities it cannot show) and what it had to change.
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

COLUMNS = ("Where", "Level", "Code", "Problem")


class ProblemsDialog(QDialog):
    def __init__(
        self,
        source: str,
        problems: list[engine.Problem],
        *,
        can_repair: bool,
        repair_notes: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("problemsDialog")
        self.setWindowTitle("Pack problems")
        self.resize(860, 420)
        count = len(problems)
        summary = QLabel(
            f"<b>{source}</b> did not load: {count} problem{'s' if count != 1 else ''}."
            + (" You can open it anyway and fix them in the editor." if can_repair else ""),
            self,
        )
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
        items += f"<li>and {len(notes) - SHOWN_NOTES} more (listed in the Problems panel)</li>"
    return f"{html.escape(head)}<br>Also:<ul>{items}</ul>"
