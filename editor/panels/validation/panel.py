"""The Problems panel (``validationPanel``): every problem of the open pack, live.

Errors come from the engine's validation, warnings from its lints, and "changed"
rows say what the editor had to change when it opened a broken pack (until the
next save). The rows come from :class:`~editor.tasks.validation.PackValidator`,
which re-checks in the background after each edit; the panel only shows them, so
painting never waits for it.

Activating a row (double-click or Enter) jumps to the problem: it selects its
level, highlights the entity its pointer names on the canvas (and shows its cell
in the stack inspector), and emits ``problem_activated(level_id, pointer)`` so
the window can open the panel that edits the field (automata, mechanics, level
or pack properties; ``editor.panels.validation.jump``).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.validation.jump import entity_cell, unshown_index
from editor.panels.validation.model import (
    ALL_LEVELS,
    ROW_ROLE,
    SEVERITY_ICON,
    ProblemsModel,
)
from editor.panels.validation.view import ColumnHeader, problem_list
from editor.resources import icon
from editor.tasks.validation import (
    CHANGED,
    ERROR,
    SEVERITIES,
    WARNING,
    PackValidator,
    ProblemRow,
    ValidationResult,
)
from editor.views.canvas import GridCanvas

CURRENT_LEVEL = "current"
_NOUN = {
    ERROR: ("error", "errors"),
    WARNING: ("warning", "warnings"),
    CHANGED: ("change", "changes"),
}


def counted(count: int, severity: str) -> str:
    one, many = _NOUN[severity]
    return engine.counted(count, one, many)


class ValidationPanel(QWidget):
    """The list of problems, its filters, and the jump to a problem."""

    problem_activated = Signal(str, str)  # level id ("" for the pack), pointer
    title_changed = Signal(str)  # the dock title, with the counts
    summary_changed = Signal(str)  # a short count for the status bar

    def __init__(
        self,
        session: Session,
        canvas: GridCanvas,
        parent: QWidget | None = None,
        *,
        validator: PackValidator | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("validationPanel")
        self.setAccessibleName("validationPanel")
        self._session = session
        self._canvas = canvas
        self.validator = validator if validator is not None else PackValidator(session, self)
        self.model = ProblemsModel(self)

        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("validationToolBar")
        self.severity_buttons: dict[str, QToolButton] = {}
        # A toolbar shows or hides a widget through the action it made for it: the
        # widget's own setVisible is overruled when the toolbar lays out again.
        self._severity_actions: dict[str, QAction] = {}
        for severity in SEVERITIES:
            button = QToolButton(self)
            button.setObjectName(f"problemsShow_{severity}")
            button.setCheckable(True)
            button.setChecked(True)
            button.setIcon(icon(SEVERITY_ICON[severity]))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setToolTip(f"Show {_NOUN[severity][1]}")
            button.toggled.connect(self._apply_filter)
            self._severity_actions[severity] = self.toolbar.addWidget(button)
            self.severity_buttons[severity] = button
        # A menu, not a combo box: the panel's only item view is the list of problems.
        self.level_filter = QToolButton(self)
        self.level_filter.setObjectName("problemsLevelFilter")
        self.level_filter.setAccessibleName("Show problems of")
        self.level_filter.setToolTip("Show the problems of every level, this level, or one level")
        self.level_filter.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.level_filter.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.level_menu = QMenu(self.level_filter)
        self.level_menu.aboutToShow.connect(self._fill_level_menu)  # built when opened
        self.level_filter.setMenu(self.level_menu)
        self._level_group = QActionGroup(self)
        self._level_group.triggered.connect(self._on_level_chosen)
        self._choice: int | str = ALL_LEVELS
        self._counts: dict[str, int] = {}  # severity -> rows
        self._level_counts: dict[int, int] = {}  # level key -> rows
        self.toolbar.addSeparator()
        self.toolbar.addWidget(self.level_filter)

        self.view = problem_list(self)
        self.view.setModel(self.model)
        self.header = ColumnHeader(self.view, self)
        self.view.activated.connect(self._on_view_activated)  # Enter, or a double-click
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._on_view_context_menu)

        self.empty = QLabel("Checking…", self)
        self.empty.setObjectName("problemsEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setEnabled(False)
        listing = QWidget(self)
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        listing_layout.setSpacing(0)
        listing_layout.addWidget(self.header)
        listing_layout.addWidget(self.view, 1)
        # a row at least, so the panel can be small while it lists nothing (window_layout)
        self.view.setMinimumHeight(2 * self.view.fontMetrics().height())
        self._listing = listing
        self.pages = QStackedWidget(self)
        self.pages.addWidget(listing)
        self.pages.addWidget(self.empty)
        self.status = QLabel(self)
        self.status.setObjectName("problemsStatus")
        self.status.setAccessibleName("Problems summary")
        self.status.setAccessibleDescription("How many errors and warnings the pack has now")
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.status)

        self.validator.results_changed.connect(self._on_validator_results)
        self.validator.busy_changed.connect(self._on_validator_busy)
        self.validator.failed.connect(self._on_validator_failed)
        session.level_changed.connect(self._on_session_level_changed)
        session.pack_changed.connect(lambda _pack: self._on_validator_results(None))
        self._fill_level_filter()
        self._show_counts()

    def sizeHint(self) -> QSize:
        return QSize(720, 240)  # room for about eight rows under the canvas

    # ------------------------------------------------------------------ API
    def add_action(self, action: QAction) -> None:
        """Put a window action (Check Now, F7) on the panel's toolbar."""
        self.toolbar.insertAction(self.toolbar.actions()[0], action)
        self.toolbar.insertSeparator(self.toolbar.actions()[1])

    def rows(self) -> list[ProblemRow]:
        """The rows shown now, in order."""
        return [r for i in range(self.model.rowCount()) if (r := self.model.row_at(i))]

    def activate_row(self, row: int) -> None:
        """Jump to the problem in ``row`` of the list, as a double-click does."""
        self._on_view_activated(self.model.index(row, 0))

    # ------------------------------------------------------------- updating
    def _on_validator_results(self, result: ValidationResult | None) -> None:
        current = self.model.row_at(self.view.currentIndex().row())
        scroll = self.view.verticalScrollBar().value()
        self._counts = dict(result.counts) if result is not None else {}
        self._level_counts = dict(result.level_counts) if result is not None else {}
        self.model.set_rows(result.rows if result is not None else ())
        self._fill_level_filter()
        if current is not None:
            row = self.model.find(current.key)
            if row >= 0:
                self.view.setCurrentIndex(self.model.index(row, 0))
        self.view.verticalScrollBar().setValue(scroll)
        self._show_counts()

    def _on_validator_busy(self, busy: bool) -> None:
        self._show_counts()

    def _on_validator_failed(self, message: str) -> None:
        first = message.splitlines()[0] if message else "unknown error"
        self.status.setText(f"The check failed: {first} (the log has the details)")
        self.status.setToolTip(message)

    def _on_session_level_changed(self, _level: LevelDocument | None) -> None:
        if self._level_choice() == CURRENT_LEVEL:
            self._apply_filter()

    def _show_counts(self) -> None:
        counts = {s: self._counts.get(s, 0) for s in SEVERITIES}
        for severity, button in self.severity_buttons.items():
            button.setText(counted(counts[severity], severity))
            self._severity_actions[severity].setVisible(severity != CHANGED or counts[CHANGED] > 0)
        result = self.validator.result
        busy = self.validator.is_busy()
        if busy:
            self.status.setText("Checking…")
        elif result is not None and self.validator.last_failure is None:
            how = (
                "every level" if result.full else engine.counted(result.rechecked, "changed level")
            )
            self.status.setText(f"Checked {how} in {result.seconds * 1000:.0f} ms")
            self.status.setToolTip("")
        parts = [counted(counts[s], s) for s in SEVERITIES if counts[s] or s != CHANGED]
        self.title_changed.emit(f"Problems — {', '.join(parts)}")
        self.summary_changed.emit(
            f"{counted(counts[ERROR], ERROR)} · {counted(counts[WARNING], WARNING)}"
            if result is not None
            else "Checking…"
        )
        self._show_empty(busy and result is None)

    def _show_empty(self, checking: bool) -> None:
        if self.model.rowCount() > 0:
            self.pages.setCurrentWidget(self._listing)
            return
        if checking:
            self.empty.setText("Checking…")
        elif self.model.all_rows():
            self.empty.setText("No problems match the filters.")
        else:
            self.empty.setText("No problems: the pack is valid and no lint has a warning.")
        self.pages.setCurrentWidget(self.empty)

    # -------------------------------------------------------------- filters
    def _level_choices(self) -> list[tuple[str, int | str]]:
        """All levels, the current level, then each level that has problems, with counts."""
        counts = self._level_counts
        choices: list[tuple[str, int | str]] = [
            ("All levels", ALL_LEVELS),
            ("Current level", CURRENT_LEVEL),
        ]
        pack = self._session.pack
        for level in pack.levels if pack is not None and counts else []:
            key = self.validator.key_of(level)
            if key is not None and key in counts:
                choices.append((f"{level.level_id} ({counts[key]})", key))
        return choices

    def _fill_level_filter(self) -> None:
        """Keep the chosen level while it has problems; the menu itself is built when opened."""
        choice = self._choice
        if isinstance(choice, int) and choice not in self._level_counts:
            choice = self._choice = ALL_LEVELS  # that level has no problems left
        if choice == ALL_LEVELS:
            self.level_filter.setText("All levels")
        elif choice == CURRENT_LEVEL:
            self.level_filter.setText("Current level")
        else:
            level = self.validator.level_for(int(choice))
            name = level.level_id if level is not None else "?"
            self.level_filter.setText(f"{name} ({self._level_counts.get(int(choice), 0)})")
        self._apply_filter()

    def _fill_level_menu(self) -> None:
        self.level_menu.clear()
        for text, value in self._level_choices():
            action = self.level_menu.addAction(text)
            action.setCheckable(True)
            action.setData(value)
            action.setChecked(value == self._choice)
            self._level_group.addAction(action)
            if value == CURRENT_LEVEL and self._level_counts:
                self.level_menu.addSeparator()

    def choose_level_filter(self, choice: int | str) -> None:
        """Show the problems of every level (``"all"``), the current one (``"current"``),
        or the level with this validator key."""
        self._choice = choice
        self._fill_level_filter()

    def _on_level_chosen(self, action: QAction) -> None:
        data = action.data()
        self.choose_level_filter(data if isinstance(data, int | str) else ALL_LEVELS)

    def _level_choice(self) -> int | str:
        return self._choice

    def _apply_filter(self) -> None:
        choice = self._level_choice()
        if choice == CURRENT_LEVEL:
            key = self.validator.key_of(self._session.level)
            choice = key if key is not None else -1
        severities = [s for s, b in self.severity_buttons.items() if b.isChecked()]
        self.model.set_filter(severities=severities, level=choice)
        self._show_empty(False)

    # ---------------------------------------------------------------- jumps
    def _on_view_activated(self, index: QModelIndex) -> None:
        row = index.data(ROW_ROLE) if index.isValid() else None
        if not isinstance(row, ProblemRow):
            return
        level = self.validator.level_for(row.level_key)
        if row.level_key is not None and level is None:
            self._session.message.emit("That level is no longer in the pack")
            return
        if level is not None:
            self._session.set_level(level)
        self._highlight(row, level)
        self.problem_activated.emit(level.level_id if level is not None else "", row.pointer)

    def _highlight(self, row: ProblemRow, level: LevelDocument | None) -> None:
        target = row.target
        if level is None or target is None or target.entity_id is None:
            self._canvas.clear_highlight()
            return
        if not target.on_board:
            self._canvas.clear_highlight()
            where = f" at {target.cell}" if target.cell is not None else ""
            self._session.message.emit(
                f"Entity {target.entity_id}{where} is not on the board: resize the level "
                "to bring it in, or fix the record"
            )
            return
        pos = entity_cell(level, target.entity_id, target.cell)
        if pos is None:
            self._canvas.clear_highlight()
            self._session.message.emit(f"Entity {target.entity_id} is no longer on the board")
            return
        self._canvas.set_highlight([target.entity_id])
        self._session.inspect(pos)

    def _on_view_context_menu(self, pos: QPoint) -> None:
        row = self.model.row_at(self.view.indexAt(pos).row())
        if row is None:
            return
        menu = QMenu(self)
        go = menu.addAction("Go to Problem")
        go.triggered.connect(lambda: self.activate_row(self.model.find(row.key)))
        if self._unshown_record(row) is not None:
            delete = menu.addAction("Delete Entity Not on the Board")
            delete.setObjectName("problemsDeleteUnshown")
            delete.triggered.connect(lambda: self.delete_unshown(row))
        menu.exec(self.view.viewport().mapToGlobal(pos))

    def _unshown_record(self, row: ProblemRow) -> tuple[LevelDocument, int] | None:
        level = self.validator.level_for(row.level_key)
        if row.target is None or level is None:
            return None
        index = unshown_index(level, row.target)
        return None if index is None else (level, index)

    def delete_unshown(self, row: ProblemRow) -> bool:
        """Delete the entity a row names that is not on the board (one undoable edit)."""
        found = self._unshown_record(row)
        if found is None:
            return False
        level, index = found
        self._session.set_level(level)
        return level.remove_unshown(index)
