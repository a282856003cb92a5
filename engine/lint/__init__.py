"""Checking packs for authors: validation errors and lint warnings.

Lints are warnings about a valid pack that is probably not what its author meant
(the player controls nothing at the start, the intended solution no longer wins, a noun no
level uses). docs/validation.md lists every code. The editor's Problems panel and
``rulegrid validate --lint`` both report through :func:`check_pack`, so they list
the same problems with the same codes and pointers.
"""

from engine.lint.level import lint_work
from engine.lint.report import (
    LINT_CODES,
    LevelReport,
    PackReport,
    PlacedWarnings,
    check_pack,
    check_pack_sizes,
    declared_nouns,
    report_level,
    report_levels,
)

__all__ = [
    "LINT_CODES",
    "LevelReport",
    "PackReport",
    "PlacedWarnings",
    "check_pack",
    "check_pack_sizes",
    "declared_nouns",
    "lint_work",
    "report_level",
    "report_levels",
]
