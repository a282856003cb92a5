"""FRAIL on the canvas: crack badges, what a cracked object leaves, and the opt-in offer.

* :class:`CrackLayer` marks every object that is FRAIL at move 0 with a crack
  badge in its cell's corner; hovering such a cell says what it leaves when it
  crumbles (the leftover, or that it is removed).
* :class:`FrailOptInOffer` notices a FRAIL word painted on a level that has not
  opted in and offers to opt the level in (asked through the injected
  ``Dialogs``, once the stroke is over, once per level).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF, QRect, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QCursor,
    QGuiApplication,
    QPainter,
    QPen,
    QPixmap,
    QUndoStack,
)
from PySide6.QtWidgets import QToolTip, QWidget

import engine
from editor.connections import Connections
from editor.dialogs.questions import Dialogs
from editor.documents.level import LevelDocument
from editor.documents.session import Session
from editor.tasks.move_zero import MoveZeroFacts
from editor.values import WORD, Piece, Pos
from editor.views.canvas import CanvasLayer, GridCanvas
from editor.views.theme import PROPERTY_COLORS

Cell = tuple[int, int]


class CrackLayer(CanvasLayer):
    """Crack badges on the objects that are FRAIL at move 0, and their hover text."""

    def __init__(self, session: Session, canvas: GridCanvas) -> None:
        super().__init__()
        self._session = session
        self._canvas = canvas
        self._cells: dict[Cell, list[tuple[int, str]]] = {}
        self.hover_text = ""
        self._badges: dict[int, QPixmap] = {}
        canvas.add_layer(self)
        canvas.hovered.connect(self._on_hovered)

    def set_facts(self, facts: MoveZeroFacts | None) -> None:
        cells: dict[Cell, list[tuple[int, str]]] = defaultdict(list)
        if facts is not None:
            for entity_id, (noun, cell) in sorted(facts.frail.items()):
                cells[cell].append((entity_id, noun))
        if cells != self._cells:  # repaint the canvas only when the badges move
            self._cells = dict(cells)
            self.changed.emit()

    def cracked(self) -> dict[Cell, list[tuple[int, str]]]:
        """The cells with a crack badge: the FRAIL objects (id, noun) in each."""
        return {cell: list(objects) for cell, objects in self._cells.items()}

    def describe(self, cell: Cell) -> str:
        """What the FRAIL objects of ``cell`` leave when they crumble ("" when none)."""
        objects = self._cells.get(cell)
        if not objects:
            return ""
        leaves = _leaves_of(self._session.level)
        lines = []
        for entity_id, noun in objects:
            leftover = leaves.get(noun)
            what = (
                f"crumbles into {leftover}"
                if leftover is not None
                else f"is removed when it crumbles ({noun} has no leftover)"
            )
            lines.append(f"{noun} #{entity_id} is FRAIL at move 0: it {what}")
        return "\n".join(lines)

    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        size = canvas.cell_size
        if not self._cells or size < 10:
            return
        badge = self._badge(size)
        for cell in self._cells:
            rect = canvas.cell_rect(Pos(*cell))
            if rect.intersects(exposed):
                painter.drawPixmap(rect.right() + 1 - badge.width(), rect.top(), badge)

    def _badge(self, size: int) -> QPixmap:
        """The crack badge for one cell size, drawn once (a board may crack in hundreds of cells)."""
        cached = self._badges.get(size)
        if cached is not None:
            return cached
        badge = max(8.0, size * 0.42)
        side = int(badge) + 4  # the corner the crack lies in, halo included
        pixmap = QPixmap(side, side)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(PROPERTY_COLORS[engine.FRAIL]).darker(150)
        x0, y0 = side - badge - 1, 1.0
        crack = [(0.62, 0.0), (0.48, 0.32), (0.68, 0.5), (0.5, 0.9)]
        branch = [(0.68, 0.5), (0.95, 0.62)]
        lines = [
            [QPointF(x0 + badge * fx, y0 + badge * fy) for fx, fy in part]
            for part in (crack, branch)
        ]
        for pen in (QPen(QColor("#ffffff"), max(3.0, size / 9)), QPen(color, max(1.5, size / 18))):
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            for points in lines:
                painter.drawPolyline(points)
        painter.end()
        self._badges[size] = pixmap
        return pixmap

    def _on_hovered(self, pos: Pos | None) -> None:
        text = self.describe((pos.x, pos.y)) if pos is not None else ""
        if text == self.hover_text:
            return
        self.hover_text = text
        if text:
            QToolTip.showText(QCursor.pos(), text, self._canvas)
        else:
            QToolTip.hideText()


class FrailOptInOffer(QObject):
    """Offers to opt a level in when a FRAIL word is painted on it without the mechanic.

    It watches the pack's history: a *new* edit (not an undo or a redo) that put a
    FRAIL word on a level that has not opted in asks, once the pointer is released,
    through ``Dialogs.confirm``. A level whose author said no is not asked again.
    """

    def __init__(
        self,
        session: Session,
        dialogs: Dialogs,
        parent_widget: QWidget,
        opt_in: Callable[[], bool],
    ) -> None:
        super().__init__(parent_widget)
        self._session, self._dialogs, self._widget = session, dialogs, parent_widget
        self._opt_in = opt_in
        self._declined: set[int] = set()  # levels whose author said no (by identity)
        self._words: dict[Pos, int] = {}  # FRAIL words per cell of the current level
        self._painted = False  # the last change added a FRAIL word
        self._asking = False
        self._level_links = Connections()
        self._pack_links = Connections()
        session.pack_changed.connect(self._on_pack_changed)
        session.level_changed.connect(self._on_level_changed)
        if session.pack is not None:
            self._on_pack_changed(session.pack)
        self._on_level_changed(session.level)

    def _on_pack_changed(self, pack: object) -> None:
        stack = getattr(pack, "undo_stack", None)
        if isinstance(stack, QUndoStack):
            self._pack_links.follow([(stack.indexChanged, lambda _i, s=stack: self._on_index(s))])
            for i in range(stack.count()):
                _mark_seen(stack.command(i))

    def _on_level_changed(self, level: LevelDocument | None) -> None:
        self._painted = False
        self._words = {}
        if level is not None:
            self._words = {p: n for p, s in level.cells().items() if (n := _frail_words(s))}
        self._level_links.follow(
            [] if level is None else [(level.cells_changed, self._on_cells_changed)]
        )

    def _on_cells_changed(self, cells: frozenset[Pos]) -> None:
        level = self._session.level
        if level is None:
            return
        added = False
        for pos in cells:
            count = _frail_words(level.stack_at(pos))
            added = added or count > self._words.get(pos, 0)
            if count:
                self._words[pos] = count
            else:
                self._words.pop(pos, None)
        self._painted = added and not level.has_frail()

    def _on_index(self, stack: QUndoStack) -> None:
        try:
            index = stack.index()
        except RuntimeError:  # the stack of a pack being closed
            return
        top = stack.command(index - 1) if index > 0 else None
        fresh = top is not None and not getattr(top, _SEEN, False)
        if top is not None:
            _mark_seen(top)
        if fresh and self._painted:
            QTimer.singleShot(0, self._ask_when_released)
        self._painted = False

    def _ask_when_released(self) -> None:
        if QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton:
            QTimer.singleShot(100, self._ask_when_released)  # the stroke goes on
            return
        level = self._session.level
        if level is None or level.has_frail() or id(level) in self._declined or self._asking:
            return
        self._asking = True
        try:
            yes = self._dialogs.confirm(
                self._widget,
                "Opt this level in to FRAIL?",
                f"Level {level.level_id} has not opted into the frail mechanic, so a FRAIL "
                "word makes it invalid. Opt in now? (It adds the frail declaration with an "
                "empty leaves map; undo takes it back.)",
            )
        finally:
            self._asking = False
        if yes:
            self._opt_in()
        else:
            self._declined.add(id(level))


def _frail_words(stack: tuple[Piece, ...]) -> int:
    return sum(1 for p in stack if p.kind == WORD and p.token == engine.FRAIL)


#: Set on a command once the offer has seen it pushed: a redo of it is not a new edit.
_SEEN = "_rulegrid_frail_offer_seen"


def _mark_seen(command: object) -> None:
    if command is not None:
        setattr(command, _SEEN, True)


def _leaves_of(level: LevelDocument | None) -> dict[str, str]:
    mechanics = level.authored("mechanics") if level is not None else None
    for mechanic in mechanics if isinstance(mechanics, list) else []:
        if isinstance(mechanic, dict) and mechanic.get("type") == "frail":
            leaves = mechanic.get("leaves")
            return dict(leaves) if isinstance(leaves, dict) else {}
    return {}
