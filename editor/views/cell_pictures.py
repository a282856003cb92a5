"""``CellPictures``: the picture of every non-empty cell, drawn progressively.

A full repaint draws one cached pixmap per cell, which is cheap. What costs is
drawing the pictures themselves: after a zoom change every cell needs a picture
at the new size, and a 64x64 level with 5,000 entities has hundreds of distinct
stacks. So a paint never waits for all of them. It draws the exact picture when
it has one (or when the renderer makes one quickly), the previous size's picture
scaled when the zoom just changed, and otherwise a flat block in the top entity's
colour; the missing pictures are then drawn a few milliseconds at a time, a batch
a step of a job of the editor's scheduler (``editor.tasks.scheduler``, with what
views owe the screen), and each batch repaints just its cells. Small levels (at most
``EXACT_FIRST`` non-empty cells) are always drawn exactly at once.

Once a paint's budget is spent, a cell without a picture costs a dictionary
lookup and a block: its look (the stack's stamps, which takes longer to work out
than to draw the block) waits for the refinement too. Looks do not depend on the
zoom or the colours, so they outlive both; only an edit or another level drops
them. Refinement goes column by column, so each batch repaints a narrow band.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QPainter, QPixmap

from editor.tasks.scheduler import Priority, scheduler
from editor.values import Piece, Pos, Stack, Stamp, signature
from editor.views.tiles import TileRenderer

#: A level of at most this many non-empty cells is always drawn exactly at once
#: (the tutorial's have a few dozen): it never shows a stand-in, whatever the time.
EXACT_FIRST = 64
#: Time a paint of a larger level may spend on new pictures, and a refinement batch.
PAINT_BUDGET_S = 0.003
BATCH_BUDGET_S = 0.006


class CellPictures(QObject):
    """Pictures of the current level's cells at the current cell size."""

    refined = Signal(object)  # list[Pos]: these cells now have their exact pictures

    def __init__(self, renderer: TileRenderer, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._renderer = renderer
        self._size = 0
        self._exact: dict[Pos, QPixmap] = {}
        self._stale: dict[Pos, QPixmap] = {}  # earlier sizes' pictures, drawn scaled meanwhile
        self._looks: dict[Pos, tuple[Stamp, ...]] = {}  # what each cell's stack looks like
        self._pending: dict[Pos, Stack] = {}
        self._sorted = True  # the pending cells are in column order (cheap bands to repaint)
        self._blocks: dict[tuple[str, str], QPixmap] = {}  # stand-ins by top stamp, this size
        self._refining = scheduler().job(self, Priority.INPUT, self._batches, name="cell pictures")
        self._source: Mapping[Pos, Stack] = {}

    def set_size(self, size: int) -> None:
        """A new cell size: today's pictures join the stale ones, drawn scaled meanwhile.

        Stale pictures of an earlier zoom stay for the cells this one had not drawn yet,
        so zooming twice in a row still shows every cell's picture, scaled.
        """
        if size == self._size:
            return
        self._stale.update(self._exact)
        self._exact = {}
        self._blocks.clear()
        self._size = size

    def forget(self, cells: Iterable[Pos]) -> None:
        """These cells changed: their pictures (and looks) must be drawn again."""
        for pos in cells:
            self._exact.pop(pos, None)
            self._stale.pop(pos, None)
            self._looks.pop(pos, None)
            self._pending.pop(pos, None)

    def forget_pictures(self) -> None:
        """Another look (colours, theme, vocabulary): every picture must be drawn again.

        The cells' looks stay: they are the stacks' stamps, whatever the colours.
        """
        self._exact.clear()
        self._stale.clear()
        self._pending.clear()
        self._blocks.clear()
        self._refining.stop()

    def forget_all(self) -> None:
        """Another level, or a resized one: nothing worked out before is right any more."""
        self.forget_pictures()
        self._looks.clear()

    def finish(self) -> None:
        """Draw every pending picture now (screenshots and exports want the exact board)."""
        self._refining.stop()
        for pos, stack in list(self._pending.items()):
            self._exact[pos] = self._renderer.stack(self._look(pos, stack), self._size)
            self._stale.pop(pos, None)
        self._pending.clear()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def begin_paint(self, source: Mapping[Pos, Stack]) -> PaintPictures:
        """What one paint event uses to find each cell's picture; end it with ``end()``."""
        self._source = source
        return PaintPictures(self)

    # ---------------------------------------------------------------- internal
    def _look(self, pos: Pos, stack: Stack) -> tuple[Stamp, ...]:
        look = self._looks.get(pos)
        if look is None:
            look = self._looks[pos] = signature(stack)
        return look

    def _block(self, top: Piece) -> QPixmap:
        """A stand-in: the tile's body as a flat block of its main colour."""
        key = (top.kind, top.token)
        block = self._blocks.get(key)
        if block is None:
            size = self._size
            inset = max(1, size // 12)
            block = self._blocks[key] = QPixmap(size, size)
            block.fill(Qt.GlobalColor.transparent)
            with QPainter(block) as painter:
                painter.fillRect(
                    inset,
                    inset,
                    size - 2 * inset,
                    size - 2 * inset,
                    self._renderer.fill_of(Stamp(*key)),
                )
        return block

    def _batches(self) -> Iterator[float]:
        """The scheduler's steps: a batch each, until no cell waits (each about
        :data:`BATCH_BUDGET_S`: a step so long begins only first in a pass)."""
        while self._pending:
            self._refine()
            yield BATCH_BUDGET_S * 1000

    def _refine(self) -> None:
        """One batch: exact pictures for as many waiting cells as fit in the time budget."""
        deadline = time.perf_counter() + BATCH_BUDGET_S
        if not self._sorted:  # a batch's cells then lie in a few neighbouring columns
            self._pending = dict(sorted(self._pending.items()))
            self._sorted = True
        done: list[Pos] = []
        while self._pending and time.perf_counter() < deadline:
            pos, stack = next(iter(self._pending.items()))
            del self._pending[pos]
            if self._source.get(pos) is not stack:
                continue  # edited meanwhile: its own repaint draws it
            self._exact[pos] = self._renderer.stack(self._look(pos, stack), self._size)
            self._stale.pop(pos, None)
            done.append(pos)
        if done:
            self.refined.emit(done)


class PaintPictures:
    """One paint event's view of the pictures: exact when possible, within a time budget.

    ``known`` and ``stale`` are the exact pictures at this size and the earlier sizes'
    ones, by cell: the canvas reads them directly, thousands of times a paint.
    """

    __slots__ = ("_cells", "_deadline", "_drawn", "_small", "_spent", "_waited", "known", "stale")

    def __init__(self, cells: CellPictures) -> None:
        self._cells = cells
        self.known: Mapping[Pos, QPixmap] = cells._exact
        self.stale: Mapping[Pos, QPixmap] = cells._stale
        self._drawn = cells._renderer.stacks_drawn(cells._size)
        self._small = len(cells._source) <= EXACT_FIRST
        self._spent = False  # the budget is gone: only pictures already made are drawn
        self._waited = False
        self._deadline = time.perf_counter() + PAINT_BUDGET_S

    def make(self, pos: Pos, stack: Stack) -> QPixmap | None:
        """For a cell with no exact picture in ``known``: one, or what stands in for it.

        The exact picture if the paint can afford it, else a block in the top tile's
        colour; None when an earlier zoom's picture (``stale``) stands in, drawn scaled.
        Past the budget a cell costs two lookups: its look (if worked out before) and
        the renderer's picture of it (if drawn before, as after zooming back).
        """
        cells = self._cells
        if not (self._spent or self._small) and time.perf_counter() >= self._deadline:
            self._spent = True
        if self._spent:
            look = cells._looks.get(pos)
            picture = self._drawn.get(look) if look is not None and self._drawn else None
        else:
            picture = cells._renderer.stack(cells._look(pos, stack), cells._size)
        if picture is not None:
            cells._exact[pos] = picture
            cells._stale.pop(pos, None)
            return picture
        cells._pending[pos] = stack
        self._waited = True
        return None if pos in cells._stale else cells._block(stack[-1])

    def end(self) -> None:
        """The paint is over: the cells it left waiting get their pictures in later passes."""
        cells = self._cells
        if self._waited:
            cells._sorted = False
            if not cells._refining.is_pending():
                cells._refining.start()
