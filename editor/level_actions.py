"""What the Level and Edit menus do: level list operations, properties, nouns,
and the clipboard.

Each handler asks the injected dialogs when it needs an answer and then calls a
document method (which pushes an undo command). Its collaborators are given to
it explicitly, so it depends on them and not on the window that assembles them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from PySide6.QtWidgets import QApplication, QWidget

from editor.dialogs.questions import Dialogs
from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.io.clipboard import Region, put_region
from editor.tools import SelectTool
from editor.values import OBJECT, Piece, vocabulary_of
from editor.views.canvas import GridCanvas
from editor.views.inspector import StackInspector
from editor.views.level_list import LevelListPanel


def describe_pieces(pieces: list[Piece], most: int = 4) -> str:
    """What a list of entities holds, most frequent first: "3 WALL, 2 ROCK words, 1 BABA"."""
    counts = Counter((p.kind == OBJECT, p.token) for p in pieces).most_common()
    shown = [
        f"{n} {token}" if is_object else f"{n} {token} word{'s' if n > 1 else ''}"
        for (is_object, token), n in counts[:most]
    ]
    rest = sum(n for _, n in counts[most:])
    return ", ".join(shown) + (f" and {rest} more" if rest else "")


class LevelActions:
    def __init__(
        self,
        *,
        session: Session,
        dialogs: Dialogs,
        parent: QWidget,
        select_tool: SelectTool,
        inspector: StackInspector,
        level_list: LevelListPanel,
        canvas: GridCanvas,
        activate_select: Callable[[], None],
        show_message: Callable[[str], None],
    ) -> None:
        self._session = session
        self._dialogs = dialogs
        self._parent = parent
        self._select = select_tool
        self._inspector = inspector
        self._level_list = level_list
        self._canvas = canvas
        self._activate_select = activate_select
        self._show = show_message

    @property
    def _pack(self) -> PackDocument:
        pack = self._session.pack
        assert pack is not None, "the window always has a pack open"
        return pack

    def _current(self) -> tuple[int, LevelDocument] | None:
        level = self._session.level
        if level is None or not self._pack.has_level(level):
            return None
        return self._pack.index_of(level), level

    # ------------------------------------------------------------ level list
    def add_level(self) -> LevelDocument:
        current = self._current()
        index = current[0] + 1 if current is not None else len(self._pack.levels)
        level = self._pack.add_level(index)
        self._show(f"Added level {level.level_id}")
        return level

    def duplicate_level(self) -> LevelDocument | None:
        current = self._current()
        return self._pack.duplicate_level(current[0]) if current is not None else None

    def rename_level(self) -> None:
        self._level_list.start_rename()

    def delete_level(self) -> None:
        current = self._current()
        if current is None:
            return
        self._pack.remove_level(current[0])
        self._show(f"Deleted level {current[1].level_id}. Undo (Ctrl+Z) brings it back")

    def move_level(self, step: int) -> None:
        current = self._current()
        if current is not None:
            self._pack.move_level(current[0], current[0] + step)

    def step_level(self, step: int) -> None:
        current = self._current()
        levels = self._pack.levels
        if current is not None and 0 <= current[0] + step < len(levels):
            self._session.set_level(levels[current[0] + step])

    # ------------------------------------------------------------ properties
    def edit_level_properties(self) -> None:
        current = self._current()
        if current is None:
            return
        level = current[1]
        taken = {lv.level_id for lv in self._pack.levels}
        answer = self._dialogs.edit_level_properties(
            self._parent, level.properties, taken, references=level.authored("references")
        )
        if answer is None:
            return
        props, anchor = answer
        removed = level.removed_by_resize(props.width, props.height, anchor)
        if removed:
            size = f"{level.width}x{level.height} to {props.width}x{props.height}"
            what = f"{len(removed)} {'entity' if len(removed) == 1 else 'entities'}"
            if not self._dialogs.confirm(
                self._parent,
                "Resize Level",
                f"Resizing {size} removes {what} outside the new edges "
                f"({describe_pieces(removed)}). Undo (Ctrl+Z) brings them back.\n\n"
                "Resize anyway?",
            ):
                self._show("Level properties unchanged: nothing was removed")
                return
        if level.set_properties(props, anchor) and removed:
            self._show(f"Resized the level: removed {what}. Undo (Ctrl+Z) brings them back")

    def edit_pack_properties(self) -> None:
        answer = self._dialogs.edit_pack_properties(self._parent, self._pack.properties)
        if answer is not None:
            self._pack.set_properties(answer)

    def add_noun(self) -> None:
        vocabulary = vocabulary_of(*self._pack.levels)  # a noun must be one in every level
        answer = self._dialogs.new_noun(self._parent, set(self._pack.nouns), vocabulary)
        if answer is not None:
            self._pack.add_noun(*answer)
            self._show(f"Added noun {answer[0]}: it is in the palette as an object and as a word")

    def edit_noun_style(self, name: str | None = None) -> None:
        """Colour and glyph of ``name`` (default: the noun picked in the palette)."""
        if name is None:
            stamp = self._session.stamp
            name = stamp.token if stamp is not None else None
        if name is None or name not in self._pack.nouns:
            self._show("Pick a noun in the palette first; its style is edited here")
            return
        spec = self._pack.nouns[name]
        answer = self._dialogs.edit_noun_style(
            self._parent, name, spec, self._pack.kept_style(name)
        )
        if answer is not None and self._pack.set_noun_style(name, answer):
            self._show(f"{name} is now drawn in {answer.color}")

    # ------------------------------------------------------------- clipboard
    def copy(self) -> bool:
        region = self._select.selected_region()
        if region is None:
            self._show("Select a region first (Select tool, S)")
            return False
        put_region(region)
        self._show(f"Copied {region.describe()}")
        return True

    def cut(self) -> None:
        if self.copy():
            self._select.delete_selection()

    def paste(self) -> None:
        region, why_not = Region.read_mime(QApplication.clipboard().mimeData())
        if region is None:
            self._show(why_not)
            return
        self._activate_select()
        self._select.begin_paste(region)
        self._show("Click where the region's top-left corner goes (Escape cancels)")

    def delete(self) -> None:
        """Delete what the author points at: the inspector's entity, the selection, or
        (keyboard authoring) the top entity of the canvas's cursor cell."""
        cursor, level = self._canvas.cursor_cell, self._session.level
        if self._inspector.list.hasFocus():
            self._inspector.remove_current()
        elif self._select.selected_region() is not None or cursor is None or level is None:
            self._select.delete_selection()
        elif self._canvas.hasFocus():
            level.remove_top([cursor], text="Erase")

    def select_all(self) -> None:
        self._activate_select()
        self._select.select_all()
