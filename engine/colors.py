"""Default noun colours: told apart by everyone, including the colour-blind.

Eight of these are the Okabe–Ito palette (Okabe and Ito, "Color Universal Design",
2002), chosen to stay distinct under the common forms of colour blindness; a
brown and a dark blue complete ten. Under simulated protanopia, deuteranopia and
tritanopia (Machado et al. 2009, full severity) every pair stays at least 13 ΔE
(CIE76) apart; a test checks it. Glyph letters still tell nouns apart where
colours alone would not.
"""

from __future__ import annotations

import hashlib

NOUN_COLORS: tuple[str, ...] = (
    "#cc79a7",  # reddish purple
    "#e69f00",  # orange
    "#56b4e9",  # sky blue
    "#009e73",  # bluish green
    "#f0e442",  # yellow
    "#0072b2",  # blue
    "#d55e00",  # vermillion
    "#9c6b30",  # brown
    "#6e6e6e",  # grey
    "#1f3a93",  # dark blue
)


#: The nouns a new pack starts with (the editor's New Pack), so an author can paint at
#: once, in Baba's colours from the palette above. While a pack still declares every
#: one of them, those no level uses are the editor's, not the author's: the lint
#: does not call them unused (docs/decisions.md, "Starter nouns").
STARTER_NOUNS: dict[str, str] = {
    "BABA": "#cc79a7",
    "ROCK": "#9c6b30",
    "FLAG": "#f0e442",
    "WALL": "#6e6e6e",
    "WATER": "#56b4e9",
    "SKULL": "#1f3a93",
    "KEKE": "#d55e00",
    "LAVA": "#e69f00",
}


def default_noun_color(noun: str) -> str:
    """A stable colour for a noun nobody styled: the same noun always gets the same one."""
    digest = hashlib.sha256(noun.encode("utf-8", "surrogatepass")).digest()
    return NOUN_COLORS[digest[0] % len(NOUN_COLORS)]
