"""Undo commands: one ``QUndoCommand`` class per kind of edit.

Commands store before/after data and call the documents' ``write_*`` methods;
nothing else calls those. Merge ids live in :class:`CommandId`.
"""

from editor.commands.cells import CommandId, PaintCellsCommand
from editor.commands.level_props import LevelPropertiesCommand
from editor.commands.pack_levels import (
    AddNounCommand,
    InsertLevelCommand,
    MoveLevelCommand,
    PackPropertiesCommand,
    RemoveLevelCommand,
)

__all__ = [
    "AddNounCommand",
    "CommandId",
    "InsertLevelCommand",
    "LevelPropertiesCommand",
    "MoveLevelCommand",
    "PackPropertiesCommand",
    "PaintCellsCommand",
    "RemoveLevelCommand",
]
