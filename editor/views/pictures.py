"""Pictures of boards: a level as an image, the frames of a solution, thumbnails.

Every tile comes from the :class:`TileRenderer` (the canvas's one way of drawing
tiles), so a picture looks exactly like the editor. A picture is the board alone,
``width x height`` cells of ``cell`` pixels: on the theme's board colour with grid
lines, or on nothing (transparent). Frames of a solution come from the engine
(``engine.Game``): the settled start, then one frame per accepted move, stacked
by the play board's rule (:mod:`editor.views.stacking`), so a solution's first
frame is the level's picture and every frame is what test-play showed.

Pictures are made on the UI thread (the renderer draws pixmaps) and their size is
capped before anything is allocated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QImage, QPainter

import engine
from editor.values import OBJECT, NounSpec, Pos, Stamp, signature
from editor.views.look import Look
from editor.views.stacking import authored_order, next_z, start_z
from editor.views.theme import Theme
from editor.views.tiles import TileRenderer

if TYPE_CHECKING:  # not loaded to draw a picture from a file (``rulegrid-editor render``)
    from editor.documents.level import LevelDocument

#: Pixels of a cell at scale 1: the canvas's 100 %.
BASE_CELL = 32
MIN_CELL, MAX_CELL = 4, 256
#: Pixels of one picture: 4096 x 4096, 64 MiB as RGBA. A 128 x 128 board (the
#: format's largest) still fits at 32 pixels a cell.
MAX_PICTURE_PIXELS = 4096 * 4096
#: Frames of one animation: the start and a thousand moves. A longer solution is a
#: video, not a picture; its frames would also hold hundreds of megabytes.
MAX_FRAMES = 1_001
#: Pixels of all frames of one animation together (each held as one byte a pixel
#: by the GIF writer, four by the APNG writer): 300 Mpx, about 1.2 GB as RGBA at
#: worst. A 20 x 20 board at 32 px needs 0.4 Mpx a frame.
MAX_ANIMATION_PIXELS = 300_000_000
#: How long frames show, in milliseconds: the start, each move, the last frame.
START_MS, FRAME_MS, HOLD_MS = 600, 180, 1600


class PictureError(ValueError):
    """A picture that cannot be made: too large, too long, or no solution to show."""


@dataclass(frozen=True, slots=True)
class Board:
    """What a picture shows: each non-empty cell's stack, bottom first."""

    width: int
    height: int
    cells: Mapping[Pos, tuple[Stamp, ...]]

    @classmethod
    def of_document(cls, level: LevelDocument) -> Board:
        """The level as the canvas shows it, unsaved edits included."""
        cells = {pos: signature(stack) for pos, stack in level.cells().items()}
        return cls(level.width, level.height, cells)

    @classmethod
    def of_records(
        cls,
        width: int,
        height: int,
        entities: Iterable[Mapping[str, Any]],
        z: Mapping[int, int] | None = None,
    ) -> Board:
        """Entity records (a level document's or ``Game.state()``'s), stacked in list
        order, or by ``z`` (id to stacking order, :mod:`editor.views.stacking`)."""
        records = list(entities)
        if z is not None:
            records.sort(key=lambda e: z.get(int(e["id"]), 0))  # stable: ties keep list order
        cells: dict[Pos, list[Stamp]] = {}
        for e in records:
            kind = str(e["kind"])
            token = str(e["noun"] if kind == OBJECT else e["text"])
            cells.setdefault(Pos(int(e["x"]), int(e["y"])), []).append(Stamp(kind, token))
        return cls(width, height, {pos: tuple(stack) for pos, stack in cells.items()})

    @classmethod
    def of_level(cls, level: engine.Level) -> Board:
        """The level as authored (its entity list order is the stacking order)."""
        data = level.to_data()
        return cls.of_records(level.width, level.height, data["entities"])

    @classmethod
    def of_state(cls, state: Mapping[str, Any], z: Mapping[int, int] | None = None) -> Board:
        """A position of a game, stacked by ``z`` (the play board's order); without it
        in the state's order, ascending id."""
        return cls.of_records(int(state["width"]), int(state["height"]), state["entities"], z)


def cell_for_scale(scale: float) -> int:
    """The cell size in pixels for a scale (1 = the canvas's 100 %, 32 px)."""
    if not MIN_CELL <= round(BASE_CELL * scale) <= MAX_CELL:
        raise PictureError(
            f"scale {scale:g} gives {round(BASE_CELL * scale)} px cells; "
            f"the scale runs from {MIN_CELL / BASE_CELL:g} to {MAX_CELL / BASE_CELL:g}"
        )
    return round(BASE_CELL * scale)


def look_for(
    theme: Theme,
    nouns: Mapping[str, engine.NounStyle] | Mapping[str, NounSpec],
    level: engine.Level | None = None,
    parent: QObject | None = None,
) -> Look:
    """A look for a pack that is not the one open in the window (a payload, a file)."""
    look = Look(theme, parent)
    look.set_nouns(noun_specs(nouns))
    if level is not None:
        use_level_words(look, level)
    return look


def noun_specs(
    nouns: Mapping[str, engine.NounStyle] | Mapping[str, NounSpec],
) -> dict[str, NounSpec]:
    """A pack's noun styles as the look holds them."""
    return {
        name: style if isinstance(style, NounSpec) else NounSpec(style.color, style.glyph or "")
        for name, style in nouns.items()
    }


def use_level_words(look: Look, level: engine.Level) -> None:
    """Colour the level's mechanic words as the level reads them (FRAIL, automaton words)."""
    look.set_level_words(
        frozenset(a.property for a in level.automata),
        any(m.type == "frail" for m in level.mechanics),
    )


def check_size(board: Board, cell: int, frames: int = 1) -> None:
    """Refuse a picture (or animation) larger than the caps, before drawing anything."""
    pixels = board.width * cell * board.height * cell
    if pixels > MAX_PICTURE_PIXELS:
        raise PictureError(
            f"a {board.width}x{board.height} board at {cell} px a cell is "
            f"{board.width * cell}x{board.height * cell} pixels, more than "
            f"{MAX_PICTURE_PIXELS:,}; choose a smaller scale"
        )
    if frames > MAX_FRAMES:
        raise PictureError(f"{frames - 1} moves is more than an animation shows ({MAX_FRAMES - 1})")
    if pixels * frames > MAX_ANIMATION_PIXELS:
        raise PictureError(
            f"{frames} frames of {board.width * cell}x{board.height * cell} pixels are too many "
            "pixels for one animation; choose a smaller scale"
        )


def paint(
    renderer: TileRenderer,
    board: Board,
    cell: int,
    *,
    transparent: bool = False,
    grid: bool = True,
) -> QImage:
    """The board as an image of ``width * cell`` by ``height * cell`` pixels.

    Raises:
        PictureError: the image would be larger than :data:`MAX_PICTURE_PIXELS`.
    """
    check_size(board, cell)
    theme = renderer.theme
    image = QImage(board.width * cell, board.height * cell, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent if transparent else QColor(theme.board))
    painter = QPainter(image)
    if not transparent and grid and cell >= 8:
        painter.setPen(QColor(theme.grid))
        for x in range(1, board.width + 1):
            painter.drawLine(x * cell - 1, 0, x * cell - 1, board.height * cell - 1)
        for y in range(1, board.height + 1):
            painter.drawLine(0, y * cell - 1, board.width * cell - 1, y * cell - 1)
    for pos, stack in board.cells.items():
        if stack and 0 <= pos.x < board.width and 0 <= pos.y < board.height:
            painter.drawPixmap(pos.x * cell, pos.y * cell, renderer.stack(stack, cell))
    painter.end()
    return image


def thumbnail_cell(board: Board, width: int, height: int) -> int:
    """The largest cell (2 to 32 px) that fits the whole board in ``width x height``."""
    return max(2, min(BASE_CELL, width // max(1, board.width), height // max(1, board.height)))


def thumbnail(renderer: TileRenderer, board: Board, width: int, height: int) -> QImage:
    """A small picture of the board for lists (no grid lines)."""
    return paint(renderer, board, thumbnail_cell(board, width, height), grid=False)


@dataclass(frozen=True, slots=True)
class Solution:
    """The positions a move string passes through, and whether it wins."""

    boards: tuple[Board, ...]
    won: bool
    #: Why the moves do not win (``engine.check_solution``'s wording), or ``""``.
    problem: str = ""

    def durations(self) -> list[int]:
        """Milliseconds per frame: a pause on the start, a hold on the last frame."""
        count = len(self.boards)
        if count == 1:
            return [HOLD_MS]
        return [START_MS] + [FRAME_MS] * (count - 2) + [HOLD_MS]


def solution_of(level: engine.Level, moves: str) -> Solution:
    """Play ``moves`` from the settled start: one board for the start and per accepted move.

    A rejected move (blocked) is not a turn and adds no frame; play stops once the
    level is won.

    Raises:
        PictureError: no moves, too many, a letter other than ``U D L R``, or a replay
            that needs more work than ``engine.PICTURE_WORK_BUDGET``.
    """
    if not moves:
        raise PictureError(f"level {level.id!r} has no solution to show")
    if len(moves) + 1 > MAX_FRAMES:
        raise PictureError(f"{len(moves)} moves is more than an animation shows ({MAX_FRAMES - 1})")
    try:
        directions = engine.parse_moves(moves)
    except ValueError as exc:
        raise PictureError(str(exc)) from None
    game = engine.Game(level)
    state = game.state()
    order = authored_order(level.to_data()["entities"])
    z = {int(e["id"]): start_z(order, int(e["id"])) for e in state["entities"]}
    top = max(z.values(), default=0)
    boards = [Board.of_state(state, z)]  # stacked as the canvas and the play board stack
    budget = engine.WorkBudget.of(engine.PICTURE_WORK_BUDGET, "a solution picture's budget")
    with engine.budgeted(budget):
        for move, direction in enumerate(directions, start=1):
            if game.won:
                break
            try:
                step = game.step(direction)
            except engine.WorkBudgetError as exc:
                raise PictureError(
                    f"the solution of level {level.id!r} {exc.at_move(move)}"
                ) from None
            if step.accepted:
                state = game.state()
                ids = (int(e["id"]) for e in state["entities"])
                z, top = next_z(z, top, {"moved": step.moved}, ids)
                boards.append(Board.of_state(state, z))
        try:  # why it does not win, from the same replay's budget
            problem = "" if game.won else engine.check_solution(level, moves).message
        except engine.WorkBudgetError as exc:
            raise PictureError(f"the solution of level {level.id!r} {exc}") from None
    return Solution(tuple(boards), game.won, problem)


def frames(
    renderer: TileRenderer, solution: Solution, cell: int, *, transparent: bool = False
) -> list[QImage]:
    """One image per board of ``solution``, every size checked before the first is drawn."""
    check_size(solution.boards[0], cell, len(solution.boards))
    return [paint(renderer, board, cell, transparent=transparent) for board in solution.boards]
