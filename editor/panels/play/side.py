"""The play view's side panels: beat feedback and the event log (rule timeline).

``BeatPanel`` shows each automaton's next pattern step (the engine's ``next``,
``pattern[phase]``) and the one after it, its carriers and what its last beat
did, in visible text and the same accessible text. ``EventLog`` lists the turns that led to the game's current position, one
item per turn whose ``Qt.UserRole`` is the engine's ``TurnEvent.to_dict()``, with
one child line per thing the turn did (moved, pushed, transformed, destroyed,
crumbled, automated, rules added and removed). Item 0 is the settled start (its
``UserRole`` is ``None``: it is no turn). Undo removes the last item and reset
keeps only the start, so the log always reads as the path to the board shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.panels.play.text import (
    NameOf,
    automated_line,
    beat_direction,
    beat_line,
    carriers_text,
    cue_text,
    next_and_then,
)
from editor.tasks.scheduler import Priority, scheduler
from editor.views.theme import AUTOMATON_COLOR

Json = Mapping[str, Any]

#: What the two words of a beat line mean (the engine's ``next`` is ``pattern[phase]``).
BEAT_TIP = (
    "next: the step this automaton plays on its next beat, the next accepted turn "
    "with a carrier (pattern[phase]); then: the step after it"
)

#: Letter keys the play view owns; the log passes them on instead of searching its items.
PLAY_LETTERS = frozenset(
    {Qt.Key.Key_W, Qt.Key.Key_A, Qt.Key.Key_S, Qt.Key.Key_D, Qt.Key.Key_Z, Qt.Key.Key_R}
)


class BeatPanel(QFrame):
    """One block of text per automaton: ``clock: next ← move, then wait (step 1 of 2)``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("beatFeedback")
        self.setAccessibleName("beatFeedback")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._rules = QLabel(self)
        self._rules.setObjectName("playRules")
        self._rules.setAccessibleName("Rules in play")
        self._rules.setAccessibleDescription("The rules active now in the game being played")
        self._rules.setWordWrap(True)
        self._rules.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._layout.addWidget(self._rules)
        self._none = QLabel("No automata in this level.", self)
        self._none.setObjectName("playNoAutomata")
        self._none.setEnabled(False)  # drawn muted
        self._layout.addWidget(self._none)
        self._labels: list[QLabel] = []

    def lines(self) -> list[str]:
        """The beat line of each automaton, in authored order (what the labels start with)."""
        return [label.accessibleName() for label in self._labels]

    def labels(self) -> list[QLabel]:
        return list(self._labels)

    def show_turn(
        self,
        automata: Sequence[Json],
        rules: Sequence[str],
        event: Json | None,
        before_automata: Sequence[Json],
        name_of: NameOf,
    ) -> None:
        """Show the beats after a turn (``event`` ``None``: the settled start)."""
        sentences = ", ".join(rules) or "none"
        self._rules.setText(f"Rules: {sentences}")
        self._rules.setAccessibleName(f"Rules: {sentences}")
        while len(self._labels) > len(automata):
            label = self._labels.pop()
            self._layout.removeWidget(label)
            label.deleteLater()
        while len(self._labels) < len(automata):
            label = QLabel(self)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setStyleSheet(
                f"QLabel {{ border: 0px; border-left: 3px solid {AUTOMATON_COLOR}; padding-left: 8px; }}"
            )
            self._layout.addWidget(label)
            self._labels.append(label)
        automated = list(event.get("automated", [])) if event is not None else []
        for label, entry in zip(self._labels, automata, strict=True):
            head = beat_line(entry)
            step, then = next_and_then(entry)
            lines = [
                head,
                f"next: {cue_text(step)} · then: {cue_text(then)}",
                carriers_text(entry, name_of),
            ]
            beats = [a for a in automated if a.get("automaton") == entry["id"]]
            direction = beat_direction(before_automata, str(entry["id"]))
            if beats:
                lines.extend("last beat: " + automated_line(a, name_of, direction) for a in beats)
            elif event is not None and event.get("kind") == "step":
                lines.append("last beat: none (no carrier)")
            label.setObjectName(f"beat_{entry['id']}")
            label.setText("\n".join(lines))
            label.setAccessibleName(head)
            label.setAccessibleDescription("\n".join(lines[1:]))
            label.setToolTip(BEAT_TIP)
        self._none.setVisible(not automata)


class Banner(QFrame):
    """A strip above the board: the outcome (won, control lost) or what the board shows.

    It holds a sentence and up to two buttons; ``kind`` picks the colour and is
    readable as the ``kind`` property for tests and style sheets.
    """

    COLORS: ClassVar[dict[str, tuple[str, str]]] = {
        "won": ("#2f8f4e", "#ffffff"),
        "lost": ("#b7791f", "#ffffff"),
        "past": ("#3d7bd9", "#ffffff"),
        "stale": ("#6b7385", "#ffffff"),
    }

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playBanner")
        self.setAutoFillBackground(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel(self)
        self.label.setObjectName("playBannerText")
        self.label.setWordWrap(True)
        row.addWidget(self.label, 1)
        self.buttons: list[QPushButton] = []
        for name in ("playBannerPrimary", "playBannerSecondary"):
            button = QPushButton(self)
            button.setObjectName(name)
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.setAccessibleName("Banner action")
            button.setAccessibleDescription("What the banner above the board offers")
            row.addWidget(button)
            self.buttons.append(button)
        self._kind = ""
        self._actions: list[object] = [None, None]
        for index, button in enumerate(self.buttons):
            button.clicked.connect(lambda _c=False, i=index: self._clicked(i))
        self.hide()

    @property
    def kind(self) -> str:
        return self._kind

    def text(self) -> str:
        return self.label.text()

    def say(
        self,
        kind: str,
        text: str,
        buttons: Sequence[tuple[str, object, bool, str]] = (),
    ) -> None:
        """Show ``text``; each button is ``(label, callback, enabled, tooltip)``."""
        self._kind = kind
        self.setProperty("kind", kind)
        background, foreground = self.COLORS.get(kind, ("#6b7385", "#ffffff"))
        self.setStyleSheet(
            f"#playBanner {{ background: {background}; border-radius: 4px; }}"
            f"#playBanner QLabel {{ color: {foreground}; font-weight: 600; }}"
        )
        self.label.setText(text)
        self.setAccessibleName(text)
        for index, button in enumerate(self.buttons):
            if index < len(buttons):
                label, callback, enabled, tip = buttons[index]
                button.setText(label)
                button.setEnabled(enabled)
                button.setToolTip(tip)
                button.setAccessibleName(label)
                self._actions[index] = callback
                button.show()
            else:
                self._actions[index] = None
                button.hide()
        self.show()

    def clear(self) -> None:
        self._kind = ""
        self.setProperty("kind", "")
        self.hide()

    def _clicked(self, index: int) -> None:
        action = self._actions[index]
        if callable(action):
            action()


class _LogTree(QTreeWidget):
    """A tree that leaves the play keys (WASD, Z, R) to the play view."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if Qt.Key(event.key()) in PLAY_LETTERS:
            event.ignore()
            return
        super().keyPressEvent(event)

    def keyboardSearch(self, search: str) -> None:
        """No type-to-find: letters are play keys here."""


class EventLog(QWidget):
    """The turns so far; selecting one shows the board after it; "Rewind to here" undoes to it."""

    turn_selected = Signal(int)  # the turn number whose board to show (the last one: live)
    rewind_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("eventLog")
        self.setAccessibleName("eventLog")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tree = _LogTree(self)
        self.tree.setObjectName("eventLogTree")
        self.tree.setAccessibleDescription(
            "One entry per turn; select one to see the board after it, Rewind to Here undoes back"
        )
        self.tree.setAccessibleName("Event log")
        self.tree.setHeaderHidden(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setUniformRowHeights(True)
        self.tree.itemSelectionChanged.connect(self._on_selection)
        layout.addWidget(self.tree, 1)
        self._pending: list[QTreeWidgetItem] = []
        self._flushing = scheduler().job(self, Priority.INPUT, self.flush, name="event log")
        row = QHBoxLayout()
        self.rewind_button = QPushButton("Rewind to Here", self)
        self.rewind_button.setObjectName("rewindButton")
        self.rewind_button.setToolTip("Undo the turns after the selected one")
        self.rewind_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.rewind_button.setEnabled(False)
        self.rewind_button.clicked.connect(self._on_rewind)
        row.addStretch(1)
        row.addWidget(self.rewind_button)
        layout.addLayout(row)

    # ------------------------------------------------------------ public API
    def count(self) -> int:
        """How many turns are listed (the start not counted)."""
        return max(0, self.tree.topLevelItemCount() - 1) + len(self._pending)

    def events(self) -> list[Json]:
        """The listed turns' event records, oldest first."""
        self.flush()
        items = (self.tree.topLevelItem(i) for i in range(1, self.tree.topLevelItemCount()))
        return [item.data(0, Qt.ItemDataRole.UserRole) for item in items if item is not None]

    def title(self, turn: int) -> str:
        """The log's line for ``turn`` (0: the start)."""
        self.flush()
        item = self.tree.topLevelItem(turn)
        return item.text(0) if item is not None else ""

    def lines(self, turn: int) -> list[str]:
        """What ``turn`` did, one line each, as its item's children show it."""
        self.flush()
        item = self.tree.topLevelItem(turn)
        if item is None:
            return []
        return [child.text(0) for i in range(item.childCount()) if (child := item.child(i))]

    def start(self, lines: Sequence[str]) -> None:
        """Forget every turn and list the settled start."""
        self._pending.clear()
        self.tree.clear()
        self.tree.addTopLevelItem(_item("0. Start (settled)", None, lines))

    def append(self, title: str, event: Json, lines: Sequence[str]) -> None:
        """List one more turn. Turns are added to the tree in batches, once per event-loop
        pass: inserting rows costs the tree a walk over all of them, so a burst of turns
        (keys typed ahead, a playback seek) pays it once."""
        self._pending.append(_item(title, dict(event), lines))
        if len(self._pending) == 1:
            self._flushing.start()

    def flush(self) -> None:
        """Put the turns waiting for the next batch into the tree now."""
        self._flushing.stop()
        if self._pending:
            items, self._pending = self._pending, []
            self.tree.clearSelection()
            self.tree.addTopLevelItems(items)
            self.tree.scrollToBottom()  # O(1); scrollToItem walks every row

    def truncate(self, turns: int) -> None:
        """Keep the start and the first ``turns`` turns (one removal, however many go)."""
        listed = self.tree.topLevelItemCount()
        del self._pending[max(0, turns + 1 - listed) :]
        if listed > turns + 1:
            self.tree.model().removeRows(turns + 1, listed - turns - 1)
        self.tree.clearSelection()

    def select_turn(self, turn: int) -> None:
        self.flush()
        item = self.tree.topLevelItem(turn)
        if item is not None:
            self.tree.setCurrentItem(item)

    def clear_selection(self) -> None:
        self.tree.clearSelection()

    def selected_turn(self) -> int | None:
        items = self.tree.selectedItems()
        if not items:
            return None
        item = items[0]
        parent = item.parent()
        while parent is not None:
            item, parent = parent, parent.parent()
        return self.tree.indexOfTopLevelItem(item)

    # -------------------------------------------------------------- helpers
    def _on_selection(self) -> None:
        turn = self.selected_turn()
        last = self.count()
        self.rewind_button.setEnabled(turn is not None and turn < last)
        self.turn_selected.emit(last if turn is None else turn)

    def _on_rewind(self) -> None:
        turn = self.selected_turn()
        if turn is not None:
            self.rewind_requested.emit(turn)


def _item(title: str, event: Json | None, lines: Sequence[str]) -> QTreeWidgetItem:
    """A turn's item: its title, the event as ``UserRole``, one child per line."""
    item = QTreeWidgetItem([title])
    item.setData(0, Qt.ItemDataRole.UserRole, event)
    item.setToolTip(0, "\n".join(lines) or title)
    for line in lines:
        child = QTreeWidgetItem([line])
        child.setToolTip(0, line)
        item.addChild(child)
    return item
