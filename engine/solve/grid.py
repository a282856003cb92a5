"""The cells of one level as ints, and their neighbours in each direction.

The compact path names a cell by one int, ``y * width + x``, so a position is a
vector of small ints and a step is a table lookup. :class:`Grid` holds those
tables; the general turn, the walk shortcut and the heuristic all read them here.
"""

from __future__ import annotations

from engine.play.board import Direction

#: Directions in search order; a direction's index is its position here.
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


class Grid:
    """Cell arithmetic for a ``width`` x ``height`` board.

    ``step[d][cell]`` is the neighbour of ``cell`` along ``DIRECTIONS[d]``, or -1
    off the board; ``progress[d][cell]`` is how far along that direction the cell
    lies (``x * dx + y * dy``), the key of :func:`engine.play.phases.front_first`.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = width * height
        self.step: list[list[int]] = [
            [
                cell + d.dx + d.dy * width
                if 0 <= cell % width + d.dx < width and 0 <= cell // width + d.dy < height
                else -1
                for cell in range(self.cells)
            ]
            for d in DIRECTIONS
        ]
        self.progress: list[list[int]] = [
            [(cell % width) * d.dx + (cell // width) * d.dy for cell in range(self.cells)]
            for d in DIRECTIONS
        ]
        self.index = {d: k for k, d in enumerate(DIRECTIONS)}

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def neighbours(self, cell: int) -> list[int]:
        """The cells next to ``cell`` on the board, in :data:`DIRECTIONS` order."""
        return [n for n in (step[cell] for step in self.step) if n >= 0]
