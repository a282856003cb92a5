"""The editor's foundation for the workbench panels: the look (one change signal),
connections that follow the current document, authored-data edits, the canvas
highlight and layers, and the status bar following level switches."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QObject, QRect, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtTest import QTest

import engine
from editor.connections import Connections
from editor.values import OBJECT, WORD, Anchor, LevelProperties, NounSpec, Pos, Stamp
from editor.views.canvas import CanvasLayer, GridCanvas
from tests.editor.window_driver import click, trigger, use

ZED = Stamp(OBJECT, "ZED")
BABA_STAMP = Stamp(OBJECT, "BABA")


def _pack_with_unknown_noun(tmp_path: Path) -> Path:
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "p",
        "title": "P",
        "nouns": {"BABA": {"color": "#d9396a"}},
        "levels": [
            {
                "id": "a",
                "width": 4,
                "height": 3,
                "entities": [
                    {"id": 1, "kind": "object", "noun": "ZED", "x": 1, "y": 1},
                    {"id": 2, "kind": "word", "text": "BABA", "x": 0, "y": 0},
                ],
            }
        ],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    return path


def _colour_at(canvas: GridCanvas, pos: Pos) -> QColor:
    image = canvas.grab().toImage()
    centre = canvas.cell_center(pos)
    return image.pixelColor(centre.x(), centre.y() + canvas.cell_size // 3)


def test_a_noun_added_to_the_pack_recolours_the_canvas_at_once(make_window, tmp_path, dialogs):
    dialogs.open_anyway = True  # an unknown noun is a problem; open the pack to fix it
    window = make_window(_pack_with_unknown_noun(tmp_path))
    assert window.level is not None
    assert window.level.level_id == "a"
    grey = _colour_at(window.canvas, Pos(1, 1))
    assert abs(grey.red() - grey.green()) < 16  # an unknown noun is drawn grey
    dialogs.noun = ("ZED", NounSpec("#20c020"))
    trigger(window, "actionAddNoun")
    green = _colour_at(window.canvas, Pos(1, 1))
    assert green.green() > green.red() + 60, green.name()
    trigger(window, "actionUndo")
    again = _colour_at(window.canvas, Pos(1, 1))
    assert abs(again.red() - again.green()) < 16


def test_the_look_emits_once_per_change_and_bumps_its_revision(make_window) -> None:
    window = make_window()
    seen: list[int] = []
    window.look.changed.connect(lambda: seen.append(window.look.revision))
    before = window.look.revision
    window.pack.add_noun("ZED", NounSpec("#123456"))
    assert seen == [before + 1]
    window.look.set_nouns(window.pack.nouns)  # the same nouns again: no change, no signal
    assert seen == [before + 1]


def test_connections_follow_one_document_at_a_time(qapp) -> None:
    class Doc(QObject):
        changed = Signal(int)

    old, new, got = Doc(), Doc(), []
    links = Connections()
    links.follow([(old.changed, got.append)])
    old.changed.emit(1)
    links.follow([(new.changed, got.append)])
    old.changed.emit(2)  # no longer followed
    new.changed.emit(3)
    links.clear()
    new.changed.emit(4)
    assert got == [1, 3]


def test_authored_data_is_one_undoable_edit_per_change(make_window) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    assert level.set_authored("solution", "RRU", text="Set Solution")
    assert level.to_data()["solution"] == "RRU"
    assert not level.set_authored("solution", "RRU", text="Set Solution")  # no change, no edit
    trigger(window, "actionUndo")
    assert "solution" not in level.to_data()
    trigger(window, "actionRedo")
    assert level.authored("solution") == "RRU"


def test_mergeable_authored_edits_of_one_field_are_one_undo_step(make_window) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    for moves in ("R", "RR", "RRU"):
        level.set_authored("solution", moves, text="Set Solution", mergeable=True)
    assert window.pack.undo_stack.count() == 1
    trigger(window, "actionUndo")
    assert level.authored("solution") is None


def test_automata_edits_reach_the_palette_through_the_look(make_window) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    automaton = {"id": "c", "property": "TICK", "pattern": [{"action": "wait"}]}
    level.set_authored("automata", [automaton], text="Add Automaton")
    assert Stamp(WORD, "TICK") in window.palette_panel.stamps()
    trigger(window, "actionUndo")
    assert Stamp(WORD, "TICK") not in window.palette_panel.stamps()


def test_highlighted_ids_follow_set_highlight_and_level_switches(make_window) -> None:
    window = make_window()
    canvas = window.canvas
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(2, 2))
    piece = window.level.stack_at(Pos(2, 2))[-1]
    assert canvas.property("highlightedIds") == []
    canvas.set_highlight([piece.id])
    assert canvas.property("highlightedIds") == [piece.id]
    assert canvas.highlight_cells() == {Pos(2, 2): frozenset({piece.id})}
    trigger(window, "actionAddLevel")
    assert canvas.property("highlightedIds") == []


def test_a_highlight_dims_the_rest_of_the_board(make_window) -> None:
    window = make_window()
    canvas = window.canvas
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(2, 2))
    click(window, Pos(5, 5))
    kept, dimmed = window.level.stack_at(Pos(2, 2))[-1], Pos(5, 5)
    before, kept_before = _colour_at(canvas, dimmed), _colour_at(canvas, Pos(2, 2))
    canvas.set_highlight([kept.id])
    assert _colour_at(canvas, dimmed) != before
    assert _colour_at(canvas, Pos(2, 2)) == kept_before


def test_canvas_layers_draw_over_the_tiles_and_repaint_on_change(make_window) -> None:
    window = make_window()
    painted: list[QRect] = []

    class Marks(CanvasLayer):
        def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
            painted.append(exposed)
            painter.fillRect(canvas.cell_rect(Pos(0, 0)), QColor("#0000ff"))

    layer = Marks(window)
    window.canvas.add_layer(layer)
    assert _colour_at(window.canvas, Pos(0, 0)).name() == "#0000ff"
    count = len(painted)
    layer.changed.emit()
    window.canvas.grab()
    assert len(painted) > count


def test_the_status_bar_cell_readout_follows_a_level_switch(make_window) -> None:
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(1, 1))
    QTest.mouseMove(window.canvas, window.canvas.cell_center(Pos(1, 1)))
    assert "baba" in window._cell_label.text()
    trigger(window, "actionAddLevel")  # the new level is empty under the same pointer
    assert "baba" not in window._cell_label.text()


def test_an_edit_past_the_engines_entity_limit_is_refused_with_a_message(make_window) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    props = LevelProperties(level.level_id, "Full", "", 128, 128)
    level.set_properties(props)
    cells = [Pos(x, y) for y in range(128) for x in range(128)]
    level.paste({pos: (BABA_STAMP,) for pos in cells})
    assert level.entity_count() == 128 * 128
    room = engine.MAX_ENTITIES - level.entity_count()
    assert level.paste({pos: (BABA_STAMP,) for pos in cells[:room]})
    assert level.entity_count() == engine.MAX_ENTITIES
    before = window.pack.undo_stack.count()
    use(window, "actionToolBrush", BABA_STAMP)
    click(window, Pos(0, 0))
    assert level.entity_count() == engine.MAX_ENTITIES
    assert window.pack.undo_stack.count() == before
    assert "at most 20,000" in window.statusBar().currentMessage()
    use(window, "actionToolEraser")
    click(window, Pos(0, 0))  # removing is always allowed
    assert level.entity_count() == engine.MAX_ENTITIES - 1


def test_resizing_the_level_refits_the_view(make_window, dialogs) -> None:
    window = make_window()
    canvas = window.canvas
    trigger(window, "actionZoomIn")
    trigger(window, "actionZoomIn")
    zoomed = canvas.cell_size
    level = window.level
    assert level is not None
    dialogs.level_properties = (LevelProperties(level.level_id, "Big", "", 60, 40), Anchor())
    trigger(window, "actionLevelProperties")
    assert (level.width, level.height) == (60, 40)
    assert canvas.cell_size < zoomed
    assert canvas.rect().contains(canvas.cells_rect(QRect(0, 0, 60, 40)))
