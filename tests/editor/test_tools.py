"""Each tool, driven through its pointer interface on a real session and level."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRect, Qt

from editor.documents.session import Session
from editor.io.clipboard import Region
from editor.tools import BrushTool, EraserTool, FillTool, PickerTool, RectangleTool, SelectTool
from editor.tools.base import line_cells
from editor.values import OBJECT, WORD, Pos, Stamp

NO = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
LEFT, RIGHT = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
BABA, ROCK, YOU = Stamp(OBJECT, "BABA"), Stamp(OBJECT, "ROCK"), Stamp(WORD, "YOU")


def stroke(tool, cells: list[Pos], mods=NO, button=LEFT) -> None:
    tool.press(cells[0], mods, button)
    for pos in cells[1:]:
        tool.drag(pos, mods)
    tool.release(cells[-1], mods)


def tokens(session: Session, pos: Pos) -> list[str]:
    assert session.level is not None
    return [p.token for p in session.level.stack_at(pos)]


def test_a_brush_stroke_stacks_once_per_cell_and_is_one_undo_step(session: Session) -> None:
    level = session.level
    assert level is not None
    brush = BrushTool(session)
    session.set_stamp(BABA)
    stroke(brush, [Pos(0, 0), Pos(3, 0), Pos(0, 0)])  # back over cells already painted
    session.set_stamp(YOU)
    stroke(brush, [Pos(1, 0), Pos(2, 0)])
    assert tokens(session, Pos(0, 0)) == ["BABA"]
    assert tokens(session, Pos(1, 0)) == ["BABA", "YOU"]
    assert level.undo_stack.count() == 2
    level.undo_stack.undo()
    assert tokens(session, Pos(1, 0)) == ["BABA"]
    level.undo_stack.undo()
    assert level.cells() == {}


def test_fast_drags_leave_no_gaps() -> None:
    cells = list(line_cells(Pos(0, 0), Pos(5, 2)))
    assert cells[0] == Pos(0, 0)
    assert cells[-1] == Pos(5, 2)
    assert all(abs(a.x - b.x) <= 1 and abs(a.y - b.y) <= 1 for a, b in itertools.pairwise(cells))


def test_the_brush_erases_with_the_right_button(session: Session) -> None:
    session.set_stamp(BABA)
    brush = BrushTool(session)
    stroke(brush, [Pos(0, 0)])
    stroke(brush, [Pos(0, 0)])
    stroke(brush, [Pos(0, 0)], button=RIGHT)
    assert tokens(session, Pos(0, 0)) == ["BABA"]


def test_the_eraser_takes_the_top_entity_or_with_shift_the_whole_stack(session: Session) -> None:
    level = session.level
    assert level is not None
    for stamp in (BABA, ROCK, YOU):
        level.add_on_top([Pos(0, 0), Pos(1, 0)], stamp)
    eraser = EraserTool(session)
    stroke(eraser, [Pos(0, 0)])
    assert tokens(session, Pos(0, 0)) == ["BABA", "ROCK"]
    stroke(eraser, [Pos(1, 0)], mods=SHIFT)
    assert tokens(session, Pos(1, 0)) == []
    level.undo_stack.undo()
    assert tokens(session, Pos(1, 0)) == ["BABA", "ROCK", "YOU"]


def test_the_rectangle_fills_or_outlines_and_previews_while_dragging(session: Session) -> None:
    session.set_stamp(ROCK)
    rect = RectangleTool(session)
    rect.press(Pos(1, 1), NO, LEFT)
    rect.drag(Pos(3, 3), NO)
    overlay = rect.overlay()
    assert overlay is not None
    assert overlay.rect == QRect(1, 1, 3, 3)
    rect.release(Pos(3, 3), NO)
    assert rect.overlay() is None
    assert len(session.level.cells()) == 9
    stroke(rect, [Pos(1, 1), Pos(3, 3)], mods=SHIFT)  # the outline goes on top of the filled block
    assert tokens(session, Pos(1, 1)) == ["ROCK", "ROCK"]
    assert tokens(session, Pos(2, 2)) == ["ROCK"]


def test_a_rectangle_dragged_past_the_edge_is_clipped(session: Session) -> None:
    session.set_stamp(ROCK)
    stroke(RectangleTool(session), [Pos(10, 7), Pos(20, 20)])
    assert set(session.level.cells()) == {Pos(10, 7), Pos(11, 7), Pos(10, 8), Pos(11, 8)}


def test_fill_covers_the_connected_cells_that_look_alike(session: Session) -> None:
    level = session.level
    assert level is not None
    level.add_on_top([Pos(x, 2) for x in range(level.width)], ROCK)  # a wall across the level
    session.set_stamp(BABA)
    FillTool(session).press(Pos(0, 0), NO, LEFT)
    assert (
        len([p for p, s in level.cells().items() if [x.token for x in s] == ["BABA"]])
        == level.width * 2
    )
    assert tokens(session, Pos(0, 3)) == []
    FillTool(session).press(Pos(4, 2), NO, LEFT)  # the wall's stacks are alike: all of them grow
    assert tokens(session, Pos(0, 2)) == ["ROCK", "BABA"]
    assert level.undo_stack.count() == 3


def test_the_picker_cycles_down_the_stack(session: Session) -> None:
    level = session.level
    assert level is not None
    for stamp in (BABA, ROCK, YOU):
        level.add_on_top([Pos(2, 2)], stamp)
    picker = PickerTool(session)
    picked = []
    for _ in range(4):
        picker.press(Pos(2, 2), NO, LEFT)
        picked.append(session.stamp)
    assert picked == [YOU, ROCK, BABA, YOU]
    assert session.inspected == Pos(2, 2)


def test_selected_stacks_move_intact_and_land_on_top(session: Session) -> None:
    level = session.level
    assert level is not None
    level.add_on_top([Pos(0, 0)], BABA)
    level.add_on_top([Pos(0, 0)], YOU)
    level.add_on_top([Pos(2, 1)], ROCK)
    moving = level.stack_at(Pos(0, 0))
    select = SelectTool(session)
    stroke(select, [Pos(0, 0), Pos(1, 1)])  # select a 2x2 region
    assert select.selection == QRect(0, 0, 2, 2)
    stroke(select, [Pos(0, 0), Pos(2, 1)])  # drag it by (2, 1)
    assert level.stack_at(Pos(2, 1)) == (level.stack_at(Pos(2, 1))[0], *moving)
    assert tokens(session, Pos(2, 1)) == ["ROCK", "BABA", "YOU"]
    assert level.stack_at(Pos(0, 0)) == ()
    assert select.selection == QRect(2, 1, 2, 2)
    assert level.undo_stack.command(level.undo_stack.count() - 1).text() == "Move Region"


def test_ctrl_drag_copies_and_moves_are_clamped_to_the_grid(session: Session) -> None:
    level = session.level
    assert level is not None
    level.add_on_top([Pos(0, 0)], BABA)
    select = SelectTool(session)
    stroke(select, [Pos(0, 0), Pos(0, 0)])
    stroke(select, [Pos(0, 0), Pos(50, 50)], mods=CTRL)
    corner = Pos(level.width - 1, level.height - 1)
    assert tokens(session, corner) == ["BABA"]
    assert tokens(session, Pos(0, 0)) == ["BABA"]
    assert level.stack_at(corner)[0].id != level.stack_at(Pos(0, 0))[0].id


def test_copy_paste_and_delete_regions(session: Session) -> None:
    level = session.level
    assert level is not None
    level.add_on_top([Pos(0, 0), Pos(1, 1)], BABA)
    level.add_on_top([Pos(1, 1)], YOU)
    select = SelectTool(session)
    stroke(select, [Pos(0, 0), Pos(1, 1)])
    region = select.selected_region()
    assert region is not None
    assert Region.from_mime(region.to_mime()) == region
    select.begin_paste(region)
    select.hover(Pos(5, 5))
    overlay = select.overlay()
    assert overlay is not None
    assert overlay.style == "floating"
    assert Pos(6, 6) in overlay.stamps
    select.press(Pos(5, 5), NO, LEFT)
    assert tokens(session, Pos(6, 6)) == ["BABA", "YOU"]
    assert select.selection == QRect(5, 5, 2, 2)
    assert select.delete_selection()
    assert tokens(session, Pos(6, 6)) == []
    assert tokens(session, Pos(1, 1)) == ["BABA", "YOU"]


@pytest.mark.parametrize("tool_type", [BrushTool, RectangleTool, FillTool])
def test_painting_without_a_stamp_says_what_to_do(session: Session, qtbot, tool_type) -> None:
    tool = tool_type(session)
    with qtbot.waitSignal(session.message) as blocker:
        stroke(tool, [Pos(0, 0), Pos(1, 1)])
    assert "palette" in blocker.args[0]
    assert session.level.cells() == {}
