"""Progressive canvas pictures: once refined, the screen shows exactly the exact board.

A paint past its budget shows stand-ins (blocks, or an earlier zoom's pictures
scaled) and the event loop draws the exact pictures a batch at a time, each batch
repainting only its band of cells. These tests read what the window really shows
(the backing store, which keeps every partial repaint) and compare it pixel for
pixel with a second canvas that drew every cell exactly in one paint.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from editor.documents.level import LevelDocument
from editor.documents.pack import STARTER_NOUNS
from editor.documents.session import Session
from editor.values import OBJECT, WORD, NounSpec, Pos, Stamp
from editor.views import cell_pictures
from editor.views.canvas import GridCanvas
from editor.views.look import Look
from editor.views.theme import LIGHT
from editor.views.tiles import TileRenderer

SIZE = 24
WORDS = ["BABA", "ROCK", "FLAG", "WALL", "IS", "AND", "YOU", "WIN", "PUSH", "STOP"]


def level_data(seed: int = 3, entities: int = 900) -> dict[str, object]:
    """A crowded board: many distinct stacks, so the first paint cannot draw them all."""
    rng = random.Random(seed)
    nouns = list(STARTER_NOUNS)
    records = []
    for entity_id in range(1, entities + 1):
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        if rng.random() < 0.7:
            records.append(
                {"id": entity_id, "kind": OBJECT, "noun": rng.choice(nouns), "x": x, "y": y}
            )
        else:
            records.append(
                {"id": entity_id, "kind": WORD, "text": rng.choice(WORDS), "x": x, "y": y}
            )
    return {"id": "crowd", "width": SIZE, "height": SIZE, "entities": records}


class View:
    """A canvas on its own window, as the bench builds it, with its own renderer."""

    def __init__(self, qtbot, look: Look, level: LevelDocument) -> None:
        self.renderer = TileRenderer(look)
        self.session = Session()
        self.canvas = GridCanvas(self.session, self.renderer)
        qtbot.addWidget(self.canvas)
        self.canvas.resize(SIZE * 20 + 48, SIZE * 20 + 48)
        with qtbot.waitExposed(self.canvas):
            self.canvas.show()
        self.session.set_level(level)

    def screen(self) -> QImage:
        """What the window shows now: its backing store, not a fresh render."""
        canvas = self.canvas
        image = canvas.screen().grabWindow(canvas.winId()).toImage()
        return image.convertToFormat(QImage.Format.Format_RGB32)

    def paint_now(self) -> QImage:
        self.canvas.repaint()
        return self.screen()

    def refine(self, qtbot) -> QImage:
        pictures = self.canvas._pictures
        qtbot.waitUntil(lambda: pictures.pending == 0, timeout=10_000)
        for _ in range(3):  # the last batch's repaint
            QApplication.processEvents()
        return self.screen()


@pytest.fixture
def look() -> Look:
    look = Look(LIGHT)
    look.set_nouns({n: NounSpec(c) for n, c in STARTER_NOUNS.items()})
    return look


def exact_render(qtbot, monkeypatch, look: Look, data: dict[str, object], zooms=()) -> QImage:
    """Another canvas, the same size and zoom, whose one paint draws every cell exactly."""
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 3600.0)
    view = View(qtbot, look, LevelDocument.from_data(data))
    for size in zooms:
        view.canvas.set_cell_size(size, QPoint(0, 0))
    image = view.paint_now()
    assert view.canvas._pictures.pending == 0
    view.canvas.close()
    return image


def differing_cells(view: View, shown: QImage, exact: QImage) -> list[Pos]:
    canvas = view.canvas
    level = view.session.level
    assert level is not None
    wrong = []
    for y in range(level.height):
        for x in range(level.width):
            rect = canvas.cell_rect(Pos(x, y)).intersected(canvas.rect())
            if not rect.isEmpty() and shown.copy(rect) != exact.copy(rect):
                wrong.append(Pos(x, y))
    return wrong


def test_a_cold_paint_shows_stand_ins_and_refining_shows_the_exact_board(
    qtbot, monkeypatch, look: Look
) -> None:
    data = level_data()
    exact = exact_render(qtbot, monkeypatch, look, data)
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)  # as on the slowest machine
    view = View(qtbot, look, LevelDocument.from_data(data))
    first = view.paint_now()
    assert view.canvas._pictures.pending > 100
    assert len(differing_cells(view, first, exact)) > 100  # stand-ins: what refining must fix
    refined = view.refine(qtbot)
    assert differing_cells(view, refined, exact) == []
    assert refined == exact  # the board's edge and the margins too


def test_zooming_twice_shows_scaled_pictures_then_the_exact_board(
    qtbot, monkeypatch, look: Look
) -> None:
    data = level_data(seed=5)
    exact = exact_render(qtbot, monkeypatch, look, data, zooms=(24, 32))
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)
    view = View(qtbot, look, LevelDocument.from_data(data))
    view.canvas.finish_pictures()
    view.paint_now()
    view.canvas.set_cell_size(24, QPoint(0, 0))
    view.paint_now()  # some cells at 24 px, the rest scaled from 20 px
    view.canvas.set_cell_size(32, QPoint(0, 0))
    first = view.paint_now()  # scaled from 24 px or from 20 px: never a bare block
    assert view.canvas._pictures.pending > 0
    assert differing_cells(view, first, exact)
    refined = view.refine(qtbot)
    assert differing_cells(view, refined, exact) == []
    assert refined == exact


def test_cells_edited_while_refining_end_up_exact(qtbot, monkeypatch, look: Look) -> None:
    data = level_data(seed=9)
    edited = LevelDocument.from_data(data)
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)
    view = View(qtbot, look, edited)
    view.paint_now()
    pending = view.canvas._pictures.pending
    assert pending > 100
    changed = [Pos(x, SIZE - 1 - x) for x in range(SIZE)]
    edited.add_on_top(changed, Stamp(WORD, "WIN"))  # cells still waiting among them
    refined = view.refine(qtbot)
    exact = exact_render(qtbot, monkeypatch, look, edited.to_data())
    assert differing_cells(view, refined, exact) == []
    assert refined == exact


def test_a_colour_change_redraws_every_cell_in_the_new_colours(
    qtbot, monkeypatch, look: Look
) -> None:
    data = level_data(seed=11)
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)
    view = View(qtbot, look, LevelDocument.from_data(data))
    view.paint_now()
    view.refine(qtbot)
    look.set_nouns({**look.nouns, "ROCK": NounSpec("#00ff00")})
    view.paint_now()
    refined = view.refine(qtbot)
    exact = exact_render(qtbot, monkeypatch, look, data)
    assert differing_cells(view, refined, exact) == []
    assert refined == exact


def test_a_small_level_is_exact_in_its_first_paint_whatever_the_time(
    qtbot, monkeypatch, look: Look
) -> None:
    data = level_data(seed=13, entities=cell_pictures.EXACT_FIRST)  # at most that many cells
    exact = exact_render(qtbot, monkeypatch, look, data)
    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)
    view = View(qtbot, look, LevelDocument.from_data(data))
    first = view.paint_now()
    assert view.canvas._pictures.pending == 0
    assert first == exact


def test_a_look_change_draws_again_only_the_tiles_it_changes(qapp, monkeypatch, look: Look) -> None:
    """Tiles are kept by what they show: a new pack whose ROCK is another colour redraws
    ROCK, not IS, YOU or a BABA of the same colour; the pictures stay exact."""
    renderer = TileRenderer(look)
    stamps = [Stamp(OBJECT, "BABA"), Stamp(OBJECT, "ROCK"), Stamp(WORD, "IS"), Stamp(WORD, "YOU")]
    before = {s: renderer.tile(s, 30).cacheKey() for s in stamps}
    drawn: list[Stamp] = []
    original = TileRenderer._draw_tile

    def counted(self: TileRenderer, painter: object, stamp: Stamp, rect: object) -> None:
        drawn.append(stamp)
        original(self, painter, stamp, rect)  # type: ignore[arg-type]

    monkeypatch.setattr(TileRenderer, "_draw_tile", counted)
    nouns = {name: NounSpec(color) for name, color in STARTER_NOUNS.items()}
    nouns["ROCK"] = NounSpec("#123456")
    look.set_nouns(nouns)
    after = {s: renderer.tile(s, 30) for s in stamps}
    assert drawn == [Stamp(OBJECT, "ROCK")]
    assert {s for s in stamps if after[s].cacheKey() == before[s]} == set(stamps) - {drawn[0]}
    fresh = TileRenderer(look)  # nothing kept: every tile drawn for the look as it is
    for stamp in stamps:
        assert after[stamp].toImage() == fresh.tile(stamp, 30).toImage()


def test_the_kept_tiles_are_bounded_by_their_pixels(qapp, monkeypatch, look: Look) -> None:
    from editor.views import tiles

    monkeypatch.setattr(tiles, "DRAWN_TILES_BYTES", 2 * 4 * 30 * 30)  # room for two 30 px tiles
    renderer = TileRenderer(look)
    first, second, third = Stamp(OBJECT, "BABA"), Stamp(WORD, "IS"), Stamp(WORD, "YOU")
    kept = renderer.tile(first, 30)
    renderer.tile(second, 30)
    renderer.tile(third, 30)  # past the bound: the kept ones are dropped
    look.set_nouns({**look.nouns, "GHOST": NounSpec("#aabbcc")})  # a new look, BABA unchanged
    assert renderer.tile(first, 30).cacheKey() != kept.cacheKey()  # drawn again
    again = renderer.tile(third, 30)
    look.set_nouns({**look.nouns, "SPOOK": NounSpec("#ccbbaa")})
    assert renderer.tile(third, 30).cacheKey() == again.cacheKey()  # still within the bound
