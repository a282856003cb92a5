"""``LevelIndex``: what a pack answers quickly about its levels, kept beside them.

The pack's list of levels is the truth; everything here is derived from it and
exists only for speed, so ``PackDocument`` stays a plain owner of its data and
its history. The pack tells the index what changed (a level built, inserted,
removed, moved, renamed, its automata edited); the index keeps what it can up to
date and drops the rest, to be worked out again when next asked. Each answer is
the one a walk over the list would give; the tests compare them.

What is kept, and why (10,000 levels):

- the **members** as a set: whether a level is in the pack is asked at every add,
  delete and level change;
- each level's **row**, rebuilt on first use after a change and kept while the
  pack is built (status updates ask 10,000 times); the first few lookups after a
  change search the list instead (C, about 0.1 ms), so an Add or Delete Level that
  asks a handful of times does not rebuild all 10,000 rows (1.1 ms) for them;
- the **names** the level list shows, collected while the pack is built (each
  level's properties are at hand then): read afresh after opening, 10,000 levels
  scattered over a large heap took 5-7 ms of the list's first fill;
- how many levels use each **id**, counted as levels come and go: a new level's
  free id took 5-8 ms to work out afresh;
- an **automata version** that changes whenever any level's automata may have (a
  key for caches), and the few **levels with automata**, so readers of every
  level's automata walk those, not all 10,000 levels, when a pack opens.
"""

from __future__ import annotations

from collections import Counter

from editor.documents.level import LevelDocument, list_names

#: Lookups of a level's position answered by searching the list after levels came or
#: went, before the positions of all levels are worked out (see ``row_of``).
SEARCHES_BEFORE_ROWS = 8


class LevelIndex:
    """Fast answers about a pack's levels; ``levels`` is the pack's own list (read only)."""

    __slots__ = (
        "_automata_version",
        "_ids",
        "_levels",
        "_members",
        "_names",
        "_rows",
        "_searches",
        "_with_automata",
    )

    def __init__(self, levels: list[LevelDocument]) -> None:
        self._levels = levels
        self._rows: dict[LevelDocument, int] | None = {}
        self._searches = 0
        self._members: set[LevelDocument] = set()
        self._names: list[str] | None = []
        self._ids: Counter[str] | None = Counter()
        self._automata_version = 0
        self._with_automata: set[LevelDocument] = set()

    # ------------------------------------------------------------- answers
    def has(self, level: LevelDocument) -> bool:
        return level in self._members

    def row_of(self, level: LevelDocument) -> int | None:
        """The level's position, or None when it is not (or no longer) in the pack."""
        if self._rows is None:
            if level not in self._members:
                return None
            if self._searches < SEARCHES_BEFORE_ROWS:
                self._searches += 1
                return self._levels.index(level)
            self._rows = {lv: i for i, lv in enumerate(self._levels)}
        return self._rows.get(level)

    def names(self) -> list[str]:
        """Each level's name as the level list shows it (``list_names``), in play order."""
        if self._names is None:
            self._names = list_names(self._levels)
        return list(self._names)

    def id_taken(self, level_id: str) -> bool:
        if self._ids is None:
            self._ids = Counter(level.level_id for level in self._levels)
        return level_id in self._ids

    def automata_version(self) -> int:
        return self._automata_version

    def with_automata(self) -> list[LevelDocument]:
        """The levels whose authored automata are a non-empty list, in pack order."""
        rows = [(self.row_of(level), level) for level in self._with_automata]
        return [
            level for row, level in sorted(rows, key=lambda pair: pair[0] or 0) if row is not None
        ]

    # ---------------------------------------------------------- the pack says
    def built(self, level: LevelDocument) -> None:
        """``level`` was appended while the pack is built (its last row)."""
        self._members.add(level)
        if self._names is not None:
            props = level.properties
            self._names.append(props.title or props.level_id)
        if self._ids is not None:
            self._ids[level.level_id] += 1
        self._automata_version += 1
        if self._rows is not None:  # kept up to date: a built pack's first lookups are free
            self._rows[level] = len(self._levels) - 1
        self.automata_changed(level, count=False)

    def inserted(self, level: LevelDocument) -> None:
        self._members.add(level)
        self._levels_changed()
        if self._ids is not None:
            self._ids[level.level_id] += 1
        self.automata_changed(level, count=False)

    def removed(self, level: LevelDocument) -> None:
        self._members.discard(level)
        self._levels_changed()
        if self._ids is not None:
            self._ids[level.level_id] -= 1
            if self._ids[level.level_id] <= 0:
                del self._ids[level.level_id]
        self._with_automata.discard(level)  # the undo that brings it back adds it again

    def moved(self) -> None:
        """Positions and names in play order are no longer known."""
        self._rows, self._searches, self._names = None, 0, None

    def properties_changed(self) -> None:
        """A level's id or title may have changed."""
        self._ids = None
        self._names = None

    def automata_changed(self, level: LevelDocument, *, count: bool = True) -> None:
        """``level``'s automata may differ (``count``: a new automata version)."""
        if count:
            self._automata_version += 1
        if level.automaton_records():
            self._with_automata.add(level)
        else:
            self._with_automata.discard(level)

    def _levels_changed(self) -> None:
        """A level came or went: positions and the automata across levels may differ."""
        self.moved()
        self._automata_version += 1
