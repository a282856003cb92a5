"""Light and dark themes: the application palette and the canvas colours.

Word colours follow the genre's convention so authors read a board at a glance:
noun words are outlined in their noun's colour, operators are plain light text,
properties are filled tiles in their own colour, and mechanic words (FRAIL,
automaton properties) are filled in violet and teal: each colour is the one its
mechanic declares (``engine.Vocabulary.entry``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QPalette

import engine

if TYPE_CHECKING:  # widgets are not loaded to draw a picture (``rulegrid-editor render``)
    from PySide6.QtWidgets import QApplication


def _declared_colors() -> tuple[dict[str, str], str]:
    """Each property word's tile colour and the automaton words', as the mechanics declare them."""
    words = engine.Vocabulary.for_level(frail=True, automaton_properties=("AUTOMATON",))
    colors: dict[str, str] = {}
    for word in (*words.words(engine.WordRole.PROPERTY), *words.words(engine.WordRole.MECHANIC)):
        entry = words.entry(word)
        if entry is not None:
            colors[word] = entry.color
    return colors, colors.pop("AUTOMATON")


PROPERTY_COLORS, AUTOMATON_COLOR = _declared_colors()
UNKNOWN_NOUN_COLOR = "#9a9a9a"


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    dark: bool
    window: str
    base: str
    alternate: str
    text: str
    muted: str
    button: str
    highlight: str
    highlight_text: str
    canvas: str  # around the board
    board: str  # empty cell
    grid: str
    board_edge: str
    hover: str
    selection: str
    preview: str
    word_tile: str  # background of noun and operator words
    operator_text: str
    badge: str
    badge_text: str
    strong_edges: bool = False  # tiles get a black outline and grid lines are dark


LIGHT = Theme(
    name="light",
    dark=False,
    window="#eef0f3",
    base="#ffffff",
    alternate="#f5f6f8",
    text="#1d2230",
    muted="#6b7385",
    button="#f7f8fa",
    highlight="#3d7bd9",
    highlight_text="#ffffff",
    canvas="#d9dde4",
    board="#f9fafb",
    grid="#e2e5ea",
    board_edge="#9aa3b2",
    hover="#3d7bd9",
    selection="#f0a020",
    preview="#3d7bd9",
    word_tile="#262a36",
    operator_text="#f4f4f6",
    badge="#1d2230",
    badge_text="#ffffff",
)
DARK = Theme(
    name="dark",
    dark=True,
    window="#1f2229",
    base="#16181d",
    alternate="#1b1e24",
    text="#e3e6ed",
    muted="#8c93a3",
    button="#2a2e37",
    highlight="#4f8ef0",
    highlight_text="#ffffff",
    canvas="#101216",
    board="#1a1c22",
    grid="#262a32",
    board_edge="#454b58",
    hover="#6aa4ff",
    selection="#f3b33d",
    preview="#6aa4ff",
    word_tile="#0b0c10",
    operator_text="#f4f4f6",
    badge="#f3f4f7",
    badge_text="#111318",
)
#: For low vision and bright rooms: black on white, dark grid, black tile outlines.
HIGH_CONTRAST = Theme(
    name="contrast",
    dark=False,
    window="#ffffff",
    base="#ffffff",
    alternate="#f0f0f0",
    text="#000000",
    muted="#333333",
    button="#ffffff",
    highlight="#0033cc",
    highlight_text="#ffffff",
    canvas="#bdbdbd",
    board="#ffffff",
    grid="#7a7a7a",
    board_edge="#000000",
    hover="#0033cc",
    selection="#e65c00",
    preview="#0033cc",
    word_tile="#000000",
    operator_text="#ffffff",
    badge="#000000",
    badge_text="#ffffff",
    strong_edges=True,
)
THEMES = {"light": LIGHT, "dark": DARK, "contrast": HIGH_CONTRAST}


def theme_named(name: str) -> Theme:
    return THEMES.get(name, LIGHT)


def palette_for(theme: Theme) -> QPalette:
    pal = QPalette()
    role = QPalette.ColorRole
    pairs = {
        role.Window: theme.window,
        role.WindowText: theme.text,
        role.Base: theme.base,
        role.AlternateBase: theme.alternate,
        role.Text: theme.text,
        role.Button: theme.button,
        role.ButtonText: theme.text,
        role.Highlight: theme.highlight,
        role.HighlightedText: theme.highlight_text,
        role.ToolTipBase: theme.base,
        role.ToolTipText: theme.text,
        role.PlaceholderText: theme.muted,
        role.Link: theme.highlight,
        role.Mid: theme.board_edge,
        role.Midlight: theme.grid,
        role.Dark: theme.board_edge,
        role.Light: theme.base,
        role.Shadow: "#000000",
        role.BrightText: "#ffffff",
    }
    for r, color in pairs.items():
        pal.setColor(r, QColor(color))
    disabled = QColor(theme.muted)
    for r in (role.WindowText, role.Text, role.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, r, disabled)
    return pal


def stylesheet_for(theme: Theme) -> str:
    return f"""
QDockWidget::title {{ padding: 4px 6px; background: {theme.window}; font-weight: 600; }}
QToolBar {{ border: none; spacing: 2px; padding: 2px; }}
QToolButton:checked {{ background: {theme.highlight}; color: {theme.highlight_text}; border-radius: 4px; }}
QStatusBar QLabel {{ color: {theme.muted}; padding: 0 6px; }}
QLineEdit {{ padding: 3px 5px; }}
"""


def apply_theme(app: QApplication, theme: Theme) -> None:
    """Theme the whole application (Fusion style: it honours palettes on every platform)."""
    app.setStyle("Fusion")
    app.setPalette(palette_for(theme))
    app.setStyleSheet(stylesheet_for(theme))
