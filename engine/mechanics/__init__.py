"""The mechanics of the genre, one module each, and the registry the engine reads them from.

Each module declares one mechanic (engine.mechanics.base.Mechanic: its word, its
phases, what it reads and changes, its compact encoding, lints and palette entry)
and holds its rules: a contact's rule for the public turn beside its compact
twin, the frail mechanic's checkpoint beside its compact twin. The public turn
(engine.play), the compact path (engine.solve), validation (engine.packs), lint
(engine.lint) and, through the vocabulary, the editor's palette read them from
:func:`registered`. docs/adding-a-mechanic.md says how to add one.
"""

from engine.mechanics import (
    automata,
    defeat,
    frail,
    push,
    sink,
    stop,
    transformation,
    win,
    you,
)
from engine.mechanics.base import (
    Contact,
    LevelFacts,
    Mechanic,
    PaletteEntry,
    Phase,
    Role,
)
from engine.mechanics.registry import PROPERTY_BITS, Mechanics, register, registered, unregister

#: The built-in mechanics in registration order: the palette lists the properties in
#: this order, and the lints of a level come in it.
BUILTIN = (
    you.MECHANIC,
    push.MECHANIC,
    stop.MECHANIC,
    win.MECHANIC,
    sink.MECHANIC,
    defeat.MECHANIC,
    frail.MECHANIC,
    transformation.MECHANIC,
    automata.MECHANIC,
)
for _mechanic in BUILTIN:
    register(_mechanic)

__all__ = [
    "BUILTIN",
    "PROPERTY_BITS",
    "Contact",
    "LevelFacts",
    "Mechanic",
    "Mechanics",
    "PaletteEntry",
    "Phase",
    "Role",
    "register",
    "registered",
    "unregister",
]
