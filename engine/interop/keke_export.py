"""``export_keke``: a pack's levels written back as a Keke level-set file.

Only a level that fits the Keke key can be written: one entity per cell, object
nouns and words the key has a character for, and no automata or mechanics (the
Keke engine has neither). A level that does not fit is named with its reasons
instead of being written approximately, because a silently changed level is
worse than a missing one. Importing an exported file gives back the same maps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.interop.keke_key import LACKING, character_of, write_map
from engine.mechanics import registered
from engine.model import Level, Pack

#: Reasons listed per level before the rest are counted.
MAX_REASONS = 5


@dataclass(frozen=True, slots=True)
class KekeMisfit:
    """A level left out of an export, and why."""

    level: str
    reasons: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.level}: {'; '.join(self.reasons)}"


@dataclass(frozen=True, slots=True)
class KekeExport:
    """The Keke records of the levels that fit, and the levels that did not."""

    levels: tuple[dict[str, str], ...]  # {id, name, author, ascii, solution}, pack order
    misfits: tuple[KekeMisfit, ...]

    def text(self) -> str:
        """The file: one level per line, as the framework's own files are laid out."""
        lines = ",\n".join("  " + json.dumps(level, ensure_ascii=False) for level in self.levels)
        return '{"levels": [\n' + lines + ("\n" if lines else "") + "]}\n"


def export_keke(pack: Pack) -> KekeExport:
    """Write every level of ``pack`` that fits the Keke key; name the others."""
    written: list[dict[str, str]] = []
    misfits: list[KekeMisfit] = []
    for level in pack.levels:
        cells, reasons = _cells(level)
        if reasons:
            shown = reasons[:MAX_REASONS]
            if len(reasons) > MAX_REASONS:
                shown.append(f"and {len(reasons) - MAX_REASONS} more")
            misfits.append(KekeMisfit(level.id, tuple(shown)))
            continue
        written.append(
            {
                "id": level.id,
                "name": level.title or "",
                "author": level.author or "",
                "ascii": write_map(level.width, level.height, cells),
                "solution": (level.solution or "").lower(),
            }
        )
    return KekeExport(tuple(written), tuple(misfits))


def _cells(level: Level) -> tuple[dict[tuple[int, int], str], list[str]]:
    reasons: list[str] = []
    if level.automata:
        reasons.append("it has automata, which Keke does not")
    for kind in dict.fromkeys(m.type for m in level.mechanics):  # a mechanic a level opts into
        mechanic = registered().by_type.get(kind)
        name = kind if mechanic is None else mechanic.name
        reasons.append(f"it uses the {name} mechanic, which Keke does not have")
    cells: dict[tuple[int, int], str] = {}
    stacked: dict[tuple[int, int], int] = {}
    unknown: dict[str, None] = {}
    for entity in level.entities:
        token = entity.noun if entity.kind == "object" else entity.text
        char = character_of(entity.kind, token)
        if char is None:
            unknown[_misfit_token(entity.kind, token)] = None
            continue
        at = (entity.x, entity.y)
        if at in cells:
            stacked[at] = stacked.get(at, 1) + 1
        cells[at] = char
    reasons.extend(unknown)
    for (x, y), count in stacked.items():
        reasons.append(f"cell ({x}, {y}) holds {count} entities; a Keke cell holds one")
    return cells, reasons


def _misfit_token(kind: str, token: str) -> str:
    if kind == "word" and token in LACKING.values():
        return f"the word {token} is a noun here but a property in Keke"
    what = "object" if kind == "object" else "word"
    return f"the {what} {token} has no character in the Keke key"
