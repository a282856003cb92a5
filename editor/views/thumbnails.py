"""Thumbnails drawn a few at a time, so a list of a thousand levels never freezes the window.

Pictures need the UI thread (the renderer draws pixmaps), so instead of a worker
a sliced job of the editor's scheduler (``editor.tasks.scheduler``, with what views
owe the screen) draws them a picture a step, within each pass's budget; ``ready``
hands each one over as it is drawn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

import engine
from editor.tasks.scheduler import Priority, scheduler
from editor.views.pictures import Board, PictureError, look_for, thumbnail
from editor.views.theme import Theme
from editor.views.tiles import TileRenderer

#: Renderers kept at once (one per pack and kind of level); their tile caches are small.
MAX_RENDERERS = 32


@dataclass(frozen=True, slots=True)
class ThumbnailJob:
    """One level to draw, with the noun styles of the pack it belongs to."""

    key: object  # handed back with the picture
    level: engine.Level
    nouns: dict[str, engine.NounStyle]


class Thumbnails(QObject):
    """Draws the jobs' thumbnails, a picture a step of one job of the scheduler.

    Each step tells the scheduler the next picture may take as long as the slowest
    so far, so a pass stops before a picture that would likely overrun its budget
    and only a first, unusually slow picture can make a pass longer. Each kind of level (the pack's nouns and the level's mechanic
    words) keeps its own renderer, so tiles drawn for one level are reused by the
    next instead of being drawn again.
    """

    ready = Signal(object, QImage)  # (job key, picture)
    finished = Signal()

    def __init__(
        self, theme: Theme, width: int, height: int, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._theme = theme
        self._size = (width, height)
        self._jobs: list[ThumbnailJob] = []
        self._next = 0
        self._drawing = scheduler().job(self, Priority.INPUT, self._steps, name="thumbnails")
        self._renderers: dict[
            tuple[int, frozenset[str], bool], tuple[dict[str, engine.NounStyle], TileRenderer]
        ] = {}
        self._slowest_ms = 0.0
        #: The most time pictures took in one pass of the scheduler so far, in
        #: milliseconds (bench/bench_share.py reads it).
        self.longest_slice_ms = 0.0

    @property
    def pending(self) -> int:
        return len(self._jobs) - self._next

    def draw(self, jobs: Sequence[ThumbnailJob]) -> None:
        """Draw these (after any still pending)."""
        self._jobs.extend(jobs)
        if self.pending and not self._drawing.is_pending():
            self._drawing.start()

    def stop(self) -> None:
        self._drawing.stop()
        self._jobs, self._next = [], 0

    def _steps(self) -> Iterator[float]:
        passes = scheduler()
        in_pass, pass_began = -1, 0.0  # the pass the last picture was drawn in, and when
        while True:
            while self._next < len(self._jobs):
                job = self._jobs[self._next]
                self._next += 1
                before = time.perf_counter()
                if passes.passes != in_pass:
                    in_pass, pass_began = passes.passes, before
                picture = self._picture(job)
                after = time.perf_counter()
                self._slowest_ms = max(self._slowest_ms, (after - before) * 1000)
                self.longest_slice_ms = max(self.longest_slice_ms, (after - pass_began) * 1000)
                self.ready.emit(job.key, picture)
                yield self._slowest_ms  # the next picture may take as long
            self._jobs, self._next = [], 0
            self.finished.emit()
            if not self.pending:  # (unless a listener asked for more)
                return

    def _picture(self, job: ThumbnailJob) -> QImage:
        level = job.level
        words = frozenset(a.property for a in level.automata)
        frail = any(m.type == "frail" for m in level.mechanics)
        key = (id(job.nouns), words, frail)
        kept = self._renderers.get(key)
        if kept is not None and kept[0] is job.nouns:  # the very same styles, not a reused id
            renderer = kept[1]
        else:
            if len(self._renderers) >= MAX_RENDERERS:
                for _, old in self._renderers.values():
                    old.look.deleteLater()
                self._renderers.clear()
            renderer = TileRenderer(look_for(self._theme, job.nouns, level, parent=self))
            self._renderers[key] = (job.nouns, renderer)
        try:
            return thumbnail(renderer, Board.of_level(level), *self._size)
        except PictureError:  # cannot happen for a valid level at thumbnail size
            return QImage()
