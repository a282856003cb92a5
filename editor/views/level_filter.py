"""Finding levels in a real pack: a search field and a status filter over the level list.

A pack of a hundred levels has titles that repeat ("Baba is Y'all #29", "#85"...)
and statuses worth going through one kind at a time (every "shortcut", every
"unknown"). The bar hides the rows of the list that do not match; the model and
the pack stay as they are, so the rows' order, drag and drop and rename work as
without a filter. The status choices are the kinds the verdict style knows
(:data:`~editor.views.verdict_style.STATUS_MEANINGS`), so a new kind appears here
with its meaning.

Matching reads every level once per change of the search or the filter (a few
milliseconds for 10,000 levels), after the author stops typing; while a filter
is on, a level whose status changes is matched again alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QListView, QWidget

from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.views.verdict_style import STATUS_MEANINGS

if TYPE_CHECKING:
    from editor.views.level_list import StatusSource

#: How long after the last key the list is filtered (typing a title is one pass).
SEARCH_DELAY_MS = 120
ANY_STATUS = ""
_TEXT_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.UserRole)


class LevelFilterBar(QWidget):
    """The search field and the status filter; hides the list rows that do not match."""

    summary_changed = Signal(str)  # "12 of 113 levels" while filtering, "" otherwise

    def __init__(self, view: QListView, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("levelFilterBar")
        self._view = view
        self._session = session
        self._statuses: StatusSource | None = None
        self._search_texts: list[str] | None = None
        self._texts_of: object = None  # the pack the texts are of
        self._shown = 0
        self.search = _SearchField(self)
        self.search.setObjectName("levelSearch")
        self.search.setAccessibleName("Find a level")
        self.search.setPlaceholderText("Find a level (title or id)")
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip("Shows the levels whose title or id holds every word typed")
        self.status = QComboBox(self)
        self.status.setObjectName("levelStatusFilter")
        self.status.setAccessibleName("Show levels with the status")
        self.status.setToolTip("Show only the levels with this status")
        self.status.addItem("Any status", ANY_STATUS)
        for kind, meaning in STATUS_MEANINGS.items():
            self.status.addItem(kind, kind)
            self.status.setItemData(self.status.count() - 1, meaning, Qt.ItemDataRole.ToolTipRole)
        self.status.setEnabled(False)  # until statuses are shown
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(SEARCH_DELAY_MS)
        self._later.timeout.connect(self.apply)
        self.search.textChanged.connect(lambda _t: self._later.start())
        self.search.enter.connect(self._open_first)
        self.search.down.connect(self._to_list)
        self.status.currentIndexChanged.connect(lambda _i: self.apply())
        model = view.model()
        for done in (model.rowsInserted, model.rowsMoved, model.rowsRemoved, model.modelReset):
            done.connect(self._on_rows_changed)
        model.dataChanged.connect(self._on_data_changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.search, 3)
        layout.addWidget(self.status, 2)

    # ------------------------------------------------------------ public API
    def follow_statuses(self, source: StatusSource) -> None:
        """Filter by the statuses of ``source`` (the pack verifier)."""
        self._statuses = source
        self.status.setEnabled(True)
        source.status_changed.connect(self._on_status_changed)

    def set_search(self, text: str) -> None:
        self.search.setText(text)
        self.apply()

    def set_status(self, kind: str) -> None:
        """Show only levels whose status is ``kind`` (``""``: any status)."""
        index = self.status.findData(kind)
        if index < 0:
            raise ValueError(f"no status {kind!r} to filter by")
        self.status.setCurrentIndex(index)

    def filtering(self) -> bool:
        return bool(self.search.text().split()) or self._kind() != ANY_STATUS

    def shown_rows(self) -> list[int]:
        return [r for r in range(self._view.model().rowCount()) if not self._view.isRowHidden(r)]

    def apply(self) -> None:
        """Show exactly the rows that match the search and the status filter."""
        self._later.stop()
        pack, view = self._session.pack, self._view
        rows = view.model().rowCount()
        if pack is None or rows != pack.level_count():  # the rows follow in a later turn
            return
        words, kind = self.search.text().lower().split(), self._kind()
        keep = [True] * rows
        if words:
            texts = self._texts()
            for word in words:  # a pass a word: list comprehensions, no call per level
                keep = [k and word in text for k, text in zip(keep, texts, strict=True)]
        source = self._statuses
        if kind != ANY_STATUS:
            for row in range(rows):
                if keep[row]:
                    status = source.status(pack.level_at(row)) if source is not None else None
                    keep[row] = status is not None and status.kind == kind
        hidden = view.isRowHidden
        for row, shown in enumerate(keep):
            if hidden(row) == shown:
                view.setRowHidden(row, not shown)
        self._shown = sum(keep)
        self._say()

    # --------------------------------------------------------------- helpers
    def _kind(self) -> str:
        return str(self.status.currentData() or ANY_STATUS)

    def _texts(self) -> list[str]:
        """Each level's name and id in lower case, kept until the rows change."""
        pack = self._session.pack
        if pack is None:
            return []
        if self._search_texts is None or self._texts_of is not pack:
            names = pack.level_names()
            self._search_texts = [
                f"{name} {pack.level_id_at(row)}".lower() for row, name in enumerate(names)
            ]
            self._texts_of = pack
        return self._search_texts

    def _matches(self, level: LevelDocument, name: str, words: list[str], kind: str) -> bool:
        if words:
            text = f"{name} {level.level_id}".lower()
            if not all(word in text for word in words):
                return False
        if kind != ANY_STATUS:
            source = self._statuses
            status = source.status(level) if source is not None else None
            return status is not None and status.kind == kind
        return True

    def _say(self) -> None:
        pack = self._session.pack
        total = pack.level_count() if pack is not None else 0
        self.summary_changed.emit(f"{self._shown} of {total} levels" if self.filtering() else "")

    def _on_rows_changed(self, *_: object) -> None:
        self._search_texts = None  # a level came, went, moved or was renamed
        if self.filtering():
            self._later.start()  # a row that came or moved is matched with the others

    def _on_data_changed(self, _first: QModelIndex, _last: QModelIndex, roles: list[int]) -> None:
        """A level renamed (its id or title): its text is searched again. A status
        change alone is :meth:`_on_status_changed`'s."""
        if not roles or any(role in _TEXT_ROLES for role in roles):
            self._on_rows_changed()

    def _on_status_changed(self, level: LevelDocument) -> None:
        pack = self._session.pack
        if self._kind() == ANY_STATUS or pack is None:
            return
        row = pack.row_of(level)
        if row is None or row >= self._view.model().rowCount():
            return
        words = self.search.text().lower().split()
        name = str(self._view.model().index(row, 0).data() or "")
        hide = not self._matches(level, name, words, self._kind())
        if self._view.isRowHidden(row) != hide:
            self._view.setRowHidden(row, hide)
            self._shown += -1 if hide else 1
            self._say()

    def _open_first(self) -> None:
        """Enter in the search field: the first level shown becomes the current one."""
        self.apply()
        shown = self.shown_rows()
        pack = self._session.pack
        if shown and pack is not None:
            self._session.set_level(pack.level_at(shown[0]))
            self._view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _to_list(self) -> None:
        shown = self.shown_rows()
        if shown:
            current = self._view.currentIndex().row()
            row = current if current in shown else shown[0]
            self._view.setCurrentIndex(self._view.model().index(row, 0, QModelIndex()))
        self._view.setFocus(Qt.FocusReason.OtherFocusReason)


class _SearchField(QLineEdit):
    """Enter opens the first level found, Down goes to the list, Escape clears."""

    enter = Signal()
    down = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.enter.emit()
        elif key == Qt.Key.Key_Down:
            self.down.emit()
        elif key == Qt.Key.Key_Escape and self.text():
            self.clear()
        else:
            super().keyPressEvent(event)
