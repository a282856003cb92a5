"""``CellPictures``: the picture of every non-empty cell, drawn progressively.

A full repaint draws one cached pixmap per cell, which is cheap. What costs is
drawing the pictures themselves: after a zoom change every cell needs a picture
at the new size, and a 64x64 level with 5,000 entities has hundreds of distinct
stacks. So a paint never waits for all of them. It draws the exact picture when
it has one (or when the renderer makes one quickly), the previous size's picture
scaled when the zoom just changed, and otherwise a flat block in the top entity's
colour; the missing pictures are then drawn a few milliseconds at a time from the
event loop, and each batch repaints just its cells. Small levels (the first
``EXACT_FIRST`` new pictures of a paint) are always drawn exactly at once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QPixmap

from editor.documents.values import Pos, Stack, Stamp, signature
from editor.views.tiles import TileRenderer

#: New pictures a paint always draws exactly: a small level (the tutorial's have a
#: dozen distinct stacks) never shows a stand-in.
EXACT_FIRST = 48
#: Time a paint may spend on new pictures beyond those, and a refinement batch.
PAINT_BUDGET_S = 0.006
BATCH_BUDGET_S = 0.006


class CellPictures(QObject):
    """Pictures of the current level's cells at the current cell size."""

    refined = Signal(object)  # list[Pos]: these cells now have their exact pictures

    def __init__(self, renderer: TileRenderer, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._renderer = renderer
        self._size = 0
        self._exact: dict[Pos, QPixmap] = {}
        self._stale: dict[Pos, QPixmap] = {}  # the previous size's pictures, drawn scaled
        self._looks: dict[Pos, tuple[Stamp, ...]] = {}  # what each cell's stack looks like
        self._pending: dict[Pos, Stack] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._refine)
        self._source: Mapping[Pos, Stack] = {}

    def set_size(self, size: int) -> None:
        """A new cell size: today's pictures become the stale ones, drawn scaled meanwhile."""
        if size == self._size:
            return
        if self._exact:
            self._stale = self._exact
        self._exact = {}
        self._size = size

    def forget(self, cells: Iterable[Pos]) -> None:
        """These cells changed: their pictures (and looks) must be drawn again."""
        for pos in cells:
            self._exact.pop(pos, None)
            self._stale.pop(pos, None)
            self._looks.pop(pos, None)
            self._pending.pop(pos, None)

    def forget_all(self) -> None:
        """Another level, look or grid: nothing drawn before is right any more."""
        self._exact.clear()
        self._stale.clear()
        self._looks.clear()
        self._pending.clear()
        self._timer.stop()

    def finish(self) -> None:
        """Draw every pending picture now (screenshots and exports want the exact board)."""
        self._timer.stop()
        for pos, stack in list(self._pending.items()):
            self._exact[pos] = self._renderer.stack(self._look(pos, stack), self._size)
        self._pending.clear()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def begin_paint(self, source: Mapping[Pos, Stack]) -> PaintPictures:
        """What one paint event uses to find each cell's picture."""
        self._source = source
        return PaintPictures(self)

    # ---------------------------------------------------------------- internal
    def _look(self, pos: Pos, stack: Stack) -> tuple[Stamp, ...]:
        look = self._looks.get(pos)
        if look is None:
            look = self._looks[pos] = signature(stack)
        return look

    def _refine(self) -> None:
        deadline = time.perf_counter() + BATCH_BUDGET_S
        done: list[Pos] = []
        while self._pending and time.perf_counter() < deadline:
            pos, stack = next(iter(self._pending.items()))
            del self._pending[pos]
            if self._source.get(pos) is not stack:
                continue  # edited meanwhile: its own repaint draws it
            self._exact[pos] = self._renderer.stack(self._look(pos, stack), self._size)
            self._stale.pop(pos, None)
            done.append(pos)
        if self._pending:
            self._timer.start(0)
        if done:
            self.refined.emit(done)


class PaintPictures:
    """One paint event's view of the pictures: exact when possible, within a time budget."""

    __slots__ = ("_cells", "_deadline", "_fresh")

    def __init__(self, cells: CellPictures) -> None:
        self._cells = cells
        self._fresh = 0
        self._deadline = time.perf_counter() + PAINT_BUDGET_S

    def exact(self, pos: Pos, stack: Stack) -> QPixmap | None:
        """The exact picture, drawn now if the paint can afford it; None means "later"."""
        cells = self._cells
        picture = cells._exact.get(pos)
        if picture is not None:
            return picture
        look = cells._look(pos, stack)
        renderer = cells._renderer
        cached = renderer.cached_stack(look, cells._size)
        if cached is None and (self._fresh < EXACT_FIRST or time.perf_counter() < self._deadline):
            self._fresh += 1
            cached = renderer.stack(look, cells._size)
        if cached is not None:
            cells._exact[pos] = cached
            cells._stale.pop(pos, None)
            return cached
        cells._pending[pos] = stack
        if not cells._timer.isActive():
            cells._timer.start(0)
        return None

    def stand_in(self, pos: Pos, stack: Stack) -> tuple[QPixmap | None, Stamp]:
        """For a cell whose picture comes later: the old size's picture, and its top stamp."""
        return self._cells._stale.get(pos), self._cells._look(pos, stack)[-1]
