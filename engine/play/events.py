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

    def to_dict(self, *, fresh: bool = True) -> Json:
        """The record as a JSON-ready dict.

        ``fresh=False`` shares this event's lists instead of copying them: for a
        caller that reads the record at once and drops it (hashing it, printing
        it), where a deep copy of every entry would cost more than the turn did.
        Such a dict must never be kept or changed.
        """
        record = {
            "kind": self.kind,
            "accepted": self.accepted,
            "direction": self.direction,
            "moved": self.moved,
            "blocked": self.blocked,
            "rulesAdded": self.rules_added,
            "rulesRemoved": self.rules_removed,
            "transformed": self.transformed,
            "destroyed": self.destroyed,
            "crumbled": self.crumbled,
            "automated": self.automated,
            "automata": self.automata,
            "controlLost": self.control_lost,
            "won": self.won,
            "moves": self.moves,
        }
        return copy.deepcopy(record) if fresh else record
