"""Legible marks: text colours that keep 4.5:1 contrast with what they are drawn on.

Contrast is WCAG 2's ratio of relative luminances, ``(L1 + 0.05) / (L2 + 0.05)``,
and 4.5:1 is its minimum for normal text. Tiles draw letters on colours the
author chose (a noun word's letters are the noun's own colour on the dark word
tile; a property's letters sit on the property's colour), so a fixed text
colour cannot work for every pack: SKULL's dark red on the word tile measured
1.4:1. Two rules decide every letter's colour instead:

* letters ON a colour (objects' glyphs, property and mechanic words, badges)
  are near-black or white, whichever contrasts more; where neither near-black
  nor white reaches 4.5:1 (mid-tones around 18 % luminance), pure black does:
  against any colour, black or white reaches at least 4.58:1;
* letters IN a colour (noun words) keep the noun's colour where it already
  contrasts enough with the tile, and otherwise the least tint of it towards
  white (on a dark tile) or black (on a light one) that does, so SKULL still
  reads red and WALL grey.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

#: WCAG 2 AA for normal text.
MIN_CONTRAST = 4.5
INK = "#15171c"  # the near-black the editor writes with
WHITE = "#ffffff"
BLACK = "#000000"
#: Steps of the tint search: the tint is within 1/2**TINT_STEPS of the least one.
TINT_STEPS = 12


def _channel(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(color: QColor | str) -> float:
    """WCAG 2 relative luminance, 0 (black) to 1 (white)."""
    c = QColor(color)
    return (
        0.2126 * _channel(c.redF()) + 0.7152 * _channel(c.greenF()) + 0.0722 * _channel(c.blueF())
    )


def contrast(a: QColor | str, b: QColor | str) -> float:
    """WCAG 2 contrast ratio of two opaque colours, 1 to 21."""
    la, lb = luminance(a), luminance(b)
    high, low = max(la, lb), min(la, lb)
    return (high + 0.05) / (low + 0.05)


def text_on(background: QColor | str) -> QColor:
    """Near-black or white letters for ``background``, at least 4.5:1 (pure black if need be)."""
    dark, light = contrast(INK, background), contrast(WHITE, background)
    if max(dark, light) >= MIN_CONTRAST:
        return QColor(INK if dark >= light else WHITE)
    return QColor(BLACK)  # white reached < 4.5, so the background is light enough for black


def legible_tint(color: QColor | str, background: QColor | str) -> QColor:
    """``color`` itself if it contrasts 4.5:1 with ``background``, else its least legible tint.

    The tint mixes ``color`` towards white on a dark background, towards black on a
    light one, as little as reaches the minimum. The end chosen is the one that
    contrasts more with ``background``, and against any colour that is at least
    4.58:1, so a legible tint always exists.
    """
    own, back = QColor(color), QColor(background)
    if contrast(own, back) >= MIN_CONTRAST:
        return own
    end = QColor(WHITE if contrast(WHITE, back) >= contrast(BLACK, back) else BLACK)
    low, high = 0.0, 1.0  # the mix at ``high`` is legible, at ``low`` it is not
    for _ in range(TINT_STEPS):
        middle = (low + high) / 2
        if contrast(_mix(own, end, middle), back) >= MIN_CONTRAST:
            high = middle
        else:
            low = middle
    tint = _mix(own, end, high)
    # Rounding to 8-bit channels may cost a hair of contrast: step on until it holds.
    while contrast(tint, back) < MIN_CONTRAST and high < 1.0:
        high = min(1.0, high + 1 / 2**TINT_STEPS)
        tint = _mix(own, end, high)
    return tint


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )
