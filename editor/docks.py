"""A registry of dock panels, so later panels (rules, automata, play...) plug in
with one call and appear in View ▸ Panels with their key.

A panel's key brings it forward, as in Qt Creator: pressed while the panel is
hidden or behind another tab, it shows the panel, raises its tab and puts the
keyboard in it; pressed while the panel is in front and has the keyboard, it
hides the panel and gives the keyboard back to the board. (Qt's own
``toggleViewAction`` only hides and shows: a panel behind a tab stayed behind.)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMenu, QWidget


class DockRegistry:
    def __init__(
        self, window: QMainWindow, menu: QMenu, *, home: Callable[[], None] | None = None
    ) -> None:
        """``home`` takes the keyboard when a key hides the panel that had it (the board)."""
        self._window = window
        self._menu = menu
        self._home = home
        self._docks: dict[str, QDockWidget] = {}
        self._show_actions: dict[str, QAction] = {}
        self._focus: dict[str, QWidget] = {}

    def add(
        self,
        dock_id: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea,
        *,
        tabify_with: str | None = None,
        shortcut: str = "",
        focus: QWidget | None = None,
    ) -> QDockWidget:
        """Wrap ``widget`` in a dock named ``<dock_id>Dock`` and list it under View ▸ Panels.

        ``focus`` is the widget the panel's key puts the keyboard in (else the
        panel's first widget that takes focus from the keyboard).
        """
        if dock_id in self._docks:
            raise ValueError(f"a dock {dock_id!r} is already registered")
        dock = QDockWidget(title, self._window)
        dock.setObjectName(f"{dock_id}Dock")  # saveState() needs stable names
        dock.setWidget(widget)
        self._window.addDockWidget(area, dock)
        if tabify_with is not None:
            self._window.tabifyDockWidget(self._docks[tabify_with], dock)
        dock.toggleViewAction().setObjectName(f"actionToggle_{dock_id}")
        show = QAction(title, self._window)
        show.setObjectName(f"actionShow_{dock_id}")
        show.setCheckable(True)
        show.setChecked(True)
        tip = f"Show {title} and bring it to the front; again, while you work in it, hide it"
        show.setStatusTip(tip)
        if shortcut:
            show.setShortcut(shortcut)
            show.setToolTip(f"{title} ({shortcut})\n{tip}")
        show.triggered.connect(lambda _checked=False, d=dock_id: self.bring_forward(d))
        dock.toggleViewAction().toggled.connect(show.setChecked)  # shown or not (Qt's own)
        self._window.addAction(show)  # its key works with the menus hidden
        later = [a for a in self._menu.actions() if _menu_key(a) > _menu_key(show)]
        self._menu.insertAction(later[0], show) if later else self._menu.addAction(show)
        self._docks[dock_id] = dock
        self._show_actions[dock_id] = show
        if focus is not None:
            self._focus[dock_id] = focus
        return dock

    def __getitem__(self, dock_id: str) -> QDockWidget:
        return self._docks[dock_id]

    def __contains__(self, dock_id: object) -> bool:
        return dock_id in self._docks

    def ids(self) -> list[str]:
        return list(self._docks)

    def show_action(self, dock_id: str) -> QAction:
        """The action of View ▸ Panels that brings the panel forward (its key)."""
        return self._show_actions[dock_id]

    def show_actions(self) -> list[QAction]:
        return list(self._show_actions.values())

    def in_front(self, dock_id: str) -> bool:
        """Whether the panel is on screen: shown, and not behind another panel's tab."""
        dock = self._docks[dock_id]
        return dock.isVisible() and not dock.visibleRegion().isEmpty()

    def has_keyboard(self, dock_id: str) -> bool:
        dock = self._docks[dock_id]
        focus = QApplication.focusWidget()
        return focus is not None and (focus is dock or dock.isAncestorOf(focus))

    def bring_forward(self, dock_id: str) -> None:
        """The panel's key: show it, raise it and focus it; hide it if it was in front and focused."""
        dock = self._docks[dock_id]
        if self.in_front(dock_id) and self.has_keyboard(dock_id):
            dock.hide()
            if self._home is not None:
                self._home()
        else:
            dock.show()
            dock.raise_()
            self._focus_inside(dock_id)
        self._show_actions[dock_id].setChecked(not dock.isHidden())

    def _focus_inside(self, dock_id: str) -> None:
        dock = self._docks[dock_id]
        if self.has_keyboard(dock_id):
            return  # already in it: the author's place there is kept
        target = self._focus.get(dock_id)
        if target is None or not target.isVisible() or not target.isEnabled():
            target = _first_focusable(dock.widget())
        if target is not None:
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)


def _menu_key(action: QAction) -> tuple[bool, str, str]:
    """View ▸ Panels lists the panels by key (Alt+1 first), those without one last."""
    keys = action.shortcut().toString()
    return (not keys, keys, action.text())


def _first_focusable(panel: QWidget | None) -> QWidget | None:
    """The first widget of ``panel`` that the Tab key would stop at, in creation order."""
    if panel is None:
        return None
    for child in [panel, *panel.findChildren(QWidget)]:
        if (
            child.focusPolicy().value & Qt.FocusPolicy.TabFocus.value
            and child.isVisible()
            and child.isEnabled()
            and child.focusProxy() is None
        ):
            return child
    return None
