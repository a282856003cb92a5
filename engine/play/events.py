"""The settled event record that ``step``, ``undo`` and ``reset`` return (docs/contract.md §5).

Every list is in resolution order and every key is always present, so consumers
(the play view, replays, share payloads) can read a record without guessing.
Entries are plain JSON-ready dicts built by the turn resolver; ``to_dict`` returns
deep copies so callers can never edit an event after the fact.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal

Json = dict[str, Any]
EventKind = Literal["step", "undo", "reset"]


@dataclass(slots=True)
class TurnEvent:
    """What one engine action did, after everything settled."""

    kind: EventKind
    accepted: bool
    direction: str | None = None
    moved: list[Json] = field(default_factory=list)
    blocked: list[Json] = field(default_factory=list)
    rules_added: list[Json] = field(default_factory=list)
    rules_removed: list[Json] = field(default_factory=list)
    transformed: list[Json] = field(default_factory=list)
    destroyed: list[Json] = field(default_factory=list)
    crumbled: list[Json] = field(default_factory=list)
    automated: list[Json] = field(default_factory=list)
    automata: list[Json] = field(default_factory=list)
    control_lost: bool = False
    won: bool = False
    moves: int = 0

    def to_dict(self) -> Json:
        return {
            "kind": self.kind,
            "accepted": self.accepted,
            "direction": self.direction,
            "moved": copy.deepcopy(self.moved),
            "blocked": copy.deepcopy(self.blocked),
            "rulesAdded": copy.deepcopy(self.rules_added),
            "rulesRemoved": copy.deepcopy(self.rules_removed),
            "transformed": copy.deepcopy(self.transformed),
            "destroyed": copy.deepcopy(self.destroyed),
            "crumbled": copy.deepcopy(self.crumbled),
            "automated": copy.deepcopy(self.automated),
            "automata": copy.deepcopy(self.automata),
            "controlLost": self.control_lost,
            "won": self.won,
            "moves": self.moves,
        }
