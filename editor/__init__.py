"""Rulegrid's PySide6 editor. It talks to the engine only through ``import engine``.

``editor.MainWindow(pack_path=None)`` builds the window (api.md section 7);
``editor.app.main`` starts the application.
"""

from editor.main_window import MainWindow

__all__ = ["MainWindow"]
