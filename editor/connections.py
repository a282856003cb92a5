"""``Connections``: the signal connections a view holds to the document it shows now.

Views follow the current pack or level, so each kept five hand-written blocks of
"disconnect the old document, connect the new one". ``Connections.follow`` does
both in one call: it drops every connection it made before and makes the new
ones, so a view can never stay connected to a document it no longer shows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QMetaObject, QObject, SignalInstance

Link = tuple[SignalInstance, Callable[..., Any]]


class Connections:
    """A set of connections replaced as a whole."""

    def __init__(self) -> None:
        self._made: list[QMetaObject.Connection] = []

    def follow(self, links: Iterable[Link]) -> None:
        """Drop the previous connections, then connect each ``(signal, slot)``."""
        self.clear()
        for signal, slot in links:
            self._made.append(signal.connect(slot))

    def clear(self) -> None:
        for connection in self._made:
            with contextlib.suppress(RuntimeError):  # the sender is gone: nothing to drop
                QObject.disconnect(connection)
        self._made.clear()
