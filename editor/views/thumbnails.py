"""Thumbnails drawn a few at a time, so a list of a thousand levels never freezes the window.

Pictures need the UI thread (the renderer draws pixmaps), so instead of a worker
a zero-interval timer draws thumbnails until a time budget is spent, then yields
to the event loop; ``ready`` hands each one over as it is drawn.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QImage

import engine
from editor.views.pictures import Board, PictureError, look_for, thumbnail
from editor.views.theme import Theme
from editor.views.tiles import TileRenderer

#: Milliseconds of drawing per turn of the event loop (a frame is 16 ms).
BUDGET_MS = 8.0
#: Renderers kept at once (one per pack and kind of level); their tile caches are small.
MAX_RENDERERS = 32


@dataclass(frozen=True, slots=True)
class ThumbnailJob:
    """One level to draw, with the noun styles of the pack it belongs to."""

    key: object  # handed back with the picture
    level: engine.Level
    nouns: dict[str, engine.NounStyle]


class Thumbnails(QObject):
    """Draws the jobs' thumbnails in slices of about :data:`BUDGET_MS` each.

    A slice stops before a picture that would likely overrun the budget (judged by
    the slowest picture so far), so only a first, unusually slow picture can make a
    slice longer. Each kind of level (the pack's nouns and the level's mechanic
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
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        self._renderers: dict[
            tuple[int, frozenset[str], bool], tuple[dict[str, engine.NounStyle], TileRenderer]
        ] = {}
        self._slowest_ms = 0.0
        #: The longest slice so far, in milliseconds (bench/bench_share.py reads it).
        self.longest_slice_ms = 0.0

    @property
    def pending(self) -> int:
        return len(self._jobs) - self._next

    def draw(self, jobs: Sequence[ThumbnailJob]) -> None:
        """Draw these (after any still pending)."""
        self._jobs.extend(jobs)
        if self.pending and not self._timer.isActive():
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._jobs, self._next = [], 0

    def _slice(self) -> None:
        started = time.perf_counter()
        first = self._next
        while self._next < len(self._jobs):
            elapsed = (time.perf_counter() - started) * 1000
            if self._next > first and elapsed + self._slowest_ms > BUDGET_MS:
                break  # the next picture might overrun: leave it to the next slice
            job = self._jobs[self._next]
            self._next += 1
            before = time.perf_counter()
            picture = self._picture(job)
            self._slowest_ms = max(self._slowest_ms, (time.perf_counter() - before) * 1000)
            self.ready.emit(job.key, picture)
        self.longest_slice_ms = max(self.longest_slice_ms, (time.perf_counter() - started) * 1000)
        if not self.pending:
            self._timer.stop()
            self._jobs, self._next = [], 0
            self.finished.emit()

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
