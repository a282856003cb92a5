"""Helpers shared by the subcommands: finding packs and levels, writing files atomically."""

from __future__ import annotations

from pathlib import Path

from engine.errors import ValidationError
from engine.model import Level, Pack
from engine.packs.load import load_pack


def open_pack(path: str, *, trust: bool = False) -> Pack:
    return load_pack(Path(path), trust=trust)


def find_level(pack: Pack, wanted: str) -> Level:
    """The level called ``wanted`` (its id, or its 1-based number in the pack)."""
    for level in pack.levels:
        if level.id == wanted:
            return level
    if wanted.isdigit() and 1 <= int(wanted) <= len(pack.levels):
        return pack.levels[int(wanted) - 1]
    known = ", ".join(level.id for level in pack.levels[:20])
    more = " …" if len(pack.levels) > 20 else ""
    raise ValidationError.single(
        "/levels",
        "unknown-level",
        f"no level {wanted!r} in this pack (levels: {known}{more})",
        pack=pack.id,
    )
