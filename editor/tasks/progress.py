"""How far a background task got, for a progress bar on the UI thread.

A task writes it (plain attribute stores, atomic in Python) and the UI thread
reads it from a timer, so reporting costs the task nothing and never floods the
event loop with one signal per level.
"""

from __future__ import annotations


class Progress:
    """A stage ("Checking levels"), and how many of its ``total`` steps are ``done``.

    ``total`` 0 means the stage cannot say how far it is (a busy bar).
    """

    __slots__ = ("done", "stage", "total")

    def __init__(self) -> None:
        self.stage = ""
        self.done = 0
        self.total = 0

    def begin(self, stage: str, total: int = 0) -> None:
        self.done = 0
        self.total = total
        self.stage = stage

    def step(self, count: int = 1) -> None:
        self.done += count
