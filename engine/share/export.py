"""What an author shares: a whole pack or one of its levels, with or without solutions.

``rulegrid share export`` and the editor's Export menu both call :func:`export`,
so a payload made in either place is the same text. Solutions are left out unless
asked for (a shared pack should not spoil itself); when kept, each one travels
with a replay record that lets the importer check it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.model import Level, NounStyle, Pack
from engine.packs.load import load_pack
from engine.packs.validate import load_level
from engine.share.checks import nouns_of
from engine.share.codec import ShareError
from engine.share.preview import encode


def export(
    pack: Pack | Mapping[str, Any], *, level: str | None = None, with_solutions: bool = False
) -> str:
    """The payload for ``pack``, or for its level ``level`` with the pack's styles of its nouns.

    ``pack`` may be a pack document (what an editor holds). A whole pack must be
    valid; a single level is validated on its own, so a problem in another level of
    the pack does not stop the author from sharing this one.

    Raises:
        ValidationError: the pack (or the level, or its noun styles) is invalid.
        ShareError: there is no level ``level``, or a payload limit is passed.
    """
    if level is None:
        model = pack if isinstance(pack, Pack) else load_pack(pack)
        levels = [_kept(lv, with_solutions) for lv in model.levels]
        replays = [(lv.id, lv.solution) for lv in levels if lv.solution]
        return encode(model.model_copy(update={"levels": levels}), replays=replays)
    found, styles = _level_and_nouns(pack, level)
    found = _kept(found, with_solutions)
    used = nouns_of(found)
    nouns = {name: style for name, style in styles.items() if name in used}
    return encode(found, replays=[found.solution] if found.solution else [], nouns=nouns)


def _kept(level: Level, with_solutions: bool) -> Level:
    """The level as shared: without solutions, neither the intended nor a reference one."""
    return (
        level if with_solutions else level.model_copy(update={"solution": None, "references": []})
    )


def _level_and_nouns(
    pack: Pack | Mapping[str, Any], level_id: str
) -> tuple[Level, Mapping[str, NounStyle | Mapping[str, Any]]]:
    if isinstance(pack, Pack):
        for candidate in pack.levels:
            if candidate.id == level_id:
                return candidate, pack.nouns
        raise _unknown(level_id)
    levels = pack.get("levels")
    for doc in levels if isinstance(levels, list) else []:
        if isinstance(doc, Mapping) and doc.get("id") == level_id:
            nouns = pack.get("nouns")
            return load_level(dict(doc)), dict(nouns) if isinstance(nouns, Mapping) else {}
    raise _unknown(level_id)


def _unknown(level_id: str) -> ShareError:
    return ShareError.at("unknown-level", f"no level {level_id[:70]!r} in this pack", "/levels")
