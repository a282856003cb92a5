"""Help inside the app: Getting Started, Keyboard Shortcuts (made from the actions), About.

The shortcuts page is generated from the window's own actions each time it is
opened, so it can never fall out of date. The getting-started page is
illustrated with tiles drawn by the editor's own renderer, in the current theme.
"""

from __future__ import annotations

import html
import platform
import sys
from collections.abc import Iterable

import PySide6
from PySide6.QtCore import QTimer, QUrl, Signal, qVersion
from PySide6.QtGui import QAction, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.documents.values import OBJECT, WORD, Stamp
from editor.views.tiles import TileRenderer

TILE = 28


def rulegrid_version() -> str:
    """The one version (the package metadata's), as ``rulegrid --version`` prints it."""
    return engine.version()


def _tiles(browser: QTextBrowser, renderer: TileRenderer, stamps: Iterable[Stamp]) -> str:
    """Inline pictures of ``stamps``, registered with the browser's document."""
    parts = []
    for stamp in stamps:
        url = f"tile:{stamp.kind}/{stamp.token}"
        browser.document().addResource(
            QTextDocument.ResourceType.ImageResource,
            QUrl(url),
            renderer.tile(stamp, TILE).toImage(),
        )
        parts.append(f'<img src="{url}" width="{TILE}" height="{TILE}">')
    return "&nbsp;".join(parts)


def getting_started_html(browser: QTextBrowser, renderer: TileRenderer) -> str:
    sentence = _tiles(
        browser, renderer, [Stamp(WORD, "BABA"), Stamp(WORD, "IS"), Stamp(WORD, "YOU")]
    )
    win = _tiles(browser, renderer, [Stamp(WORD, "FLAG"), Stamp(WORD, "IS"), Stamp(WORD, "WIN")])
    things = _tiles(browser, renderer, [Stamp(OBJECT, "BABA"), Stamp(OBJECT, "FLAG")])
    steps = [
        (
            "Paint a sentence",
            f"Pick words in the <b>Palette</b> and paint them in a row with the Brush (B): "
            f"{sentence}. Add {win} and the objects {things}.",
        ),
        (
            "See the rules",
            "The <b>Rules</b> panel lists every rule the board forms at move 0. Select a "
            "rule and its words light up on the canvas; hover a word to find its rules.",
        ),
        (
            "Play it",
            "Press <b>F5</b> to play the level where you are. Arrow keys or WASD move, "
            "Z undoes, R resets, Escape brings you back exactly where you were.",
        ),
        (
            "Solve it",
            "The <b>Solver</b> finds the shortest solution or proves there is none, off "
            "the editor's thread; keep painting while it runs.",
        ),
        (
            "Validate",
            "The <b>Validation</b> panel lists every problem of the pack as you edit; "
            "double-click one to jump to it. Warnings point at likely mistakes.",
        ),
        (
            "Share",
            "Export a level as a one-line payload others can paste into Rulegrid; "
            "importing shows a preview and installs nothing until you say so.",
        ),
    ]
    items = "".join(f"<li><p><b>{title}.</b> {text}</p></li>" for title, text in steps)
    return (
        "<h2>Getting started</h2>"
        "<p>A level's rules are sentences of word tiles lying on the board. Words can be "
        "pushed, so the rules change as you play.</p>"
        f"<ol>{items}</ol>"
        "<p>Every edit can be undone with Ctrl+Z. Help ▸ Keyboard Shortcuts lists every "
        "key; <i>docs/editor.md</i> is the full guide.</p>"
    )


def shortcuts_html(actions: Iterable[QAction]) -> str:
    """A table of every action that has a shortcut: what it does and its keys."""
    rows = []
    for action in sorted(actions, key=lambda a: a.text().replace("&", "").lower()):
        keys = [
            k.toString(QKeySequence.SequenceFormat.NativeText)
            for k in action.shortcuts()
            if not k.isEmpty()
        ]
        if not keys:
            continue
        name = html.escape(action.text().replace("&", "").rstrip("…"))
        tip = html.escape(action.statusTip())
        rows.append(
            f"<tr><td><b>{name}</b></td><td>{html.escape(', '.join(keys))}</td><td>{tip}</td></tr>"
        )
    return (
        "<h2>Keyboard shortcuts</h2>"
        '<table cellpadding="4"><tr><th align="left">Action</th><th align="left">Keys</th>'
        f'<th align="left">What it does</th></tr>{"".join(rows)}</table>'
    )


def about_html() -> str:
    versions = [
        ("Rulegrid", rulegrid_version()),
        ("Python", platform.python_version()),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("Platform", f"{platform.system()} {platform.machine()}"),
    ]
    rows = "".join(f"<tr><td>{n}</td><td>{html.escape(v)}</td></tr>" for n, v in versions)
    return (
        "<h2>Rulegrid</h2><p>A level editor and authoring workbench for rule-pushing "
        f"grid puzzles.</p><table cellpadding='3'>{rows}</table>"
        f"<p><small>{html.escape(sys.executable)}</small></p>"
    )


class HelpDialog(QDialog):
    """A page of help in a browser, with a Close button."""

    def __init__(self, title: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setAccessibleName(title)
        self.setWindowTitle(title)
        self.browser = QTextBrowser(self)
        self.browser.setObjectName(f"{name}Text")
        self.browser.setAccessibleName(title)
        self.browser.setAccessibleDescription(f"The {title.lower()} page of Rulegrid's help")
        self.browser.setOpenExternalLinks(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(640, 560)

    def set_html(self, text: str) -> None:
        self.browser.setHtml(text)


class WelcomePanel(QWidget):
    """The first start's welcome: the getting-started page and a button to dismiss it."""

    dismissed = Signal()

    def __init__(self, renderer: TileRenderer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        self.setAccessibleName("Welcome")
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("welcomeText")
        self.browser.setAccessibleName("Welcome to Rulegrid")
        self.browser.setAccessibleDescription("Getting started: the author's loop, step by step")
        self._renderer = renderer
        self.refresh()
        # Tiles in the pack's colours and theme, a turn after the look changes: the
        # look changes in the turn that adopts a pack, which every panel already fills.
        self._refresh_later = QTimer(self)
        self._refresh_later.setSingleShot(True)
        self._refresh_later.setInterval(0)
        self._refresh_later.timeout.connect(self.refresh)
        renderer.look.changed.connect(self._refresh_later.start)
        button = QPushButton("Got it", self)
        button.setObjectName("welcomeDismiss")
        button.setAccessibleName("Dismiss the welcome panel")
        button.setToolTip("Close this panel; Help ▸ Getting Started shows it again")
        button.clicked.connect(self.dismissed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.browser, 1)
        layout.addWidget(button)

    def refresh(self) -> None:
        self.browser.setHtml(
            "<p><b>Welcome to Rulegrid.</b> The tutorial pack is open: each level "
            "teaches one idea. Here is the loop an author works in.</p>"
            + getting_started_html(self.browser, self._renderer)
        )
