"""Move strings (``UDLR``) and deterministic replays from a level's start."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.model import Level
from engine.play.board import Direction
from engine.play.events import TurnEvent
from engine.play.game import Game

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
