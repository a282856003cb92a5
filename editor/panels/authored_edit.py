"""Checked edits of a level's authored data, and inline problem labels.

The automata and FRAIL panels never store a value the engine would refuse in
that field: :func:`checked_edit` builds the candidate level, asks
``engine.check_level`` (against the pack's nouns, as a pack load would), and
stores the value as one undoable edit only when the candidate has no problem
that the level did not have already. Otherwise nothing is stored and the new
problems come back, with the engine's codes and messages, for the panel to show
next to the field.

Most fields cannot change how the board's entities are classified, so their
check leaves the entities out (it then costs the same on any board); edits that
change the level's vocabulary (an automaton's property word, opting in or out of
FRAIL) pass ``board=True`` and are checked with every entity.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

import engine
from editor.documents.level import LevelDocument
from editor.documents.session import Session

ERROR_COLOR = "#d0443a"
#: The width the automata and FRAIL panels ask for: that of the window's other side docks.
SIDE_DOCK_WIDTH = 260
WARNING_COLOR = "#c98a12"


def level_data(level: LevelDocument, *, board: bool) -> dict[str, Any]:
    """The level document to check; without ``board`` its entities are left out."""
    if board:
        return level.to_data()
    return {
        "id": level.level_id,
        "width": level.width,
        "height": level.height,
        "entities": [],
        **{k: level.authored(k) for k in level.extra},
    }


def current_problems(
    level: LevelDocument, nouns: Iterable[str] | None, *, board: bool = False
) -> list[engine.Problem]:
    """The engine's problems of the level as it is (the board left out unless asked)."""
    return list(engine.check_level(level_data(level, board=board), nouns=nouns))


def new_problems(
    level: LevelDocument,
    nouns: Iterable[str] | None,
    key: str,
    value: Any,
    *,
    board: bool = False,
) -> list[engine.Problem]:
    """The problems storing ``value`` under ``key`` would add; ``[]`` when the engine agrees.

    Problems the level already has are not counted, so an author can repair a
    level one field at a time.
    """
    known = None if nouns is None else frozenset(nouns)
    before = level_data(level, board=board)
    candidate = dict(before)
    if value is None:
        candidate.pop(key, None)
    else:
        candidate[key] = value
    had = {_key(p) for p in engine.check_level(before, nouns=known)}
    return [p for p in engine.check_level(candidate, nouns=known) if _key(p) not in had]


def checked_edit(
    level: LevelDocument,
    nouns: Iterable[str] | None,
    key: str,
    value: Any,
    *,
    text: str,
    mergeable: bool = False,
    board: bool = False,
) -> list[engine.Problem]:
    """Store ``value`` under ``key`` unless the engine finds a new problem; return those problems.

    ``[]`` means the edit is stored (one command on the level's undo history, or
    nothing when the value did not change).
    """
    new = new_problems(level, nouns, key, value, board=board)
    if not new:
        level.set_authored(key, value, text=text, mergeable=mergeable)
    return new


def under(problems: Iterable[engine.Problem], pointer: str) -> list[engine.Problem]:
    """The problems at ``pointer`` or inside it (``/automata/0`` holds ``/automata/0/id``)."""
    return [p for p in problems if p.pointer == pointer or p.pointer.startswith(pointer + "/")]


def at_fault(problems: list[engine.Problem], pointer: str) -> list[engine.Problem]:
    """The problems of the field ``pointer`` names, when it has any; else all of them.

    One mistake, one refusal: a property word the engine refuses also leaves the
    level's words of the old property unread, but that follows from the mistake
    and is not a second one to show beside the field.
    """
    own = under(problems, pointer)
    return own or problems


def focus_level_field(
    session: Session, level_id: str, pointer: str, focus: Callable[[str], bool]
) -> bool:
    """Select the level ``level_id`` and focus the field a pack pointer names in it.

    ``pointer`` is ``/levels/N/<field>…`` (the Problems panel's); ``focus`` opens a
    pointer relative to the level (``/automata/0/id``).
    """
    parts = pointer.split("/")
    if len(parts) < 3 or parts[1] != "levels" or session.pack is None:
        return False
    level = next((lv for lv in session.pack.levels if lv.level_id == level_id), None)
    if level is None and parts[2].isdigit() and int(parts[2]) < len(session.pack.levels):
        level = session.pack.levels[int(parts[2])]
    if level is None:
        return False
    session.set_level(level)
    return focus("/" + "/".join(parts[3:]))


def _key(problem: engine.Problem) -> tuple[str, str, str]:
    return problem.pointer, problem.code, problem.message


class ProblemLabel(QLabel):
    """Problems shown next to a field: the engine's message and code, its pointer in the tooltip.

    Hidden when there is nothing to say. ``refused`` problems say that the value
    typed was not stored; the others are problems the stored value already has.
    """

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setAccessibleName(name)
        self.setAccessibleDescription(
            "What the engine finds wrong with the field above, or why a value was not stored"
        )
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()
        self._problems: list[engine.Problem] = []

    @property
    def problems(self) -> list[engine.Problem]:
        return list(self._problems)

    def show_problems(self, problems: Iterable[engine.Problem], *, refused: bool = False) -> None:
        self._problems = list(problems)
        self._show(
            [f"{'Not stored: ' if refused else ''}{p.message} ({p.code})" for p in self._problems],
            ERROR_COLOR,
            "\n".join(f"{p.code} at {p.pointer}" for p in self._problems),
        )

    def show_note(self, text: str, *, kind: str = "warning") -> None:
        """A message of the panel's own: ``kind`` is "warning", "error" or "info"."""
        self._problems = []
        color = {"warning": WARNING_COLOR, "error": ERROR_COLOR}.get(kind, "")
        self._show([text] if text else [], color, "")

    def clear_problems(self) -> None:
        self.show_problems([])

    def _show(self, lines: list[str], color: str, tip: str) -> None:
        """Change only what differs: a new style sheet re-lays out the whole window."""
        text, style = "\n".join(lines), f"color: {color};" if color else ""
        if text != self.text():
            self.setText(text)
        if tip != self.toolTip():
            self.setToolTip(tip)
        if style != self.styleSheet():
            self.setStyleSheet(style)
        if bool(lines) == self.isHidden():
            self.setVisible(bool(lines))


def first_free(base: str, taken: Mapping[str, object] | set[str], *, sep: str = "-") -> str:
    """``base``, or ``base-2``, ``base-3`` … whichever is not taken."""
    if base not in taken:
        return base
    n = 2
    while f"{base}{sep}{n}" in taken:
        n += 1
    return f"{base}{sep}{n}"
