"""``GridCanvas``: draws the current level and feeds pointer input to the active tool.

Drawing cost follows what changed: ``cells_changed`` invalidates the cached
picture of those cells only and asks Qt to repaint their rectangles; a paint
event draws just the cells inside the exposed area, one ``drawPixmap`` per
non-empty cell. The canvas never stores level data: it reads the document.

Panels show things on the board in two ways, without drawing tiles themselves:
``set_highlight`` outlines some entities and dims the rest (``highlightedIds``),
and a :class:`CanvasLayer` draws its marks (badges, a ghost path) over the tiles.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping

from PySide6.QtCore import Property, QObject, QPoint, QPointF, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QRegion,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QWidget

from editor.connections import Connections
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.tools import Overlay, PickerTool, SelectTool, Tool
from editor.values import Pos, Stack
from editor.views.cell_pictures import CellPictures
from editor.views.tiles import TileRenderer, chip_rect

ZOOM_STEPS = (6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128)
ACTUAL_SIZE = 32  # the cell size shown as 100 %
MARGIN = 24  # around a fitted board, in pixels


class CanvasLayer(QObject):
    """Marks a panel draws over the tiles (badges, a ghost path, hints).

    Subclasses implement :meth:`paint` and emit ``changed`` when their marks
    change; the canvas repaints then. Layers draw in widget pixels, using the
    canvas's geometry (``cell_rect``, ``cell_size``), and never draw tiles.
    """

    changed = Signal()

    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        raise NotImplementedError


class GridCanvas(QWidget):
    """The level view. Wheel zooms at the pointer; middle-drag or Space-drag pans."""

    hovered = Signal(object)  # Pos | None: the cell under the pointer
    zoom_changed = Signal(int)  # percent
    highlight_changed = Signal()

    def __init__(
        self, session: Session, renderer: TileRenderer, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("levelCanvas")
        self.setAccessibleName("levelCanvas")
        self.setAccessibleDescription(
            "The level's board: paint with the current tool; Alt+0 and the arrow keys move a "
            "cell cursor, Enter or Space applies the tool there"
        )
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMinimumSize(200, 160)
        self._session = session
        self._renderer = renderer
        self._level: LevelDocument | None = None
        self._cell = ACTUAL_SIZE
        self._origin = QPoint(MARGIN, MARGIN)
        self._tool: Tool | None = None
        self._picker = PickerTool(session)
        self._presser: Tool | None = None  # the tool that got the current press
        self._hover: Pos | None = None
        self._overlay_area = QRect()  # widget pixels the last overlay covered
        self._pan_from: QPoint | None = None
        self._space_down = False
        self._space_panned = False  # the Space press served a pan drag: not a placement
        self._cursor: Pos | None = None  # the keyboard's cell
        self._auto_fit = True  # keep fitting on resize until the author zooms or pans
        self._show_grid = True
        self._pictures = CellPictures(renderer, self)
        self._pictures.set_size(self._cell)
        self._pictures.refined.connect(self._on_pictures_refined)
        self._grid_tile = QPixmap()
        self._fitted_size: tuple[int, int] | None = None  # the level size the view fits
        self._highlight: tuple[int, ...] = ()
        self._highlight_cells: dict[Pos, frozenset[int]] | None = None  # None: recompute
        self._dim_others = False
        self._layers: list[CanvasLayer] = []
        self._level_links = Connections()
        session.level_changed.connect(self._on_session_level_changed)
        renderer.look.changed.connect(self.refresh_pictures)
        self._on_session_level_changed(session.level)

    # ------------------------------------------------------------ public API
    @property
    def cell_size(self) -> int:
        return self._cell

    @property
    def origin(self) -> QPoint:
        return QPoint(self._origin)

    @property
    def tool(self) -> Tool | None:
        return self._tool

    @property
    def hovered_cell(self) -> Pos | None:
        return self._hover

    def set_tool(self, tool: Tool) -> None:
        if self._tool is not None:
            self._tool.cancel()
            self._tool.overlay_changed.disconnect(self._on_tool_overlay_changed)
        self._tool = tool
        tool.overlay_changed.connect(self._on_tool_overlay_changed)
        self._on_tool_overlay_changed()

    # ------------------------------------------------------- highlight, layers
    def _get_highlighted_ids(self) -> list[int]:
        return list(self._highlight)

    #: The ids of the entities now highlighted (docs/contract.md section 7), ``[]`` when none.
    highlightedIds = Property(list, _get_highlighted_ids, notify=highlight_changed)  # noqa: N815

    @property
    def highlighted_ids(self) -> tuple[int, ...]:
        return self._highlight

    def set_highlight(
        self, ids: Iterable[int], *, dim_others: bool = True, reveal: bool = True
    ) -> None:
        """Outline the entities ``ids`` (dimming the rest); ``reveal`` scrolls them into view."""
        new = tuple(dict.fromkeys(ids))
        dim = dim_others and bool(new)
        if new == self._highlight and dim == self._dim_others:
            return
        self._highlight, self._dim_others = new, dim
        self._highlight_cells = None
        if reveal and new:
            self.reveal(list(self.highlight_cells()))
        self.update()
        self.highlight_changed.emit()

    def clear_highlight(self) -> None:
        self.set_highlight((), reveal=False)

    def highlight_cells(self) -> dict[Pos, frozenset[int]]:
        """The cells holding highlighted entities, with the highlighted ids in each."""
        if self._highlight_cells is None:
            wanted, found = set(self._highlight), {}
            if wanted and self._level is not None:
                for pos, stack in self._level.cells().items():
                    here = frozenset(p.id for p in stack if p.id in wanted)
                    if here:
                        found[pos] = here
            self._highlight_cells = found
        return self._highlight_cells

    def reveal(self, cells: list[Pos]) -> None:
        """Scroll (without zooming) so the cells are in view, when they are not already."""
        if not cells:
            return
        xs, ys = [p.x for p in cells], [p.y for p in cells]
        area = self.cells_rect(
            QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        )
        if self.rect().contains(area):
            return
        centre = area.center()
        self.pan_by(self.width() // 2 - centre.x(), self.height() // 2 - centre.y())

    def add_layer(self, layer: CanvasLayer) -> None:
        """Draw ``layer`` over the tiles from now on (in the order layers were added)."""
        self._layers.append(layer)
        layer.changed.connect(self.update)
        self.update()

    # ---------------------------------------------------------- keyboard cursor
    @property
    def cursor_cell(self) -> Pos | None:
        """The cell the keyboard works on (arrows move it; Enter or Space applies the tool)."""
        return self._cursor

    def set_cursor_cell(self, pos: Pos | None) -> None:
        level = self._level
        if pos is not None and (level is None or not level.contains(pos)):
            return
        old, self._cursor = self._cursor, pos
        for cell in (old, pos):
            if cell is not None:
                self.update(self.cell_rect(cell).adjusted(-2, -2, 2, 2))
        if pos is not None:
            self.reveal([pos])
            self.setAccessibleDescription(self._describe_cell(pos))
            self.hovered.emit(pos)  # the status bar reads the cell the keyboard is on

    def apply_tool_at_cursor(self) -> bool:
        """What a click does, at the keyboard's cell: the brush paints, the picker picks …"""
        tool, pos = self._tool, self._cursor
        if tool is None or pos is None:
            return False
        tool.press(pos, Qt.KeyboardModifier.NoModifier, Qt.MouseButton.LeftButton)
        tool.release(pos, Qt.KeyboardModifier.NoModifier)
        self.setAccessibleDescription(self._describe_cell(pos))
        return True

    def _describe_cell(self, pos: Pos) -> str:
        level = self._level
        stack = level.stack_at(pos) if level is not None else ()
        names = ", ".join(p.token if p.kind == "word" else p.token.lower() for p in reversed(stack))
        return f"cell ({pos.x}, {pos.y}): {names or 'empty'}"

    def set_show_grid(self, show: bool) -> None:
        self._show_grid = show
        self._grid_tile = QPixmap()
        self.update()

    def refresh_pictures(self) -> None:
        """Redraw everything: the theme, the nouns' colours or the level's vocabulary changed."""
        self._pictures.forget_pictures()
        self._grid_tile = QPixmap()
        self.update()

    def finish_pictures(self) -> None:
        """Draw every cell's exact picture now (before a screenshot or an export)."""
        self._pictures.finish()
        self.update()

    def cell_at(self, point: QPointF | QPoint) -> Pos:
        """The cell under a widget point; it may lie outside the grid."""
        return Pos(
            math.floor((point.x() - self._origin.x()) / self._cell),
            math.floor((point.y() - self._origin.y()) / self._cell),
        )

    def cell_rect(self, pos: Pos) -> QRect:
        return QRect(
            self._origin.x() + pos.x * self._cell,
            self._origin.y() + pos.y * self._cell,
            self._cell,
            self._cell,
        )

    def cells_rect(self, rect: QRect) -> QRect:
        c = self._cell
        return QRect(
            self._origin.x() + rect.x() * c,
            self._origin.y() + rect.y() * c,
            rect.width() * c,
            rect.height() * c,
        )

    def board_rect(self) -> QRect:
        """The whole board in widget pixels (empty without a level): marks that must not
        cover it (a caption) go around it."""
        level = self._level
        if level is None:
            return QRect()
        return QRect(self._origin, QSize(level.width * self._cell, level.height * self._cell))

    def cell_center(self, pos: Pos) -> QPoint:
        return self.cell_rect(pos).center()

    def zoom_percent(self) -> int:
        return round(100 * self._cell / ACTUAL_SIZE)

    def zoom_in(self) -> None:
        self._step_zoom(+1, self._view_center())

    def zoom_out(self) -> None:
        self._step_zoom(-1, self._view_center())

    def zoom_actual(self) -> None:
        self.set_cell_size(ACTUAL_SIZE, self._view_center())

    def fit(self) -> None:
        """Zoom and centre so the whole level is visible."""
        self._auto_fit = True
        level = self._level
        if level is None:
            return
        self._fitted_size = (level.width, level.height)
        size = min(
            (self.width() - 2 * MARGIN) // level.width, (self.height() - 2 * MARGIN) // level.height
        )
        self._cell = max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], size))
        self._origin = QPoint(
            (self.width() - level.width * self._cell) // 2,
            (self.height() - level.height * self._cell) // 2,
        )
        self._zoomed()

    def set_cell_size(self, size: int, anchor: QPoint) -> None:
        """Zoom so the point under ``anchor`` stays under it."""
        size = max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], size))
        if size == self._cell:
            return
        ox = anchor.x() - (anchor.x() - self._origin.x()) * size / self._cell
        oy = anchor.y() - (anchor.y() - self._origin.y()) * size / self._cell
        self._cell, self._origin = size, QPoint(round(ox), round(oy))
        self._auto_fit = False
        self._zoomed()

    def pan_by(self, dx: int, dy: int) -> None:
        self._origin += QPoint(dx, dy)
        self._auto_fit = False
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(800, 600)

    # -------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:
        # Ended here, not whenever Python frees it: a frame kept alive (a traceback,
        # a debugger) would leave the painter active on the window's backing store.
        with QPainter(self) as painter:
            self._paint(painter, event)

    def _paint(self, painter: QPainter, event: QPaintEvent) -> None:
        exposed = event.rect()
        theme = self._renderer.theme
        painter.fillRect(exposed, QColor(theme.canvas))
        level = self._level
        if level is None:
            painter.setPen(QColor(theme.muted))
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, "No level: add one in the Levels panel"
            )
            return
        cell, ox, oy = self._cell, self._origin.x(), self._origin.y()
        board = QRect(ox, oy, level.width * cell, level.height * cell)
        painter.fillRect(board.intersected(exposed), self._grid_brush())
        region = event.region()
        # Scattered repaints (cells whose pictures just arrived) draw only their own cells.
        rects: list[QRect] = list(region) if 1 < region.rectCount() <= 64 else [exposed]  # type: ignore[call-overload]
        ranges = []
        for rect in rects:
            x0 = max(0, (rect.left() - ox) // cell)
            x1 = min(level.width - 1, (rect.right() - ox) // cell)
            y0 = max(0, (rect.top() - oy) // cell)
            y1 = min(level.height - 1, (rect.bottom() - oy) // cell)
            if x0 <= x1 and y0 <= y1:
                ranges.append((x0, x1, y0, y1))
        if ranges:
            self._draw_cells(painter, level, ranges)
        painter.setPen(QPen(QColor(theme.board_edge), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(board.adjusted(-1, -1, 0, 0))
        if self._highlight:
            self._draw_highlight(painter, board)
        for layer in self._layers:
            painter.save()
            layer.paint(painter, self, exposed)
            painter.restore()
        overlay = self._tool.overlay() if self._tool is not None else None
        if overlay is not None:
            self._draw_overlay(painter, overlay)
        if self._cursor is not None and self.hasFocus() and level.contains(self._cursor):
            pen = QPen(QColor(theme.selection), 2, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.cell_rect(self._cursor).adjusted(2, 2, -2, -2))
        if self._hover is not None and level.contains(self._hover):
            painter.setPen(QPen(QColor(theme.hover), 2))
            painter.drawRect(self.cell_rect(self._hover).adjusted(1, 1, -1, -1))

    def _draw_cells(
        self, painter: QPainter, level: LevelDocument, ranges: list[tuple[int, int, int, int]]
    ) -> None:
        cells = level.cells()
        pictures = self._pictures.begin_paint(cells)
        known, make, stale = pictures.known.get, pictures.make, pictures.stale
        cell = self._cell
        ox, oy = self._origin.x(), self._origin.y()
        draw = painter.drawPixmap
        # The whole board: every cell, unfiltered (the document holds only cells on
        # the board; records off it are "unshown"): no bounds test a cell.
        whole = ranges == [(0, level.width - 1, 0, level.height - 1)]
        items = (
            cells.items()
            if whole
            else (item for bounds in ranges for item in _cells_in(cells, *bounds))
        )
        enlarged: list[tuple[QRect, QPixmap]] = []
        for pos, stack in items:
            x, y = ox + pos.x * cell, oy + pos.y * cell
            pixmap = known(pos)
            if pixmap is None:
                pixmap = make(pos, stack)  # exact if the paint can afford it, or a stand-in:
                if pixmap is None:  # an earlier zoom's picture, scaled ...
                    old = stale[pos]
                    if old.width() * 2 <= cell:  # blown up: smoothed, below, not blocky
                        enlarged.append((QRect(x, y, cell, cell), old))
                    else:
                        draw(QRect(x, y, cell, cell), old)
                    continue
            draw(x, y, pixmap)  # ... or a block in the top tile's colour
        pictures.end()
        if enlarged:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            for target, old in enlarged:
                draw(target, old)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)

    def _draw_highlight(self, painter: QPainter, board: QRect) -> None:
        """Dim everything but the highlighted cells, then outline those cells.

        An entity beneath the top of its stack is still marked: a frame around
        the cell's chip (a ring in its corner on cells too small for a chip) says
        "a highlighted word lies under this one".
        """
        theme = self._renderer.theme
        cells = self.highlight_cells()
        level = self._level
        if self._dim_others:
            keep = QRegion()
            for pos in cells:
                keep += self.cell_rect(pos)
            shade = QColor(theme.canvas)
            shade.setAlpha(150)
            painter.save()
            painter.setClipRegion(QRegion(board) - keep)
            painter.fillRect(board, shade)
            painter.restore()
        pen = QPen(QColor(theme.highlight), max(2, self._cell // 12))
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        found = chip_rect(self._cell)
        chip = found.adjusted(-1, -1, 1, 1).toRect() if found is not None else None
        for pos, ids in cells.items():
            rect = self.cell_rect(pos).adjusted(1, 1, -1, -1)
            painter.drawRect(rect)
            stack = level.stack_at(pos) if level is not None else ()
            if stack and stack[-1].id not in ids:  # highlighted, but under the top entity
                if chip is not None:  # a frame around the chip, clear of its letter
                    painter.drawRect(chip.translated(self.cell_rect(pos).topLeft()))
                else:
                    ring = max(5, self._cell // 4)
                    painter.drawEllipse(rect.left() + 1, rect.top() + 1, ring, ring)

    def _draw_overlay(self, painter: QPainter, overlay: Overlay) -> None:
        theme = self._renderer.theme
        area = self.cells_rect(overlay.rect)
        if overlay.style == "floating":
            painter.setOpacity(0.7)
            for pos, look in overlay.stamps.items():
                painter.drawPixmap(
                    self.cell_rect(pos).topLeft(), self._renderer.stack(look, self._cell)
                )
            painter.setOpacity(1.0)
        color = QColor(theme.selection if overlay.style != "preview" else theme.preview)
        fill = QColor(color)
        fill.setAlpha(40 if overlay.style != "floating" else 20)
        painter.fillRect(area, fill)
        pen = QPen(
            color,
            2,
            Qt.PenStyle.DashLine if overlay.style == "selection" else Qt.PenStyle.SolidLine,
        )
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(area.adjusted(1, 1, -1, -1))

    def _grid_brush(self) -> QBrush:
        theme = self._renderer.theme
        if self._grid_tile.isNull() or self._grid_tile.width() != self._cell:
            tile = QPixmap(self._cell, self._cell)
            tile.fill(QColor(theme.board))
            if self._show_grid and self._cell >= 8:
                p = QPainter(tile)
                p.setPen(QColor(theme.grid))
                p.drawLine(self._cell - 1, 0, self._cell - 1, self._cell - 1)
                p.drawLine(0, self._cell - 1, self._cell - 1, self._cell - 1)
                p.end()
            self._grid_tile = tile
        brush = QBrush(self._grid_tile)
        brush.setTransform(QTransform.fromTranslate(self._origin.x(), self._origin.y()))
        return brush

    # ---------------------------------------------------------------- input
    def mousePressEvent(self, event: QMouseEvent) -> None:
        button, mods = event.button(), event.modifiers()
        if button == Qt.MouseButton.MiddleButton or (
            button == Qt.MouseButton.LeftButton and self._space_down
        ):
            self._pan_from = event.position().toPoint()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        pos = self.cell_at(event.position())
        if self._level is not None and self._level.contains(pos):
            self._cursor = pos  # the keyboard goes on from the last click
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        self._presser = (
            self._picker if alt and not isinstance(self._tool, SelectTool) else self._tool
        )
        if self._presser is not None:
            self._presser.press(pos, mods, button)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        point = event.position().toPoint()
        if self._pan_from is not None:
            self.pan_by(point.x() - self._pan_from.x(), point.y() - self._pan_from.y())
            self._pan_from = point
            self._space_panned = self._space_down
            return
        pos = self.cell_at(point)
        self._set_hover(pos if self._level is not None and self._level.contains(pos) else None)
        if event.buttons() != Qt.MouseButton.NoButton and self._presser is not None:
            self._presser.drag(pos, event.modifiers())
        elif self._tool is not None:
            self._tool.hover(self._hover)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.unsetCursor()
            return
        presser, self._presser = self._presser, None
        if presser is not None:
            presser.release(self.cell_at(event.position()), event.modifiers())

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y()
        if delta:
            self._step_zoom(1 if delta > 0 else -1, event.position().toPoint())
        event.accept()

    def leaveEvent(self, event: object) -> None:
        self._set_hover(None)
        if self._tool is not None:
            self._tool.hover(None)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
            self._space_panned = False
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        elif key == Qt.Key.Key_Escape and self._tool is not None:
            self._tool.cancel()
        elif key in _ARROWS and mods == Qt.KeyboardModifier.ControlModifier:
            dx, dy = _ARROWS[key]
            self.pan_by(-dx * self._cell, -dy * self._cell)
        elif key in _ARROWS and mods == Qt.KeyboardModifier.NoModifier:
            self._move_cursor(*_ARROWS[key])
        elif (
            key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and mods == Qt.KeyboardModifier.NoModifier
        ):
            self._ensure_cursor()
            self.apply_tool_at_cursor()
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
            self.unsetCursor()
            if not self._space_panned and self._pan_from is None:  # a tap: apply the tool
                self._ensure_cursor()
                self.apply_tool_at_cursor()
        else:
            super().keyReleaseEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if self._cursor is not None:
            self.update(self.cell_rect(self._cursor).adjusted(-2, -2, 2, 2))

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if self._cursor is not None:
            self.update(self.cell_rect(self._cursor).adjusted(-2, -2, 2, 2))

    def _ensure_cursor(self) -> None:
        if self._cursor is None and self._level is not None:
            self.set_cursor_cell(self._hover or Pos(0, 0))

    def _move_cursor(self, dx: int, dy: int) -> None:
        level = self._level
        if level is None:
            return
        if self._cursor is None:
            self._ensure_cursor()
            return
        x = max(0, min(level.width - 1, self._cursor.x + dx))
        y = max(0, min(level.height - 1, self._cursor.y + dy))
        self.set_cursor_cell(Pos(x, y))
        if self._tool is not None:
            self._tool.hover(self._cursor)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self._auto_fit:
            self.fit()
        super().resizeEvent(event)

    # ---------------------------------------------------------------- slots
    def _on_session_level_changed(self, level: LevelDocument | None) -> None:
        self._level = level
        self._level_links.follow(
            []
            if level is None
            else [
                (level.cells_changed, self._on_level_cells_changed),
                (level.properties_changed, self._on_level_properties_changed),
            ]
        )
        self._pictures.forget_all()
        self._hover = None
        self._cursor = None
        self.clear_highlight()
        if self._tool is not None:
            self._tool.cancel()
        if isinstance(self._tool, SelectTool):
            self._tool.reset()
        self.fit()
        self.update()

    def _on_level_cells_changed(self, changed: frozenset[Pos]) -> None:
        self._pictures.forget(changed)
        if self._highlight:
            self._highlight_cells = None
            self.update()
        if len(changed) <= 64:
            region = QRegion()
            for pos in changed:
                region += self.cell_rect(pos)
            self.update(region)
        else:
            xs, ys = [p.x for p in changed], [p.y for p in changed]
            self.update(
                self.cells_rect(
                    QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
                )
            )

    def _on_level_properties_changed(self) -> None:
        self._pictures.forget_all()
        level = self._level
        size = (level.width, level.height) if level is not None else None
        if size != self._fitted_size:  # a resize: show the whole new board
            self.fit()
        self.update()

    def _on_tool_overlay_changed(self) -> None:
        overlay = self._tool.overlay() if self._tool is not None else None
        area = (
            self.cells_rect(overlay.rect).adjusted(-2, -2, 2, 2) if overlay is not None else QRect()
        )
        self.update(self._overlay_area.united(area))
        self._overlay_area = area

    # -------------------------------------------------------------- helpers
    def _set_hover(self, pos: Pos | None) -> None:
        if pos == self._hover:
            return
        for old_or_new in (self._hover, pos):
            if old_or_new is not None:
                self.update(self.cell_rect(old_or_new).adjusted(-1, -1, 1, 1))
        self._hover = pos
        self.hovered.emit(pos)

    def _step_zoom(self, direction: int, anchor: QPoint) -> None:
        if direction > 0:
            size = next((s for s in ZOOM_STEPS if s > self._cell), ZOOM_STEPS[-1])
        else:
            size = next((s for s in reversed(ZOOM_STEPS) if s < self._cell), ZOOM_STEPS[0])
        self.set_cell_size(size, anchor)

    def _view_center(self) -> QPoint:
        return self.rect().center()

    def _on_pictures_refined(self, cells: list[Pos]) -> None:
        if len(cells) <= 64:
            region = QRegion()
            for pos in cells:
                region += self.cell_rect(pos)
            self.update(region)
        else:  # a batch's cells share a few columns: their bounding band is cheap to repaint
            xs, ys = [p.x for p in cells], [p.y for p in cells]
            self.update(
                self.cells_rect(
                    QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
                )
            )

    def _zoomed(self) -> None:
        self._pictures.set_size(self._cell)
        self._grid_tile = QPixmap()
        self.update()
        self.zoom_changed.emit(self.zoom_percent())


def _cells_in(
    cells: Mapping[Pos, Stack], x0: int, x1: int, y0: int, y1: int
) -> Iterator[tuple[Pos, Stack]]:
    """The non-empty cells inside the bounds, whichever way is cheaper to find them."""
    if (x1 - x0 + 1) * (y1 - y0 + 1) < len(cells):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                pos = Pos(x, y)
                stack = cells.get(pos)
                if stack:
                    yield pos, stack
    else:
        for pos, stack in cells.items():
            if x0 <= pos.x <= x1 and y0 <= pos.y <= y1:
                yield pos, stack


_ARROWS = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}
