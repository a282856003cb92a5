"""Beat sounds: shown always, played only where an audio backend exists.

Spec 03 makes ``sound`` an optional name on a pattern step; the play view shows
it in the beat feedback and the event log. Playing it needs two things the
editor cannot require: Qt Multimedia (not part of PySide6-Essentials) and a
sound file ``resources/sounds/<name>.wav``. When either is missing the name is
still shown and play goes on silently, so a missing sound never blocks play.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol

from editor.resources import SOUNDS


class SoundBackend(Protocol):
    def play(self, name: str) -> bool:
        """Play the sound ``name``; ``False`` when there is nothing to play."""
        ...


class QtSoundBackend:
    """``QSoundEffect`` over ``resources/sounds/<name>.wav`` (one effect per name)."""

    def __init__(self, module: Any, folder: Path = SOUNDS) -> None:
        self._module = module
        self._folder = folder
        self._effects: dict[str, Any] = {}

    def play(self, name: str) -> bool:
        effect = self._effects.get(name)
        if effect is None:
            path = self._folder / f"{name}.wav"
            if not path.is_file():
                return False
            effect = self._module.QSoundEffect()
            effect.setSource(
                importlib.import_module("PySide6.QtCore").QUrl.fromLocalFile(str(path))
            )
            self._effects[name] = effect
        effect.play()
        return True


def default_backend() -> SoundBackend | None:
    """Qt Multimedia's backend when it is installed, else ``None`` (sounds are shown only)."""
    try:
        module = importlib.import_module("PySide6.QtMultimedia")
    except ImportError:
        return None
    return QtSoundBackend(module)


class BeatSounds:
    """Plays the sounds of a beat through the backend, if any, and remembers what it did."""

    def __init__(self, backend: SoundBackend | None) -> None:
        self.backend = backend
        self.played: list[str] = []  # the names a backend played (the last few, for tests)

    def play(self, names: list[str]) -> None:
        if self.backend is None:
            return
        for name in names:
            if self.backend.play(name):
                self.played = [*self.played[-31:], name]
