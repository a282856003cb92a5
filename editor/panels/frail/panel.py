"""The ``frailPanel`` dock: the current level's FRAIL declaration and leaves map.

* Opting in or out adds or removes the level's frail mechanic declaration
  (``{id: frail, type: frail, version: 1, state: derived, leaves: {}}``) as one
  undoable edit; the palette offers the FRAIL word only to levels that opted in.
* The leaves map is a table of noun → leftover, edited in place with the pack's
  nouns (and "Add noun…" to add one to the pack in the same undo step). Each row's
  ``Qt.UserRole`` is ``[noun, leftover]`` (docs/contract.md section 7). A value the engine
  refuses (an unknown noun, a word that is not a noun here) is not stored; its
  message shows under the table.
* The chains view reads the map as chains (DRIFT → WATER) and flags self-maps
  and cycles with the engine's codes and messages (``engine.leaves_problems``).
* What is FRAIL at move 0, and what it leaves, is summarised here and shown on
  the canvas as crack badges (``frail.canvas``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QSignalBlocker,
    QSize,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.connections import Connections
from editor.dialogs.questions import Dialogs
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.panels.authored_edit import (
    SIDE_DOCK_WIDTH,
    ProblemLabel,
    checked_edit,
    current_problems,
    focus_level_field,
    new_problems,
    under,
)
from editor.panels.frail.canvas import CrackLayer, FrailOptInOffer
from editor.panels.frail.views import (
    FRAIL_DECLARATION,
    NounDelegate,
    fill_chains,
    frail_of,
    macro,
    move_zero_text,
)
from editor.resources import icon
from editor.tasks.move_zero import MoveZeroFollower
from editor.values import vocabulary_of
from editor.views.canvas import GridCanvas

#: Leaves rows shown at most: far beyond any real map, bounded for a file read for repair.
SHOWN_ROWS = 1_000


class FrailPanel(QWidget):
    """Opt in or out, the leaves table, its chains and what is FRAIL at move 0."""

    def __init__(
        self,
        session: Session,
        facts: MoveZeroFollower,
        dialogs: Dialogs,
        canvas: GridCanvas,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("frailPanel")
        self.setAccessibleName("frailPanel")
        self._session, self._facts, self._dialogs = session, facts, dialogs
        self._links = Connections()
        self._pack_links = Connections()

        # The leaves table comes first: it is the panel's item view (docs/contract.md section 7).
        self.table = QTreeWidget(self)
        self.table.setObjectName("frailLeaves")
        self.table.setAccessibleName("frailLeaves")
        self.table.setHeaderLabels(["Noun", "Leaves"])
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setItemDelegate(NounDelegate(self, self))
        self.table.setToolTip(
            "What each noun leaves when it crumbles; a noun without a row is removed.\n"
            "Double-click or F2 edits a cell."
        )
        self.opt_in = QCheckBox("This level uses FRAIL", self)
        self.opt_in.setObjectName("frailOptIn")
        self.opt_in.setToolTip(
            "Opt in: add the frail mechanic declaration, so FRAIL is a property word here"
        )
        self.opt_in.clicked.connect(self._on_opt_in_clicked)
        self.add_row = self._button("frailAddRow", "add-level", "Add a row", self.add_entry)
        self.remove_row = self._button(
            "frailRemoveRow", "delete", "Remove the selected rows", self.remove_entries
        )
        self.problems = ProblemLabel("frailProblems", self)
        self.chains = QListWidget(self)
        self.chains.setObjectName("frailChains")
        self.chains.setAccessibleName("frailChains")
        self.chains.setToolTip("The map read as chains; self-maps and cycles are flagged")
        self.chain_problems = ProblemLabel("frailChainProblems", self)
        self.move_zero = QLabel(self)
        self.move_zero.setObjectName("frailMoveZero")
        self.move_zero.setWordWrap(True)

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_row)
        buttons.addWidget(self.remove_row)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.opt_in)
        layout.addWidget(QLabel("Leaves map (noun → leftover)", self))
        layout.addWidget(self.table, 2)
        layout.addLayout(buttons)
        layout.addWidget(self.problems)
        layout.addWidget(QLabel("Chains", self))
        layout.addWidget(self.chains, 1)
        layout.addWidget(self.chain_problems)
        layout.addWidget(self.move_zero)

        self.cracks = CrackLayer(session, canvas)
        self.offer = FrailOptInOffer(session, dialogs, self, self.opt_in_level)
        facts.changed.connect(self._on_facts_changed)
        session.pack_changed.connect(self._on_pack_changed)
        session.level_changed.connect(self._on_level_changed)
        if session.pack is not None:
            self._on_pack_changed(session.pack)
        self._on_level_changed(session.level)

    def sizeHint(self) -> QSize:
        """As narrow as the other side docks: the window's first layout never waits on it."""
        return QSize(SIDE_DOCK_WIDTH, 320)

    # ------------------------------------------------------------ public API
    def entries(self) -> list[list[str]]:
        """The rows as the table shows them (each item's ``Qt.UserRole``)."""
        rows = (self.table.topLevelItem(i) for i in range(self.table.topLevelItemCount()))
        return [item.data(0, Qt.ItemDataRole.UserRole) for item in rows if item is not None]

    def leaves(self) -> dict[str, str] | None:
        """The stored leaves map, ``None`` when the level has not opted in."""
        frail = frail_of(self._mechanics())
        if frail is None:
            return None
        leaves = frail[1].get("leaves")
        return dict(leaves) if isinstance(leaves, dict) else {}

    def nouns(self) -> list[str]:
        pack = self._session.pack
        return list(pack.nouns) if pack is not None else []

    def focus_problem(self, level_id: str, pointer: str) -> bool:
        """The Problems panel's jump (``/levels/N/...`` pointers): show that level's field."""
        return focus_level_field(self._session, level_id, pointer, self.focus_pointer)

    def focus_pointer(self, pointer: str) -> bool:
        """Select the leaves row a level pointer names (``/mechanics/0/leaves/DRIFT``), or
        the opt-in box for the declaration itself; for the validation panel's jumps."""
        parts = pointer.split("/")
        if len(parts) < 3 or parts[1] != "mechanics":
            return False
        if len(parts) >= 5 and parts[3] == "leaves":
            for row in range(self.table.topLevelItemCount()):
                item = self.table.topLevelItem(row)
                if item is not None and item.text(0) == parts[4]:
                    self.table.setCurrentItem(item, 0)
                    self.table.setFocus()
                    return True
        self.opt_in.setFocus()
        return True

    # --------------------------------------------------------------- opting in
    def opt_in_level(self) -> bool:
        level, mechanics = self._session.level, self._mechanics()
        if level is None or frail_of(mechanics) is not None:
            return False
        refused = checked_edit(
            level,
            self.nouns(),
            "mechanics",
            [*mechanics, dict(FRAIL_DECLARATION, leaves={})],
            text="Opt In to FRAIL",
            board=True,
        )
        self.problems.show_problems(refused, refused=True)
        return not refused

    def opt_out_level(self) -> bool:
        level, mechanics = self._session.level, self._mechanics()
        found = frail_of(mechanics)
        if level is None or found is None:
            return False
        uses = sum(1 for s in level.cells().values() for p in s if p.token == engine.FRAIL)
        if uses and not self._dialogs.confirm(
            self,
            "Opt out of FRAIL?",
            f"This level holds {engine.counted(uses, 'FRAIL word')}; without the frail mechanic the level is "
            "invalid until they are removed. Opt out anyway? (Undo brings the map back.)",
        ):
            return False
        rest = [m for i, m in enumerate(mechanics) if i != found[0]]
        level.set_authored("mechanics", rest or None, text="Opt Out of FRAIL")
        return True

    # ------------------------------------------------------------ map edits
    def add_entry(self) -> None:
        leaves = self.leaves()
        if leaves is None:
            return
        nouns = self.nouns()
        facts = self._facts.facts
        frail_now = [n for n, _cell in (facts.frail.values() if facts else [])]
        keys = [n for n in dict.fromkeys([*frail_now, *nouns]) if n not in leaves]
        if not keys:
            self.problems.show_note("Every noun of the pack already has a row.", kind="error")
            return
        added = new_row(leaves, keys, nouns)
        if added is None:
            self.problems.show_note(
                "Not added: every noun left to map would lead back to itself (a cycle); "
                "remove a row first.",
                kind="error",
            )
            return
        key, leftover = added
        if self._store({**leaves, key: leftover}, f"Leaves: Add {key} → {leftover}"):
            row = list(self.leaves() or {}).index(key)
            item = self.table.topLevelItem(row)
            if item is not None:
                self.table.setCurrentItem(item, 0)

    def remove_entries(self) -> None:
        leaves = self.leaves()
        selected = {item.text(0) for item in self.table.selectedItems()}
        if leaves is None or not selected:
            return
        names = ", ".join(sorted(selected))
        self._store(
            {k: v for k, v in leaves.items() if k not in selected}, f"Leaves: Remove {names}"
        )

    def set_cell(self, row: int, column: int, text: str) -> bool:
        """Set the noun (column 0) or the leftover (column 1) of a row; False when refused."""
        change = self._cell_change(row, column, text)
        if change is None:
            return False
        new, what = change
        return what == "" or self._store(new, what)

    def add_noun_for(self, row: int, column: int) -> None:
        """Ask for a new noun, add it to the pack and put it in the cell: one undo step."""
        pack, level = self._session.pack, self._session.level
        if pack is None or level is None:
            return
        answer = self._dialogs.new_noun(self, set(pack.nouns), vocabulary_of(*pack.levels))
        if answer is None:
            return
        name, spec = answer
        if name in pack.nouns:
            self.set_cell(row, column, name)
            return
        change = self._cell_change(row, column, name)
        if change is None or change[1] == "":
            return
        new, what = change
        mechanics = self._with_leaves(new)
        if mechanics is None or self._refused(
            new_problems(level, [*pack.nouns, name], "mechanics", mechanics)
        ):
            return
        with macro(pack.undo_stack, f"Add Noun {name}; {what}"):
            pack.add_noun(name, spec)
            level.set_authored("mechanics", mechanics, text=what)

    def _cell_change(self, row: int, column: int, text: str) -> tuple[dict[str, str], str] | None:
        """The map after the edit and the edit's name ("" when nothing changes); None if refused."""
        leaves = self.leaves()
        if leaves is None or not (0 <= row < len(leaves)):
            return None
        value = text.strip().upper()
        key, leftover = list(leaves.items())[row]
        if column == 0:
            if value == key:
                return leaves, ""
            if value in leaves:
                self.problems.show_note(f"Not stored: {value} already has a row", kind="error")
                return None
            return {
                (value if k == key else k): v for k, v in leaves.items()
            }, f"Leaves: {key} → {value}"
        if value == leftover:
            return leaves, ""
        return {**leaves, key: value}, f"Leaves: {key} leaves {value}"

    def _with_leaves(self, leaves: dict[str, str]) -> list[Any] | None:
        mechanics = self._mechanics()
        found = frail_of(mechanics)
        if found is None:
            return None
        index, frail = found
        mechanics[index] = {**frail, "leaves": leaves}
        return mechanics

    def _store(self, leaves: dict[str, str], text: str) -> bool:
        level, mechanics = self._session.level, self._with_leaves(leaves)
        if level is None or mechanics is None:
            return False
        if self._refused(new_problems(level, self.nouns(), "mechanics", mechanics)):
            return False
        level.set_authored("mechanics", mechanics, text=text)
        return True

    def _refused(self, refused: list[engine.Problem]) -> bool:
        """Show refused problems under the table (the table shows the stored map again)."""
        if not refused:
            return False
        self._refresh()
        self.problems.show_problems(refused, refused=True)
        if any(p.code == "unknown-noun" for p in refused):
            self.problems.setText(
                self.problems.text() + "\n(choose “Add noun…” to add a noun to the pack)"
            )
        return True

    # ----------------------------------------------------------------- slots
    def _on_pack_changed(self, pack: Any) -> None:
        self._pack_links.follow([(pack.nouns_changed, self._refresh)])

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._links.follow(
            [] if level is None else [(level.authored_changed, self._on_authored_changed)]
        )
        self._refresh()

    def _on_authored_changed(self, key: str) -> None:
        if key == "mechanics":
            self._refresh()

    def _on_facts_changed(self) -> None:
        self.cracks.set_facts(self._facts.facts)
        self._show_move_zero()

    def _on_opt_in_clicked(self, checked: bool) -> None:
        done = self.opt_in_level() if checked else self.opt_out_level()
        if not done:
            self._refresh()  # the box shows what is stored

    # ---------------------------------------------------------------- views
    def _refresh(self) -> None:
        level = self._session.level
        leaves = self.leaves()
        opted = leaves is not None
        with QSignalBlocker(self.opt_in):
            self.opt_in.setChecked(opted)
        self.opt_in.setEnabled(level is not None)
        for widget in (self.table, self.add_row, self.remove_row, self.chains):
            widget.setEnabled(opted)
        problems = current_problems(level, self.nouns()) if level is not None else []
        found = frail_of(self._mechanics())
        base = f"/mechanics/{found[0]}" if found is not None else "/mechanics"
        current = self.table.currentItem()
        keep = self.table.indexOfTopLevelItem(current) if current is not None else 0
        with QSignalBlocker(self.table):
            self.table.clear()
            for key, value in list((leaves or {}).items())[:SHOWN_ROWS]:
                item = QTreeWidgetItem(self.table, [key, value])
                item.setData(0, Qt.ItemDataRole.UserRole, [key, value])
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                bad = under(problems, f"{base}/leaves/{key}")
                if bad:
                    for column in (0, 1):
                        item.setForeground(column, Qt.GlobalColor.red)
                        item.setToolTip(column, "\n".join(p.message for p in bad))
            for column in (0, 1):
                self.table.resizeColumnToContents(column)
        row = max(0, min(keep, self.table.topLevelItemCount() - 1))
        current_row = self.table.topLevelItem(row)
        if current_row is not None:
            self.table.setCurrentItem(current_row)
        self.problems.show_problems(under(problems, "/mechanics"))
        self._show_chains(leaves or {}, base)
        self._show_move_zero()

    def _show_chains(self, leaves: dict[str, str], base: str) -> None:
        warnings = fill_chains(self.chains, leaves, base, SHOWN_ROWS)
        self.chain_problems.show_note("\n".join(p.message for p in warnings))
        self.chain_problems.setToolTip("\n".join(f"{p.code} at {p.pointer}" for p in warnings))

    def _show_move_zero(self) -> None:
        has_level = self._session.level is not None
        self.move_zero.setText(move_zero_text(has_level, self.leaves(), self._facts.facts))

    # ---------------------------------------------------------------- helpers
    def _mechanics(self) -> list[Any]:
        level = self._session.level
        mechanics = level.authored("mechanics") if level is not None else None
        return mechanics if isinstance(mechanics, list) else []

    def _button(self, name: str, icon_name: str, tip: str, slot: Any) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(name)
        button.setIcon(icon(icon_name))
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.clicked.connect(lambda _c=False: slot())
        return button


def new_row(
    leaves: Mapping[str, str], keys: Sequence[str], nouns: Sequence[str]
) -> tuple[str, str] | None:
    """The row "Add a row" adds: the first free noun and a leftover that does not lead back.

    A leftover leads back when following the map from it reaches the new row's
    noun: the row would close a cycle (or, leftover = noun, a self-map) that the
    author never asked for. None when every choice would. Each key costs one walk
    of the map backwards, so a long noun list stays cheap.
    """
    sources: dict[str, list[str]] = {}
    for noun, leftover in leaves.items():
        sources.setdefault(leftover, []).append(noun)
    for key in keys:
        back = {key}  # the nouns whose chain passes ``key``
        todo = [key]
        while todo:
            for noun in sources.get(todo.pop(), ()):
                if noun not in back:
                    back.add(noun)
                    todo.append(noun)
        free = next((n for n in nouns if n not in back), None)
        if free is not None:
            return key, free
    return None
