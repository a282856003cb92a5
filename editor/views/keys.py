"""How the editor names its keys and finds its actions: one place for help, the
command palette and the tooltips.

Keys are named in the platform's native words (``Ctrl+C``, or ``⌘C`` on a Mac).
A standard key such as Copy comes with alternates on some platforms (on X11:
Ctrl+Ins and the Copy key of old Sun keyboards); they keep working, but help and
the palette name only the first key and the keys the editor chose itself.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

#: The dynamic property holding the alternates the platform adds to a standard key.
_PLATFORM_KEYS = "platformAlternateKeys"


def note_platform_keys(action: QAction, standard: QKeySequence.StandardKey) -> None:
    """Remember which of ``action``'s keys the platform added to ``standard``."""
    alternates = QKeySequence.keyBindings(standard)[1:]
    action.setProperty(_PLATFORM_KEYS, [k.toString() for k in alternates])


def shown_keys(action: QAction) -> list[str]:
    """An action's keys as help and the command palette name them, in native names:
    the first key, then the other keys the editor chose (Ctrl+Y for redo)."""
    keys = [k for k in action.shortcuts() if not k.isEmpty()]
    extra = action.property(_PLATFORM_KEYS)
    platform = set(extra) if isinstance(extra, list) else set()
    shown = keys[:1] + [k for k in keys[1:] if k.toString() not in platform]
    return [k.toString(QKeySequence.SequenceFormat.NativeText) for k in shown]


def plain_text(text: str) -> str:
    """A menu or action text as the author reads it: no ``&`` marks, no trailing ``…``."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def menu_entries(bar: QMenuBar) -> list[tuple[tuple[str, ...], QAction]]:
    """Every action of the menus with its menu path (``("View", "Panels")``), in menu order.

    Submenus are walked (their own entry is left out); separators are skipped. A
    menu filled only as it opens (Open Recent) contributes what it holds now.
    """
    entries: list[tuple[tuple[str, ...], QAction]] = []

    def walk(menu: QMenu, path: tuple[str, ...]) -> None:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, (*path, plain_text(sub.title())))
            elif not action.isSeparator():
                entries.append((path, action))

    for top in bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            walk(menu, (plain_text(menu.title()),))
    return entries
