"""Rulegrid's PySide6 editor. It talks to the engine only through ``import engine``."""
