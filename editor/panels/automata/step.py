"""Pattern edits as record changes, and the fields of the selected step.

The record changes are plain functions on an automaton record (a dict), so the
rule "the start phase stays on its step" lives in one place: inserting before
the start or moving the start step moves ``phase`` with it; deleting the start
step starts at the next step (step 0 after the last: the pattern repeats).

:class:`StepFields` edits the selected step (move or wait, its raw delta, its cue
and sound). It never stores anything itself: it hands each change to the form's
``commit``, which checks it with the engine and stores it as one undo step.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.panels.authored_edit import ProblemLabel
from editor.panels.automata.pattern import (
    ARROWS,
    DIRECTION_NAMES,
    WAIT,
    WAIT_GLYPH,
    move_step,
    step_text,
)

Record = dict[str, Any]
Mutation = Callable[[Record], None]
#: ``commit(mutation, what, keep)``: store the change or show why not (keeping typed text).
Commit = Callable[[Mutation, str, "tuple[QLineEdit, str] | None"], bool]
#: ``refuse(message, keep)``: a change the panel itself refuses, before the engine is asked.
Refuse = Callable[[str, "tuple[QLineEdit, str] | None"], None]
NAMES = ("cue", "sound")


# ---------------------------------------------------------------- record edits
def insert_step(record: Record, index: int, step: Record) -> None:
    record["pattern"].insert(index, dict(step))
    if index <= record.get("phase", 0):
        record["phase"] = record.get("phase", 0) + 1  # the start stays on its step


def delete_step(record: Record, index: int) -> None:
    pattern = record["pattern"]
    pattern.pop(index)
    phase = record.get("phase", 0)
    if index < phase:
        record["phase"] = phase - 1
    elif index == phase and phase >= len(pattern):
        record["phase"] = 0  # the step after the last is the first: patterns repeat


def move_step_to(record: Record, source: int, target: int) -> None:
    pattern = record["pattern"]
    order = list(range(len(pattern)))
    order.insert(target, order.pop(source))
    record["pattern"] = [pattern[i] for i in order]
    record["phase"] = order.index(record.get("phase", 0))  # the start follows its step


def turn_step(record: Record, index: int, step: Record) -> None:
    """Replace a step's action and delta, keeping its cue and sound."""
    old = record["pattern"][index]
    record["pattern"][index] = {**step, **{k: old[k] for k in NAMES if k in old}}


def set_name(record: Record, index: int, key: str, value: str) -> None:
    """Set a step's cue or sound (``""`` removes it)."""
    step = record["pattern"][index]
    if value:
        step[key] = value
    else:
        step.pop(key, None)


def delta_text(step: Record) -> str:
    return f"{step.get('dx', 0)}, {step.get('dy', 0)}"


# --------------------------------------------------------- the pattern buttons
def pattern_buttons(
    parent: QWidget,
    *,
    insert: Callable[[Record], None],
    shift: Callable[[int], None],
    delete: Callable[[], None],
) -> QHBoxLayout:
    """The mouse's way to edit the pattern: insert ← ↑ → ↓ or a wait, move, delete."""
    row = QHBoxLayout()
    row.setSpacing(2)
    entries: list[tuple[str, str, Callable[[], None], str]] = [
        (
            glyph,
            f"Insert a move {glyph} after the selected step (Shift+arrow)",
            partial(insert, move_step(dx, dy)),
            "insert" + DIRECTION_NAMES[(dx, dy)].title(),
        )
        for (dx, dy), glyph in ARROWS.items()
    ]
    entries.append(
        (
            WAIT_GLYPH,
            "Insert a wait after the selected step (W)",
            partial(insert, WAIT),
            "insertWait",
        )
    )
    entries += [
        ("◀", "Move the step earlier (Ctrl+←)", partial(shift, -1), "stepEarlier"),
        ("▶", "Move the step later (Ctrl+→)", partial(shift, +1), "stepLater"),
        ("✕", "Delete the step (Delete)", delete, "deleteStep"),
    ]
    for text, tip, slot, name in entries:
        if name == "stepEarlier":
            row.addSpacing(8)
        button = QToolButton(parent)
        button.setObjectName(name)
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.clicked.connect(lambda _c=False, act=slot: act())
        row.addWidget(button)
    row.addStretch(1)
    return row


# ------------------------------------------------------------------ the fields
class StepFields(QWidget):
    """Action, delta, cue and sound of the step the pattern strip selects."""

    def __init__(
        self,
        commit: Commit,
        refuse: Refuse,
        suggestions: Callable[[str], list[str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._commit, self._refuse, self._suggestions = commit, refuse, suggestions
        self._record: Record | None = None
        self._index = -1
        self.label = QLabel("Step", parent)
        self.action = QComboBox(self)
        self.action.setObjectName("stepAction")
        self.action.setAccessibleName("Step action")
        self.action.setAccessibleDescription("Whether the selected step moves or waits")
        self.action.addItems(["move", "wait"])
        self.action.activated.connect(self._on_action_chosen)
        self.delta = QLineEdit(self)
        self.delta.setObjectName("stepDelta")
        self.delta.setAccessibleName("Step delta")
        self.delta.setPlaceholderText("dx, dy")
        self.delta.setMaximumWidth(90)
        self.delta.setToolTip(
            "The move's raw delta as dx, dy (1, 0 is right; 0, -1 is up), checked by the engine;\n"
            "the arrow buttons and Alt+arrow turn a step in one go"
        )
        self.delta.editingFinished.connect(self._on_delta_edited)
        self.cue = self._name_combo("cue", "stepCue", "Visual cue name (optional; lower case)")
        self.sound = self._name_combo("sound", "stepSound", "Sound name (optional; lower case)")
        self.problems = ProblemLabel("stepProblems", self)
        step_row = QHBoxLayout()
        step_row.addWidget(self.action)
        step_row.addWidget(QLabel("delta", self))
        step_row.addWidget(self.delta)
        step_row.addStretch(1)
        names_row = QHBoxLayout()
        for label, widget in (("cue", self.cue), ("sound", self.sound)):
            names_row.addWidget(QLabel(label, self))
            names_row.addWidget(widget, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(step_row)
        layout.addLayout(names_row)
        layout.addWidget(self.problems)

    def show_step(self, record: Record | None, index: int, problems: list[engine.Problem]) -> None:
        """Show step ``index`` of ``record`` and the problems under it."""
        pattern = record.get("pattern", []) if record is not None else []
        valid = 0 <= index < len(pattern) and isinstance(pattern[index], dict)
        step: Record | None = pattern[index] if valid else None
        self._record, self._index = (record, index) if step is not None else (None, -1)
        self.label.setText(f"Step {index}" if step is not None else "Step")
        self.label.setToolTip(step_text(step) if step is not None else "")
        is_move = step is not None and step.get("action") == "move"
        with QSignalBlocker(self.action):
            self.action.setCurrentText("move" if is_move else "wait")
        with QSignalBlocker(self.delta):
            self.delta.setText(delta_text(step) if is_move and step is not None else "")
        self.delta.setEnabled(is_move)
        for key, combo in (("cue", self.cue), ("sound", self.sound)):
            with QSignalBlocker(combo):
                combo.clear()
                combo.addItems(["", *self._suggestions(key)])
                combo.setCurrentText(str(step.get(key, "")) if step is not None else "")
        for widget in (self.action, self.cue, self.sound):
            widget.setEnabled(step is not None)
        self.problems.show_problems(problems if step is not None else [])

    # ---------------------------------------------------------------- slots
    def _step(self) -> Record | None:
        record, index = self._record, self._index
        return record["pattern"][index] if record is not None and index >= 0 else None

    def _on_action_chosen(self, _index: int) -> None:
        old, index = self._step(), self._index
        action = self.action.currentText()
        if old is None or action == old.get("action"):
            return
        new = move_step(1, 0) if action == "move" else dict(WAIT)
        self._commit(lambda r: turn_step(r, index, new), "Step Action", None)

    def _on_delta_edited(self) -> None:
        old, index = self._step(), self._index
        text = self.delta.text().strip()
        if old is None or old.get("action") != "move" or text == delta_text(old):
            return
        parts = [part.strip() for part in text.replace(";", ",").split(",")]
        try:
            dx, dy = (int(part) for part in parts)
        except ValueError:
            self._refuse(
                f"{text!r} is not a delta: type two whole numbers, dx and dy, such as 1, 0",
                (self.delta, text),
            )
            return
        self._commit(
            lambda r: r["pattern"][index].update(dx=dx, dy=dy),
            "Step Direction",
            (self.delta, text),
        )

    def _on_name_edited(self, key: str, combo: QComboBox) -> None:
        old, index = self._step(), self._index
        text = combo.currentText().strip()
        if old is None or text == old.get(key, ""):
            return
        line = combo.lineEdit()
        assert line is not None
        self._commit(lambda r: set_name(r, index, key, text), f"Step {key.title()}", (line, text))

    def _name_combo(self, key: str, name: str, tip: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setObjectName(name)
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.setToolTip(tip + "; suggestions are names used in this pack")
        line = combo.lineEdit()
        assert line is not None
        line.editingFinished.connect(lambda: self._on_name_edited(key, combo))
        combo.activated.connect(lambda _i: self._on_name_edited(key, combo))
        return combo
