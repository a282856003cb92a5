from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView

import engine
from editor.dialogs.forms import LevelPropertiesDialog, NounDialog
from editor.values import (
    OBJECT,
    WORD,
    Anchor,
    LevelProperties,
    NounSpec,
    PackProperties,
    Pos,
    Stamp,
)
from tests.editor.window_driver import click, drag, tokens, trigger, use
from tests.support import ROOT


def test_level_properties_form_refuses_a_taken_or_malformed_id(qtbot) -> None:
    dialog = LevelPropertiesDialog(LevelProperties("a", "A", "", 5, 5), {"a", "b"})
    qtbot.addWidget(dialog)
    dialog.level_id.setText("b")
    assert "already" in dialog.problem()
    dialog.level_id.setText("-bad")
    assert dialog.problem()
    dialog.level_id.setText("a")  # its own id is fine
    dialog.width_box.setValue(9)
    dialog.anchors.button(8).setChecked(True)
    assert dialog.problem() == ""
    assert dialog.result_properties() == LevelProperties("a", "A", "", 9, 5)
    assert dialog.anchor() == Anchor(2, 2)


def test_noun_form_wants_a_new_upper_case_noun(qtbot) -> None:
    dialog = NounDialog({"BABA"})
    qtbot.addWidget(dialog)
    for name, ok in (
        ("BABA", False),
        ("IS", False),
        ("YOU", False),
        ("1KEY", False),
        ("KEY", True),
    ):
        dialog.name.setText(name)
        assert (dialog.problem() == "") is ok, name
    dialog.set_color(QColor("#123456"))
    assert dialog.result_noun() == ("KEY", NounSpec("#123456", ""))


def test_noun_form_refuses_what_the_engine_vocabulary_reads_as_another_word(qtbot) -> None:
    vocabulary = engine.Vocabulary.for_level(frail=False, automaton_properties=["TICK"])
    dialog = NounDialog({"BABA"}, vocabulary=vocabulary)
    qtbot.addWidget(dialog)
    for name, refused in (
        ("FRAIL", "built-in"),  # a mechanic word even where no level opts in
        ("TICK", "automaton"),  # an automaton's property in this pack
        ("AND", "built-in"),
        ("DEFEAT", "built-in"),
    ):
        dialog.name.setText(name)
        assert refused in dialog.problem(), name
    dialog.name.setText("TOCK")
    assert dialog.problem() == ""
    plain = NounDialog(set())  # without a pack's vocabulary only the built-in words are refused
    qtbot.addWidget(plain)
    plain.name.setText("TICK")
    assert plain.problem() == ""
    plain.name.setText("FRAIL")
    assert plain.problem() != ""


def test_pack_properties_are_an_undoable_pack_edit(make_window, dialogs) -> None:
    window = make_window()
    dialogs.pack_properties = PackProperties("mine", "My pack", "Ann", "")
    trigger(window, "actionPackProperties")
    assert window.pack.properties.title == "My pack"
    assert "My pack" in window.windowTitle()
    trigger(window, "actionUndo")
    assert window.pack.properties.title == "Untitled pack"


def test_rename_level_starts_editing_the_row(make_window) -> None:
    window = make_window()
    trigger(window, "actionRenameLevel")
    assert window.level_list.view.state() == QAbstractItemView.State.EditingState


def test_copy_and_paste_through_the_clipboard_between_levels(make_window) -> None:
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(0, 0))
    use(window, "actionToolBrush", Stamp(WORD, "YOU"))
    click(window, Pos(0, 0))
    trigger(window, "actionSelectAll")
    trigger(window, "actionCopy")
    trigger(window, "actionAddLevel")
    trigger(window, "actionPaste")
    assert window.canvas.tool is window.select_tool
    click(window, Pos(3, 2))  # the floating region's top-left lands here
    assert tokens(window, Pos(3, 2)) == ["BABA", "YOU"]
    assert window.select_tool.selection == QRect(3, 2, 12, 9).intersected(QRect(0, 0, 12, 9))
    trigger(window, "actionCut")
    assert tokens(window, Pos(3, 2)) == []
    trigger(window, "actionUndo")
    assert tokens(window, Pos(3, 2)) == ["BABA", "YOU"]


def test_delete_clears_the_selection(make_window) -> None:
    window = make_window()
    use(window, "actionToolRectangle", Stamp(OBJECT, "WALL"))
    drag(window, [Pos(0, 0), Pos(4, 4)])
    use(window, "actionToolSelect")
    drag(window, [Pos(1, 1), Pos(2, 2)])
    trigger(window, "actionDelete")
    assert len(window.level.cells()) == 25 - 4
    assert window.actions_by_id["actionDelete"].shortcut().toString() == "Del"


def test_quitting_takes_only_our_region_off_the_clipboard(qapp) -> None:
    from PySide6.QtGui import QGuiApplication

    from editor.io.clipboard import MIME_TYPE, Region, release_clipboard

    clipboard = QGuiApplication.clipboard()
    clipboard.setMimeData(Region(1, 1, {Pos(0, 0): (Stamp(OBJECT, "BABA"),)}).to_mime())
    release_clipboard()
    mime = clipboard.mimeData()
    assert mime is None or not mime.hasFormat(MIME_TYPE)
    clipboard.setText("someone else's text")
    release_clipboard()
    assert clipboard.text() == "someone else's text"
    clipboard.clear()


_COPY_AND_END = """
import gc, sys
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from editor import MainWindow
from editor.values import OBJECT, Pos, Stamp
window = MainWindow()
window.level.add_on_top([Pos(1, 1)], Stamp(OBJECT, "BABA"))
window.level_actions.select_all()
assert window.level_actions.copy()
ending = sys.argv[1]
if ending == "close":
    window.pack.undo_stack.setClean()  # nothing to ask about: closing goes straight through
    assert window.close()
elif ending == "delete":
    window.deleteLater()
    app.processEvents()
    del window
    gc.collect()
print("copied", flush=True)
"""


@pytest.mark.parametrize("ending", ["end", "close", "delete"])
def test_a_program_that_builds_the_window_and_copies_exits_cleanly(tmp_path, ending) -> None:
    """Any host (a test, a script, an embedder) may copy a region and just end."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", _COPY_AND_END, ending],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.stdout.strip() == "copied", done.stderr
    assert done.returncode == 0, done.stderr
