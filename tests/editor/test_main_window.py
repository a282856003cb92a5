"""The real window, driven through its actions, palette and canvas."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

import engine
from editor.values import OBJECT, WORD, Pos, Stamp
from tests.editor.window_driver import click, drag, tokens, trigger, use

BABA, ROCK, FLAG = Stamp(OBJECT, "BABA"), Stamp(OBJECT, "ROCK"), Stamp(OBJECT, "FLAG")
W_BABA, IS, YOU = Stamp(WORD, "BABA"), Stamp(WORD, "IS"), Stamp(WORD, "YOU")
SHIFT = Qt.KeyboardModifier.ShiftModifier


def test_window_carries_the_api_names_of_this_issue(make_window) -> None:
    window = make_window()
    for name in ("levelCanvas", "palette", "levelList"):
        widget = window.findChild(QWidget, name)
        assert widget is not None
        assert widget.accessibleName() == name
    assert isinstance(window.findChild(QAbstractItemView, "levelList"), QAbstractItemView)
    for name in ("actionNewPack", "actionOpenPack", "actionSave", "actionUndo", "actionRedo"):
        assert window.actions_by_id[name].objectName() == name


def test_author_paints_stacks_with_every_tool_undoes_saves_and_reopens(
    make_window, dialogs, tmp_path
) -> None:
    window = make_window()
    trigger(window, "actionNewPack")
    level = window.level
    assert level is not None

    use(window, "actionToolBrush", BABA)
    drag(window, [Pos(1, 1), Pos(2, 1), Pos(3, 1)])
    use(window, "actionToolBrush", YOU)
    click(window, Pos(2, 1))  # YOU on top of BABA
    use(window, "actionToolRectangle", ROCK)
    drag(window, [Pos(5, 5), Pos(7, 6)])
    click(window, Pos(2, 1))  # a one-cell rectangle: ROCK on top of BABA YOU
    use(window, "actionToolFill", FLAG)
    click(window, Pos(6, 5))  # the 3x2 block of ROCK stacks all get a FLAG
    use(window, "actionToolEraser")
    click(window, Pos(3, 1))
    use(window, "actionToolPicker")
    click(window, Pos(2, 1))
    click(window, Pos(2, 1))
    assert window.session.stamp == YOU  # the second click went one down the stack
    use(window, "actionToolSelect")
    drag(window, [Pos(5, 5), Pos(7, 6)])
    drag(window, [Pos(5, 5), Pos(5, 3)])  # move the 3x2 block up by two rows, stacks intact

    assert tokens(window, Pos(2, 1)) == ["BABA", "YOU", "ROCK"]
    assert tokens(window, Pos(3, 1)) == []
    assert tokens(window, Pos(7, 4)) == ["ROCK", "FLAG"]
    assert tokens(window, Pos(7, 6)) == []
    stack = window.undo_group.activeStack()
    assert [stack.text(i) for i in range(stack.count())] == [
        "Brush baba",
        "Brush YOU",
        "Rectangle rock",
        "Rectangle rock",
        "Fill flag",
        "Erase",
        "Move Region",
    ]
    assert window.isWindowModified()

    final = level.to_data()
    for _ in range(stack.count()):
        trigger(window, "actionUndo")
    assert level.cells() == {}
    assert not window.isWindowModified()
    for _ in range(stack.count()):
        trigger(window, "actionRedo")
    assert level.to_data() == final

    dialogs.save_path = tmp_path / "mine.json"
    trigger(window, "actionSave")
    assert not window.isWindowModified()
    assert "mine.json" in window.windowTitle()
    assert engine.load_pack(tmp_path / "mine.json").to_data() == window.pack.to_data()
    assert str((tmp_path / "mine.json").resolve()) in window.settings.recent_packs

    reopened = make_window(tmp_path / "mine.json")
    assert reopened.pack.to_data() == window.pack.to_data()
    assert [p.id for p in reopened.level.stack_at(Pos(2, 1))] == [
        p.id for p in level.stack_at(Pos(2, 1))
    ]


def test_opening_a_broken_pack_lists_every_problem_with_its_path(
    make_window, dialogs, tmp_path
) -> None:
    broken = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "broken",
        "title": "Broken",
        "nouns": {"BABA": {"color": "#d9396a"}},
        "levels": [
            {
                "id": "a",
                "width": 3,
                "height": 3,
                "entities": [
                    {"id": 1, "kind": "object", "noun": "GHOST", "x": 0, "y": 0},
                    {"id": 2, "kind": "object", "noun": "BABA", "x": 7, "y": 0},
                ],
            },
            {
                "id": "b",
                "width": 2,
                "height": 2,
                "entities": [{"id": 1, "kind": "word", "text": "FRAIL", "x": 0, "y": 0}],
            },
        ],
    }
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    window = make_window()
    untitled = window.pack
    dialogs.open_path = path
    trigger(window, "actionOpenPack")
    [problems] = dialogs.problems_shown
    located = {(p.level, p.pointer, p.code) for p in problems}
    assert located == {
        ("a", "/levels/0/entities/0/noun", "unknown-noun"),
        ("a", "/levels/0/entities/1/x", "out-of-bounds"),
        ("b", "/levels/1/entities/0/text", "frail-not-declared"),
    }
    assert window.pack is untitled  # refused: nothing changed
    assert "did not load" in window.statusBar().currentMessage()

    dialogs.open_anyway = True
    trigger(window, "actionOpenPack")
    assert dialogs.asked[-1][0] == "problems"
    assert dialogs.asked[-1][1][1] is True  # it could be repaired
    assert window.pack.properties.pack_id == "broken"
    assert window.files.problems == dialogs.problems_shown[-1]
    assert tokens(window, Pos(0, 0)) == ["GHOST"]  # kept so the author can fix it


def test_a_pack_that_is_not_json_cannot_be_repaired(make_window, dialogs, tmp_path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{ not json", encoding="utf-8")
    dialogs.open_path, dialogs.open_anyway = path, True
    window = make_window()
    trigger(window, "actionOpenPack")
    [(_source, can_repair, _notes)] = [a[1] for a in dialogs.asked if a[0] == "problems"]
    assert can_repair is False
    assert dialogs.problems_shown[0][0].code == "invalid-json"


def test_closing_with_unsaved_changes_asks(make_window, dialogs, tmp_path) -> None:
    window = make_window()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(0, 0))
    dialogs.unsaved_answer = "cancel"
    assert window.close() is False
    assert window.isVisible()
    dialogs.unsaved_answer, dialogs.save_path = "save", tmp_path / "kept.json"
    assert window.close() is True
    assert engine.load_pack(tmp_path / "kept.json").levels[0].entities[0].noun == "BABA"
    assert [a[0] for a in dialogs.asked] == ["unsaved", "unsaved", "save"]
    assert not window.settings.window_geometry.isEmpty()


def test_new_pack_asks_before_dropping_changes(make_window, dialogs) -> None:
    window = make_window()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(0, 0))
    dialogs.unsaved_answer = "cancel"
    trigger(window, "actionNewPack")
    assert tokens(window, Pos(0, 0)) == ["BABA"]
    dialogs.unsaved_answer = "discard"
    trigger(window, "actionNewPack")
    assert tokens(window, Pos(0, 0)) == []


def test_saving_as_a_folder_writes_pack_json(make_window, dialogs, tmp_path) -> None:
    window = make_window()
    dialogs.save_path = tmp_path / "folder-pack"
    trigger(window, "actionSaveAsFolder")
    assert (tmp_path / "folder-pack" / "pack.json").is_file()
    assert engine.load_pack(tmp_path / "folder-pack").id == "untitled"
    dialogs.open_path = tmp_path / "folder-pack"
    trigger(window, "actionOpenPackFolder")
    assert window.pack.folder
    assert window.pack.path == tmp_path / "folder-pack"


def test_every_tool_has_a_shortcut_shown_in_its_tooltip_and_menu(make_window) -> None:
    window = make_window()
    for tool in window.tools:
        action = window.actions_by_id[tool.action_id]
        assert action.shortcut().toString() == tool.shortcut
        assert f"({tool.shortcut})" in action.toolTip()
    assert window.actions_by_id["actionUndo"].shortcut().toString() == "Ctrl+Z"


def test_dark_theme_is_applied_and_remembered(make_window, settings) -> None:
    window = make_window()
    light_window = QApplication.palette().window().color().name()
    trigger(window, "actionDarkTheme")
    assert settings.theme == "dark"
    assert QApplication.palette().window().color().name() != light_window
    assert window.renderer.theme.dark


def test_one_history_for_the_pack_and_undo_shows_the_level_it_changes(make_window) -> None:
    window = make_window()
    assert window.history.group() is window.undo_group
    assert window.undo_group.activeStack() is window.pack.undo_stack
    use(window, "actionToolBrush", BABA)
    click(window, Pos(0, 0))
    first = window.level
    trigger(window, "actionAddLevel")
    second = window.level
    assert second is not first
    click(window, Pos(1, 1))
    trigger(window, "actionPreviousLevel")
    assert window.level is first
    assert window.actions_by_id["actionUndo"].text().replace("&", "") == "Undo Brush baba"
    trigger(window, "actionUndo")  # the most recent edit was in the second level
    assert window.level is second
    assert tokens(window, Pos(1, 1)) == []
    trigger(window, "actionUndo")  # then adding that level
    assert second not in window.pack.levels
    assert window.level is first
    trigger(window, "actionUndo")  # then the first brush stroke
    assert tokens(window, Pos(0, 0)) == []
    assert not window.actions_by_id["actionUndo"].isEnabled()
    trigger(window, "actionRedo")
    trigger(window, "actionRedo")
    trigger(window, "actionRedo")
    assert window.level is second
    assert tokens(window, Pos(1, 1)) == ["BABA"]


def test_tool_keys_switch_tools(make_window, qtbot) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.canvas.setFocus()
    for key, tool_action in (
        (Qt.Key.Key_E, "actionToolEraser"),
        (Qt.Key.Key_R, "actionToolRectangle"),
        (Qt.Key.Key_S, "actionToolSelect"),
        (Qt.Key.Key_B, "actionToolBrush"),
    ):
        QTest.keyClick(window.canvas, key)
        assert window.actions_by_id[tool_action].isChecked()
        assert window.canvas.tool.action_id == tool_action


def test_recent_packs_reopen_from_the_file_menu(make_window, dialogs, tmp_path) -> None:
    window = make_window()
    dialogs.save_path = tmp_path / "again.json"
    trigger(window, "actionSave")
    trigger(window, "actionNewPack")
    window.recent_menu.aboutToShow.emit()
    [entry] = [a for a in window.recent_menu.actions() if a.text() == "again.json"]
    entry.trigger()
    assert window.pack.path == tmp_path / "again.json"
