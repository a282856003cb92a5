"""A soak of the real window: random author actions from a fixed seed, invariants after each.

Shared by the CI test (``test_soak.py``, a bounded budget) and the longer run in
``bench/bench_soak.py``. Every action goes through the window the way an author's
would: actions by objectName, the palette, the canvas by mouse events, the stack
inspector's buttons, scripted answers to dialogs. After each action nothing may
have raised (pytest-qt fails a test on an exception in a slot; the bench counts
them); after each save the file on disk is the document and loads as it does;
after each action (or every ``checkpoint`` actions) undoing everything returns to
the pack as opened and redoing everything to the pack as it was.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

import engine
from editor.main_window import MainWindow
from editor.values import Anchor, LevelProperties, Pos
from tests.editor.window_driver import drag

PAINT_TOOLS = ("actionToolBrush", "actionToolEraser", "actionToolRectangle", "actionToolFill")


def _load_codes(source: Path | dict[str, Any]) -> list[str]:
    """Whether the pack loads: no problem codes, or those it was saved with on purpose.

    The soak answers yes to "save a pack with errors?", so a saved file may be
    refused, but read from the file it must be refused exactly as the document is.
    """
    try:
        engine.load_pack_document(source)
    except engine.ValidationError as exc:
        return [f"{p.code} {p.pointer}" for p in exc.errors]
    return []


class Soak:
    """Random actions on one window; ``checks`` counts the invariants checked."""

    def __init__(self, window: MainWindow, dialogs: Any, folder: Path, seed: int) -> None:
        self.window = window
        self.dialogs = dialogs
        self.folder = folder
        self.rng = random.Random(seed)
        self.path = folder / f"soak-{seed}.json"
        self.counts: Counter[str] = Counter()
        self.checks = 0
        self.opened = window.pack.to_data()  # what undoing everything must give back
        dialogs.confirm_answer = True  # "save a pack with errors?" and similar: yes
        dialogs.unsaved_answer = "discard"
        self.actions: list[tuple[Callable[[], None], int]] = [
            (self.paint, 30),
            (self.undo, 10),
            (self.redo, 6),
            (self.reorder_stack, 5),
            (self.add_level, 2),
            (self.delete_level, 2),
            (self.move_level, 2),
            (self.switch_level, 4),
            (self.resize, 3),
            (self.copy_paste, 4),
            (self.play_and_escape, 3),
            (self.save, 3),
            (self.reopen, 1),
        ]

    # ------------------------------------------------------------------ running
    def run(self, count: int, *, checkpoint: int = 1) -> None:
        functions, weights = zip(*self.actions, strict=True)
        for n in range(1, count + 1):
            action = self.rng.choices(functions, weights)[0]
            action()
            self.counts[action.__name__] += 1
            QApplication.processEvents()
            if n % checkpoint == 0:
                self.check_history()
        self.check_history()

    def check_history(self) -> None:
        """Undo everything: the pack as opened. Redo to here: the pack as it is.

        When the author has undone some steps, redoing all of them and undoing them
        again must also come back to the pack as it is now.
        """
        stack = self.window.pack.undo_stack
        now, index = self.window.pack.to_data(), stack.index()
        stack.setIndex(0)
        assert self.window.pack.to_data() == self.opened, "undoing everything did not reopen"
        stack.setIndex(index)
        assert self.window.pack.to_data() == now, "redoing everything did not come back"
        stack.setIndex(stack.count())
        stack.setIndex(index)
        assert self.window.pack.to_data() == now, "redo-all then undo did not come back"
        self.checks += 1

    # ------------------------------------------------------------------ helpers
    def _level_cells(self) -> list[Pos]:
        level = self.window.level
        if level is None:
            return []
        return [Pos(x, y) for y in range(level.height) for x in range(level.width)]

    def _trigger(self, action_id: str) -> bool:
        action = self.window.actions_by_id[action_id]
        if not action.isEnabled():
            return False
        action.trigger()
        return True

    def _path(self, length: int) -> list[Pos]:
        cells = self._level_cells()
        start = self.rng.choice(cells)
        out = [start]
        for _ in range(length - 1):
            last = out[-1]
            step = self.rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
            nxt = Pos(last.x + step[0], last.y + step[1])
            out.append(nxt if nxt in cells else last)
        return out

    # ------------------------------------------------------------------ actions
    def paint(self) -> None:
        if self.window.level is None:
            self.add_level()
            return
        self._trigger(self.rng.choice(PAINT_TOOLS))
        palette = self.window.palette_panel
        offered = [s for s in palette.stamps() if palette.offers(s)]
        if offered:
            palette.choose(self.rng.choice(offered))
        drag(self.window, self._path(self.rng.randint(1, 4)))

    def undo(self) -> None:
        self._trigger("actionUndo")

    def redo(self) -> None:
        self._trigger("actionRedo")

    def reorder_stack(self) -> None:
        level = self.window.level
        if level is None:
            return
        stacked = [pos for pos, stack in level.cells().items() if len(stack) >= 2]
        if not stacked:
            return
        pos = self.rng.choice(sorted(stacked))
        self.window.session.inspect(pos)
        inspector = self.window.inspector
        inspector.select_row(self.rng.randrange(len(level.stack_at(pos))))
        button = self.rng.choice((inspector.raise_button, inspector.lower_button))
        if button.isEnabled():
            button.click()

    def add_level(self) -> None:
        self._trigger("actionAddLevel")

    def delete_level(self) -> None:
        if len(self.window.pack.levels) > 1:
            self._trigger("actionDeleteLevel")

    def move_level(self) -> None:
        self._trigger(self.rng.choice(("actionMoveLevelUp", "actionMoveLevelDown")))

    def switch_level(self) -> None:
        self._trigger(self.rng.choice(("actionPreviousLevel", "actionNextLevel")))

    def resize(self) -> None:
        level = self.window.level
        if level is None:
            return
        props = level.properties
        size = LevelProperties(
            props.level_id,
            props.title,
            props.author,
            self.rng.randint(3, 14),
            self.rng.randint(3, 11),
        )
        self.dialogs.level_properties = (
            size,
            Anchor(self.rng.randint(0, 2), self.rng.randint(0, 2)),
        )
        self._trigger("actionLevelProperties")

    def copy_paste(self) -> None:
        if self.window.level is None:
            return
        self._trigger("actionToolSelect")
        corner = self._path(self.rng.randint(1, 3))
        drag(self.window, [corner[0], corner[-1]])
        if self._trigger("actionCopy") and self.window.actions_by_id["actionPaste"].isEnabled():
            self._trigger("actionPaste")
            drag(self.window, [self.rng.choice(self._level_cells())])

    def play_and_escape(self) -> None:
        level = self.window.level
        if level is None:
            return
        before = level.to_data()
        if not self._trigger("actionPlay"):
            return
        view = self.window.play_view
        if view.isVisible():
            for _ in range(self.rng.randint(0, 4)):
                QTest.keyClick(
                    view, self.rng.choice((Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up))
                )
            QTest.keyClick(view, Qt.Key.Key_Escape)
        assert level.to_data() == before, "playing changed the level"

    def save(self) -> None:
        pack = self.window.pack
        self.dialogs.save_path = self.path
        if pack.path is None:
            self._trigger("actionSaveAs")
        else:
            self._trigger("actionSave")
        if pack.path is None or pack.is_dirty():
            return  # refused (the scripted answers allow it; nothing more to check)
        on_disk = json.loads(Path(pack.path).read_text(encoding="utf-8"))
        assert on_disk == pack.to_data(), "the saved file is not the document"
        assert _load_codes(Path(pack.path)) == _load_codes(on_disk), (
            "the saved file reads differently"
        )
        self.checks += 1

    def reopen(self) -> None:
        pack = self.window.pack
        if pack.path is None or pack.is_dirty():
            self.save()
        if pack.path is None or pack.is_dirty():
            return
        saved = json.loads(Path(pack.path).read_text(encoding="utf-8"))
        self.dialogs.open_anyway = True  # a pack with problems opens for repair
        self.window.files.open_path(pack.path)
        reopened = self.window.pack
        assert reopened is not pack, "the pack did not reopen"
        assert reopened.to_data() == saved, "the reopened pack is not the saved file"
        self.opened = reopened.to_data()  # a new history starts here
        self.checks += 1
