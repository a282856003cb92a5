"""What the Level and Edit menus do: level list operations, properties, nouns,
and the clipboard. Each handler asks the injected dialogs when it needs an
answer and then calls a document method (which pushes an undo command)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication

from editor.documents.level import LevelDocument
from editor.documents.pack import PackDocument
from editor.documents.values import vocabulary_of
from editor.io.clipboard import Region

if TYPE_CHECKING:
    from editor.main_window import MainWindow


class LevelActions:
    def __init__(self, window: MainWindow) -> None:
        self._w = window

    @property
    def _pack(self) -> PackDocument:
        return self._w.pack

    def _current(self) -> tuple[int, LevelDocument] | None:
        level = self._w.session.level
        if level is None or level not in self._pack.levels:
            return None
        return self._pack.index_of(level), level

    # ------------------------------------------------------------ level list
    def add_level(self) -> LevelDocument:
        current = self._current()
        index = current[0] + 1 if current is not None else len(self._pack.levels)
        level = self._pack.add_level(index)
        self._w.show_message(f"Added level {level.level_id}")
        return level

    def duplicate_level(self) -> LevelDocument | None:
        current = self._current()
        return self._pack.duplicate_level(current[0]) if current is not None else None

    def rename_level(self) -> None:
        view = self._w.level_list.view
        view.setFocus()
        view.edit(view.currentIndex())

    def delete_level(self) -> None:
        current = self._current()
        if current is None:
            return
        self._pack.remove_level(current[0])
        self._w.show_message(
            f"Deleted level {current[1].level_id}. Undo Pack Change (Ctrl+Alt+Z) brings it back"
        )

    def move_level(self, step: int) -> None:
        current = self._current()
        if current is not None:
            self._pack.move_level(current[0], current[0] + step)

    def step_level(self, step: int) -> None:
        current = self._current()
        levels = self._pack.levels
        if current is not None and 0 <= current[0] + step < len(levels):
            self._w.session.set_level(levels[current[0] + step])

    # ------------------------------------------------------------ properties
    def edit_level_properties(self) -> None:
        current = self._current()
        if current is None:
            return
        taken = {lv.level_id for lv in self._pack.levels}
        answer = self._w.dialogs.edit_level_properties(self._w, current[1].properties, taken)
        if answer is not None:
            current[1].set_properties(*answer)

    def edit_pack_properties(self) -> None:
        answer = self._w.dialogs.edit_pack_properties(self._w, self._pack.properties)
        if answer is not None:
            self._pack.set_properties(answer)

    def add_noun(self) -> None:
        vocabulary = vocabulary_of(*self._pack.levels)  # a noun must be one in every level
        answer = self._w.dialogs.new_noun(self._w, set(self._pack.nouns), vocabulary)
        if answer is not None:
            self._pack.add_noun(*answer)
            self._w.show_message(
                f"Added noun {answer[0]}: it is in the palette as an object and as a word"
            )

    # ------------------------------------------------------------- clipboard
    def copy(self) -> bool:
        region = self._w.select_tool.selected_region()
        if region is None:
            self._w.show_message("Select a region first (Select tool, S)")
            return False
        QApplication.clipboard().setMimeData(region.to_mime())
        self._w.show_message(f"Copied {region.describe()}")
        return True

    def cut(self) -> None:
        if self.copy():
            self._w.select_tool.delete_selection()

    def paste(self) -> None:
        region = Region.from_mime(QApplication.clipboard().mimeData())
        if region is None:
            self._w.show_message("The clipboard holds no Rulegrid region")
            return
        self._w.activate_tool(self._w.select_tool)
        self._w.select_tool.begin_paste(region)
        self._w.show_message("Click where the region's top-left corner goes (Escape cancels)")

    def delete(self) -> None:
        inspector = self._w.inspector
        if inspector.list.hasFocus():
            inspector.remove_current()
        else:
            self._w.select_tool.delete_selection()

    def select_all(self) -> None:
        self._w.activate_tool(self._w.select_tool)
        self._w.select_tool.select_all()
