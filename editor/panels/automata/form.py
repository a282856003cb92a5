"""The form of the selected automaton: id, carrier, property word, pattern, start phase.

Every field edit is one checked edit (:func:`~editor.panels.authored_edit.checked_edit`):
the candidate is validated by the engine and stored as one undoable command only
when the engine accepts that field; otherwise the field shows the engine's message
and nothing is stored. The form always shows what the document holds, refilled
after every edit, undo and redo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.documents.session import Session
from editor.panels.authored_edit import (
    ProblemLabel,
    at_fault,
    checked_edit,
    current_problems,
    under,
)
from editor.panels.automata.pattern import PatternStrip
from editor.panels.automata.step import (
    StepFields,
    delete_step,
    insert_step,
    move_step_to,
    pattern_buttons,
    turn_step,
)
from editor.panels.automata.words import ANY_CARRIER, automaton_words, move_zero_note, step_names
from editor.tasks.move_zero import MoveZeroFacts


class AutomatonForm(QWidget):
    """Edits ``automata[index]`` of the session's current level."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("automatonForm")
        self._session = session
        self._index: int | None = None
        self._facts: MoveZeroFacts | None = None

        self.id_edit = QLineEdit(self)
        self.id_edit.setObjectName("automatonId")
        self.id_edit.setAccessibleName("Automaton id")
        self.id_edit.setToolTip("The automaton's id: letters, digits, '.', '_' and '-'")
        self.id_edit.editingFinished.connect(self._on_id_edited)
        self.id_problems = ProblemLabel("automatonIdProblems", self)

        self.subject = QComboBox(self)
        self.subject.setObjectName("automatonSubject")
        self.subject.setToolTip(
            "Which noun may carry the automaton; any carrier: every noun the rule gives the property"
        )
        self.subject.activated.connect(self._on_subject_chosen)
        self.subject_problems = ProblemLabel("automatonSubjectProblems", self)

        self.property_word = QComboBox(self)
        self.property_word.setObjectName("automatonProperty")
        self.property_word.setEditable(True)
        self.property_word.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.property_word.setToolTip(
            "The property word that activates it (TICK): pick one or type a new word"
        )
        self.property_word.activated.connect(lambda _i: self._on_property_edited())
        line = self.property_word.lineEdit()
        assert line is not None
        line.editingFinished.connect(self._on_property_edited)
        self.property_problems = ProblemLabel("automatonPropertyProblems", self)
        self.move_zero = ProblemLabel("automatonMoveZero", self)

        self.strip = PatternStrip(self)
        self.strip.current_changed.connect(lambda _i: self._show_step())
        self.strip.insert_requested.connect(self.insert_step)
        self.strip.delete_requested.connect(self.delete_step)
        self.strip.move_requested.connect(self.move_step)
        self.strip.turn_requested.connect(self.turn_step)
        self.strip.phase_requested.connect(self.set_phase)
        self.pattern_problems = ProblemLabel("automatonPatternProblems", self)
        buttons = pattern_buttons(
            self,
            insert=self._insert_after,
            shift=self._shift,
            delete=lambda: self.delete_step(self.strip.current()),
        )

        self.step = StepFields(
            lambda mutate, what, keep: self._commit(mutate, what, self.step_problems, keep=keep),
            lambda message, keep: self._refuse_own(self.step_problems, message, keep),
            self._suggestions,
            self,
        )
        self.step_label, self.step_problems = self.step.label, self.step.problems
        self.action, self.delta = self.step.action, self.step.delta
        self.cue, self.sound = self.step.cue, self.step.sound

        self.phase = QSpinBox(self)
        self.phase.setObjectName("automatonPhase")
        self.phase.setAccessibleName("Start phase")
        self.phase.setToolTip("The pattern step the first beat uses (the start phase)")
        self.phase.valueChanged.connect(self._on_phase_changed)
        self.phase_problems = ProblemLabel("automatonPhaseProblems", self)
        self.record_problems = ProblemLabel("automatonProblems", self)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Id", self._column(self.id_edit, self.id_problems))
        form.addRow("Carrier", self._column(self.subject, self.subject_problems))
        form.addRow(
            "Property", self._column(self.property_word, self.property_problems, self.move_zero)
        )
        form.addRow("Pattern", self._column(self.strip, buttons, self.pattern_problems))
        form.addRow(self.step_label, self.step)
        form.addRow("Start phase", self._column(self.phase, self.phase_problems))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addWidget(self.record_problems)
        layout.addStretch(1)

    # ------------------------------------------------------------ public API
    @property
    def index(self) -> int | None:
        return self._index

    def show_automaton(self, index: int | None) -> None:
        """Edit ``automata[index]`` (``None``: nothing selected)."""
        if index != self._index:
            self._index = index
            self.strip.set_current(0)
        self.refresh()

    def focus_field(self, path: list[str]) -> None:
        """Focus the field under ``path`` (``["pattern", "1", "dx"]``, ``["phase"]`` …)."""
        field = path[0] if path else "id"
        if field == "pattern":
            if len(path) > 1 and path[1].isdigit():
                self.strip.set_current(int(path[1]))
            target: QWidget = (
                self.delta if len(path) > 2 and path[2] in ("dx", "dy") else self.strip
            )
            if len(path) > 2 and path[2] in ("cue", "sound"):
                target = self.cue if path[2] == "cue" else self.sound
        else:
            target = {
                "id": self.id_edit,
                "subject": self.subject,
                "property": self.property_word,
                "phase": self.phase,
            }.get(field, self.id_edit)
        target.setFocus()

    def set_facts(self, facts: MoveZeroFacts | None) -> None:
        self._facts = facts
        self._show_move_zero()

    def record(self) -> dict[str, Any] | None:
        automata = self._automata()
        if self._index is None or not (0 <= self._index < len(automata)):
            return None
        record = automata[self._index]
        return record if isinstance(record, dict) else None

    def refresh(self) -> None:
        """Show the stored record and the problems it already has."""
        record = self.record()
        self.setEnabled(record is not None)
        record = record or {"id": "", "property": "", "pattern": [], "phase": 0}
        raw = record.get("pattern")
        pattern: list[Any] = raw if isinstance(raw, list) else []
        with QSignalBlocker(self.id_edit):
            self.id_edit.setText(str(record.get("id", "")))
        self._fill_subjects(record.get("subject"))
        self._fill_properties(str(record.get("property", "")))
        with QSignalBlocker(self.phase):
            self.phase.setRange(0, max(0, len(pattern) - 1))
            self.phase.setValue(int(record.get("phase", 0) or 0))
        problems = self._problems()
        base = self._pointer()
        bad = {
            int(p.pointer.split("/")[5])
            for p in under(problems, f"{base}/pattern")
            if len(p.pointer.split("/")) > 5 and p.pointer.split("/")[5].isdigit()
        }
        self.strip.set_pattern(pattern, int(record.get("phase", 0) or 0), bad)
        self.id_problems.show_problems(under(problems, f"{base}/id"))
        self.subject_problems.show_problems(under(problems, f"{base}/subject"))
        self.property_problems.show_problems(under(problems, f"{base}/property"))
        self.phase_problems.show_problems(under(problems, f"{base}/phase"))
        fields = ("id", "subject", "property", "phase", "pattern")
        self.record_problems.show_problems(
            p for p in under(problems, base) if not any(under([p], f"{base}/{f}") for f in fields)
        )
        self._show_step(problems)
        self._show_move_zero()

    # ----------------------------------------------------------- pattern edits
    def insert_step(self, index: int, step: dict[str, Any]) -> None:
        if self._commit(
            lambda r: insert_step(r, index, step), "Insert Step", self.pattern_problems
        ):
            self.strip.set_current(index)

    def delete_step(self, index: int) -> None:
        if index >= 0:
            self._commit(lambda r: delete_step(r, index), "Delete Step", self.pattern_problems)

    def move_step(self, source: int, target: int) -> None:
        moved = self._commit(
            lambda r: move_step_to(r, source, target), "Move Step", self.pattern_problems
        )
        if moved:
            self.strip.set_current(target)

    def turn_step(self, index: int, step: dict[str, Any]) -> None:
        self._commit(lambda r: turn_step(r, index, step), "Step Direction", self.step_problems)

    def set_phase(self, phase: int) -> None:
        self._commit(
            lambda r: r.__setitem__("phase", phase),
            "Start Phase",
            self.phase_problems,
            field="phase",
        )

    # ------------------------------------------------------------ field slots
    def _on_id_edited(self) -> None:
        record = self.record()
        text = self.id_edit.text().strip()
        if record is None or text == record.get("id"):
            return
        self._commit(
            lambda r: r.__setitem__("id", text),
            "Id",
            self.id_problems,
            keep=(self.id_edit, text),
            field="id",
        )

    def _on_subject_chosen(self, _index: int) -> None:
        subject = self.subject.currentData()

        def mutate(record: dict[str, Any]) -> None:
            if subject is None:
                record.pop("subject", None)
            else:
                record["subject"] = subject

        self._commit(mutate, "Carrier", self.subject_problems, field="subject")

    def _on_property_edited(self) -> None:
        record = self.record()
        word = self.property_word.currentText().strip().upper()
        if record is None or word == record.get("property"):
            return
        line = self.property_word.lineEdit()
        assert line is not None
        pack = self._session.pack
        if pack is not None and word in pack.nouns:
            self._refuse_own(
                self.property_problems,
                f"{word} is one of the pack's nouns; an automaton's property must be a word of its own",
                keep=(line, word),
            )
            return
        self._commit(
            lambda r: r.__setitem__("property", word),
            "Property",
            self.property_problems,
            board=True,  # the word changes how the board's words and objects read
            keep=(line, word),
            field="property",
        )

    def _on_phase_changed(self, value: int) -> None:
        record = self.record()
        if record is not None and value != record.get("phase", 0):
            self._commit(
                lambda r: r.__setitem__("phase", value),
                "Start Phase",
                self.phase_problems,
                mergeable=True,
                field="phase",
            )

    # ---------------------------------------------------------------- editing
    def _commit(
        self,
        mutate: Callable[[dict[str, Any]], None],
        what: str,
        label: ProblemLabel,
        *,
        mergeable: bool = False,
        board: bool = False,
        keep: tuple[QLineEdit, str] | None = None,
        field: str = "",
    ) -> bool:
        """Apply ``mutate`` to a copy of the record and store it if the engine agrees.

        A refusal shows the problems of ``field`` (the record's key edited) when the
        engine names it, and only those (:func:`at_fault`).
        """
        level, record = self._session.level, self.record()
        if level is None or record is None or self._index is None:
            return False
        automata = self._automata()
        name = record.get("id", self._index + 1)
        try:
            mutate(automata[self._index])
        except (KeyError, IndexError, TypeError, AttributeError):  # a record read for repair
            label.show_note(
                "This automaton's record is too broken to edit here: fix it in the pack file",
                kind="error",
            )
            return False
        pack = self._session.pack
        refused = checked_edit(
            level,
            pack.nouns if pack is not None else None,
            "automata",
            automata,
            text=f"Automaton {name}: {what}",
            mergeable=mergeable,
            board=board,
        )
        if not refused:
            return True
        self.refresh()  # show the stored value again …
        if keep is not None:  # … except in a text field, where the author's typing stays
            keep[0].setText(keep[1])
        if field:
            refused = at_fault(refused, f"{self._pointer()}/{field}")
        label.show_problems(refused, refused=True)
        return False

    def _refuse_own(
        self, label: ProblemLabel, message: str, keep: tuple[QLineEdit, str] | None = None
    ) -> None:
        self.refresh()
        if keep is not None:
            keep[0].setText(keep[1])
        label.show_note("Not stored: " + message, kind="error")

    def _automata(self) -> list[Any]:
        level = self._session.level
        automata = level.authored("automata") if level is not None else None
        return automata if isinstance(automata, list) else []

    def _pointer(self) -> str:
        return f"/automata/{self._index}"

    def _problems(self) -> list[engine.Problem]:
        level, pack = self._session.level, self._session.pack
        if level is None or self._index is None:
            return []
        return current_problems(level, pack.nouns if pack is not None else None)

    # ------------------------------------------------------------------ views
    def _show_step(self, problems: list[engine.Problem] | None = None) -> None:
        index = self.strip.current()
        if problems is None:
            problems = self._problems()
        here = under(problems, f"{self._pointer()}/pattern/{index}")
        self.step.show_step(self.record(), index, here)

    def _show_move_zero(self) -> None:
        text, kind = move_zero_note(self.record(), self._facts)
        self.move_zero.show_note(text, kind=kind)

    def _fill_subjects(self, subject: object) -> None:
        pack = self._session.pack
        nouns = list(pack.nouns) if pack is not None else []
        if isinstance(subject, str) and subject not in nouns:
            nouns.append(subject)  # a noun the pack lacks: shown so it can be changed
        with QSignalBlocker(self.subject):
            self.subject.clear()
            self.subject.addItem(ANY_CARRIER, None)
            for noun in nouns:
                self.subject.addItem(noun, noun)
            self.subject.setCurrentIndex(max(0, self.subject.findData(subject)))

    def _fill_properties(self, current: str) -> None:
        with QSignalBlocker(self.property_word):
            self.property_word.clear()
            self.property_word.addItems(automaton_words(self._session.pack))
            self.property_word.setCurrentText(current)

    def _suggestions(self, key: str) -> list[str]:
        return step_names(self._session.pack, key)

    # ---------------------------------------------------------------- helpers
    def _insert_after(self, step: dict[str, Any]) -> None:
        current = self.strip.current()
        self.insert_step(current + 1 if current >= 0 else len(self.strip.steps()), step)

    def _shift(self, step: int) -> None:
        current = self.strip.current()
        target = current + step
        if current >= 0 and 0 <= target < len(self.strip.steps()):
            self.move_step(current, target)

    def _column(self, *parts: QWidget | QHBoxLayout) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for part in parts:
            if isinstance(part, QWidget):
                layout.addWidget(part)
            else:
                layout.addLayout(part)
        return box
