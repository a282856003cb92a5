"""Workbench panels: one dock each (rules, play, automata, FRAIL, validation, solver).

A panel observes the session and its documents through signals, edits only through
document methods (which push undo commands), and leaves long work to ``editor.tasks``.
"""
