"""``Game``: one level being played, with complete undo, reset and snapshots.

Frames are immutable, so the undo history is a list of the frames before each
accepted step and undo simply puts the previous one back: there is no inverse
operation to get wrong. The game also keeps a live :class:`~engine.play.board.Board`
standing for the current frame, so a step costs what it changes
(:func:`~engine.play.turn.advance`); an undo puts the board back by the step's
recorded changes, and anything else (reset, a restored snapshot) drops it, to be
rebuilt from the frame when next needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.context import LevelContext
from engine.model import Level
from engine.packs.validate import load_level
from engine.play import snapshot as snapshots
from engine.play.board import Board, Direction, Frame
from engine.play.events import TurnEvent
from engine.play.ghost import AutomatonPath, preview_paths
from engine.play.turn import (
    advance,
    automata_entries,
    finish_event,
    has_control,
    settle_board,
    table_for,
)
from engine.rules import Rule


class Game:
    """A level in play. Construction settles the authored board (docs/contract.md §5)."""

    def __init__(self, level: Level | Mapping[str, Any] | str) -> None:
        if not isinstance(level, Level):
            level = load_level(level)
        self._ctx = LevelContext.of(level)
        settled = settle_board(
            self._ctx.vocabulary, self._ctx.authored_pieces(), self._ctx.authored_phases()
        )
        self._initial = settled.frame
        self._frame = self._initial
        self._history: list[Frame] = []
        #: stands for ``_frame`` whenever it is not None
        self._board: Board | None = settled.board

    @property
    def level(self) -> Level:
        return self._ctx.level

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The active rules of the settled state, in deterministic order."""
        return self._frame.rules

    @property
    def won(self) -> bool:
        return self._frame.won

    @property
    def moves(self) -> int:
        return self._frame.moves

    @property
    def control_lost(self) -> bool:
        return not has_control(self._ctx, self._frame, board=self._board)

    @property
    def history_depth(self) -> int:
        return len(self._history)

    def step(self, direction: Direction | str | tuple[int, int]) -> TurnEvent:
        """Play one intent. A rejected intent changes nothing, history included."""
        try:
            after, event = advance(self._ctx, self._frame, self._live(), direction)
        except BaseException:
            self._board = None  # a failure mid-turn leaves the board unknown
            raise
        if after is not None:
            self._history.append(self._frame)
            self._frame = after
        return event

    def undo(self) -> TurnEvent:
        """Return to the position before the last accepted step (no-op without history)."""
        if not self._history:
            event = TurnEvent(kind="undo", accepted=False)
            finish_event(self._ctx, event, self._frame, self._frame, self._board)
            return event
        return self._restore("undo", self._history.pop())

    def reset(self) -> TurnEvent:
        """Return to the settled start of the level and forget the history."""
        self._history.clear()
        return self._restore("reset", self._initial)

    def _live(self) -> Board:
        """The live board, rebuilt from the current frame if it was dropped."""
        board = self._board
        if board is None:
            board = Board(self._frame.pieces)
            board.rules = self._frame.rules
            board.table = table_for(self._ctx, board.rules)
            self._board = board
        return board

    def _restore(self, kind: str, target: Frame) -> TurnEvent:
        current = self._frame
        moved = []
        if current.base is target:  # one step back: the step's changes say what moved
            for old, new in current.delta:
                if new is not None and (new[3], new[4]) != (old[3], old[4]):
                    frm, to = [new[3], new[4]], [old[3], old[4]]
                    moved.append({"id": old[0], "from": frm, "to": to, "pushedBy": None})
        else:
            now = {p[0]: p for p in current.pieces}
            for i, _kind, _name, x, y in target.pieces:
                here = now.get(i)
                if here is not None and (here[3], here[4]) != (x, y):
                    frm, to = [here[3], here[4]], [x, y]
                    moved.append({"id": i, "from": frm, "to": to, "pushedBy": None})
        board = self._board
        if board is not None and current.base is target:
            board.revert(current.delta)
            board.rules, board.table = target.rules, table_for(self._ctx, target.rules)
            if any(old[1] == "word" for old, _new in current.delta):
                board.units = None  # the words changed: the next turn reads them
        else:
            board = self._board = None
        event = TurnEvent(kind="undo" if kind == "undo" else "reset", accepted=True, moved=moved)
        finish_event(self._ctx, event, current, target, board)
        self._frame = target
        return event

    def state(self) -> dict[str, Any]:
        """The settled state record of docs/contract.md §4 (a fresh JSON-ready dict)."""
        frame, board = self._frame, self._board
        table = board.table if board is not None and board.table is not None else None
        if table is None:
            table = table_for(self._ctx, frame.rules)
        return {
            "level": self.level.id,
            "width": self.level.width,
            "height": self.level.height,
            "entities": snapshots.entity_records(frame),
            "rules": [r.to_dict() for r in frame.rules],
            "moves": frame.moves,
            "won": frame.won,
            "controlLost": not has_control(self._ctx, frame, table, board),
            "historyDepth": len(self._history),
            "automata": automata_entries(self._ctx, frame, table, board),
            "mechanics": [m.to_data() for m in self.level.mechanics],
        }

    def preview_automata(self, beats: int = 8) -> tuple[AutomatonPath, ...]:
        """Where each automaton carrier goes in the next ``beats`` beats, on the board as it is.

        A preview for editors (``engine.play.ghost``): the rules of the current
        position stay fixed, the player stands still and each carrier walks alone,
        blocked by the same push rules as a turn. At most 64 beats and 64 carriers.
        """
        return preview_paths(self._ctx, self._frame, beats)

    def snapshot(self) -> dict[str, Any]:
        """The complete turn snapshot, history included (JSON-ready)."""
        return snapshots.encode(self._ctx, self._frame, self._history)

    @classmethod
    def from_snapshot(cls, level: Level | Mapping[str, Any] | str, snapshot: object) -> Game:
        """Restore a snapshot of ``level``. Restoring is not a turn: nothing settles.

        Raises:
            ValidationError: the snapshot does not match the level, carries
                anything beyond the authoritative state, or claims move counts or
                a win that its positions cannot have.
        """
        game = cls(level)
        game._frame, game._history = snapshots.decode(game._ctx, snapshot, game._initial)
        game._board = None
        return game
