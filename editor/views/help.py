"""Help inside the app: Getting Started, Keyboard Shortcuts (made from the actions), About.

The shortcuts page is generated from the window's own actions and menus each
time it is opened (with the board's keys and the play view's own key table), so
it can never fall out of date; keys are named as the platform names them. The
getting-started page walks the author's whole loop, names each panel as its tab
does and each key as its action has it, and is illustrated with tiles drawn by
the editor's own renderer, in the current theme. Every "Menu ▸ Entry" a help text
names is one the menus have (a test reads them all).
"""

from __future__ import annotations

import html
import platform
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, QUrl, Signal, qVersion
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
from editor.connections import Connections
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.tasks.scheduler import Priority, scheduler
from editor.values import OBJECT, WORD, Stamp
from editor.views.keys import plain_text, shown_keys
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


#: What an action's key is called in prose: ``keys("actionSave")`` is "Ctrl+S" (the
#: first of its keys in native words, "" when it has none).
KeyNames = Callable[[str], str]

#: Keys of the board that are no action (docs/editor.md, "Keyboard authoring"); each
#: is tested as it is pressed (test_canvas, test_keyboard_authoring, test_help).
BOARD_KEYS = (
    ("Arrow keys", "Move the cell cursor (the board has the keyboard: click it, or Alt+0)"),
    ("Enter or Space", "Use the tool at the cell cursor"),
    ("Ctrl+Arrow keys", "Scroll the board by a cell"),
    ("Space + drag, or middle-button drag", "Pan the board"),
    ("Mouse wheel", "Zoom at the pointer"),
    ("Right-button drag", "Erase with the Brush"),
    ("Alt+click", "Pick the stamp under the pointer (the Picker, with any tool)"),
    ("Escape", "Cancel what the tool is doing (a rectangle, a paste)"),
)


def _key(key: Qt.Key) -> str:
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)


def play_keys(table: Mapping[Qt.Key, str]) -> list[tuple[str, str]]:
    """The keys of test-play, from the play view's own key table (key: input)."""
    intents: dict[str, list[str]] = {}
    for key, intent in table.items():
        intents.setdefault(intent, []).append(_key(key))
    words = {
        "up": "Move up",
        "down": "Move down",
        "left": "Move left",
        "right": "Move right",
        "undo": "Undo a turn (Ctrl+Z too)",
        "reset": "Reset the level",
    }
    rows = [(", ".join(keys), words.get(intent, intent)) for intent, keys in intents.items()]
    rows.append((_key(Qt.Key.Key_Space), "Play or pause a playback (a solution played back)"))
    rows.append((_key(Qt.Key.Key_Escape), "Back to editing, everything as you left it"))
    return rows


def getting_started_html(browser: QTextBrowser, renderer: TileRenderer, keys: KeyNames) -> str:
    """The author's whole loop, each step with the panel and the key it uses."""

    def k(action_id: str) -> str:
        key = keys(action_id)
        return f" ({html.escape(key)})" if key else ""

    sentence = _tiles(
        browser, renderer, [Stamp(WORD, "BABA"), Stamp(WORD, "IS"), Stamp(WORD, "YOU")]
    )
    win = _tiles(browser, renderer, [Stamp(WORD, "FLAG"), Stamp(WORD, "IS"), Stamp(WORD, "WIN")])
    things = _tiles(browser, renderer, [Stamp(OBJECT, "BABA"), Stamp(OBJECT, "FLAG")])
    steps = [
        (
            "Start a pack",
            f"File ▸ New Pack{k('actionNewPack')} starts an untitled pack: one empty level "
            "and a palette of starter nouns. Level ▸ Add Level"
            f"{k('actionAddLevel')} adds the next level; the <b>Levels</b> panel"
            f"{k('actionShow_levelList')} lists them in play order.",
        ),
        (
            "Paint a sentence",
            f"Pick words in the <b>Palette</b> panel{k('actionShow_palette')} and paint them in a "
            f"row with the Brush{k('actionToolBrush')}: {sentence}. Add {win} and the "
            f"objects {things}. The <b>Stack</b> panel{k('actionShow_stackInspector')} "
            "shows everything on the cell you click.",
        ),
        (
            "See the rules",
            f"The <b>Rules</b> panel{k('actionShow_rules')} lists every rule the board forms "
            "at move 0 and hints at sentences that almost work. Select a rule and its words "
            "light up on the board.",
        ),
        (
            "Play it",
            f"Play ▸ Play Level{k('actionPlay')} plays the level where you are; the panels "
            "step aside. Arrow keys or WASD move, Z undoes, R resets, Escape brings you back "
            "exactly where you were. Won? <i>Use as Intended Solution</i> stores your moves.",
        ),
        (
            "Solve it",
            f"Level ▸ Solve Level{k('actionSolve')} finds the shortest solution or proves "
            f"there is none, in the <b>Solver</b> panel{k('actionShow_solver')}, off the "
            "editor's thread: keep painting while it runs. The Levels panel shows each "
            "level's check as a chip.",
        ),
        (
            "Fix the problems",
            f"The <b>Problems</b> panel{k('actionShow_validation')}, under the board, lists "
            "every error and warning of the pack as you edit; double-click one to jump to "
            f"it. File ▸ Validate Pack{k('actionValidate')} checks the whole pack again.",
        ),
        (
            "Save",
            f"File ▸ Save{k('actionSave')} writes the pack as one .json file (File ▸ Save "
            "As Folder for a folder). Each save keeps the previous version: File ▸ Restore "
            "Backup opens one.",
        ),
        (
            "Share",
            f"File ▸ Export ▸ Level to Clipboard{k('actionExportShare')} copies the level as "
            "a one-line payload. Others paste it into File ▸ Import Shared Payload"
            f"{k('actionImportShare')}: a preview first, nothing installed until they say so.",
        ),
    ]
    items = "".join(f"<li><p><b>{title}.</b> {text}</p></li>" for title, text in steps)
    return (
        "<h2>Getting started</h2>"
        "<p>A level's rules are sentences of word tiles lying on the board. Words can be "
        "pushed, so the rules change as you play.</p>"
        f"<ol>{items}</ol>"
        f"<p>Every edit can be undone{k('actionUndo')}. Help ▸ Keyboard Shortcuts"
        f"{k('actionShortcuts')} lists every key; View ▸ Command Palette"
        f"{k('actionCommandPalette')} finds any action by name. View ▸ Panels brings each "
        "panel forward by its key; View ▸ Reset Layout puts every panel back. "
        "<i>docs/editor.md</i> is the full guide.</p>"
    )


def _table(rows: Iterable[tuple[str, str, str]]) -> str:
    body = "".join(
        f"<tr><td><b>{html.escape(name)}</b></td><td>{html.escape(keys)}</td>"
        f"<td>{html.escape(tip)}</td></tr>"
        for name, keys, tip in rows
    )
    return f'<table cellpadding="3">{body}</table>'


def _pairs(rows: Iterable[tuple[str, str]]) -> str:
    body = "".join(
        f"<tr><td><b>{html.escape(keys)}</b></td><td>{html.escape(what)}</td></tr>"
        for keys, what in rows
    )
    return f'<table cellpadding="3">{body}</table>'


def shortcuts_html(
    entries: Iterable[tuple[tuple[str, ...], QAction]],
    others: Iterable[QAction] = (),
    play_table: Mapping[Qt.Key, str] | None = None,
) -> str:
    """Every key of the editor, made from the actions themselves each time it is shown.

    ``entries`` are the menus' actions with their menu paths (``menu_entries``), in
    menu order; ``others`` the window's actions that no menu holds. Then the keys of
    the board, and of test-play from ``play_table`` (the play view's key table).
    """
    groups: dict[tuple[str, ...], list[tuple[str, str, str]]] = {}
    seen: set[int] = set()

    def row(action: QAction) -> tuple[str, str, str] | None:
        keys = shown_keys(action)
        if not keys or id(action) in seen:
            return None
        seen.add(id(action))
        return plain_text(action.text()), ", ".join(keys), action.statusTip()

    for path, action in entries:
        if (found := row(action)) is not None:
            groups.setdefault(path, []).append(found)
    extra = [found for action in others if (found := row(action)) is not None]
    parts = [
        "<h2>Keyboard shortcuts</h2>",
        "<p>Made from the editor's own actions. View ▸ Command Palette finds any action "
        "by name and runs it.</p>",
    ]
    for path, rows in groups.items():
        parts.append(f"<h3>{html.escape(' ▸ '.join(path))}</h3>{_table(rows)}")
    if extra:
        parts.append(f"<h3>Other keys of the window</h3>{_table(extra)}")
    parts.append(f"<h3>On the board</h3>{_pairs(BOARD_KEYS)}")
    if play_table is not None:
        parts.append(f"<h3>While playing</h3>{_pairs(play_keys(play_table))}")
    return "".join(parts)


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
    """The first start's welcome: what is open now, the getting-started page, and a
    button to dismiss it. It follows the open pack (the tutorial, a new pack, any other)."""

    dismissed = Signal()

    def __init__(
        self,
        renderer: TileRenderer,
        session: Session,
        keys: KeyNames,
        tutorial: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        self.setAccessibleName("Welcome")
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("welcomeText")
        self.browser.setAccessibleName("Welcome to Rulegrid")
        self.browser.setAccessibleDescription("Getting started: the author's loop, step by step")
        self._renderer = renderer
        self._session = session
        self._keys = keys
        self._tutorial = tutorial
        self._pack_links = Connections()
        # Tiles in the pack's colours and theme, a turn after the look changes: the
        # look changes in the turn that adopts a pack, which every panel already fills.
        self._refresh_later = scheduler().job(self, Priority.INPUT, self.refresh, name="welcome")
        renderer.look.changed.connect(self._refresh_later.start)
        session.pack_changed.connect(self._on_pack_changed)
        button = QPushButton("Got it", self)
        button.setObjectName("welcomeDismiss")
        button.setAccessibleName("Dismiss the welcome panel")
        button.setToolTip("Close this panel; Help ▸ Getting Started shows it again")
        button.clicked.connect(self.dismissed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.browser, 1)
        layout.addWidget(button)
        if session.pack is not None:
            self._on_pack_changed(session.pack)
        else:
            self.refresh()

    def opening(self) -> str:
        """The first sentence: what is open, in the author's words."""
        pack = self._session.pack
        if pack is None:
            return "<p><b>Welcome to Rulegrid.</b> Here is the loop an author works in.</p>"
        count = pack.level_count()
        levels = f"{count} level{'' if count == 1 else 's'}"
        path = pack.path
        tutorial = self._tutorial
        if path is not None and tutorial is not None and _same_file(path, tutorial):
            play = self._keys("actionPlay")
            what = (
                f"The tutorial pack is open: {levels}, each teaching one idea. Play one"
                f"{f' ({play})' if play else ''}, then change it and see what happens."
            )
        elif path is None:
            what = (
                f"A new pack is open ({levels}): paint its first level with the starter "
                "nouns in the Palette."
            )
        else:
            title = pack.properties.title or pack.properties.pack_id
            what = f"“{html.escape(title)}” is open ({levels}, {html.escape(path.name)})."
        return f"<p><b>Welcome to Rulegrid.</b> {what} Here is the loop an author works in.</p>"

    def refresh(self) -> None:
        self.browser.setHtml(
            self.opening() + getting_started_html(self.browser, self._renderer, self._keys)
        )

    def _on_pack_changed(self, pack: PackDocument) -> None:
        self._pack_links.follow([(pack.properties_changed, self._refresh_later.start)])
        self.refresh()  # what is open, now; the tiles again once the look has the pack's nouns


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
