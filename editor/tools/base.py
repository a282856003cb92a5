"""The tool interface and the geometry helpers tools share.

The canvas converts pointer events to cells and calls ``press`` / ``drag`` /
``release``; a tool reads the session's current level and calls its edit API.
What a tool wants drawn over the board (a rectangle preview, a selection, a
floating paste) it describes as an :class:`Overlay`; it emits
``overlay_changed`` and the canvas repaints the cells involved.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRect, Qt, Signal

from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.values import Pos, Stamp, signature

Mods = Qt.KeyboardModifier


@dataclass(frozen=True, slots=True)
class Overlay:
    """Cells to mark over the board: ``style`` is "preview", "selection" or "floating"."""

    rect: QRect  # in cells
    style: str
    stamps: Mapping[Pos, tuple[Stamp, ...]] = field(default_factory=dict)  # floating contents


class Tool(QObject):
    """One way of editing with the pointer. Subclasses set the class attributes."""

    overlay_changed = Signal()

    name = ""
    action_id = ""  # objectName of the tool's QAction
    shortcut = ""
    icon_name = ""
    tip = ""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    @property
    def level(self) -> LevelDocument | None:
        return self.session.level

    def press(self, pos: Pos, mods: Mods, button: Qt.MouseButton) -> None:
        """The pointer went down over ``pos`` (which may be outside the grid)."""

    def drag(self, pos: Pos, mods: Mods) -> None:
        """The pointer moved to ``pos`` with a button held."""

    def release(self, pos: Pos, mods: Mods) -> None:
        """The button came up."""

    def hover(self, pos: Pos | None) -> None:
        """The pointer moved to ``pos`` with no button held (``None``: it left the board)."""

    def cancel(self) -> None:
        """Forget any interaction in progress (Escape, tool or level switch)."""

    def overlay(self) -> Overlay | None:
        return None

    def label(self) -> str:
        return f"{self.name} ({self.shortcut})"


def line_cells(a: Pos, b: Pos) -> Iterator[Pos]:
    """Cells on the segment from ``a`` to ``b`` (Bresenham), so fast drags leave no gaps."""
    dx, dy = abs(b.x - a.x), -abs(b.y - a.y)
    sx, sy = (1 if a.x < b.x else -1), (1 if a.y < b.y else -1)
    err, x, y = dx + dy, a.x, a.y
    while True:
        yield Pos(x, y)
        if (x, y) == (b.x, b.y):
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy


def rect_between(a: Pos, b: Pos) -> QRect:
    return QRect(min(a.x, b.x), min(a.y, b.y), abs(a.x - b.x) + 1, abs(a.y - b.y) + 1)


def rect_cells(rect: QRect, *, outline: bool = False) -> Iterator[Pos]:
    for y in range(rect.top(), rect.bottom() + 1):
        for x in range(rect.left(), rect.right() + 1):
            edge = x in (rect.left(), rect.right()) or y in (rect.top(), rect.bottom())
            if edge or not outline:
                yield Pos(x, y)


def clip_to_level(rect: QRect, level: LevelDocument) -> QRect:
    return rect.intersected(QRect(0, 0, level.width, level.height))


def flood_region(level: LevelDocument, start: Pos) -> list[Pos]:
    """The 4-connected cells around ``start`` whose stacks look the same as its stack."""
    if not level.contains(start):
        return []
    look = signature(level.stack_at(start))
    seen = {start}
    queue = deque([start])
    region: list[Pos] = []
    while queue:
        pos = queue.popleft()
        region.append(pos)
        for nxt in (
            Pos(pos.x + 1, pos.y),
            Pos(pos.x - 1, pos.y),
            Pos(pos.x, pos.y + 1),
            Pos(pos.x, pos.y - 1),
        ):
            if nxt not in seen and level.contains(nxt) and signature(level.stack_at(nxt)) == look:
                seen.add(nxt)
                queue.append(nxt)
    return region
