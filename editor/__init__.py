"""Rulegrid's PySide6 editor. It talks to the engine only through ``import engine``.

``editor.MainWindow(pack_path=None)`` builds the window (docs/contract.md section 7);
``editor.app.main`` starts the application.

``MainWindow`` is imported on first use, not here: the solver's worker processes
import ``editor.tasks.solve_worker``, and must not load Qt to do so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from editor.main_window import MainWindow

__all__ = ["MainWindow"]


def __getattr__(name: str) -> Any:
    if name == "MainWindow":
        from editor.main_window import MainWindow

        return MainWindow
    raise AttributeError(f"module 'editor' has no attribute {name!r}")
