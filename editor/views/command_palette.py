"""The command palette (Ctrl+Shift+P): every action of the menus by name, with its key.

Type a few letters of an action (or of its menu: "panels solver", "export png"),
move with the arrow keys, press Enter to run it. Entries are read from the menu
bar each time the palette opens, so it lists what the menus hold, with the
same names and keys; an entry that is off right now (Cancel Solve with nothing
running) is listed greyed and Enter says why it did nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenuBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.views.keys import menu_entries, plain_text, shown_keys

#: The keys the search field hands to the list (the field keeps Left and Right).
_LIST_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown})
ACTION_ROLE = Qt.ItemDataRole.UserRole
OFF_ROLE = Qt.ItemDataRole.UserRole + 1  # the action is off right now


class CommandPalette(QDialog):
    """A search field over the menus' actions; Enter runs the highlighted one."""

    said = Signal(str)  # a word for the status bar (an entry that is off)

    def __init__(self, bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commandPalette")
        self.setAccessibleName("Command palette")
        self.setWindowTitle("Command Palette")
        self._bar = bar
        self.search = QLineEdit(self)
        self.search.setObjectName("commandSearch")
        self.search.setAccessibleName("Find an action")
        self.search.setPlaceholderText("Type an action or a menu: add level, panels solver…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.search.installEventFilter(self)
        self.list = QTreeWidget(self)
        self.list.setObjectName("commandList")
        self.list.setAccessibleName("Actions")
        self.list.setAccessibleDescription("The actions that match; Enter runs the highlighted one")
        self.list.setHeaderLabels(["Action", "Menu", "Keys"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the field keeps the keyboard
        header = self.list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.list.itemActivated.connect(lambda item, _c: self._run(item))
        self.note = QLabel(self)
        self.note.setObjectName("commandNote")
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.note)
        self.resize(640, 420)

    def open_palette(self) -> None:
        """Read the menus again, clear the field and show the palette with every entry."""
        self._fill()
        self.search.clear()
        self._filter("")
        self.show()
        self.raise_()
        self.activateWindow()
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def shown(self) -> list[str]:
        """The entries that match, top to bottom, as "Menu ▸ Action" (for tests)."""
        items = [self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount())]
        return [
            f"{item.text(1)} ▸ {item.text(0)}"
            for item in items
            if item is not None and not item.isHidden()
        ]

    # ---------------------------------------------------------------- events
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in _LIST_KEYS:
                self._step(key)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                current = self.list.currentItem()
                if current is not None and not current.isHidden():
                    self._run(current)
                return True
        return super().eventFilter(watched, event)

    # --------------------------------------------------------------- helpers
    def _fill(self) -> None:
        self.list.clear()
        seen: set[int] = set()
        for path, action in menu_entries(self._bar):
            name = plain_text(action.text())
            if not name or id(action) in seen or not action.isVisible():
                continue
            seen.add(id(action))
            item = QTreeWidgetItem(
                self.list, [name, " ▸ ".join(path), ", ".join(shown_keys(action))]
            )
            item.setData(0, ACTION_ROLE, action)
            item.setToolTip(0, action.statusTip() or name)
            if action.isCheckable():
                item.setText(0, f"{name} ({'on' if action.isChecked() else 'off'})")
            if not action.isEnabled():  # greyed, yet it can be highlighted (and says why not)
                item.setData(0, OFF_ROLE, True)
                grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
                for column in range(3):
                    item.setForeground(column, grey)

    def _filter(self, text: str) -> None:
        """Keep the entries whose menu and name hold every word typed, best first: a
        name that starts with what was typed, then a name that holds it, then the rest
        (in menu order within each; entries that are off after those that are on)."""
        words = text.lower().split()
        phrase = " ".join(words)
        items = [self.list.takeTopLevelItem(0) for _ in range(self.list.topLevelItemCount())]
        ranked: list[tuple[int, bool, int, QTreeWidgetItem]] = []
        for order, item in enumerate(items):
            if item is None:
                continue
            name = item.text(0).lower()
            match = all(w in f"{item.text(1)} {name}".lower() for w in words)
            item.setHidden(False)  # (a hidden item is shown again when it is re-inserted)
            rank = 0 if name.startswith(phrase) else 1 if phrase in name else 2
            ranked.append((rank if match else 3, bool(item.data(0, OFF_ROLE)), order, item))
        ranked.sort(key=lambda entry: entry[:3])
        for rank, _off, _order, item in ranked:
            self.list.addTopLevelItem(item)
            item.setHidden(rank == 3)
        first = next((item for rank, _o, _i, item in ranked if rank < 3), None)
        self.note.setText(
            "No action matches."
            if first is None
            else "Enter runs the highlighted action · Esc closes"
        )
        if first is None:
            self.list.setCurrentIndex(QModelIndex())
        else:
            self.list.setCurrentItem(first)
            self.list.scrollToItem(first)

    def _step(self, key: int) -> None:
        visible = [
            item
            for i in range(self.list.topLevelItemCount())
            if (item := self.list.topLevelItem(i)) is not None and not item.isHidden()
        ]
        if not visible:
            return
        current = self.list.currentItem()
        at = visible.index(current) if current in visible else -1
        page = max(1, self.list.viewport().height() // max(1, self.list.sizeHintForRow(0)))
        step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -page}.get(
            Qt.Key(key), page
        )
        self.list.setCurrentItem(visible[max(0, min(len(visible) - 1, at + step))])

    def _run(self, item: QTreeWidgetItem) -> None:
        action = item.data(0, ACTION_ROLE)
        if not isinstance(action, QAction):
            return
        if not action.isEnabled():
            self.note.setText(f"{plain_text(action.text())} is not available right now.")
            self.said.emit(self.note.text())
            return
        self.accept()
        QTimer.singleShot(0, action.trigger)  # once the palette is gone and the window has focus
