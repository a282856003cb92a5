"""``PlayRecord``: the game being test-played and the record the play view shows.

It owns the ``engine.Game`` and, for every turn on the path from the settled
start to the current position, the frame after it, its event record and its
rule sentences. Undo and reset shorten the record with the game, so turn ``k``
of the record is always turn ``k`` of the game: the event log, "Rewind to
here" and the board of a past turn all read it. It holds no widgets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import engine
from editor.panels.play.frames import Frame, first_frame, name_in, next_frame
from editor.panels.play.marks import Marks, marks_for
from editor.panels.play.text import NameOf, rule_text

Json = dict[str, Any]
LETTERS = {"up": "U", "down": "D", "left": "L", "right": "R"}
MAX_PLAY_TURNS = 10_000  # turns kept on the record; a longer game asks for Z or R


class Turn(NamedTuple):
    """What one input did: ``before`` and ``after`` are the same frame when refused."""

    accepted: bool
    event: Json
    before: Frame
    after: Frame


class PlayRecord:
    """A game with one frame, event and rule list per turn on its current path."""

    def __init__(self, level_data: Mapping[str, Any]) -> None:
        """Raises ``engine.EngineError`` when the level cannot be played."""
        self.game = engine.Game(level_data)
        state = self.game.state()
        self.start_automata: list[Json] = list(state["automata"])
        self.frames: list[Frame] = [first_frame(level_data, state)]
        self.events: list[Json] = []
        self.rules: list[tuple[str, ...]] = [tuple(rule_text(r) for r in state["rules"])]

    @property
    def turns(self) -> int:
        return len(self.events)

    @property
    def full(self) -> bool:
        return len(self.events) >= MAX_PLAY_TURNS

    def move_string(self) -> str:
        """The ``UDLR`` moves from the start to the current position."""
        return "".join(LETTERS[str(e["direction"])] for e in self.events)

    # ------------------------------------------------------------- playing
    def step(self, direction: str) -> Turn:
        """Play one move.

        Raises:
            engine.WorkBudgetError: the turn needs more work than one turn may do (a
                hostile level's turn took 19 s on the UI thread); the game stays
                where it was.
        """
        before = self.frames[-1]
        with engine.budgeted(engine.one_turn("a turn in the play view")):
            event = self.game.step(direction).to_dict()
        if not event["accepted"]:
            return Turn(False, event, before, before)
        state = self.game.state()
        after = next_frame(before, state, event)
        self.frames.append(after)
        if len(self.frames) > 2:
            self.frames[-3].forget()  # the last two keep their indexes: undo is instant
        self.events.append(event)
        self.rules.append(tuple(rule_text(r) for r in state["rules"]))
        return Turn(True, event, before, after)

    def undo(self) -> Turn:
        before = self.frames[-1]
        event = self.game.undo().to_dict()
        if not event["accepted"]:
            return Turn(False, event, before, before)
        self._drop_last()
        return Turn(True, event, before, self.frames[-1])

    def reset(self) -> Turn:
        before = self.frames[-1]
        event = self.game.reset().to_dict()
        del self.frames[1:], self.rules[1:]
        self.events.clear()
        return Turn(True, event, before, self.frames[0])

    def rewind(self, turn: int) -> None:
        """Undo back to the position after ``turn``."""
        while len(self.events) > max(0, turn) and self.game.undo().accepted:
            self._drop_last()

    def _drop_last(self) -> None:
        self.frames.pop()
        self.events.pop()
        self.rules.pop()

    # ------------------------------------------------------------- reading
    def automata_before(self, turn: int) -> Sequence[Mapping[str, Any]]:
        """The automata entries before ``turn`` was played (the start's for turn 1)."""
        if turn <= 1:
            return self.start_automata
        entries: Sequence[Mapping[str, Any]] = self.events[turn - 2]["automata"]
        return entries

    def automata_at(self, turn: int) -> Sequence[Mapping[str, Any]]:
        return self.automata_before(turn + 1)

    def event_at(self, turn: int) -> Json | None:
        return self.events[turn - 1] if turn else None

    def marks_at(self, turn: int) -> Marks:
        event = self.event_at(turn)
        if event is None:
            return marks_for({"automata": self.start_automata}, ())
        return marks_for(event, self.automata_before(turn))

    def name_of(self, turn: int) -> NameOf:
        """Names entities as the board after ``turn`` (or before it, once gone) shows them."""
        frames = self.frames[max(0, turn - 1) : turn + 1][::-1]
        return lambda entity_id: name_in(frames, entity_id)
