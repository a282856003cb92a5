"""Canvas layers of the rules panel: dimmed unused words and the property overlay.

Both draw what the engine read at move 0 (:class:`~editor.tasks.analysis.
AnalysisService`), never recompute it: a word is dimmed when no rule of the
reading uses it, and an object's badges are its properties in the reading.
They keep a per-cell table built once per reading, so painting only looks up the
exposed cells.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from editor.documents.session import Session
from editor.tasks.analysis import AnalysisService
from editor.values import Pos
from editor.views.canvas import CanvasLayer, GridCanvas
from editor.views.contrast import text_on
from editor.views.theme import AUTOMATON_COLOR, PROPERTY_COLORS
from editor.views.tiles import TileRenderer, badge_rect

#: Badge order: control first, then goals, then physics, then mechanics.
BADGE_ORDER = ("YOU", "WIN", "DEFEAT", "SINK", "STOP", "PUSH", "FRAIL")
BADGE_LABELS = {
    "YOU": "Y",
    "WIN": "W",
    "DEFEAT": "D",
    "SINK": "Sk",
    "STOP": "St",
    "PUSH": "P",
    "FRAIL": "F",
}
#: Badges drawn on one cell; more would hide the tile.
MAX_BADGES = 3


class _AnalysisLayer(CanvasLayer):
    def __init__(self, analysis: AnalysisService, session: Session) -> None:
        super().__init__()
        self._analysis = analysis
        self._session = session
        self._enabled = False
        analysis.changed.connect(self._on_changed)

    @property
    def enabled(self) -> bool:
        return self._enabled

    def set_enabled(self, enabled: bool) -> None:
        if enabled != self._enabled:
            self._enabled = enabled
            self._read()
            self.changed.emit()

    def _on_changed(self) -> None:
        """Repaint only when the marks change: an edit must repaint just its own cells."""
        before = self._marks()
        self._read()
        if self._marks() != before:
            self.changed.emit()

    def _read(self) -> None:
        raise NotImplementedError

    def _marks(self) -> object:
        raise NotImplementedError

    @staticmethod
    def _exposed_cells(canvas: GridCanvas, exposed: QRect, cells: dict[Pos, object]) -> list[Pos]:
        size = canvas.cell_size
        origin = canvas.origin
        x0 = (exposed.left() - origin.x()) // size
        x1 = (exposed.right() - origin.x()) // size
        y0 = (exposed.top() - origin.y()) // size
        y1 = (exposed.bottom() - origin.y()) // size
        return [p for p in cells if x0 <= p.x <= x1 and y0 <= p.y <= y1]


class UnusedWordsLayer(_AnalysisLayer):
    """Dims every word cell whose top word forms no rule at move 0, as the game does."""

    def __init__(self, analysis: AnalysisService, session: Session, renderer: TileRenderer) -> None:
        self._renderer = renderer
        self._cells: dict[Pos, object] = {}
        super().__init__(analysis, session)

    def _read(self) -> None:
        self._cells = {}
        state, level = self._analysis.current, self._session.level
        if not self._enabled or state is None or level is None or state.level is not level:
            return
        used = state.used_word_ids()
        for word_id, (_text, pos) in state.words.items():
            if word_id in used:
                continue
            stack = level.stack_at(pos)
            if stack and stack[-1].id == word_id:
                self._cells[pos] = None

    def _marks(self) -> object:
        return dict(self._cells)

    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        if not self._cells:
            return
        shade = QColor(self._renderer.theme.board)
        shade.setAlpha(170)
        highlighted = canvas.highlight_cells()  # what a selection points at stays readable
        for pos in self._exposed_cells(canvas, exposed, self._cells):
            if pos not in highlighted:
                painter.fillRect(canvas.cell_rect(pos), shade)


class PropertyOverlayLayer(_AnalysisLayer):
    """Small badges on each cell for what its objects are at move 0 (YOU, WIN, STOP …)."""

    def __init__(self, analysis: AnalysisService, session: Session) -> None:
        self._badges: dict[Pos, object] = {}
        super().__init__(analysis, session)

    def _marks(self) -> object:
        return dict(self._badges)

    def badges_at(self, pos: Pos) -> tuple[str, ...]:
        """The properties drawn on ``pos``, in badge order (for tests and tooltips)."""
        found = self._badges.get(pos)
        return found if isinstance(found, tuple) else ()

    def set_enabled(self, enabled: bool) -> None:
        if enabled != self._enabled:
            self._analysis.want_cell_properties(enabled)
        super().set_enabled(enabled)

    def _read(self) -> None:
        self._badges = {}
        state = self._analysis.current
        if not self._enabled or state is None or state.cell_properties is None:
            return
        rank = {name: n for n, name in enumerate(BADGE_ORDER)}
        for pos, names in state.cell_properties.items():
            self._badges[pos] = tuple(sorted(names, key=lambda p: (rank.get(p, len(rank)), p)))

    def paint(self, painter: QPainter, canvas: GridCanvas, exposed: QRect) -> None:
        """A strip along the bottom of each cell: one badge per property, named when it fits.

        On a stacked cell the strip starts right of the stack's count badge, which
        it would otherwise cover.
        """
        if not self._badges:
            return
        size = canvas.cell_size
        height = max(4, size // 4)
        level = self._session.level
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(max(6, height - 2))
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        for pos in self._exposed_cells(canvas, exposed, self._badges):
            rect = canvas.cell_rect(pos)
            names = self.badges_at(pos)[:MAX_BADGES]
            left = 1.0
            stacked = len(level.stack_at(pos)) if level is not None else 0
            if stacked > 1:
                count = badge_rect(size, stacked)
                if count.bottom() >= size - 1 - height:  # the strip reaches the count badge
                    left = count.right() + 1
            width = (size - 1 - left) / len(names)
            for n, name in enumerate(names):
                color = QColor(PROPERTY_COLORS.get(name, AUTOMATON_COLOR))
                box = QRectF(
                    rect.left() + left + n * width, rect.bottom() - height, width - 1, height
                )
                painter.setPen(QPen(QColor("#15171c"), 1))
                painter.setBrush(color)
                painter.drawRoundedRect(box, 2, 2)
                if height < 8:
                    continue
                for label in (name, BADGE_LABELS.get(name, name[:2].title())):
                    if metrics.horizontalAdvance(label) <= box.width() - 2:
                        painter.setPen(text_on(color))
                        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), label)
                        break
