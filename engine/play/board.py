"""Runtime board values: directions, settled frames and the work board of a turn.

A :class:`Frame` is one settled position of a game: immutable, so the undo history
is simply a list of frames. A turn copies a frame into a mutable :class:`Board`,
resolves its phases there and freezes the result into the next frame.

Entities are always kept in ascending id ("stable entity id order", api.md §1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from engine.context import Piece
from engine.rules import Rule, WordTile


class Direction(Enum):
    """A cardinal direction; the value is the ``(dx, dy)`` offset (y grows downward)."""

    UP = (0, -1)
    DOWN = (0, 1)
    LEFT = (-1, 0)
    RIGHT = (1, 0)

    @property
    def label(self) -> str:
        """The name used in events and on the command line: ``"up"`` …"""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The letter used in move strings: ``U D L R``."""
        return self.name[0]

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]

    @classmethod
    def parse(cls, value: object) -> Direction | None:
        """The direction ``value`` names, or ``None`` when it is not a cardinal intent.

        Accepts a :class:`Direction`, a name (``"up"``), a move letter (``"U"``) or a
        ``(dx, dy)`` pair; anything else (a diagonal, ``(0, 0)``, an unknown name, a
        wrong type) is not an intent.
        """
        if isinstance(value, Direction):
            return value
        if isinstance(value, str):
            return _BY_NAME.get(value.strip().lower())
        if isinstance(value, tuple | list) and len(value) == 2:
            dx, dy = value
            if type(dx) is int and type(dy) is int:
                return _BY_DELTA.get((dx, dy))
        return None


_BY_NAME = {d.label: d for d in Direction} | {d.letter.lower(): d for d in Direction}
_BY_DELTA = {d.value: d for d in Direction}


@dataclass(frozen=True, slots=True)
class Frame:
    """A settled position: the authoritative state plus its (derived) rules."""

    pieces: tuple[Piece, ...]
    phases: tuple[int, ...]
    moves: int
    won: bool
    rules: tuple[Rule, ...]

    def words(self) -> list[WordTile]:
        return [(i, name, x, y) for i, kind, name, x, y in self.pieces if kind == "word"]


class Board:
    """A mutable copy of a frame's pieces, with a live cell index, used inside one turn."""

    __slots__ = ("cells", "kind", "name", "pos")

    def __init__(self, pieces: tuple[Piece, ...]) -> None:
        self.kind: dict[int, str] = {}
        self.name: dict[int, str] = {}
        self.pos: dict[int, tuple[int, int]] = {}
        self.cells: dict[tuple[int, int], set[int]] = {}
        for i, kind, name, x, y in pieces:
            self.kind[i] = kind
            self.name[i] = name
            self.pos[i] = (x, y)
            self.cells.setdefault((x, y), set()).add(i)

    def objects(self) -> Iterator[int]:
        return (i for i in sorted(self.pos) if self.kind[i] == "object")

    def at(self, cell: tuple[int, int]) -> list[int]:
        """The ids in ``cell``, ascending."""
        return sorted(self.cells.get(cell, ()))

    def occupied_cells(self) -> list[tuple[int, int]]:
        """Every non-empty cell in row-major order (top row first, then left to right)."""
        return sorted((c for c, ids in self.cells.items() if ids), key=lambda c: (c[1], c[0]))

    def move(self, i: int, to: tuple[int, int]) -> None:
        self.cells[self.pos[i]].discard(i)
        self.pos[i] = to
        self.cells.setdefault(to, set()).add(i)

    def remove(self, i: int) -> None:
        self.cells[self.pos[i]].discard(i)
        del self.pos[i], self.kind[i], self.name[i]

    def words(self) -> list[WordTile]:
        return [(i, self.name[i], *self.pos[i]) for i in sorted(self.pos) if self.kind[i] == "word"]

    def freeze(self) -> tuple[Piece, ...]:
        return tuple((i, self.kind[i], self.name[i], *self.pos[i]) for i in sorted(self.pos))
