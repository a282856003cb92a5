"""Where a problem's pointer leads: the panel or dialog that edits that field.

The Problems panel selects the level and highlights the entity itself; for other
fields it emits ``problem_activated(level_id, pointer)`` and the window calls
:func:`open_problem_field`:

- ``/levels/N/automata/…`` and ``/levels/N/mechanics/…`` raise the automata or
  FRAIL panel (``automataPanel``, ``frailPanel``) and, when the panel offers it,
  call its ``focus_problem(level_id, pointer)`` to open the named field;
- ``/levels/N/solution`` does the same with the solver panel (``solverPanel``);
- the level's own fields (id, title, author, size) and its reference solutions
  (shown there, read-only) open Level Properties, and the pack's (id, title,
  author, description) Pack Properties;
- ``/levels/N/entities/…`` raises the Stack panel (``stackInspector``), where the
  Problems panel has shown the entity's cell;
- ``/nouns/NAME`` picks that noun in the palette; ``/nouns/NAME/color`` (or
  ``glyph``) also opens its style (``actionNounStyle``), the form that owns it.

It also finds what a problem names on a level that may have changed since the
check: the entity's cell now, or the not-shown record still at its place.

Panels that other parts of the editor build plug in by their object name (docs/contract.md section 7)
and that one method, so this module never imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QWidget

from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.tasks.validation import EntityTarget
from editor.values import OBJECT, Pos, Stamp

#: Which panel opens a level field, by the first part of its pointer inside the level.
FIELD_PANELS = {"automata": "automataPanel", "mechanics": "frailPanel", "solution": "solverPanel"}
LEVEL_FIELDS = frozenset({"id", "title", "author", "width", "height"})
#: The panel that shows an entity's cell (its tab may lie behind Automata or FRAIL).
STACK_PANEL = "stackInspector"
PACK_FIELDS = frozenset({"id", "title", "author", "description"})


class ProblemWindow(Protocol):
    """What the jump needs of the main window."""

    session: Session
    actions_by_id: dict[str, QAction]

    def findChild(self, kind: type[QWidget], name: str) -> QWidget | None: ...


def open_problem_field(window: ProblemWindow, level_id: str, pointer: str) -> str:
    """Open what edits the field ``pointer`` names; returns its object name ("" for none)."""
    parts = pointer.split("/")[1:]
    if len(parts) >= 3 and parts[0] == "levels":
        field = parts[2]
        panel_name = FIELD_PANELS.get(field)
        if panel_name is not None:
            return panel_name if _focus_panel(window, panel_name, level_id, pointer) else ""
        if (field in LEVEL_FIELDS and len(parts) == 3) or field == "references":
            return _trigger(window.actions_by_id, "actionLevelProperties")
        if field == "entities":  # the entity's cell is in the stack inspector: in front
            return STACK_PANEL if _focus_panel(window, STACK_PANEL, level_id, pointer) else ""
        return ""
    if len(parts) == 1 and parts[0] in PACK_FIELDS:
        return _trigger(window.actions_by_id, "actionPackProperties")
    if len(parts) >= 2 and parts[0] == "nouns":
        window.session.set_stamp(Stamp(OBJECT, parts[1].replace("~1", "/").replace("~0", "~")))
        if len(parts) > 2:
            return _trigger(window.actions_by_id, "actionNounStyle") or "palette"
        return "palette"
    return ""


def _focus_panel(window: ProblemWindow, name: str, level_id: str, pointer: str) -> bool:
    panel = window.findChild(QWidget, name)
    if panel is None:
        return False
    dock = panel.parentWidget()
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    if dock is not None:
        dock.show()
        dock.raise_()
    focus = getattr(panel, "focus_problem", None)
    if callable(focus):
        focus(level_id, pointer)
    return True


def _trigger(actions: Mapping[str, QAction], action_id: str) -> str:
    action = actions.get(action_id)
    if action is None or not action.isEnabled():
        return ""
    action.trigger()
    return action_id


def entity_cell(level: LevelDocument, entity_id: int, hint: tuple[int, int] | None) -> Pos | None:
    """Where the entity is now: where it was checked, or wherever an edit moved it."""
    if hint is not None and any(p.id == entity_id for p in level.stack_at(Pos(*hint))):
        return Pos(*hint)
    for pos, stack in level.cells().items():
        if any(p.id == entity_id for p in stack):
            return pos
    return None


def unshown_index(level: LevelDocument, target: EntityTarget) -> int | None:
    """The index in ``level.unshown()`` of the record a problem names, if it is still there."""
    index = target.unshown_index
    records = level.unshown()
    if index is None or not 0 <= index < len(records) or not isinstance(records[index], dict):
        return None
    record = records[index]
    if record.get("id") != target.entity_id:
        return None  # the level changed since the check; the next one will say
    if target.cell is not None and (record.get("x"), record.get("y")) != target.cell:
        return None
    return index
