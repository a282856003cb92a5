"""The warnings of a level document's leaves maps, read leniently (engine.lint, the Problems panel).

The chains of a map and the two shapes an author rarely means (``frail-self-map``,
``frail-cycle``) are the frail mechanic's (engine.mechanics.frail); this module
reads the maps of a document whatever else is wrong with it, so the same warnings
come from ``rulegrid validate --lint``, the Problems panel and the editor's panel
of the mechanic (docs/validation.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import Problem, pointer
from engine.limits import TOKEN_MAX_LENGTH
from engine.mechanics.frail import (
    CYCLE,
    SELF_MAP,
    TYPE,
    LeavesChain,
    leaves_chains,
    leaves_problems,
)
from engine.packs.compiled import pattern_search
from engine.tokens import TOKEN_PATTERN

__all__ = [
    "CYCLE",
    "SELF_MAP",
    "LeavesChain",
    "leaves_chains",
    "leaves_problems",
    "level_leaves_problems",
]

_token = pattern_search(TOKEN_PATTERN)


def level_leaves_problems(doc: object) -> list[Problem]:
    """The warnings of every leaves map of a level document, pointers relative to the level.

    :func:`leaves_problems` of each frail mechanic's map, whatever else is wrong with
    the level or the mechanic: the map is read on its own, each entry whose noun and
    leftover are well-formed tokens (an entry that is not is an error of its own,
    and no loop runs through it).
    """
    mechanics = doc.get("mechanics") if isinstance(doc, Mapping) else None
    if not isinstance(mechanics, list):
        return []
    found = []
    for index, mechanic in enumerate(mechanics):
        if not isinstance(mechanic, Mapping) or mechanic.get("type") != TYPE:
            continue
        leaves = mechanic.get("leaves")
        if not isinstance(leaves, Mapping):
            continue
        sound = {k: v for k, v in leaves.items() if _is_token(k) and _is_token(v)}
        base = pointer("mechanics", index)
        found += [Problem(base + p.pointer, p.code, p.message) for p in leaves_problems(sound)]
    return found


def _is_token(value: object) -> bool:
    return isinstance(value, str) and len(value) <= TOKEN_MAX_LENGTH and _token(value)
