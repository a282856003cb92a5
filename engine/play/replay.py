"""Move strings (``UDLR``) and deterministic replays from a level's start."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.mechanics import you
from engine.model import Level
from engine.play.board import Direction
from engine.play.events import TurnEvent
from engine.play.game import Game
from engine.play.work import WorkBudgetError

_LETTERS = {d.letter: d for d in Direction}


def parse_moves(moves: str) -> list[Direction]:
    """The directions of a move string.

    Raises:
        ValueError: naming the first character that is not one of ``U D L R``.
    """
    if not isinstance(moves, str):
        raise ValueError(f"moves must be a string of U, D, L, R, not {type(moves).__name__}")
    out = []
    for index, letter in enumerate(moves):
        direction = _LETTERS.get(letter)
        if direction is None:
            raise ValueError(
                f"move {index + 1} is {letter!r}; moves are written with U, D, L and R"
            )
        out.append(direction)
    return out


def format_moves(directions: list[Direction]) -> str:
    return "".join(d.letter for d in directions)


def replay(level: Level | Mapping[str, Any] | str, moves: str) -> list[TurnEvent]:
    """Play ``moves`` from the settled start and return one event per move."""
    directions = parse_moves(moves)
    game = Game(level)
    return [game.step(d) for d in directions]


@dataclass(frozen=True, slots=True)
class SolutionCheck:
    """Whether a move string still wins a level, and where it goes wrong if not.

    ``failed_at`` is the 1-based number of the first move that goes wrong (a
    rejected move), or ``None`` when every move was played. ``reason`` is
    ``"wins"``, ``"won-early"`` (the level is won before the last move: the
    remaining moves are never played), ``"blocked"`` (a move moved nothing),
    ``"control-lost"`` (a move was rejected because the player controls nothing) or
    ``"not-won"`` (every move was played and the level is not won).
    """

    moves: str
    wins: bool
    reason: str
    played: int
    failed_at: int | None
    message: str


def check_solution(level: Level | Mapping[str, Any] | str, moves: str) -> SolutionCheck:
    """Replay ``moves`` from the settled start and say whether, and where, they stop winning.

    The same diagnosis serves the validation lint, the solver panel and the level
    list, so an author reads one wording everywhere ("move 7 (R) is blocked").

    Raises:
        ValueError: ``moves`` is not a ``UDLR`` string.
        WorkBudgetError: an open work budget (engine.play.work) ran out; it names the move.
    """
    directions = parse_moves(moves)
    game = Game(level)
    total = len(directions)
    for number, direction in enumerate(directions, start=1):
        if game.won:
            return SolutionCheck(
                moves,
                True,
                "won-early",
                number - 1,
                None,
                f"the level is won after {number - 1} of {total} moves",
            )
        try:
            event = game.step(direction)
        except WorkBudgetError as exc:  # an open work budget ran out: say at which move
            raise exc.at_move(number) from None
        if not event.accepted:
            letter = direction.letter
            if event.control_lost:
                return SolutionCheck(
                    moves,
                    False,
                    "control-lost",
                    number - 1,
                    number,
                    f"move {number} ({letter}) cannot be played: {you.NO_CONTROL}",
                )
            return SolutionCheck(
                moves, False, "blocked", number - 1, number, f"move {number} ({letter}) is blocked"
            )
    if game.won:
        return SolutionCheck(moves, True, "wins", total, None, f"wins in {total} moves")
    return SolutionCheck(
        moves, False, "not-won", total, None, f"the level is not won after {total} moves"
    )
