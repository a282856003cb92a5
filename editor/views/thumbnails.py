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
from editor.views.pictures import (
    Board,
    PictureError,
    look_for,
    noun_specs,
    thumbnail,
    use_level_words,
)
from editor.views.theme import Theme
from editor.views.tiles import TileRenderer

#: Milliseconds of drawing per turn of the event loop (a frame is 16 ms).
BUDGET_MS = 8.0


@dataclass(frozen=True, slots=True)
class ThumbnailJob:
    """One level to draw, with the noun styles of the pack it belongs to."""

    key: object  # handed back with the picture
    level: engine.Level
    nouns: dict[str, engine.NounStyle]


class Thumbnails(QObject):
    """Draws the jobs' thumbnails in slices of at most :data:`BUDGET_MS` (plus one picture)."""

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
        self._look = look_for(theme, {}, parent=self)
        self._renderer = TileRenderer(self._look)
        self._nouns: dict[str, engine.NounStyle] | None = None
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
        while self._next < len(self._jobs):
            job = self._jobs[self._next]
            self._next += 1
            self.ready.emit(job.key, self._picture(job))
            if (time.perf_counter() - started) * 1000 >= BUDGET_MS:
                break
        self.longest_slice_ms = max(self.longest_slice_ms, (time.perf_counter() - started) * 1000)
        if not self.pending:
            self._timer.stop()
            self._jobs, self._next = [], 0
            self.finished.emit()

    def _picture(self, job: ThumbnailJob) -> QImage:
        if job.nouns is not self._nouns:
            self._look.set_nouns(noun_specs(job.nouns))
            self._nouns = job.nouns
        use_level_words(self._look, job.level)
        try:
            return thumbnail(self._renderer, Board.of_level(job.level), *self._size)
        except PictureError:  # cannot happen for a valid level at thumbnail size
            return QImage()
