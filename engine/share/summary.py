"""A payload's summary: what an importer sees before deciding to install.

Built from the raw decoded document, defensively, so an invalid payload can still
be described next to its problems ("a pack of 12 levels by X, level 4 is
broken") rather than only rejected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import counted


@dataclass(frozen=True, slots=True)
class LevelSummary:
    """One level as the preview lists it."""

    id: str
    title: str | None
    width: int | None
    height: int | None
    entities: int
    automata: int
    mechanics: tuple[str, ...]
    author: str | None = None
    has_solution: bool = False

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}" if self.width and self.height else "?x?"


@dataclass(frozen=True, slots=True)
class ShareSummary:
    """A pack or level payload at a glance.

    ``mechanics`` is the union over levels of the declared mechanic types plus
    ``"automata"`` when some level carries automata: the features an importer's
    engine must support to play the content.
    """

    kind: str
    id: str
    title: str | None
    authors: tuple[str, ...]
    levels: tuple[LevelSummary, ...]
    mechanics: tuple[str, ...]
    replays: int
    snapshot_level: str | None
    #: The nouns the payload styles or uses: a pack's ``nouns``; for a level, its
    #: ``nouns`` plus the nouns of its objects.
    nouns: tuple[str, ...] = ()

    @property
    def automata(self) -> int:
        """Automata over all levels."""
        return sum(level.automata for level in self.levels)

    @property
    def solutions(self) -> int:
        """Levels that carry an intended solution."""
        return sum(level.has_solution for level in self.levels)

    def lines(self) -> list[str]:
        """A short human-readable description (the command line prints it)."""
        head = f"{self.kind} {self.id!r}"
        if self.title:
            head += f" — {self.title}"
        out = [head]
        if self.authors:
            out.append("by " + ", ".join(self.authors))
        mechanics = ", ".join(self.mechanics) or "none"
        out.append(f"{counted(len(self.levels), 'level')}; mechanics: {mechanics}")
        shown = ", ".join(self.nouns[:_NOUNS_SHOWN]) + (
            " …" if len(self.nouns) > _NOUNS_SHOWN else ""
        )
        out.append(counted(len(self.nouns), "noun") + (f": {shown}" if shown else ""))
        automata = counted(self.automata, "automaton", "automata")
        out.append(f"{automata}; {counted(self.solutions, 'solution')}")
        for level in self.levels:
            extra = f", mechanics: {', '.join(level.mechanics)}" if level.mechanics else ""
            title = f" — {level.title}" if level.title else ""
            entities = counted(level.entities, "entity", "entities")
            out.append(f"  {level.id}{title} ({level.size}, {entities}{extra})")
        if self.replays:
            out.append(counted(self.replays, "replay record"))
        if self.snapshot_level is not None:
            out.append(f"a saved game of level {self.snapshot_level!r}")
        return out


#: Nouns named in :meth:`ShareSummary.lines` before the rest are counted.
_NOUNS_SHOWN = 12


def summarize(document: Mapping[str, Any], kind: str) -> ShareSummary:
    """Describe a decoded document whose size the limits have already bounded."""
    if kind == "pack":
        top = _dict(document.get("pack"))
        raw_levels = top.get("levels")
        levels = [
            _level(v, n) for n, v in enumerate(raw_levels if isinstance(raw_levels, list) else [])
        ]
        nouns = set(_dict(top.get("nouns")))
    else:
        top = _dict(document.get("level"))
        levels = [_level(top, 0)]
        nouns = set(_dict(document.get("nouns")))
        for entity in _list(top.get("entities")):
            noun = _dict(entity).get("noun")
            if _dict(entity).get("kind") == "object" and isinstance(noun, str):
                nouns.add(noun)
    authors: list[str] = []
    for name in [_text(top.get("author"))] + [level.author for level in levels]:
        if name and name not in authors:
            authors.append(name)
    mechanics = sorted({m for level in levels for m in level.mechanics})
    replays = document.get("replays")
    snapshot = _dict(document.get("snapshot"))
    return ShareSummary(
        kind=kind,
        id=_text(top.get("id")) or "?",
        title=_text(top.get("title")),
        authors=tuple(authors),
        levels=tuple(levels),
        mechanics=tuple(mechanics),
        replays=len(replays) if isinstance(replays, list) else 0,
        snapshot_level=_text(snapshot.get("level")),
        nouns=tuple(sorted(t for n in nouns if (t := _text(n, 40)))),
    )


def _level(value: object, index: int) -> LevelSummary:
    doc = _dict(value)
    automata = doc.get("automata")
    mechanics = {_text(_dict(m).get("type")) for m in _list(doc.get("mechanics"))}
    names = sorted(m for m in mechanics if m)
    if _list(automata):
        names = sorted({*names, "automata"})
    return LevelSummary(
        id=_text(doc.get("id")) or f"#{index + 1}",
        title=_text(doc.get("title")),
        width=_int(doc.get("width")),
        height=_int(doc.get("height")),
        entities=len(_list(doc.get("entities"))),
        automata=len(_list(automata)),
        mechanics=tuple(names),
        author=_text(doc.get("author")),
        has_solution=isinstance(doc.get("solution"), str),
    )


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: object, limit: int = 200) -> str | None:
    """Strings only, cut to the schema's own length limit so a summary stays short."""
    if not isinstance(value, str) or not value:
        return None
    # Control characters could rewrite a terminal line; show them escaped.
    clean = "".join(c if c.isprintable() else repr(c)[1:-1] for c in value[:limit])
    return clean


def _int(value: object) -> int | None:
    return value if type(value) is int else None
