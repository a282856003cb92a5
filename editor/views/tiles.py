"""Drawing entities: one cached pixmap per stamp and per stack look.

The canvas draws every non-empty cell with a single ``drawPixmap`` of its
stack's picture, so a full repaint costs one call per cell however tall the
stacks are. Stack pictures are cached by (what the stack looks like, cell size)
and dropped whenever the :class:`~editor.views.look.Look` changes; the tiles they
are made of are kept by everything a tile's picture depends on, so a look change
draws again only the tiles it changed.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QIcon, QPainter, QPen, QPixmap

from editor.values import OBJECT, Stamp, WordRole, vocabulary, word_role
from editor.views.contrast import legible_tint, text_on
from editor.views.look import Look
from editor.views.theme import AUTOMATON_COLOR, PROPERTY_COLORS, UNKNOWN_NOUN_COLOR, Theme

#: Below this cell size text is unreadable: tiles become plain colour blocks.
MIN_TEXT_SIZE = 14
#: A stacked cell shows a chip with the glyph of the entity beneath its top one
#: from this cell size on (the canvas's 100 % is 32); smaller cells show the count.
MIN_CHIP_CELL = 28
#: A chip's side (and the count badge's) as a share of the cell.
CHIP_SHARE = 0.34
#: Letters smaller than this many pixels are not written on a chip.
MIN_CHIP_FONT = 7
#: Tile pictures kept by what they show, across looks (a look change that leaves a
#: tile as it was, as most do, draws it no more), up to this many bytes of pixels
#: (large zooms make large tiles); past it they are all dropped and drawn anew.
DRAWN_TILES_BYTES = 32 * 2**20


class TileRenderer:
    """Pictures of stamps and stacks in the current :class:`Look`.

    This is the one way tiles are drawn: the canvas, the palette, the inspector,
    the play view and exported pictures all ask it.
    """

    def __init__(self, look: Look) -> None:
        self.look = look
        self._revision = look.revision
        # Per cell size, then per look: a paint looks up thousands of cells at one size.
        self._stacks: dict[int, dict[tuple[Stamp, ...], QPixmap]] = {}
        self._tiles: dict[tuple[Stamp, int], QPixmap] = {}
        self._drawn: dict[tuple[object, ...], QPixmap] = {}  # by what a tile shows
        self._drawn_bytes = 0
        self._badges: dict[tuple[int, int], QPixmap] = {}
        self._tops: dict[tuple[Stamp, int], QPixmap] = {}  # stacked cells' top tiles
        self._chips: dict[tuple[Stamp, int], QPixmap] = {}

    @property
    def _theme(self) -> Theme:
        return self.look.theme

    @property
    def theme(self) -> Theme:
        return self.look.theme

    def clear(self) -> None:
        self._stacks.clear()
        self._tiles.clear()
        self._badges.clear()
        self._tops.clear()
        self._chips.clear()

    def _fresh(self) -> None:
        """Drop every picture drawn for an older look."""
        if self._revision != self.look.revision:
            self._revision = self.look.revision
            self.clear()

    # ---------------------------------------------------------------- colours
    def role(self, stamp: Stamp) -> WordRole | None:
        if stamp.kind == OBJECT:
            return None
        return word_role(stamp.token, self.look.automaton_properties)

    def noun_color(self, noun: str) -> QColor:
        spec = self.look.nouns.get(noun)
        return QColor(spec.color if spec is not None else UNKNOWN_NOUN_COLOR)

    def color_of(self, stamp: Stamp) -> QColor:
        role = self.role(stamp)
        if role is None or role is WordRole.NOUN:
            return self.noun_color(stamp.token)
        if role is WordRole.OPERATOR:
            return QColor(self._theme.operator_text)
        if role is WordRole.PROPERTY or stamp.token in PROPERTY_COLORS:
            color = PROPERTY_COLORS.get(stamp.token)
            if color is None:  # a mechanic registered after the theme was made
                entry = vocabulary(self.look.automaton_properties).entry(stamp.token)
                color = AUTOMATON_COLOR if entry is None else entry.color
            return QColor(color)
        return QColor(AUTOMATON_COLOR)

    def label_colors(self, stamp: Stamp) -> tuple[QColor, QColor]:
        """The colour a tile's letters (word or glyph) are drawn on, and the letters' own.

        Every pair contrasts at least 4.5:1 (:mod:`editor.views.contrast`): a noun
        word's letters are its noun's colour, tinted where the author's colour is
        too close to the word tile; letters on a colour are near-black or white.
        Tiles and chips are drawn with exactly these colours.
        """
        role = self.role(stamp)
        color = self.color_of(stamp)
        if role is WordRole.NOUN and self._theme.strong_edges:
            return QColor("#ffffff"), QColor("#000000")
        if role in (WordRole.NOUN, WordRole.OPERATOR):
            tile = QColor(self._theme.word_tile)
            return tile, legible_tint(color, tile)
        return color, text_on(color)

    def fill_of(self, stamp: Stamp) -> QColor:
        """The colour that fills most of the stamp's tile (a stand-in while it is drawn)."""
        role = self.role(stamp)
        if role is WordRole.NOUN and self._theme.strong_edges:
            return QColor("#ffffff")
        if role in (WordRole.NOUN, WordRole.OPERATOR):
            return QColor(self._theme.word_tile)
        return self.color_of(stamp)

    # --------------------------------------------------------------- pictures
    def icon(self, stamp: Stamp, size: int = 24) -> QIcon:
        return QIcon(self.tile(stamp, size))

    def tile(self, stamp: Stamp, size: int) -> QPixmap:
        self._fresh()
        key = (stamp, size)
        pixmap = self._tiles.get(key)
        if pixmap is None:
            shows = self._appearance(stamp, size)
            pixmap = self._drawn.get(shows)
            if pixmap is None:
                pixmap = _transparent(size)
                painter = QPainter(pixmap)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
                self._draw_tile(painter, stamp, QRectF(0, 0, size, size))
                painter.end()
                self._drawn_bytes += 4 * size * size
                if self._drawn_bytes > DRAWN_TILES_BYTES:
                    self._drawn.clear()
                    self._drawn_bytes = 4 * size * size
                self._drawn[shows] = pixmap
            self._tiles[key] = pixmap
        return pixmap

    def _appearance(self, stamp: Stamp, size: int) -> tuple[object, ...]:
        """Everything :meth:`_draw_tile` reads for ``stamp``: equal tuples, equal pictures.

        A new pack, a noun added or a level's mechanic words change the look, but
        leave most tiles as they were (the operators and properties, nouns whose
        colour stayed); those are not drawn again.
        """
        role = self.role(stamp)
        theme = self._theme
        glyph = self.look.glyph(stamp.token) if role is None else ""
        color = self.color_of(stamp).rgba()
        return (stamp, size, role, color, glyph, theme.strong_edges, theme.word_tile)

    def stacks_drawn(self, size: int) -> Mapping[tuple[Stamp, ...], QPixmap]:
        """The stack pictures already drawn at ``size``, by look (read it, never keep it).

        A paint asks for thousands of cells: one lookup each in this mapping, not a call.
        """
        return self._stacks_at(size)

    def stack(self, look: tuple[Stamp, ...], size: int) -> QPixmap:
        """The picture of a stack: its top tile, chips for what lies beneath, a count badge."""
        drawn = self._stacks_at(size)
        pixmap = drawn.get(look)
        if pixmap is None:
            pixmap = drawn[look] = self._render_stack(look, size)
        return pixmap

    def _stacks_at(self, size: int) -> dict[tuple[Stamp, ...], QPixmap]:
        self._fresh()
        drawn = self._stacks.get(size)
        if drawn is None:
            drawn = self._stacks[size] = {}
        return drawn

    def _render_stack(self, look: tuple[Stamp, ...], size: int) -> QPixmap:
        """The top tile, a chip for the entity right beneath it, and the count badge.

        The chip and the badge make a column along the left edge (:func:`chip_rect`,
        :func:`badge_rect`); where the chip fits, the top tile's letters move right
        of that column, so no mark covers another. Each part is drawn once per
        stamp (or count) and size: a stack costs a copy and two small blits.
        """
        if len(look) == 1:
            return self.tile(look[-1], size)
        chip = chip_rect(size)
        top = self.tile(look[-1], size) if chip is None else self._stacked_top(look[-1], size)
        pixmap = top.copy()
        painter = QPainter(pixmap)
        if chip is not None:
            painter.drawPixmap(chip.topLeft() - QPointF(1, 1), self._chip(look[-2], chip))
        painter.drawPixmap(0, 0, self._badge(len(look), size))
        painter.end()
        return pixmap

    def _stacked_top(self, stamp: Stamp, size: int) -> QPixmap:
        """The top tile of a stacked cell: its letters right of the chip column."""
        key = (stamp, size)
        pixmap = self._tops.get(key)
        if pixmap is None:
            chip = chip_rect(size)
            pixmap = _transparent(size)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            left = chip.right() if chip is not None else 0.0
            self._draw_tile(painter, stamp, QRectF(0, 0, size, size), label_left=left)
            painter.end()
            self._tops[key] = pixmap
        return pixmap

    def _chip(self, stamp: Stamp, rect: QRectF) -> QPixmap:
        """The chip of ``stamp`` at ``rect``'s size, drawn once per stamp and size."""
        key = (stamp, int(rect.width()))
        pixmap = self._chips.get(key)
        if pixmap is None:
            pixmap = QPixmap(rect.size().toSize() + QSize(2, 2))  # a pixel round for its edge
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            self._draw_chip(painter, stamp, QRectF(1, 1, rect.width(), rect.height()))
            painter.end()
            self._chips[key] = pixmap
        return pixmap

    def _draw_chip(self, painter: QPainter, stamp: Stamp, rect: QRectF) -> None:
        """A small tile for the entity beneath the top one: its colours and its glyph
        (an object's) or first letter (a word's), in the tile's legible colours."""
        fill, text = self.label_colors(stamp)
        painter.setPen(QPen(QColor(self._theme.badge), 1.0))
        painter.setBrush(fill)
        if self.role(stamp) is None:
            painter.drawRoundedRect(rect, rect.width() / 5, rect.width() / 5)
        else:
            painter.drawRect(rect)
            if self.role(stamp) is WordRole.NOUN:  # the noun's colour, as on its word tile
                painter.setPen(QPen(self.color_of(stamp), 1.0))
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
        label = self.look.glyph(stamp.token) if self.role(stamp) is None else stamp.token[:1]
        font = QFont()
        font.setBold(True)
        for letters in dict.fromkeys((label, label[:1])):
            font.setPixelSize(100)
            metrics = QFontMetricsF(font)
            px = 100 * min(
                rect.width() * 0.8 / max(1.0, metrics.horizontalAdvance(letters)),
                rect.height() * 0.8 / max(1.0, metrics.capHeight() * 1.3),
            )
            if px >= MIN_CHIP_FONT or len(letters) == 1:
                font.setPixelSize(max(MIN_CHIP_FONT, int(px)))
                painter.setFont(font)
                painter.setPen(text)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, letters)
                return

    def _badge(self, count: int, size: int) -> QPixmap:
        """The stack-count badge (:func:`badge_rect`), as a cell-sized overlay."""
        key = (count, size)
        pixmap = self._badges.get(key)
        if pixmap is not None:
            return pixmap
        pixmap = _transparent(size)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        theme = self._theme
        if size >= MIN_TEXT_SIZE:
            badge = badge_rect(size, count)  # two digits: a pill, not smaller digits
            font = _badge_font(badge)
            radius = badge.height() / 2
            painter.setPen(QPen(QColor(theme.board), 1.2))
            painter.setBrush(QColor(theme.badge))
            painter.drawRoundedRect(badge, radius, radius)
            painter.setFont(font)
            painter.setPen(QColor(theme.badge_text))
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, _badge_text(count))
        else:  # too small for numbers: a corner mark still says "stacked"
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(theme.badge))
            mark = max(3, size // 3)
            painter.drawPolygon([QPointF(0, 0), QPointF(mark, 0), QPointF(0, mark)])
        painter.end()
        self._badges[key] = pixmap
        return pixmap

    def _draw_tile(
        self, painter: QPainter, stamp: Stamp, rect: QRectF, *, label_left: float = 0.0
    ) -> None:
        """Draw one tile; its letters go right of ``label_left`` (a stacked cell's marks)."""
        size = rect.width()
        inset = max(1.0, size / 12)
        body = rect.adjusted(inset, inset, -inset, -inset)
        label = body.adjusted(max(0.0, label_left - body.left()), 0, 0, 0)
        color = self.color_of(stamp)
        role = self.role(stamp)
        radius = size / 6
        small = size < MIN_TEXT_SIZE
        strong = self._theme.strong_edges
        if role is None:  # an object: a rounded block in its noun's colour with a glyph
            edge = QColor("#000000") if strong else color.darker(140)
            painter.setPen(QPen(edge, max(1.0, size / (12 if strong else 24))))
            painter.setBrush(color)
            painter.drawRoundedRect(body, radius, radius)
            if not small:
                glyph = self.look.glyph(stamp.token)
                scale = 0.62 if label_left <= body.left() else 0.8
                _draw_label(painter, glyph, label, text_on(color), max_lines=1, scale=scale)
            return
        fill, text_color = self.label_colors(stamp)
        if role is WordRole.NOUN and strong:  # high contrast: black text, a thick coloured frame
            painter.setPen(QPen(color, max(2.0, size / 8)))
        elif role is WordRole.NOUN:  # the frame keeps the noun's own colour
            painter.setPen(QPen(color, max(1.0, size / 16)))
        elif role is WordRole.OPERATOR:
            painter.setPen(Qt.PenStyle.NoPen)
        else:  # properties and mechanic words are filled tiles
            painter.setPen(
                QPen(QColor("#000000"), max(1.0, size / 16)) if strong else Qt.PenStyle.NoPen
            )
        painter.setBrush(fill)
        painter.drawRect(body)
        if small:
            return
        _draw_label(
            painter, stamp.token, label.adjusted(1, 1, -1, -1), text_color, max_lines=2, scale=0.9
        )


def _draw_label(
    painter: QPainter, text: str, rect: QRectF, color: QColor, *, max_lines: int, scale: float
) -> None:
    """Draw ``text`` as large as fits: on one line, or split in two like the genre's long words."""
    lines_options = [[text]]
    if max_lines >= 2 and len(text) >= 4:
        half = (len(text) + 1) // 2
        lines_options.append([text[:half], text[half:]])
    font = QFont()
    font.setBold(True)
    best: tuple[float, list[str]] = (0.0, [text])
    for lines in lines_options:
        font.setPixelSize(100)
        metrics = QFontMetricsF(font)
        widest = max(metrics.horizontalAdvance(line) for line in lines)
        tall = metrics.height() * len(lines)
        px = 100 * min(rect.width() * scale / widest, rect.height() * scale / tall)
        if px > best[0]:
            best = (px, lines)
    px, lines = best
    font.setPixelSize(max(5, int(px)))
    painter.setFont(font)
    painter.setPen(color)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "\n".join(lines))


def chip_rect(size: int) -> QRectF | None:
    """Where the chip of the entity beneath the top one goes in a ``size`` cell: top-left.

    The chip and the count badge below it keep to the left edge, which leaves the
    top-right corner to the panels' marks (a FRAIL crack, an automaton carrier's
    tag) and the bottom strip to the property overlay. None below
    :data:`MIN_CHIP_CELL`, where the count badge alone says "stacked".
    """
    if size < MIN_CHIP_CELL:
        return None
    chip = max(7, round(size * CHIP_SHARE))
    return QRectF(1, 1, chip, chip)


def badge_rect(size: int, count: int = 2) -> QRectF:
    """Where a stacked cell's count badge sits in a ``size`` cell: below the chip.

    Without a chip (small cells) it takes the chip's place, top-left. Two digits
    widen it into a pill (``count`` says how many). Marks drawn over the tiles
    (the property overlay) leave this rectangle free.
    """
    chip = chip_rect(size)
    if chip is None:
        diameter = max(9.0, size * 0.42)
        badge = QRectF(1, 1, diameter, diameter)
    else:
        badge = QRectF(1, chip.bottom() + 1, chip.width(), chip.height())
    if count >= 10 and size >= MIN_TEXT_SIZE:
        advance = QFontMetricsF(_badge_font(badge)).horizontalAdvance(_badge_text(count))
        badge.setWidth(max(badge.width(), advance + 4))
    return badge


def _badge_font(badge: QRectF) -> QFont:
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(8, int(badge.height() * 0.72)))
    return font


def _badge_text(count: int) -> str:
    return str(count) if count < 100 else "99+"


def _transparent(size: int) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    return pixmap
