"""The palette: everything an author can put on the board, searchable.

Objects of each pack noun, the same nouns as words, the operators, the
properties, and the mechanic words (FRAIL and the current level's automaton
properties), each list as the engine's vocabulary gives it and each word's tip as
its mechanic declares it (``engine.Vocabulary.entry``). Choosing an entry sets the session's stamp, which the painting
tools use; the picker sets it the other way round. FRAIL is offered only to a level
that opted into the frail mechanic; elsewhere it is listed greyed out.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

import engine
from editor.documents.pack import PackDocument
from editor.documents.session import Session
from editor.resources import icon
from editor.tasks.scheduler import Priority, scheduler
from editor.values import OBJECT, WORD, Stamp, WordRole, vocabulary
from editor.views.tiles import TileRenderer

STAMP_ROLE = Qt.ItemDataRole.UserRole + 1
#: How long after the look changes its entries are drawn again (ms). Drawn at once,
#: a new pack's 25 tile pictures and entries (3-4 ms) shared the turn that adopts the
#: pack and its first paint; a zero timer still runs before that paint.
REBUILD_DELAY_MS = 5


class PaletteWidget(QWidget):
    add_noun_requested = Signal()
    chosen = Signal()  # Enter in the search: the author is done choosing (back to the board)

    def __init__(
        self, session: Session, renderer: TileRenderer, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("palette")
        self.setAccessibleName("palette")
        self._session = session
        self._renderer = renderer
        self._items: dict[Stamp, QTreeWidgetItem] = {}
        self._syncing = False
        self._built_for: int | None = None  # the look's revision the entries were drawn with

        self.search = QLineEdit(self)
        self.search.setObjectName("paletteSearch")
        self.search.setPlaceholderText("Search nouns and words")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search the palette")
        self.search.setAccessibleDescription(
            "Type to filter; Up and Down walk the matches, Enter takes one and returns to the board"
        )
        self.search.textChanged.connect(self._apply_filter)
        self.search.returnPressed.connect(self._on_search_return)
        self.search.installEventFilter(self)  # Up and Down walk the matches from the search
        add = QToolButton(self)
        add.setObjectName("paletteAddNoun")
        add.setIcon(icon("add-noun"))
        add.setToolTip("Add a noun to the pack (name and colour)")
        add.setAccessibleName("Add noun")
        add.clicked.connect(self.add_noun_requested)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("paletteTree")
        self.tree.setAccessibleName("Palette entries")
        self.tree.setAccessibleDescription(
            "Objects, noun words, operators, properties and mechanic words; the chosen one is painted"
        )
        self.tree.setHeaderHidden(True)
        self.tree.setIconSize(QSize(26, 26))
        self.tree.setIndentation(10)
        self.tree.currentItemChanged.connect(self._on_tree_current_changed)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.search, 1)
        top.addWidget(add)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        QShortcut(QKeySequence.StandardKey.Find, self, self.search.setFocus)

        self._rebuilding = scheduler().job(self, Priority.INPUT, self._current, name="palette")
        session.pack_changed.connect(self._on_session_pack_changed)
        session.stamp_changed.connect(self._on_session_stamp_changed)
        renderer.look.changed.connect(self._on_look_changed)
        if session.pack is not None:
            self._on_session_pack_changed(session.pack)
        self._current()

    # ------------------------------------------------------------ public API
    def stamps(self, *, visible_only: bool = False) -> list[Stamp]:
        self._current()
        return [s for s, item in self._items.items() if not (visible_only and item.isHidden())]

    def offers(self, stamp: Stamp) -> bool:
        """Whether the author can pick ``stamp`` here: FRAIL only on a level that opted in."""
        return stamp.token != engine.FRAIL or self._renderer.look.frail

    def choose(self, stamp: Stamp) -> None:
        self._current()
        item = self._items.get(stamp)
        if item is None:
            raise KeyError(stamp)
        if not self.offers(stamp):
            raise ValueError(f"{stamp.token} is not offered: this level has not opted in")
        self.tree.setCurrentItem(item)

    def _on_look_changed(self) -> None:
        self._rebuilding.start(REBUILD_DELAY_MS)

    def _stale(self) -> bool:
        return self._built_for != self._renderer.look.revision

    def _current(self) -> None:
        """Draw the entries again now if the look changed since (every read comes here)."""
        if self._stale():
            self.rebuild()

    def rebuild(self) -> None:
        """Refill from the pack's nouns and the level's vocabulary."""
        self._rebuilding.stop()
        look = self._renderer.look
        self._built_for = look.revision  # first: a signal of the clearing sees it current
        self.tree.clear()
        self._items.clear()
        nouns = list(look.nouns)
        words = vocabulary(look.automaton_properties)
        sections = [
            ("Objects", [Stamp(OBJECT, n) for n in nouns]),
            ("Noun words", [Stamp(WORD, n) for n in nouns]),
            *(
                (title, [Stamp(WORD, w) for w in words.words(role)])
                for title, role in (
                    ("Operators", WordRole.OPERATOR),
                    ("Properties", WordRole.PROPERTY),
                    ("Mechanics", WordRole.MECHANIC),
                )
            ),
        ]
        for title, stamps in sections:
            header = QTreeWidgetItem(self.tree, [title])
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = header.font(0)
            font.setBold(True)
            header.setFont(0, font)
            for stamp in stamps:
                item = QTreeWidgetItem(header, [stamp.label()])
                item.setIcon(0, self._renderer.icon(stamp, 26))
                item.setData(0, STAMP_ROLE, f"{stamp.kind}:{stamp.token}")
                item.setToolTip(0, self._describe(stamp))
                if not self.offers(stamp):  # listed, so authors learn it exists; not paintable
                    item.setFlags(Qt.ItemFlag.NoItemFlags)
                self._items[stamp] = item
            header.setExpanded(True)
        self._apply_filter(self.search.text())
        self._on_session_stamp_changed(self._session.stamp)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and isinstance(event, QKeyEvent):
            step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1}.get(Qt.Key(event.key()))
            if step is not None and event.type() == QEvent.Type.KeyPress:
                self._step_match(step)
                return True
        return super().eventFilter(watched, event)

    def _visible_stamps(self) -> list[Stamp]:
        self._current()
        shown = []
        for stamp, item in self._items.items():
            header = item.parent()
            if not item.isHidden() and header is not None and not header.isHidden():
                shown.append(stamp)
        return shown

    def _step_match(self, step: int) -> None:
        visible = self._visible_stamps()
        if not visible:
            return
        current = self._session.stamp
        index = visible.index(current) + step if current in visible else 0
        self.choose(visible[max(0, min(len(visible) - 1, index))])

    def _on_search_return(self) -> None:
        visible = self._visible_stamps()
        if visible and self._session.stamp not in visible:
            self.choose(visible[0])
        if visible:
            self.chosen.emit()

    # ---------------------------------------------------------------- slots
    def _on_session_pack_changed(self, _pack: PackDocument) -> None:
        # The entries are drawn from the look alone, and the look follows the pack: they
        # are drawn again a moment later (the look's change started the timer), unless
        # the first entry must be chosen now.
        if self._session.stamp is None:
            self._current()
            if self._items:
                self.choose(next(iter(self._items)))

    def _on_tree_current_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        if self._stale():  # an entry of the previous look (a pack being replaced)
            self._current()
            return
        if self._syncing or current is None or not current.flags() & Qt.ItemFlag.ItemIsEnabled:
            return
        key = current.data(0, STAMP_ROLE)
        if isinstance(key, str):  # headers carry no stamp
            kind, token = key.split(":", 1)
            self._session.set_stamp(Stamp(kind, token))

    def _on_session_stamp_changed(self, stamp: Stamp | None) -> None:
        if self._stale():
            return  # the entries are drawn again soon, the chosen one marked then
        item = self._items.get(stamp) if stamp is not None else None
        if item is not None and self.tree.currentItem() is not item:
            self._syncing = True  # the change came from the session: do not echo it back
            self.tree.setCurrentItem(item)
            self._syncing = False

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().upper()
        for index in range(self.tree.topLevelItemCount()):
            header = self.tree.topLevelItem(index)
            if header is None:
                continue
            shown = 0
            for row in range(header.childCount()):
                item = header.child(row)
                if item is None:
                    continue
                # Entries match anywhere; a section matches by its name's start ("prop" shows Properties).
                match = (
                    not needle
                    or needle in item.text(0).upper()
                    or header.text(0).upper().startswith(needle)
                )
                item.setHidden(not match)
                shown += match
            header.setHidden(shown == 0)

    def _describe(self, stamp: Stamp) -> str:
        look = self._renderer.look
        if stamp.kind == OBJECT:
            return f"Object {stamp.token}: rules about {stamp.token} apply to it"
        words = vocabulary(look.automaton_properties)
        role = words.role(stamp.token)
        if role is WordRole.OPERATOR:
            return f"Operator word {stamp.token}"
        entry = words.entry(stamp.token)  # what its mechanic declares (engine.Mechanic.palette)
        what = f": {entry.tip}" if entry is not None else ""
        if role is WordRole.PROPERTY:
            return f"Property word {stamp.token}{what}"
        if role is WordRole.MECHANIC and stamp.token == engine.FRAIL:
            return f"Property word FRAIL{what}" + (
                ""
                if look.frail
                else "; this level has not opted into the frail mechanic (opt in in the FRAIL panel)"
            )
        if role is WordRole.MECHANIC:
            return f"Automaton property word {stamp.token}{what}"
        return f"Noun word {stamp.token}"
