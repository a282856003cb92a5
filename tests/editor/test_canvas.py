"""Canvas behaviour: zoom, pan, hover, and repainting only what changed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QPaintEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolTip

from editor.values import OBJECT, Pos, Stamp
from editor.views.canvas import ACTUAL_SIZE, MARGIN
from tests.editor.window_driver import click, trigger, use


class PaintSpy(QObject):
    """Records the rectangles Qt asks the canvas to repaint."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QPaintEvent):
            self.rects.append(event.rect())
        return False


def test_an_edit_repaints_only_the_changed_cells(make_window, qtbot) -> None:
    window = make_window()
    canvas = window.canvas
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    QTest.mouseMove(canvas, QPoint(2, 2))  # park the pointer off the board: no hover repaints
    QToolTip.hideText()
    spy = PaintSpy()
    canvas.installEventFilter(spy)
    for _ in range(20):  # wait for a quiet canvas: other windows' exposes are not ours
        spy.rects.clear()
        qtbot.wait(100)
        if not spy.rects:
            break
    window.level.add_on_top([Pos(4, 3)], Stamp(OBJECT, "ROCK"))
    qtbot.waitUntil(lambda: bool(spy.rects))
    canvas.removeEventFilter(spy)
    assert all(canvas.cell_rect(Pos(4, 3)).contains(r) for r in spy.rects)


def test_a_hover_highlight_follows_the_pointer(make_window, qtbot) -> None:
    window = make_window()
    canvas = window.canvas
    with qtbot.waitSignal(canvas.hovered) as blocker:
        QTest.mouseMove(canvas, canvas.cell_center(Pos(5, 4)))
    assert blocker.args == [Pos(5, 4)]
    assert canvas.hovered_cell == Pos(5, 4)
    assert "(5, 4)" in window.findChild(QObject, "statusCell").text()


def test_zoom_keys_wheel_and_fit(make_window) -> None:
    window = make_window()
    canvas = window.canvas
    level = window.level
    fitted = canvas.cell_size
    assert canvas.width() - 2 * MARGIN >= level.width * fitted  # the whole level fits
    trigger(window, "actionZoomActual")
    assert canvas.cell_size == ACTUAL_SIZE
    assert canvas.zoom_percent() == 100
    trigger(window, "actionZoomIn")
    assert canvas.cell_size > ACTUAL_SIZE
    trigger(window, "actionZoomOut")
    trigger(window, "actionZoomOut")
    assert canvas.cell_size < ACTUAL_SIZE
    anchor = canvas.cell_center(Pos(3, 3))
    under = canvas.cell_at(anchor)
    wheel = QWheelEvent(
        QPointF(anchor),
        QPointF(canvas.mapToGlobal(anchor)),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    before = canvas.cell_size
    canvas.wheelEvent(wheel)
    assert canvas.cell_size > before
    assert canvas.cell_at(anchor) == under  # zooming keeps the cell under the pointer
    trigger(window, "actionZoomFit")
    assert canvas.cell_size == fitted


def test_middle_drag_pans_and_does_not_paint(make_window) -> None:
    window = make_window()
    canvas = window.canvas
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    origin = canvas.origin
    start = canvas.cell_center(Pos(1, 1))
    QTest.mousePress(canvas, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(canvas, start + QPoint(40, 25))
    QTest.mouseRelease(
        canvas, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, start + QPoint(40, 25)
    )
    assert canvas.origin - origin == QPoint(40, 25)
    assert window.level.cells() == {}


def test_alt_click_picks_with_any_painting_tool(make_window) -> None:
    window = make_window()
    use(window, "actionToolBrush", Stamp(OBJECT, "ROCK"))
    click(window, Pos(2, 2))
    window.palette_panel.choose(Stamp(OBJECT, "BABA"))
    click(window, Pos(2, 2), mods=Qt.KeyboardModifier.AltModifier)
    assert window.session.stamp == Stamp(OBJECT, "ROCK")
    assert len(window.level.stack_at(Pos(2, 2))) == 1


def test_escape_cancels_a_rectangle_in_progress(make_window) -> None:
    window = make_window()
    use(window, "actionToolRectangle", Stamp(OBJECT, "ROCK"))
    canvas = window.canvas
    QTest.mousePress(
        canvas,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        canvas.cell_center(Pos(1, 1)),
    )
    QTest.mouseMove(canvas, canvas.cell_center(Pos(3, 3)))
    assert canvas.tool.overlay() is not None
    QTest.keyClick(canvas, Qt.Key.Key_Escape)
    QTest.mouseRelease(
        canvas,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        canvas.cell_center(Pos(3, 3)),
    )
    assert window.level.cells() == {}


def test_pictures_beyond_a_paints_budget_come_soon_after_and_repaint_their_cells(
    make_window, qtbot, monkeypatch
) -> None:
    """A paint never waits for hundreds of new pictures: stand-ins first, exact ones next."""
    from editor.views import cell_pictures

    monkeypatch.setattr(cell_pictures, "PAINT_BUDGET_S", 0.0)  # as on the slowest machine
    exact_first = cell_pictures.EXACT_FIRST
    window = make_window()
    level = window.level
    assert level is not None
    cells = [Pos(x, y) for y in range(9) for x in range(12)][: exact_first + 40]
    level.paste({pos: (Stamp(OBJECT, f"N{i}"),) for i, pos in enumerate(cells)})  # all distinct
    canvas = window.canvas
    canvas.grab()  # one paint
    assert canvas._pictures.pending > 0  # the first paint left some for later
    qtbot.waitUntil(lambda: canvas._pictures.pending == 0, timeout=5000)
    last = cells[-1]
    image = canvas.grab().toImage()
    exact = window.renderer.stack((Stamp(OBJECT, f"N{len(cells) - 1}"),), canvas.cell_size)
    corner = canvas.cell_rect(last).topLeft()
    probe = canvas.cell_size // 4
    assert image.pixelColor(corner.x() + probe, corner.y() + canvas.cell_size // 2) == (
        exact.toImage().pixelColor(probe, canvas.cell_size // 2)
    )
