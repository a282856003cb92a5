"""The ``automataPanel`` dock: the current level's automata, in authored order.

Automata act in the order they are authored (spec 03), so the list numbers them
and offers moving them up and down. Each list item's ``Qt.UserRole`` is the
automaton's authored record exactly as the level stores it (docs/contract.md section 7).
Add, duplicate, delete and reorder are one undoable edit each; the form below the
list edits the selected automaton field by field (``automata.form``), and the
ghost preview on the canvas shows where its carriers go next (``automata.ghost``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QSignalBlocker, QSize, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QToolBar,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.authored_edit import (
    SIDE_DOCK_WIDTH,
    ProblemLabel,
    checked_edit,
    first_free,
    focus_level_field,
)
from editor.panels.automata.form import AutomatonForm
from editor.panels.automata.ghost import GhostLayer
from editor.panels.automata.words import ANY_CARRIER
from editor.resources import icon
from editor.tasks.move_zero import MoveZeroFollower
from editor.views.canvas import GridCanvas

COLUMNS = ("#", "Id", "Carrier", "Property", "Start", "Steps", "Move 0")
#: Property words a new automaton tries, first free one wins.
NEW_PROPERTIES = ("TICK", "TOCK", "BEAT", "PULSE", "SWING", "SPIN")
#: Automata listed at most (the format allows 64; a file read for repair may hold more).
SHOWN_AUTOMATA = 256
#: The list is tall enough for this many automata; more scroll (most levels have one or two).
LISTED_ROWS = 4


class AutomataPanel(QWidget):
    """The list of automata, its actions, the selected automaton's form and the ghost."""

    def __init__(
        self,
        session: Session,
        facts: MoveZeroFollower,
        canvas: GridCanvas,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("automataPanel")
        self.setAccessibleName("automataPanel")
        self._session = session
        self._facts = facts
        self._level: LevelDocument | None = None
        self._links = Connections()

        # The list comes first: it is the panel's item view (docs/contract.md section 7).
        self.list = QTreeWidget(self)
        self.list.setObjectName("automataList")
        self.list.setAccessibleName("automataList")
        self.list.setHeaderLabels(list(COLUMNS))
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setAccessibleDescription(
            "The level's automata in the order they act; select one to edit it below"
        )
        self.list.currentItemChanged.connect(self._on_current_item_changed)
        self.empty = QLabel("No automata in this level: add one with +.", self)
        self.empty.setObjectName("automataEmpty")
        self.empty.setWordWrap(True)
        self.problems = ProblemLabel("automataProblems", self)

        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("automataToolBar")
        self.add_action = self._action("actionAddAutomaton", "Add Automaton", "add-level", self.add)
        self.duplicate_action = self._action(
            "actionDuplicateAutomaton", "Duplicate Automaton", "duplicate", self.duplicate
        )
        self.delete_action = self._action(
            "actionDeleteAutomaton", "Delete Automaton", "delete", self.delete
        )
        self.up_action = self._action(
            "actionMoveAutomatonUp", "Move Up (acts earlier)", "up", lambda: self.move_automaton(-1)
        )
        self.down_action = self._action(
            "actionMoveAutomatonDown",
            "Move Down (acts later)",
            "down",
            lambda: self.move_automaton(+1),
        )
        self.delete_action.setToolTip("Delete Automaton (Delete in the list)")
        self.list.installEventFilter(self)  # Delete in the list, not the window's Delete
        self.ghost_button = QToolButton(self)
        self.ghost_button.setObjectName("ghostToggle")
        self.ghost_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.beats = QSpinBox(self)
        self.beats.setObjectName("ghostBeats")
        self.beats.setRange(1, engine.MAX_PREVIEW_BEATS)
        self.beats.setValue(facts.beats)
        self.beats.setSuffix(" beats")
        self.beats.setToolTip("How many beats the ghost preview looks ahead")
        self.beats.setAccessibleName("Ghost preview beats")
        self.beats.valueChanged.connect(facts.set_beats)

        self.form = AutomatonForm(session, self)
        scroll = QScrollArea(self)
        scroll.setAccessibleName("Selected automaton")
        scroll.setAccessibleDescription("The fields of the automaton selected in the list")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        # One row of controls and a list as tall as its automata (a few): the form
        # below gets the height, so the pattern and the step fit without scrolling.
        top_row = QHBoxLayout()
        top_row.addWidget(self.toolbar)
        top_row.addStretch(1)
        top_row.addWidget(self.ghost_button)
        top_row.addWidget(self.beats)
        layout = QVBoxLayout(self)  # no splitter: it would reorder the list after the form
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top_row)
        layout.addWidget(self.list)
        layout.addWidget(self.empty)
        layout.addWidget(self.problems)
        layout.addWidget(scroll, 1)

        self.ghost = GhostLayer()
        canvas.add_layer(self.ghost)
        facts.changed.connect(self._on_facts_changed)
        session.level_changed.connect(self._on_level_changed)
        self._pack_links = Connections()
        session.pack_changed.connect(self._on_pack_changed)
        self._on_level_changed(session.level)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Delete (or Backspace) in the list deletes the selected automaton."""
        if (
            watched is self.list
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)
        ):
            if event.type() == QEvent.Type.ShortcutOverride:
                event.accept()  # the list's own key, not the window's Delete action
                return True
            if event.type() == QEvent.Type.KeyPress:
                self.delete()
                return True
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        """As narrow as the other side docks: the window's first layout never waits on it."""
        return QSize(SIDE_DOCK_WIDTH, 320)

    # ------------------------------------------------------------ public API
    def use_ghost_action(self, action: QAction) -> None:
        """Show the window's ghost preview toggle next to the beats it looks ahead."""
        self.ghost_button.setDefaultAction(action)

    def set_ghost_visible(self, visible: bool) -> None:
        self._facts.want_paths(visible)
        self.ghost.set_visible(visible)

    def records(self) -> list[Any]:
        """The automata as the list shows them (each item's ``Qt.UserRole``)."""
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [item.data(0, Qt.ItemDataRole.UserRole) for item in items if item is not None]

    def current_index(self) -> int | None:
        item = self.list.currentItem()
        return None if item is None else self.list.indexOfTopLevelItem(item)

    def select(self, index: int) -> None:
        item = self.list.topLevelItem(index)
        if item is not None:
            self.list.setCurrentItem(item)

    # --------------------------------------------------------------- actions
    def add(self) -> None:
        level, automata = self._session.level, self._automata()
        if level is None:
            return
        ids = {str(a.get("id")) for a in automata if isinstance(a, dict)}
        record = {
            "id": first_free("automaton", ids),
            "property": self._new_property(automata),
            "phase": 0,
            "pattern": [{"action": "move", "dx": 1, "dy": 0}],
        }
        self._store([*automata, record], f"Add Automaton {record['id']}", len(automata))

    def duplicate(self) -> None:
        index, automata = self.current_index(), self._automata()
        if index is None or not isinstance(automata[index], dict):
            return
        source = automata[index]
        ids = {str(a.get("id")) for a in automata if isinstance(a, dict)}
        copy = {**source, "id": first_free(f"{source.get('id')}-copy", ids)}
        automata.insert(index + 1, copy)
        self._store(automata, f"Duplicate Automaton {source.get('id')}", index + 1)

    def delete(self) -> None:
        index, automata = self.current_index(), self._automata()
        level = self._session.level
        if index is None or level is None:
            return
        removed = automata.pop(index)
        name = removed.get("id") if isinstance(removed, dict) else index + 1
        level.set_authored("automata", automata or None, text=f"Delete Automaton {name}")
        self.select(min(index, len(automata) - 1))

    def move_automaton(self, step: int) -> None:
        index, automata = self.current_index(), self._automata()
        level = self._session.level
        if index is None or level is None or not (0 <= index + step < len(automata)):
            return
        automata.insert(index + step, automata.pop(index))
        record = automata[index + step]
        name = record.get("id") if isinstance(record, dict) else index + 1
        where = "Up" if step < 0 else "Down"
        level.set_authored("automata", automata, text=f"Move Automaton {name} {where}")
        self.select(index + step)

    def _store(self, automata: list[Any], text: str, select: int) -> None:
        level, pack = self._session.level, self._session.pack
        if level is None:
            return
        refused = checked_edit(
            level,
            pack.nouns if pack is not None else None,
            "automata",
            automata,
            text=text,
            board=True,  # a new property word changes how the board reads
        )
        self.problems.show_problems(refused, refused=True)
        if not refused:
            self.select(select)

    def _new_property(self, automata: list[Any]) -> str:
        pack, level = self._session.pack, self._session.level
        taken = set(pack.nouns) if pack is not None else set()
        taken |= {str(a.get("property")) for a in automata if isinstance(a, dict)}
        if level is not None:
            taken |= {
                p.token for stack in level.cells().values() for p in stack if p.kind == "object"
            }
        word = next((w for w in NEW_PROPERTIES if w not in taken), None)
        return word or first_free("TICK", taken, sep="")

    def focus_problem(self, level_id: str, pointer: str) -> bool:
        """The Problems panel's jump (``/levels/N/...`` pointers): show that level's field."""
        return focus_level_field(self._session, level_id, pointer, self.focus_pointer)

    def focus_pointer(self, pointer: str) -> bool:
        """Select the automaton a level pointer names (``/automata/2/pattern/1/dx``) and
        focus its field; for the validation panel's "jump to the problem"."""
        parts = pointer.split("/")
        if len(parts) < 3 or parts[1] != "automata" or not parts[2].isdigit():
            return False
        index = int(parts[2])
        if not 0 <= index < self.list.topLevelItemCount():
            return False
        self.select(index)
        self.form.focus_field(parts[3:])
        return True

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: Any) -> None:
        self._pack_links.follow([(pack.nouns_changed, self.form.refresh)])
        self.form.refresh()

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._links.follow(
            [] if level is None else [(level.authored_changed, self._on_authored_changed)]
        )
        self.problems.clear_problems()
        self._rebuild(select=0)

    def _on_authored_changed(self, key: str) -> None:
        if key == "automata":
            self._rebuild(select=self.current_index())

    def _on_current_item_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        index = None if current is None else self.list.indexOfTopLevelItem(current)
        self.form.show_automaton(index)
        self._update_actions()
        record = self.form.record()
        self.ghost.set_selected(str(record.get("id")) if record is not None else None)

    def _on_facts_changed(self) -> None:
        facts = self._facts.facts
        self.ghost.set_facts(facts)
        self.form.set_facts(facts)
        self._fill_move_zero_column()

    # ---------------------------------------------------------------- helpers
    def _rebuild(self, select: int | None) -> None:
        automata = self._automata()
        with QSignalBlocker(self.list):
            self.list.clear()
            for index, record in enumerate(automata[:SHOWN_AUTOMATA]):
                item = QTreeWidgetItem(self.list, _row(index, record))
                item.setData(0, Qt.ItemDataRole.UserRole, record)
                item.setToolTip(1, "Automata act in this order on every beat")
            for column in range(len(COLUMNS)):
                self.list.resizeColumnToContents(column)
        self._fit_list_height(len(automata[:SHOWN_AUTOMATA]))
        more = len(automata) - SHOWN_AUTOMATA
        self.empty.setText(
            f"… and {more} more (a level holds at most 64)"
            if more > 0
            else "No automata in this level: add one with +."
        )
        self.empty.setVisible(not automata or more > 0)
        self.ghost.set_has_automata(bool(automata))
        self._fill_move_zero_column()
        count = self.list.topLevelItemCount()
        chosen = self.list.topLevelItem(max(0, min(select or 0, count - 1))) if count else None
        if chosen is not None:
            with QSignalBlocker(self.list):
                self.list.setCurrentItem(chosen)
        self._on_current_item_changed(self.list.currentItem(), None)

    def _fit_list_height(self, rows: int) -> None:
        """The list shows its automata (at least 2 rows, at most LISTED_ROWS; more scroll)."""
        header = self.list.header().sizeHint().height()
        row = self.list.sizeHintForRow(0) if rows else self.list.fontMetrics().height() + 6
        shown = max(2, min(LISTED_ROWS, rows))
        self.list.setFixedHeight(header + shown * row + 2 * self.list.frameWidth())

    def _fill_move_zero_column(self) -> None:
        facts = self._facts.facts
        entries = {str(a.get("id")): a for a in facts.automata} if facts is not None else {}
        for index in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(index)
            if item is None:
                continue
            record = item.data(0, Qt.ItemDataRole.UserRole)
            entry = entries.get(str(record.get("id"))) if isinstance(record, dict) else None
            if facts is None or facts.problem is not None or entry is None:
                item.setText(6, "?")
                item.setToolTip(6, facts.problem if facts and facts.problem else "not known yet")
            elif entry.get("active"):
                count = len(entry.get("instanceIds", []))
                item.setText(6, f"active ({count})")
                item.setToolTip(6, f"{engine.counted(count, 'carrier')} at move 0")
            else:
                item.setText(6, "inactive")
                item.setToolTip(6, "No object carries it at move 0")

    def _update_actions(self) -> None:
        index, count = self.current_index(), self.list.topLevelItemCount()
        has = index is not None
        self.add_action.setEnabled(self._session.level is not None)
        self.duplicate_action.setEnabled(has)
        self.delete_action.setEnabled(has)
        self.up_action.setEnabled(has and index is not None and index > 0)
        self.down_action.setEnabled(has and index is not None and index < count - 1)

    def _automata(self) -> list[Any]:
        level = self._session.level
        automata = level.authored("automata") if level is not None else None
        return automata if isinstance(automata, list) else []

    def _action(self, name: str, text: str, icon_name: str, slot: Any) -> QAction:
        action = QAction(icon(icon_name), text, self)
        action.setObjectName(name)
        action.setToolTip(text)
        action.triggered.connect(lambda _c=False: slot())
        self.toolbar.addAction(action)
        return action


def _row(index: int, record: object) -> list[str]:
    if not isinstance(record, dict):
        return [str(index + 1), "(not a record)", "", "", "", "", ""]
    pattern = record.get("pattern")
    return [
        str(index + 1),
        str(record.get("id", "")),
        str(record.get("subject") or ANY_CARRIER),
        str(record.get("property", "")),
        str(record.get("phase", 0)),
        str(len(pattern)) if isinstance(pattern, list) else "?",
        "?",
    ]
