"""Beat feedback and blocked steps as marks on the play board (spec 03's handoff).

A turn's :class:`Marks` are read from its event alone (and the automata entries
before it): each carrier with the step it plays next, the carriers that took a
beat with the beat's :class:`CueStyle`, automaton moves that were blocked, and
the player's rejected step. The board draws them; nothing here touches the game.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from editor.panels.play.text import beat_direction
from editor.views.theme import AUTOMATON_COLOR

#: Colours a named cue may take; a name always maps to the same one.
CUE_COLORS = ("#e07a1f", "#7b61d1", "#d6457a", "#3f8fd8", "#8aa827", "#c9a227")


@dataclass(frozen=True, slots=True)
class CueStyle:
    """The visual treatment of a beat's cue: a ring in the cue's colour.

    A step without a cue gets the default treatment (one ring in the automaton
    colour) so a beat is never invisible; a named cue gets a double ring in a
    colour derived from its name and the name's initial as a tag.
    """

    name: str | None
    color: str

    @property
    def is_default(self) -> bool:
        return self.name is None


DEFAULT_CUE = CueStyle(None, AUTOMATON_COLOR)


def cue_style(cue: object) -> CueStyle:
    if not isinstance(cue, str) or not cue:
        return DEFAULT_CUE
    return CueStyle(cue, CUE_COLORS[zlib.crc32(cue.encode()) % len(CUE_COLORS)])


@dataclass(frozen=True, slots=True)
class Marks:
    """Beat feedback and blocked steps of one turn, as marks on entities."""

    carriers: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)  # id -> next step
    beats: Sequence[tuple[int, CueStyle]] = ()  # carriers that took a beat, with its cue
    blocked_beats: Sequence[tuple[int, str]] = ()  # automaton moves blocked: (id, direction)
    blocked_steps: Sequence[tuple[int, str]] = ()  # the player's rejected step: (id, direction)


NO_MARKS = Marks()


def marks_for(event: Mapping[str, Any], before_automata: Sequence[Mapping[str, Any]]) -> Marks:
    """The marks of a turn, read from its event and the automata before it."""
    carriers: dict[int, Mapping[str, Any]] = {}
    for entry in event.get("automata", []):
        for entity_id in entry.get("instanceIds", []):
            carriers.setdefault(int(entity_id), entry.get("next") or {})
    beats, blocked_beats = [], []
    for entry in event.get("automated", []):
        beats.append((int(entry["id"]), cue_style(entry.get("cue"))))
        if entry.get("blocked"):
            direction = beat_direction(before_automata, str(entry["automaton"]))
            if direction is not None:
                blocked_beats.append((int(entry["id"]), direction))
    blocked_steps = []
    if not event.get("accepted", True):
        blocked_steps = [(int(b["id"]), str(b["dir"])) for b in event.get("blocked", [])]
    return Marks(carriers, tuple(beats), tuple(blocked_beats), tuple(blocked_steps))
