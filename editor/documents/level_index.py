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
- each level's **row**, kept while the pack is built (status updates ask 10,000
  times). After levels come, go or move the map is not dropped (freeing 10,000
  entries scattered over a large heap was 1-2 ms of every Add or Delete Level):
  an answer is used only when the list confirms it (at the row kept or, as after
  one Add or Delete Level before it, a row on or back), the first few others
  search the list (0.3 ms to the middle of 10,000 levels: each comparison asks Qt),
  and only then are all rows worked out again;
- the **names** the level list shows, collected while the pack is built (each
  level's properties are at hand then: read afresh after opening, 10,000 levels
  scattered over a large heap took 5-7 ms of the list's first fill) and kept in
  step as levels come, go and move;
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
        self._rows: dict[LevelDocument, int] = {}  # a level's row, when the list confirms it
        self._searches: int | None = None  # lookups searched since the rows moved; None: none moved
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
        if level not in self._members:
            return None
        row = self._rows.get(level)
        levels = self._levels
        if row is not None:
            # One level came or went before it: it is a row further on or back.
            for near in (row, row + 1, row - 1):
                if 0 <= near < len(levels) and levels[near] is level:
                    self._rows[level] = near
                    return near
        if self._searches is not None and self._searches < SEARCHES_BEFORE_ROWS:
            self._searches += 1
            row = self._rows[level] = levels.index(level)
            return row
        self._rows = {lv: i for i, lv in enumerate(levels)}
        self._searches = None
        return self._rows[level]

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
            self._names.append(_name(level))
        if self._ids is not None:
            self._ids[level.level_id] += 1
        self._automata_version += 1
        self._rows[level] = len(self._levels) - 1  # a built pack's first lookups are free
        self.automata_changed(level, count=False)

    def inserted(self, level: LevelDocument, index: int) -> None:
        """``level`` is now at ``index`` (those after it moved down a row)."""
        self._members.add(level)
        self._levels_changed()
        self._rows[level] = index
        if self._names is not None:
            self._names.insert(index, _name(level))
        if self._ids is not None:
            self._ids[level.level_id] += 1
        self.automata_changed(level, count=False)

    def removed(self, level: LevelDocument, index: int) -> None:
        """``level`` was at ``index`` (those after it moved up a row)."""
        self._members.discard(level)
        self._levels_changed()
        if self._names is not None:
            del self._names[index]
        self._rows.pop(level, None)
        if self._ids is not None:
            self._ids[level.level_id] -= 1
            if self._ids[level.level_id] <= 0:
                del self._ids[level.level_id]
        self._with_automata.discard(level)  # the undo that brings it back adds it again

    def moved(self, source: int, target: int) -> None:
        """The level at ``source`` is now at ``target``."""
        self._rows_moved()
        self._rows[self._levels[target]] = target
        if self._names is not None:
            self._names.insert(target, self._names.pop(source))

    def _rows_moved(self) -> None:
        """Rows after some place changed: answers are checked against the list again."""
        if self._searches is None:
            self._searches = 0

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
        self._rows_moved()
        self._automata_version += 1


def _name(level: LevelDocument) -> str:
    props = level.properties
    return props.title or props.level_id
