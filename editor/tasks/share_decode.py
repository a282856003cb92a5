"""Decoding a share payload off the UI thread.

A real payload decodes in milliseconds, but a stranger's may ask for seconds of
validation and replays within the engine's limits, and the window must stay
responsive meanwhile. Each decode gets a number; only the newest one's result is
delivered, so a second paste supersedes the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

import engine
from editor.tasks.scheduler import Priority, scheduler


@dataclass(frozen=True, slots=True)
class Decoded:
    """The outcome of one decode: a preview, or why the text is not a payload."""

    source: str  # where the text came from ("the clipboard", a file name)
    preview: engine.share.SharePreview | None
    error: engine.ValidationError | None


class ShareDecoder(QObject):
    """Runs :func:`engine.share.decode` on a worker thread; ``decoded`` on the UI thread."""

    decoded = Signal(object)  # Decoded
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ticket = 0
        self._running = 0

    @property
    def busy(self) -> bool:
        return self._running > 0

    def start(self, text: str, source: str) -> None:
        self._ticket += 1
        ticket = self._ticket
        self._running += 1
        if self._running == 1:
            self.busy_changed.emit(True)
        scheduler().in_thread(
            self,
            Priority.INPUT,
            lambda: _decode(text, source),
            lambda outcome, failure: self._on_finished(ticket, outcome),
        )

    def _on_finished(self, ticket: int, outcome: Decoded | None) -> None:
        self._running -= 1
        if self._running == 0:
            self.busy_changed.emit(False)
        if ticket == self._ticket and outcome is not None:
            self.decoded.emit(outcome)


def _decode(text: str, source: str) -> Decoded:
    """On a worker: never raises, so every decode ends the wait with an answer."""
    try:
        return Decoded(source, engine.share.decode(text), None)
    except engine.ValidationError as exc:  # ShareError: not a readable payload
        return Decoded(source, None, exc)
    except Exception as exc:  # an engine bug must still end the wait, with a reason
        error = engine.ValidationError.single(
            "",
            "checker-error",
            f"Rulegrid could not read this payload ({type(exc).__name__}: {str(exc)[:160]})",
            pack="<share>",
        )
        return Decoded(source, None, error)
