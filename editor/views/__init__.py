"""Views: widgets that show documents and turn input into tool calls.

The canvas, the tile renderer and its theme, the palette, the stack inspector and
the level list. Views read documents and listen to their signals; they never write.
"""
