"""The level list: model consistency, and pack edits through the window's actions."""

from __future__ import annotations

import sys
from dataclasses import replace
from types import FrameType

from PySide6.QtCore import QModelIndex, Qt

from editor.documents.level import list_names
from editor.documents.level_index import SEARCHES_BEFORE_ROWS
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.values import OBJECT, Anchor, LevelProperties, Pos, Stamp
from editor.views.level_list import FILL_LATER_FROM, LevelListPanel, LevelsModel
from tests.editor.window_driver import click, tokens, trigger, use
from tests.support import grid_level, pack_document


def titles(pack: PackDocument) -> list[str]:
    return [lv.title for lv in pack.levels]


def test_the_model_stays_consistent_while_levels_change(qtmodeltester, qapp) -> None:
    pack = PackDocument.untitled()
    model = LevelsModel(pack)
    qtmodeltester.check(model)
    pack.add_level(1)
    pack.duplicate_level(0)
    pack.move_level(0, 2)
    pack.remove_level(1)
    assert model.rowCount() == 2
    assert titles(pack) == ["Level 1 (copy)", "Level 1"]
    for _ in range(4):
        pack.undo_stack.undo()
    assert titles(pack) == ["Level 1"]
    assert model.rowCount() == 1


def test_a_level_without_a_title_is_listed_by_its_id(qapp) -> None:
    pack = PackDocument.untitled()
    pack.add_level(1)
    second = pack.levels[1]
    second.set_properties(replace(second.properties, title=""))
    model = LevelsModel(pack)  # the names read in one go, as a new pack's are
    assert [model.data(model.index(row)) for row in range(2)] == ["Level 1", second.level_id]
    assert second.level_id


def test_renaming_a_row_is_an_undoable_level_edit(qapp) -> None:
    pack = PackDocument.untitled()
    model = LevelsModel(pack)
    index = model.index(0)
    assert model.setData(index, "  First steps ", Qt.ItemDataRole.EditRole)
    assert pack.levels[0].title == "First steps"
    assert model.data(index) == "First steps"
    pack.levels[0].undo_stack.undo()
    assert pack.levels[0].title == "Level 1"


def test_dragging_a_row_reorders_levels(qapp) -> None:
    pack = PackDocument.untitled()
    pack.add_level(1)
    pack.add_level(2)
    model = LevelsModel(pack)
    mime = model.mimeData([model.index(0)])
    model.dropMimeData(mime, Qt.DropAction.MoveAction, 3, 0, QModelIndex())
    assert titles(pack) == ["Level 2", "Level 3", "Level 1"]
    assert model.moveRows(QModelIndex(), 2, 1, QModelIndex(), 0)
    assert titles(pack) == ["Level 1", "Level 2", "Level 3"]


def test_level_actions_add_duplicate_move_delete_and_undo(make_window) -> None:
    window = make_window()
    pack = window.pack
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(1, 1))
    trigger(window, "actionDuplicateLevel")
    assert [lv.level_id for lv in pack.levels] == ["level-1", "level-1-copy"]
    assert tokens(window, Pos(1, 1)) == ["BABA"]  # the copy is current and has the contents
    trigger(window, "actionAddLevel")
    assert window.level is pack.levels[2]
    trigger(window, "actionMoveLevelUp")
    assert pack.levels[1] is window.level
    assert window.level_list.current_row() == 1
    trigger(window, "actionDeleteLevel")
    assert len(pack.levels) == 2
    assert window.level in pack.levels
    trigger(window, "actionUndo")
    assert len(pack.levels) == 3
    assert window.history.stack() is pack.undo_stack


def test_the_list_highlights_the_current_level_after_every_level_action(make_window) -> None:
    """The session takes the new (or the neighbouring) level before the list's rows
    have moved: the row it highlighted then slid on to the next level (Duplicate Level
    showed the copy on the board and the level after it highlighted)."""
    window = make_window()
    pack = window.pack
    trigger(window, "actionAddLevel")
    trigger(window, "actionAddLevel")
    window.session.set_level(pack.levels[0])
    view = window.level_list.view
    for action in (
        "actionDuplicateLevel",
        "actionAddLevel",
        "actionDeleteLevel",
        "actionUndo",
        "actionUndo",
        "actionRedo",
        "actionMoveLevelDown",
        "actionDeleteLevel",
        "actionUndo",
    ):
        trigger(window, action)
        row = pack.row_of(window.level)
        assert window.level_list.current_row() == row, action
        assert view.currentIndex().data() == (window.level.title or window.level.level_id)


def test_deleting_a_level_shows_the_one_after_it_once(make_window) -> None:
    """The level that followed a deleted one is shown, and only it: the list's view
    moved its highlight off the removed row as the row went and took the level one
    further on (the panels filled twice, for the neighbour and then that one)."""
    window = make_window()
    pack = window.pack
    for _ in range(4):
        trigger(window, "actionAddLevel")
    shown: list[object] = []
    window.session.level_changed.connect(shown.append)
    for action in ("actionDeleteLevel", "actionUndo"):
        if action == "actionUndo":  # the undo takes a new level at row 2 away
            window.session.set_level(pack.levels[1])
            trigger(window, "actionAddLevel")
        window.session.set_level(pack.levels[2])
        after = pack.levels[3]
        shown.clear()
        trigger(window, action)
        assert shown == [after], action
        assert window.level is after
        assert window.level_list.current_row() == pack.row_of(after) == 2


def test_level_properties_resize_with_an_anchor(make_window, dialogs) -> None:
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(0, 0))
    dialogs.level_properties = (LevelProperties("start", "Start", "me", 14, 9), Anchor(2, 0))
    trigger(window, "actionLevelProperties")
    level = window.level
    assert (level.level_id, level.width) == ("start", 14)
    assert tokens(window, Pos(2, 0)) == ["ROCK"]
    assert window.level_list.model.index(0).data(Qt.ItemDataRole.UserRole) == "start"
    trigger(window, "actionUndo")
    assert (level.level_id, level.width) == ("level-1", 12)


def test_previous_and_next_level(make_window) -> None:
    window = make_window()
    trigger(window, "actionAddLevel")
    trigger(window, "actionPreviousLevel")
    assert window.level is window.pack.levels[0]
    trigger(window, "actionNextLevel")
    assert window.level is window.pack.levels[1]


def test_deleting_every_level_is_undone_by_ctrl_z(make_window) -> None:
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(1, 1))
    trigger(window, "actionDeleteLevel")
    assert window.level is None
    click(window, Pos(1, 1))  # painting with no level does nothing
    assert window.actions_by_id["actionUndo"].text().replace("&", "") == "Undo Delete Level level-1"
    trigger(window, "actionUndo")  # one history: Ctrl+Z brings the deleted level back, whole
    assert window.level is window.pack.levels[0]
    assert tokens(window, Pos(1, 1)) == ["BABA"]
    trigger(window, "actionUndo")
    assert tokens(window, Pos(1, 1)) == []


def test_a_row_update_in_a_large_pack_does_not_call_python_per_row(qtbot) -> None:
    """QListView lays every row out again on ``dataChanged``, asking the row count per row.

    With the count in Python, a status update of a 10,000-level pack made 10,000
    calls into the interpreter, each waiting for it while background work held it:
    the window froze for hundreds of milliseconds during a save.
    """
    pack = PackDocument.untitled()
    for i in range(1, 2_000):
        pack.add_level(i)
    session = Session()
    session.set_pack(pack)
    panel = LevelListPanel(session)
    qtbot.addWidget(panel)
    panel.resize(260, 400)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 2_000)  # a large pack's rows come next turn
    calls: list[str] = []

    def count(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.endswith("level_list.py"):
            calls.append(frame.f_code.co_name)

    model = panel.model
    sys.setprofile(count)
    try:
        model.dataChanged.emit(model.index(5), model.index(5))
        panel.view.doItemsLayout()
    finally:
        sys.setprofile(None)
    assert model.rowCount() == 2_000
    assert len(calls) < 100, f"{len(calls)} calls, mostly {max(set(calls), key=calls.count)}"


def test_row_of_follows_every_change_of_the_level_order(qapp) -> None:
    pack = PackDocument.untitled()
    pack.add_level(1)
    pack.add_level(2)
    first, second, third = pack.levels
    assert [pack.row_of(lv) for lv in (first, second, third)] == [0, 1, 2]
    pack.move_level(0, 2)
    assert [pack.row_of(lv) for lv in (first, second, third)] == [2, 0, 1]
    pack.remove_level(0)
    assert pack.row_of(second) is None
    assert not pack.has_level(second)
    assert [pack.index_of(lv) for lv in pack.levels] == [0, 1]
    pack.undo_stack.undo()
    assert pack.row_of(second) == 0
    assert pack.index_of(third) == 1


def test_a_large_packs_rows_come_in_a_turn_of_their_own_as_the_pack_is_then(qtbot) -> None:
    """Adopting a pack is one busy turn; the list reads a large pack's texts in the next."""
    pack = PackDocument.untitled()
    for i in range(1, FILL_LATER_FROM + 5):
        pack.add_level(i)
    session = Session()
    panel = LevelListPanel(session)
    qtbot.addWidget(panel)
    panel.show()
    session.set_pack(pack)
    session.set_level(pack.levels[3])
    assert panel.model.rowCount() == 0  # not in this turn
    renamed = pack.levels[3]
    renamed.set_properties(replace(renamed.properties, title="Renamed"))  # before the rows
    qtbot.waitUntil(lambda: panel.model.rowCount() == pack.level_count())
    texts = panel.model.stringList()
    assert texts[3] == "Renamed"
    assert texts == [level.title or level.level_id for level in pack.levels]
    assert panel.current_row() == 3  # the current level is selected once its row is there
    pack.add_level(0)  # and the pack is followed from then on
    assert panel.model.rowCount() == pack.level_count()
    assert panel.model.stringList()[4] == "Renamed"


def test_positions_and_membership_follow_adds_removes_moves_and_undos(qapp) -> None:
    """A level's position is searched for just after levels come or go, then mapped
    (``SEARCHES_BEFORE_ROWS``); both answers, and membership, must follow every change."""
    pack = PackDocument.untitled()
    pack.add_level(1)
    pack.add_level(2)
    gone = pack.levels[1]
    pack.remove_level(1)
    pack.duplicate_level(0)
    pack.move_level(0, 2)

    def check() -> None:
        levels = pack.levels
        for _ in range(SEARCHES_BEFORE_ROWS + 2):  # searched first, then mapped
            assert [pack.row_of(level) for level in levels] == list(range(len(levels)))
        assert all(pack.has_level(level) for level in levels)
        assert pack.row_of(gone) is None
        assert not pack.has_level(gone)

    check()
    pack.undo_stack.undo()  # the move
    check()
    pack.undo_stack.undo()  # the duplicate
    check()
    pack.undo_stack.undo()  # the remove: ``gone`` is back
    assert pack.row_of(gone) == 1
    assert pack.has_level(gone)
    pack.undo_stack.redo()
    check()


def test_the_names_kept_from_building_follow_every_change(qapp) -> None:
    """A read pack keeps its levels' names from when it was built, for the list's first
    fill; every change of levels or of a level's title or id must drop them."""
    data = pack_document(*(grid_level(["baba . flag"], f"l{n}") for n in range(4)))
    data["levels"][0]["title"] = "First"  # the others are untitled: listed by their ids
    pack = PackDocument.from_data(data)
    assert pack.level_names() == list_names(pack.levels) == ["First", "l1", "l2", "l3"]
    level = pack.levels[2]
    steps = [
        lambda: level.set_properties(replace(level.properties, title="Third")),
        lambda: pack.duplicate_level(0),
        lambda: pack.move_level(0, 3),
        lambda: pack.remove_level(1),
        lambda: pack.add_level(0),
        lambda: pack.levels[1].set_properties(replace(pack.levels[1].properties, level_id="x")),
    ]
    for step in steps:
        step()
        assert pack.level_names() == list_names(pack.levels)
    while pack.undo_stack.canUndo():
        pack.undo_stack.undo()
        assert pack.level_names() == list_names(pack.levels)
    assert pack.level_names() == ["First", "l1", "l2", "l3"]
