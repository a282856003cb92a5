"""The Problems panel's item model: problem rows, filtered by severity and level.

The rows arrive whole from the validator (built off the UI thread, already in
document order); the model only swaps them in and filters, so an update of the
panel costs a list comprehension and a model reset, however large the pack.
Each row is one item whose ``Qt.UserRole`` is the problem record (docs/contract.md section
7): ``{"pack", "level", "pointer", "code", "message"}``. It is a list, one item a
problem: the panel's delegate draws the columns (``validation.view``), so the
panel holds exactly one item view and a list view lays out no row it does not show.

The row count lives in C++ (a list of empty strings in the base class, one per
shown row): a list view asks for it once per row when it lays itself out, and
10,000 Python calls made showing the panel after a check a 27-43 ms stall.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt
from PySide6.QtGui import QIcon

from editor.resources import icon
from editor.tasks.validation import CHANGED, ERROR, SEVERITIES, WARNING, ProblemRow

Index = QModelIndex | QPersistentModelIndex
#: Roles beyond the api's ``UserRole`` record.
SEVERITY_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2

SEVERITY_TEXT = {ERROR: "Error", WARNING: "Warning", CHANGED: "Changed when opened"}
SEVERITY_ICON = {ERROR: "problem-error", WARNING: "problem-warning", CHANGED: "problem-changed"}
#: ``level_filter`` values beyond a level key.
ALL_LEVELS = "all"


class ProblemsModel(QStringListModel):
    """Problem rows, the ones passing the filters shown in document order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._all: tuple[ProblemRow, ...] = ()
        self._shown: list[ProblemRow] = []
        self._severities: frozenset[str] = frozenset(SEVERITIES)
        self._level: int | str = ALL_LEVELS  # ALL_LEVELS or a level key
        self._icons: dict[str, QIcon] = {s: icon(name) for s, name in SEVERITY_ICON.items()}

    # ----------------------------------------------------------------- rows
    def set_rows(self, rows: Sequence[ProblemRow]) -> None:
        self._all = tuple(rows)
        self._filter()

    def set_filter(self, *, severities: Iterable[str], level: int | str) -> None:
        severities = frozenset(severities)
        if severities == self._severities and level == self._level:
            return
        self._severities, self._level = severities, level
        self._filter()

    def _filter(self) -> None:
        """Choose the shown rows and reset the views (``setStringList`` is the reset)."""
        wanted, level = self._severities, self._level
        self._shown = [
            r
            for r in self._all
            if r.severity in wanted and (level == ALL_LEVELS or r.level_key == level)
        ]
        self.setStringList([""] * len(self._shown))

    def all_rows(self) -> tuple[ProblemRow, ...]:
        return self._all

    def row_at(self, row: int) -> ProblemRow | None:
        return self._shown[row] if 0 <= row < len(self._shown) else None

    def find(self, key: tuple[str, str, str, str]) -> int:
        """The shown row with this :attr:`ProblemRow.key`, or -1."""
        return next((i for i, r in enumerate(self._shown) if r.key == key), -1)

    # ------------------------------------------------------------ item model
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        record = row.record
        if role == Qt.ItemDataRole.DisplayRole:
            return str(record["message"])
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icons[row.severity]
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f"{record['pack']}{record['pointer'] or '/'}"
            return (
                f"{SEVERITY_TEXT[row.severity]} ({record['code']}) at {where}:\n{record['message']}"
            )
        if role == Qt.ItemDataRole.AccessibleTextRole:
            level = record["level"] or "the pack"
            return f"{SEVERITY_TEXT[row.severity]} in {level}: {record['message']}"
        if role == Qt.ItemDataRole.UserRole:
            return dict(record)
        if role == SEVERITY_ROLE:
            return row.severity
        if role == ROW_ROLE:
            return row
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
