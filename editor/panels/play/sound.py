"""Beat sounds: every automaton beat is heard in test-play and playback.

A pattern step may name a ``sound``. The editor ships a small set, synthesised by
``tools/make_sounds.py`` (so they are Rulegrid's own), and maps the names
authors use most onto them (:data:`ALIASES`: ``ding`` is the chime, ``knock`` the
tock...). A beat whose step names no sound plays the default, :data:`DEFAULT_SOUND`,
and so does a name with no sound of its own (the beat panel and the log still
show the name). View ▸ Sound turns sounds off and on and View ▸ Sound Volume
sets their volume; both are kept in the settings, so off stays off. Reduced
motion changes nothing here: it is about movement, not sound.

Nothing blocks a beat. Importing Qt Multimedia and making its first
``QSoundEffect`` (which starts Qt's audio backend) cost about 30 ms each, once a
process, so the application does both before its window shows (:func:`preload`);
every window then shares one backend (:func:`shared_backend`) whose effects are
made once, and a beat's ``play()`` returns at once (loading and playing happen
on Qt's own thread). Where sound was off at start, the first game or View ▸
Sound that turns it on pays the load once. Where Qt Multimedia cannot be loaded
(no ``libpulse`` on Linux), or no audio output exists, play goes on silently and
:meth:`BeatSounds.problem` says why (the View menu shows it next to Sound).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

from PySide6.QtCore import QUrl

from editor.resources import sound_names, sound_path
from editor.settings import EditorSettings

#: What a beat plays when its step names no sound, or one we have no sound for.
DEFAULT_SOUND = "beat"
#: Common sound names mapped to the shipped sound that fits them best.
ALIASES = {
    **dict.fromkeys(("tic", "clock", "metronome", "second"), "tick"),
    **dict.fromkeys(("tok", "knock", "wood", "woodblock", "clack"), "tock"),
    **dict.fromkeys(("walk", "footstep", "footsteps", "move", "march", "shuffle", "stomp"), "step"),
    **dict.fromkeys(("tap", "snap", "switch", "toggle"), "click"),
    **dict.fromkeys(("hop", "jump", "boing", "bubble", "bloop", "plop", "spring"), "pop"),
    **dict.fromkeys(("beep", "bleep", "zap", "coin", "chirp"), "blip"),
    **dict.fromkeys(("bell", "ding", "ring", "ping", "dong", "gong", "tinkle", "alarm"), "chime"),
    **dict.fromkeys(("bump", "boom", "drum", "thump", "hit", "push", "crash", "land"), "thud"),
    **dict.fromkeys(("buzzer", "error", "fail", "hum", "warn", "warning"), "buzz"),
    **dict.fromkeys(("swoosh", "swish", "wind", "slide", "dash", "fly", "air"), "whoosh"),
    **dict.fromkeys(("wait", "pause", "hush", "breath", "idle", "silence"), "rest"),
}
_WORD = re.compile(r"[a-z]+")
_LOADED = "ready"


@cache
def _shipped() -> frozenset[str]:
    return frozenset(sound_names())


def sound_for(name: object) -> str:
    """The shipped sound a step's ``sound`` plays: its own, its alias, its first word's
    (``bell-high`` rings the chime), else the default."""
    if not isinstance(name, str) or not name:
        return DEFAULT_SOUND
    shipped = _shipped()
    first = _WORD.match(name)
    for candidate in (name, first.group()) if first else (name,):
        if candidate in shipped:
            return candidate
        if candidate in ALIASES:
            return ALIASES[candidate]
    return DEFAULT_SOUND


def gain(percent: int) -> float:
    """The linear gain of a volume in percent: squared, so the steps sound even."""
    return (max(0, min(100, percent)) / 100) ** 2


class SoundBackend(Protocol):
    def play(self, name: str, volume: float) -> bool:
        """Start the shipped sound ``name`` at a linear ``volume``; ``False``: nothing to play."""
        ...

    def problem(self) -> str | None:
        """Why the sounds asked for are not heard, when that is known (else ``None``)."""
        ...


class QtSoundBackend:
    """One ``QSoundEffect`` per shipped sound, made when it is first played."""

    def __init__(self, module: Any, path_of: Callable[[str], Any] = sound_path) -> None:
        self._module = module
        self._path_of = path_of
        self._effects: dict[str, Any] = {}

    def effect(self, name: str) -> Any | None:
        """The sound's ``QSoundEffect`` once it was played (tests read its status)."""
        return self._effects.get(name)

    def load(self, name: str) -> Any | None:
        """The sound's effect, made (and its file queued for loading) the first time."""
        effect = self._effects.get(name)
        if effect is None:
            path = self._path_of(name)
            if path is None:
                return None
            effect = self._module.QSoundEffect()
            effect.setSource(QUrl.fromLocalFile(str(path)))
            self._effects[name] = effect
        return effect

    def play(self, name: str, volume: float) -> bool:
        effect = self.load(name)
        if effect is None:
            return False
        effect.setVolume(volume)
        effect.play()  # returns at once: loading and playing happen on Qt's thread
        return True

    def status(self, name: str) -> str:
        """``none`` (never played), ``loading``, ``ready`` or ``error``."""
        effect = self._effects.get(name)
        if effect is None:
            return "none"
        status = effect.status()
        return {
            self._module.QSoundEffect.Status.Loading: "loading",
            self._module.QSoundEffect.Status.Ready: _LOADED,
            self._module.QSoundEffect.Status.Error: "error",
        }.get(status, "none")

    def problem(self) -> str | None:
        failed = sorted(name for name in self._effects if self.status(name) == "error")
        if not failed:
            return None
        if not self._module.QMediaDevices.audioOutputs():
            return "no audio output device"
        return f"the audio device cannot play {failed[0]}.wav"


def default_backend() -> tuple[QtSoundBackend | None, str | None]:
    """A new Qt Multimedia backend, or ``None`` and why it could not be loaded."""
    try:
        module = importlib.import_module("PySide6.QtMultimedia")
    except ImportError as exc:  # not installed, or a library it needs is missing
        return None, f"Qt Multimedia could not be loaded ({exc})"
    return QtSoundBackend(module), None


@cache
def shared_backend() -> tuple[QtSoundBackend | None, str | None]:
    """The process's backend: every window plays through the same effects."""
    return default_backend()


def preload() -> str | None:
    """Load Qt Multimedia and an effect for every shipped sound now; why not, if not.

    About 60 ms, once: the application calls it before its window shows, so no
    beat and no game start waits for it.
    """
    backend, reason = shared_backend()
    if backend is not None:
        for name in sound_names():
            backend.load(name)
    return reason


class BeatSounds:
    """Plays each beat's sounds at the settings' volume, unless sound is off.

    ``backend`` may be given (tests record what is asked); otherwise ``load`` makes
    one the first time a game starts or a beat plays with sound on.
    """

    def __init__(
        self,
        settings: EditorSettings,
        backend: SoundBackend | None = None,
        *,
        load: Callable[[], tuple[SoundBackend | None, str | None]] = shared_backend,
    ) -> None:
        self._settings = settings
        self._backend = backend
        self._load: Callable[[], tuple[SoundBackend | None, str | None]] | None = (
            load if backend is None else None
        )
        self._reason: str | None = None
        self.asked: list[str] = []  # the sounds beats asked for (the last 32), even with no backend
        self.played: list[str] = []  # the ones a backend started (the last 32)

    @property
    def backend(self) -> SoundBackend | None:
        return self._backend

    @backend.setter
    def backend(self, backend: SoundBackend | None) -> None:
        """Use ``backend`` from now on (``None``: silence); nothing is loaded any more."""
        self._backend, self._load, self._reason = backend, None, None

    @property
    def enabled(self) -> bool:
        return self._settings.sound_enabled

    @property
    def volume(self) -> int:
        return self._settings.sound_volume

    def prepare(self) -> None:
        """Load the backend now (a game is starting), unless sound is off or it is loaded."""
        if self._load is not None and self.enabled:
            load, self._load = self._load, None
            self._backend, self._reason = load()

    def play_beat(self, automated: Sequence[Mapping[str, Any]]) -> list[str]:
        """Play the sounds of one turn's ``automated`` entries (each name once); the names."""
        if not automated or not self.enabled:
            return []
        names = list(dict.fromkeys(sound_for(entry.get("sound")) for entry in automated))
        self.asked = [*self.asked, *names][-32:]
        self.prepare()
        backend = self.backend
        if backend is not None:
            volume = gain(self.volume)
            started = [name for name in names if backend.play(name, volume)]
            self.played = [*self.played, *started][-32:]
        return names

    def problem(self) -> str | None:
        """Why sound is not heard, when known: the backend could not load or play."""
        if self.backend is None:
            return self._reason
        return self.backend.problem()
