"""The FRAIL panel's parts that are not the panel: the leaves cell editor, the
chains view and the move-0 summary, and the declaration helpers.

:class:`NounDelegate` edits a leaves cell with the pack's nouns (and "Add noun…");
it hands the value to the panel, which checks it with the engine and stores it, or
refuses it. :func:`fill_chains` reads a leaves map as chains and flags self-maps
and cycles with the engine's codes (``engine.leaves_chains``/``leaves_problems``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QListWidget,
    QListWidgetItem,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

import engine
from editor.tasks.move_zero import MoveZeroFacts

ADD_NOUN = "Add noun…"
FRAIL_DECLARATION: dict[str, Any] = {
    "id": "frail",
    "type": "frail",
    "version": 1,
    "state": "derived",
    "leaves": {},
}
CHAIN_ROLE = Qt.ItemDataRole.UserRole


class LeavesEditor(Protocol):
    """What the cell editor needs of the panel."""

    def nouns(self) -> list[str]: ...

    def set_cell(self, row: int, column: int, text: str) -> bool: ...

    def add_noun_for(self, row: int, column: int) -> None: ...


def fill_chains(
    view: QListWidget, leaves: dict[str, str], base: str, limit: int
) -> list[engine.Problem]:
    """Show the map's chains in ``view`` (at most ``limit``); return its warnings, located."""
    view.clear()
    for chain in engine.leaves_chains(leaves)[:limit]:
        problem = chain.problem
        item = QListWidgetItem(("⚠ " if problem else "") + chain.text(), view)
        item.setData(
            CHAIN_ROLE,
            {
                "nouns": list(chain.nouns),
                "loopsTo": chain.loops_to,
                "joins": chain.joins,
                "problem": None
                if problem is None
                else {"code": problem.code, "message": problem.message},
            },
        )
        if problem is not None:
            item.setForeground(Qt.GlobalColor.red)
            item.setToolTip(f"{problem.code}: {problem.message}")
        elif chain.joins:
            item.setToolTip(f"continues as the chain through {chain.joins} above")
        else:
            last = chain.nouns[-1]
            item.setToolTip(f"{last} has no leftover: a crumbling {last} is removed")
    return [
        engine.Problem(base + p.pointer, p.code, p.message) for p in engine.leaves_problems(leaves)
    ]


def move_zero_text(
    has_level: bool, leaves: dict[str, str] | None, facts: MoveZeroFacts | None
) -> str:
    """What is FRAIL at move 0 and what it leaves, in one paragraph."""
    if not has_level:
        return ""
    if leaves is None:
        return (
            "This level has not opted in: FRAIL is not a word here and the palette does "
            "not offer it. Check the box above to opt in."
        )
    if facts is None:
        return "Reading the level…"
    if facts.problem is not None:
        return f"Move 0 unknown: {facts.problem}"
    if not facts.frail:
        return "Nothing is FRAIL at move 0: no rule makes a noun FRAIL yet."
    by_noun: dict[str, list[int]] = {}
    for entity_id, (noun, _cell) in sorted(facts.frail.items()):
        by_noun.setdefault(noun, []).append(entity_id)
    lines = [
        f"{noun} ({len(ids)}): crumbles into {leaves[noun]}"
        if noun in leaves
        else f"{noun} ({len(ids)}): removed when it crumbles (no row)"
        for noun, ids in by_noun.items()
    ]
    return (
        "FRAIL at move 0 — " + "; ".join(lines) + ". Cracked objects on the canvas "
        "say what they leave when you hover them."
    )


def frail_of(mechanics: list[Any]) -> tuple[int, dict[str, Any]] | None:
    """The index and record of the frail mechanic in ``mechanics``, if any."""
    for index, mechanic in enumerate(mechanics):
        if isinstance(mechanic, dict) and mechanic.get("type") == "frail":
            return index, mechanic
    return None


class NounDelegate(QStyledItemDelegate):
    """Edits a cell with the pack's nouns; the panel stores the value (or refuses it).

    The value is handed over after the editor closes (the table is rebuilt when the
    level changes, which must not happen inside the view's own commit).
    """

    def __init__(self, panel: LeavesEditor, parent: QWidget) -> None:
        super().__init__(parent)
        self._panel = panel

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        combo = QComboBox(parent)
        combo.setObjectName("frailNounEditor")
        combo.setAccessibleName("Leaves noun")
        combo.setAccessibleDescription("A noun of the pack, or Add noun… to add one")
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.addItems([*self._panel.nouns(), ADD_NOUN])
        row, column = index.row(), index.column()

        def chosen(i: int) -> None:
            if combo.itemText(i) == ADD_NOUN:
                combo.setCurrentText(str(index.data() or ""))
                self.closeEditor.emit(combo, QStyledItemDelegate.EndEditHint.RevertModelCache)
                QTimer.singleShot(0, lambda: self._panel.add_noun_for(row, column))

        combo.activated.connect(chosen)
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data() or ""))

    def setModelData(
        self,
        editor: QWidget,
        model: QAbstractItemModel,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if not isinstance(editor, QComboBox):
            return
        text, row, column = editor.currentText(), index.row(), index.column()
        if text == ADD_NOUN or text == str(index.data() or ""):
            return
        QTimer.singleShot(0, lambda: self._panel.set_cell(row, column, text))


@contextmanager
def macro(stack: QUndoStack, text: str) -> Iterator[None]:
    """Edits made inside form one undo step."""
    stack.beginMacro(text)
    try:
        yield
    finally:
        stack.endMacro()
