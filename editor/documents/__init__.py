"""Documents: the data being edited, and the only place it changes.

``level`` and ``pack`` own their data and undo stacks and emit change signals;
``session`` says which pack and level are open and what the author picked;
``values`` holds the small immutable values passed around (cells, pieces, stamps).
"""
