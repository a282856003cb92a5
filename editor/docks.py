"""A registry of dock panels, so later panels (rules, automata, play...) plug in
with one call and appear in View ▸ Panels with their toggle."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget


class DockRegistry:
    def __init__(self, window: QMainWindow, menu: QMenu) -> None:
        self._window = window
        self._menu = menu
        self._docks: dict[str, QDockWidget] = {}

    def add(
        self,
        dock_id: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea,
        *,
        tabify_with: str | None = None,
        shortcut: str = "",
    ) -> QDockWidget:
        """Wrap ``widget`` in a dock named ``<dock_id>Dock`` and list it under View ▸ Panels."""
        if dock_id in self._docks:
            raise ValueError(f"a dock {dock_id!r} is already registered")
        dock = QDockWidget(title, self._window)
        dock.setObjectName(f"{dock_id}Dock")  # saveState() needs stable names
        dock.setWidget(widget)
        self._window.addDockWidget(area, dock)
        if tabify_with is not None:
            self._window.tabifyDockWidget(self._docks[tabify_with], dock)
        toggle = dock.toggleViewAction()
        toggle.setObjectName(f"actionShow_{dock_id}")
        if shortcut:
            toggle.setShortcut(shortcut)
            toggle.setToolTip(f"Show or hide {title} ({shortcut})")
        self._menu.addAction(toggle)
        self._docks[dock_id] = dock
        return dock

    def __getitem__(self, dock_id: str) -> QDockWidget:
        return self._docks[dock_id]

    def __contains__(self, dock_id: object) -> bool:
        return dock_id in self._docks

    def ids(self) -> list[str]:
        return list(self._docks)
