"""Undo commands: one ``QUndoCommand`` class per kind of edit.

Commands store before/after data and call the documents' ``write_*`` methods;
nothing else calls those. Merge ids live in :class:`CommandId`. Commands see the
documents through the protocols of ``targets`` and never import them.
"""

from editor.commands.authored import AuthoredDataCommand
from editor.commands.base import CommandId, LevelCommand
from editor.commands.cells import PaintCellsCommand
from editor.commands.level_props import LevelPropertiesCommand
from editor.commands.pack_levels import (
    AddNounCommand,
    InsertLevelCommand,
    MoveLevelCommand,
    NounStyleCommand,
    PackPropertiesCommand,
    RemoveLevelCommand,
)
from editor.commands.unshown import UnshownEntitiesCommand

__all__ = [
    "AddNounCommand",
    "AuthoredDataCommand",
    "CommandId",
    "InsertLevelCommand",
    "LevelCommand",
    "LevelPropertiesCommand",
    "MoveLevelCommand",
    "NounStyleCommand",
    "PackPropertiesCommand",
    "PaintCellsCommand",
    "RemoveLevelCommand",
    "UnshownEntitiesCommand",
]
