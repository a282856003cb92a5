"""Tools turn pointer input into document edits. They hold interaction state only
(a stroke's painted cells, a drag's anchor, a selection rectangle), never level data."""

from editor.tools.base import Overlay, Tool
from editor.tools.painting import BrushTool, EraserTool, FillTool, RectangleTool
from editor.tools.picker import PickerTool
from editor.tools.select import SelectTool

__all__ = [
    "BrushTool",
    "EraserTool",
    "FillTool",
    "Overlay",
    "PickerTool",
    "RectangleTool",
    "SelectTool",
    "Tool",
]
