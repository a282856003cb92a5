"""The rules panel (``rulesPanel``): the live rules of the level, tied to their words.

It lists what :class:`~editor.tasks.analysis.AnalysisService` reads at move 0
(rows built by :mod:`editor.panels.rules.rows`) and links them to the canvas both
ways:

* selecting rows in the panel (click, Up/Down) highlights their words on the
  canvas, dims the rest and scrolls to them;
* hovering a word cell selects the rules that word takes part in (or the hint
  about it) and outlines their words without dimming or scrolling, so painting
  is never disturbed; leaving word cells brings back the selection made before;
* selecting a word cell (a tool's click: the session's inspected cell) makes that
  selection stick, and it follows the next reading (a word just painted selects
  its new rule as soon as it is read).

Readings that only change a few rows update those items in place; the list is
rebuilt only when its shape changes, and the selection survives by row key.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, Qt
from PySide6.QtGui import QAction, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLabel,
    QListView,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from editor.documents.session import Session
from editor.panels.rules.delegate import (
    COLLAPSED_ROLE,
    DEPTH_ROLE,
    IDS_ROLE,
    KEY_ROLE,
    KIND_ROLE,
    SEVERITY_ROLE,
    SUMMARY_ROLE,
    WORDS_ROLE,
    RuleItemDelegate,
)
from editor.panels.rules.layers import PropertyOverlayLayer, UnusedWordsLayer
from editor.panels.rules.rows import Row, build_rows
from editor.tasks.analysis import AnalysisService, AnalysisState
from editor.values import OBJECT, Pos
from editor.views.canvas import GridCanvas
from editor.views.tiles import TileRenderer

Key = tuple[object, ...]
PANEL, CANVAS, HOVER = "panel", "canvas", "hover"
ROWS = "rulesPanel.rows"


class RulesPanel(QWidget):
    """The ``rulesPanel`` dock widget: one list view of rules, effects and hints (rows indented)."""

    def __init__(
        self,
        analysis: AnalysisService,
        canvas: GridCanvas,
        session: Session,
        renderer: TileRenderer,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("rulesPanel")
        self.setAccessibleName("rulesPanel")
        self._analysis = analysis
        self._canvas = canvas
        self._session = session
        self.status = QLabel(self)
        self.status.setObjectName("rulesStatus")
        self.status.setWordWrap(True)
        self.model = QStandardItemModel(self)
        # A list, not a tree: the panel holds exactly one item view (a tree view
        # carries a header view too); rows carry their depth and are indented.
        self.view = QListView(self)
        self.view.setObjectName("rulesList")
        self.view.setAccessibleName("Rules")
        self.view.setAccessibleDescription(
            "The rules at move 0; select one to light up its words, Up and Down walk them"
        )
        self.view.setModel(self.model)
        self.view.setItemDelegate(RuleItemDelegate(renderer, self.view))
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setMouseTracking(True)
        self.view.setUniformItemSizes(True)  # one row height: no layout pass over every row
        self.view.activated.connect(self._toggle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.status)
        layout.addWidget(self.view, 1)
        self._rows: tuple[Row, ...] = ()
        self._items: dict[Key, QStandardItem] = {}
        self._parents: dict[Key, Key] = {}
        self._collapsed: set[Key] = set()
        self._applying = False
        self._mode = PANEL
        self._sticky: list[Key] = []  # the selection hover falls back to
        self._sticky_mode = PANEL
        self._focus: Pos | None = None  # the word cell a canvas selection follows
        self._hover: Pos | None = None
        self._owns_highlight = False
        selection = self.view.selectionModel()
        selection.selectionChanged.connect(self._on_selection_changed)
        self.view.doubleClicked.connect(self._toggle)
        analysis.derive(ROWS, build_rows)  # rows are built in the worker, shown here
        analysis.changed.connect(self._on_analysis_changed)
        canvas.hovered.connect(self._on_canvas_hovered)
        canvas.highlight_changed.connect(self._on_highlight_changed)
        session.inspected_changed.connect(self._on_inspected)
        renderer.look.changed.connect(self.view.viewport().update)
        self.unused_words = UnusedWordsLayer(analysis, session, renderer)
        self.property_overlay = PropertyOverlayLayer(analysis, session)
        canvas.add_layer(self.unused_words)
        canvas.add_layer(self.property_overlay)
        self._on_analysis_changed()

    def action_handlers(self, action: Callable[[str], QAction]) -> dict[str, Callable[[], None]]:
        """Handlers of the panel's View toggles (``RULES_VIEW_ACTIONS``), by action id."""

        def toggle(layer: UnusedWordsLayer | PropertyOverlayLayer, name: str) -> Callable[[], None]:
            return lambda: layer.set_enabled(action(name).isChecked())

        return {
            "actionDimUnusedWords": toggle(self.unused_words, "actionDimUnusedWords"),
            "actionPropertyOverlay": toggle(self.property_overlay, "actionPropertyOverlay"),
        }

    # ----------------------------------------------------------------- reading
    @property
    def state(self) -> AnalysisState | None:
        return self._analysis.current

    def rule_items(self) -> list[QStandardItem]:
        """Every rule item, in engine order."""
        return [item for item in self._walk() if item.data(KIND_ROLE) == "rule"]

    def items_of_kind(self, kind: str) -> list[QStandardItem]:
        return [item for item in self._walk() if item.data(KIND_ROLE) == kind]

    def selected_keys(self) -> list[Key]:
        indexes = sorted(self.view.selectionModel().selectedIndexes(), key=self._order)
        return [index.data(KEY_ROLE) for index in indexes]

    # ---------------------------------------------------------------- updating
    def _on_analysis_changed(self) -> None:
        state = self._analysis.current
        found = None if state is None else state.derived.get(ROWS)
        rows = found if isinstance(found, tuple) else build_rows(state)
        if self._shape(rows) == self._shape(self._rows):
            for new, old in zip(self._flatten(rows), self._flatten(self._rows), strict=True):
                if new != old:
                    _fill(self._items[new.key], new)
        else:
            self._rebuild(rows)
        self._rows = rows
        self._update_status(state)
        if self._focus is not None and self._sticky_mode == CANVAS:
            self._sticky = self._keys_for_cell(self._focus)
        keys = self._keys_for_cell(self._hover) if self._mode == HOVER and self._hover else []
        if keys:
            self._select(keys, HOVER)
        else:
            self._select(self._sticky, self._sticky_mode, scroll=False)

    def _rebuild(self, rows: tuple[Row, ...]) -> None:
        self._applying = True
        try:
            self.model.clear()
            self._items.clear()
            self._parents = {}
            for row in rows:
                self._make(row, 0, None)
            self._apply_collapsed()
        finally:
            self._applying = False

    def _make(self, row: Row, depth: int, parent: Key | None) -> None:
        item = QStandardItem()
        item.setEditable(False)
        _fill(item, row)
        item.setData(depth, DEPTH_ROLE)
        self.model.appendRow(item)
        self._items[row.key] = item
        if parent is not None:
            self._parents[row.key] = parent
        for child in row.children:
            self._make(child, depth + 1, row.key)

    def _hidden(self, key: Key) -> bool:
        parent = self._parents.get(key)
        while parent is not None:
            if parent in self._collapsed:
                return True
            parent = self._parents.get(parent)
        return False

    def _apply_collapsed(self) -> None:
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            key = item.data(KEY_ROLE)
            self.view.setRowHidden(row, self._hidden(key))
            if any(self._parents.get(k) == key for k in self._parents):
                item.setData(key in self._collapsed, COLLAPSED_ROLE)

    def _toggle(self, index: QModelIndex) -> None:
        """Double-click (or Enter) on a group or sentence folds its rows away or back."""
        key = index.data(KEY_ROLE)
        if not any(parent == key for parent in self._parents.values()):
            return
        if key in self._collapsed:
            self._collapsed.discard(key)
        else:
            self._collapsed.add(key)
        self._apply_collapsed()

    def _update_status(self, state: AnalysisState | None) -> None:
        if state is None:
            self.status.setText("No level" if self._session.level is None else "Reading…")
            return
        analysis = state.analysis
        if analysis.complexity is not None:
            self.status.setText("The board is over the parse budget: see the error below")
            return
        parts = [_count(len(analysis.rules), "rule")]
        hints = sum(1 for h in analysis.hints if h.code != "rule-complexity")
        if hints:
            parts.append(_count(hints, "hint"))
        if analysis.problems:
            parts.append(_count(len(analysis.problems), "problem"))
        self.status.setText(" · ".join(parts) + " at move 0")

    # --------------------------------------------------------------- selection
    def _select(self, keys: list[Key], mode: str, *, scroll: bool = True) -> None:
        """Select the rows with ``keys`` (those still shown) and highlight their words."""
        self._mode = mode
        selection = QItemSelection()
        first: QModelIndex | None = None
        for key in keys:
            item = self._items.get(key)
            if item is None:
                continue
            index = item.index()
            selection.select(index, index)
            first = first or index
        self._applying = True
        try:
            model = self.view.selectionModel()
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
            model.select(selection, flags)
            if first is not None:
                model.setCurrentIndex(first, QItemSelectionModel.SelectionFlag.NoUpdate)
                if scroll:
                    self.view.scrollTo(first)
        finally:
            self._applying = False
        self._highlight()

    def _on_selection_changed(self) -> None:
        if self._applying:
            return
        self._mode = PANEL
        self._sticky, self._sticky_mode, self._focus = self.selected_keys(), PANEL, None
        self._highlight()

    def _highlight(self) -> None:
        ids: list[int] = []
        for index in sorted(self.view.selectionModel().selectedIndexes(), key=self._order):
            ids += index.data(IDS_ROLE) or []
        if ids:
            full = self._mode == PANEL
            self._canvas.set_highlight(ids, dim_others=full, reveal=full)
            self._owns_highlight = True
        elif self._owns_highlight:
            self._owns_highlight = False
            self._canvas.clear_highlight()

    def _on_highlight_changed(self) -> None:
        """Another panel took the canvas's highlight: leave it alone from now on."""
        ids: set[int] = set()
        for index in self.view.selectionModel().selectedIndexes():
            ids.update(index.data(IDS_ROLE) or [])
        if set(self._canvas.highlighted_ids) != ids:
            self._owns_highlight = False

    # -------------------------------------------------------- words -> rules
    def _keys_for_cell(self, pos: Pos | None) -> list[Key]:
        """The rules a word cell takes part in, or else the hints about its words."""
        level = self._session.level
        if pos is None or level is None:
            return []
        ids = {p.id for p in level.stack_at(pos) if p.kind != OBJECT}
        if not ids:
            return []
        for kind in ("rule", "hint", "error"):
            keys = [
                item.data(KEY_ROLE)
                for item in self._walk()
                if item.data(KIND_ROLE) == kind and ids & set(item.data(IDS_ROLE) or ())
            ]
            if keys:
                return keys
        return []

    def _on_canvas_hovered(self, pos: Pos | None) -> None:
        self._hover = pos
        keys = self._keys_for_cell(pos)
        if keys:
            self._select(keys, HOVER)
        elif self._mode == HOVER:
            self._select(self._sticky, self._sticky_mode, scroll=False)

    def _on_inspected(self, pos: Pos | None) -> None:
        level = self._session.level
        is_word = (
            pos is not None
            and level is not None
            and any(p.kind != OBJECT for p in level.stack_at(pos))
        )
        if is_word:
            self._focus, self._sticky_mode = pos, CANVAS
            self._sticky = self._keys_for_cell(pos)
            self._select(self._sticky, CANVAS)
        elif self._sticky_mode == CANVAS:
            self._focus, self._sticky = None, []
            self._select([], CANVAS)

    # ---------------------------------------------------------------- helpers
    def _walk(self) -> list[QStandardItem]:
        return [self.model.item(row) for row in range(self.model.rowCount())]

    def _order(self, index: QModelIndex) -> int:
        return index.row()

    @staticmethod
    def _flatten(rows: tuple[Row, ...]) -> list[Row]:
        out: list[Row] = []
        for row in rows:
            out.append(row)
            out += RulesPanel._flatten(row.children)
        return out

    @staticmethod
    def _shape(rows: tuple[Row, ...]) -> list[tuple[Key, int]]:
        return [(row.key, len(row.children)) for row in RulesPanel._flatten(rows)]


def _fill(item: QStandardItem, row: Row) -> None:
    item.setText(row.text)
    item.setData(row.rule, Qt.ItemDataRole.UserRole)
    item.setData(row.kind, KIND_ROLE)
    item.setData(list(row.ids), IDS_ROLE)
    item.setData(list(row.words), WORDS_ROLE)
    item.setData(row.summary, SUMMARY_ROLE)
    item.setData(row.key, KEY_ROLE)
    item.setData(row.severity, SEVERITY_ROLE)
    item.setData(row.accessible or row.text, Qt.ItemDataRole.AccessibleTextRole)
    item.setToolTip(row.tooltip or row.text)
    font = item.font()
    font.setBold(row.kind in ("group", "error"))
    item.setFont(font)
    icon = {"error": QStyle.StandardPixmap.SP_MessageBoxCritical}.get(row.severity)
    if row.kind in ("hint", "effect") and row.severity == "warning":
        icon = QStyle.StandardPixmap.SP_MessageBoxWarning
    if icon is not None and not row.words:
        item.setIcon(QApplication.style().standardIcon(icon))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
