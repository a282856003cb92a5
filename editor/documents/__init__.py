"""Documents: the data being edited, and the only place it changes.

``level`` and ``pack`` own their data and undo stacks and emit change signals;
``session`` says which pack and level are open and what the author picked. The small
immutable values they pass around (cells, pieces, stamps) are in ``editor.values``,
below both the documents and the commands.
"""
