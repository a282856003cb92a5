"""Small forms: level properties (with the resize anchor), a noun (new, or its style), pack properties.

A pack opened for repair may hold a field the editor cannot use (a width of
``"9"``, a title that is a number, a colour written ``"yellow"``): the form that
owns the field shows the working value and says what the file has; the file's
value is kept until the author sets the field here (issue 34).
"""

from __future__ import annotations

import json
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.values import (
    Anchor,
    LevelProperties,
    NounSpec,
    PackProperties,
    Written,
    written_note,
)

MAX_SIZE = engine.MAX_GRID_SIZE
_ID_RE = re.compile(engine.ID_PATTERN)
_TOKEN_RE = re.compile(engine.TOKEN_PATTERN)


def is_identifier(text: str) -> bool:
    """An id the engine accepts (the same pattern and length as the schema)."""
    return len(text) <= engine.MAX_ID_LENGTH and _ID_RE.fullmatch(text) is not None


def is_token(text: str) -> bool:
    """A word token the engine accepts, such as BABA."""
    return len(text) <= engine.TOKEN_MAX_LENGTH and _TOKEN_RE.fullmatch(text) is not None


class _Form(QDialog):
    def __init__(self, title: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        self.error = QLabel(self)
        self.error.setObjectName("formError")
        self.error.setStyleSheet("color: #c0392b")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def problem(self) -> str:
        """Why the form cannot be accepted yet, or an empty string."""
        return ""

    def _try_accept(self) -> None:
        problem = self.problem()
        self.error.setText(problem)
        if not problem:
            self.accept()

    def show_written(self, written: Written, fields: dict[str, QLineEdit | QSpinBox]) -> None:
        """Say which fields the file wrote so that the editor cannot use them, and keep
        track of the ones the author sets here (:meth:`still_written`)."""
        self._written = written
        self._touched: set[str] = set()
        lines = [written_note(key, raw, working) for key, raw, working in written if key in fields]
        for key, widget in fields.items():
            if isinstance(widget, QSpinBox):
                widget.valueChanged.connect(lambda _v, key=key: self._touched.add(key))
            else:
                widget.textEdited.connect(lambda _t, key=key: self._touched.add(key))
            if any(k == key for k, _raw, _working in written):
                if isinstance(widget, QLineEdit):  # a spin box styled so loses its arrows
                    widget.setStyleSheet("border: 1px solid #c0392b")
                widget.setToolTip(next(n for n in lines if f"'{key}'" in n))
        if lines:
            note = QLabel("\n".join(lines), self)
            note.setObjectName("formWritten")
            note.setWordWrap(True)
            self.form.addRow(note)

    def still_written(self) -> Written:
        """The fields kept as the file wrote them that the author did not set here."""
        written: Written = getattr(self, "_written", ())
        return tuple(w for w in written if w[0] not in getattr(self, "_touched", set()))


#: Moves of a reference solution shown in its tooltip; a longer one is cut with "…".
REFERENCE_TIP_MOVES = 400


def reference_rows(records: object) -> list[tuple[str, str]]:
    """Each reference solution's line and tooltip: "100 moves — SOURCE" and its moves.

    ``records`` is the level's authored ``references`` as it stands: a level kept
    for repair may hold anything there, and what is not a reference is not shown.
    """
    rows = []
    for record in records if isinstance(records, list) else []:
        if not isinstance(record, dict):
            continue
        moves, source = record.get("moves"), record.get("source")
        if isinstance(moves, str) and isinstance(source, str):
            count = f"{len(moves)} move{'s' if len(moves) != 1 else ''}"
            cut = moves[:REFERENCE_TIP_MOVES] + ("…" if len(moves) > REFERENCE_TIP_MOVES else "")
            rows.append((f"{count} — {source}", cut))
    return rows


class LevelPropertiesDialog(_Form):
    """Id, title, author and size; the anchor says where the old contents go on resize.

    A level's reference solutions (``references``: known solutions kept beside the
    intended one, such as an imported level's longer human solution) are shown,
    read-only: they are data of record, never edited here.
    """

    def __init__(
        self,
        props: LevelProperties,
        taken_ids: set[str],
        parent: QWidget | None = None,
        *,
        references: object = None,
    ) -> None:
        super().__init__("Level Properties", parent)
        self.setObjectName("levelPropertiesDialog")
        self._taken = taken_ids - {props.level_id}
        self.level_id = QLineEdit(props.level_id, self)
        self.title_edit = QLineEdit(props.title, self)
        self.author = QLineEdit(props.author, self)
        self.width_box, self.height_box = QSpinBox(self), QSpinBox(self)
        for box, value in ((self.width_box, props.width), (self.height_box, props.height)):
            box.setRange(1, MAX_SIZE)
            box.setValue(value)
        self.form.addRow("Id", self.level_id)
        self.form.addRow("Title", self.title_edit)
        self.form.addRow("Author", self.author)
        self.form.addRow("Width", self.width_box)
        self.form.addRow("Height", self.height_box)
        grid = QGridLayout()
        grid.setSpacing(2)
        self.anchors = QButtonGroup(self)
        for ay in range(3):
            for ax in range(3):
                button = QToolButton(self)
                button.setCheckable(True)
                button.setFixedSize(26, 26)
                button.setObjectName(f"anchor{ax}{ay}")
                button.setToolTip("Keep the contents at this side when resizing")
                self.anchors.addButton(button, ay * 3 + ax)
                grid.addWidget(button, ay, ax)
        self.anchors.button(0).setChecked(True)
        holder = QWidget(self)
        holder.setLayout(grid)
        self.form.addRow("Resize anchor", holder)
        self.references: list[QLabel] = []
        for number, (text, moves) in enumerate(reference_rows(references), start=1):
            label = QLabel(text, self)
            label.setObjectName(f"levelReference{number}")
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setToolTip(moves)
            self.references.append(label)
            self.form.addRow("Reference solution" if number == 1 else "", label)
        fields: dict[str, QLineEdit | QSpinBox] = {
            "id": self.level_id,
            "title": self.title_edit,
            "author": self.author,
            "width": self.width_box,
            "height": self.height_box,
        }
        self.show_written(props.written, fields)

    def result_properties(self) -> LevelProperties:
        return LevelProperties(
            self.level_id.text().strip(),
            self.title_edit.text().strip(),
            self.author.text().strip(),
            self.width_box.value(),
            self.height_box.value(),
            self.still_written(),
        )

    def anchor(self) -> Anchor:
        checked = max(self.anchors.checkedId(), 0)
        return Anchor(checked % 3, checked // 3)

    def problem(self) -> str:
        level_id = self.level_id.text().strip()
        if not is_identifier(level_id):
            return (
                "The id uses letters, digits, '.', '_' and '-' and starts with a letter or digit."
            )
        if level_id in self._taken:
            return f"Another level already has the id {level_id}."
        return ""


class NounDialog(_Form):
    """A new noun: an upper-case name, a colour and an optional one- or two-letter glyph.

    A name the engine's ``vocabulary`` reads as another word (an operator, a
    property, FRAIL, an automaton's property in some level of the pack) is
    refused: objects of that noun would be invalid. Without a vocabulary only the
    built-in words are refused.
    """

    def __init__(
        self,
        existing: set[str],
        parent: QWidget | None = None,
        *,
        vocabulary: engine.Vocabulary | None = None,
    ) -> None:
        super().__init__("Add Noun", parent)
        self.setObjectName("nounDialog")
        self._existing = existing
        self._vocabulary = vocabulary or engine.Vocabulary.builtin()
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("e.g. KEY")
        self.name.textEdited.connect(lambda text: self.name.setText(text.upper()))
        self.glyph = QLineEdit(self)
        self.glyph.setMaxLength(2)
        self.glyph.setPlaceholderText("first letter")
        self._color = QColor(engine.NOUN_COLORS[0])
        self._color_chosen = False  # until the author picks one, the colour follows the name
        self.color_button = QPushButton(self)
        self.color_button.setObjectName("nounColor")
        self.color_button.clicked.connect(self._choose_color)
        self._show_color()
        self.name.textChanged.connect(self._suggest_color)
        self.form.addRow("Name", self.name)
        self.form.addRow("Colour", self.color_button)
        self.form.addRow("Glyph", self.glyph)

    def set_color(self, color: QColor) -> None:
        self._color = color
        self._color_chosen = True
        self._show_color()

    def result_noun(self) -> tuple[str, NounSpec]:
        return self.name.text().strip(), NounSpec(self._color.name(), self.glyph.text().strip())

    def problem(self) -> str:
        name = self.name.text().strip()
        if not is_token(name):
            return "A noun is upper case: a letter, then letters, digits or '_'."
        role = self._vocabulary.role(name)
        if role is engine.WordRole.MECHANIC and name != engine.FRAIL:
            return f"{name} is an automaton's property word in this pack, not a noun."
        if role is not engine.WordRole.NOUN:
            return f"{name} is a built-in word, not a noun."
        if name in self._existing:
            return f"The pack already has {name}."
        return ""

    def _choose_color(self) -> None:
        color = QColorDialog.getColor(self._color, self, "Noun colour")
        if color.isValid():
            self.set_color(color)

    def _suggest_color(self, name: str) -> None:
        """A colour-blind-safe default for the typed name, until the author picks one."""
        if not self._color_chosen and name.strip():
            self._color = QColor(engine.default_noun_color(name.strip().upper()))
            self._show_color()

    def _show_color(self) -> None:
        text = "#15171c" if self._color.lightness() > 140 else "#ffffff"
        self.color_button.setText(self._color.name())
        self.color_button.setStyleSheet(f"background: {self._color.name()}; color: {text};")


class PackPropertiesDialog(_Form):
    def __init__(self, props: PackProperties, parent: QWidget | None = None) -> None:
        super().__init__("Pack Properties", parent)
        self.setObjectName("packPropertiesDialog")
        self.pack_id = QLineEdit(props.pack_id, self)
        self.title_edit = QLineEdit(props.title, self)
        self.author = QLineEdit(props.author, self)
        self.description = QLineEdit(props.description, self)
        self.form.addRow("Id", self.pack_id)
        self.form.addRow("Title", self.title_edit)
        self.form.addRow("Author", self.author)
        self.form.addRow("Description", self.description)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.setMinimumWidth(420)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        fields: dict[str, QLineEdit | QSpinBox] = {
            "id": self.pack_id,
            "title": self.title_edit,
            "author": self.author,
            "description": self.description,
        }
        self.show_written(props.written, fields)

    def result_properties(self) -> PackProperties:
        return PackProperties(
            self.pack_id.text().strip(),
            self.title_edit.text().strip(),
            self.author.text().strip(),
            self.description.text().strip(),
            self.still_written(),
        )

    def problem(self) -> str:
        if not is_identifier(self.pack_id.text().strip()):
            return (
                "The id uses letters, digits, '.', '_' and '-' and starts with a letter or digit."
            )
        return ""


class NounStyleDialog(_Form):
    """A noun's colour and glyph; the name stays. The form that owns a noun's style:
    a style the file wrote so the editor cannot show it (``"yellow"``) is fixed here."""

    def __init__(
        self, name: str, spec: NounSpec, written: object = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(f"Noun Style: {name}", parent)
        self.setObjectName("nounStyleDialog")
        self.name = name
        self._color = QColor(spec.color)
        self.color_button = QPushButton(self)
        self.color_button.setObjectName("nounColor")
        self.color_button.clicked.connect(self._choose_color)
        self.glyph = QLineEdit(spec.glyph, self)
        self.glyph.setMaxLength(2)
        self.glyph.setPlaceholderText("first letter")
        self.form.addRow("Noun", QLabel(name, self))
        self.form.addRow("Colour", self.color_button)
        self.form.addRow("Glyph", self.glyph)
        if written is not None:
            shown = engine.clipped(json.dumps(written, ensure_ascii=False, default=str))
            note = QLabel(
                f"The file writes this style as {shown}, which the editor cannot show; "
                "it is kept until you press OK here.",
                self,
            )
            note.setObjectName("formWritten")
            note.setWordWrap(True)
            self.form.addRow(note)
        self._show_color()

    def set_color(self, color: QColor) -> None:
        self._color = color
        self._show_color()

    def result_style(self) -> NounSpec:
        return NounSpec(self._color.name(), self.glyph.text().strip())

    def _choose_color(self) -> None:
        color = QColorDialog.getColor(self._color, self, "Noun colour")
        if color.isValid():
            self.set_color(color)

    def _show_color(self) -> None:
        text = "#15171c" if self._color.lightness() > 140 else "#ffffff"
        self.color_button.setText(self._color.name())
        self.color_button.setStyleSheet(f"background: {self._color.name()}; color: {text};")
