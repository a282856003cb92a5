"""``CellReader``: a level read at move 0 again after each edit, redoing only what changed.

An editor reads the level after every brush dab. Settling a board of thousands of
objects from scratch costs tens of milliseconds, but an edit touches one cell,
and the settle is local: the rules come from the words alone, and given the rules
each cell settles on its own (one transformation link per object, then the
contacts inside the cell: :func:`~engine.play.turn.cell_contacts`). So the
reader keeps each cell's outcome and, after an edit,

* parses the words again only when a word cell changed;
* settles again only the edited cells, or every cell when the rules changed;
* rebuilds the outputs from per-cell parts, in the orders the settle uses
  (transformations by id, then each destroying contact's entries in row-major order).

:func:`~engine.play.analysis.analyze_level` is a reader used once (the public
:class:`~engine.play.analysis.LevelReader` adds the lenient reading of a document), so the editor's
live reading and a one-off analysis are the same code, and both equal
``Game(level)`` for a valid level (tests prove it on the tutorial and Keke packs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleComplexityError
from engine.limits import MAX_ENTITIES
from engine.mechanics import Role, frail
from engine.model import Automaton
from engine.play.events import Json
from engine.play.hints import RuleHint, StackChoice, near_sentences, stack_choices
from engine.play.turn import Occupant, automaton_records, cell_contacts, cell_won, transform_entry
from engine.rules import Rule, RuleTable, WordTile, parse_rules
from engine.tokens import Vocabulary

Cell = tuple[int, int]
Stack = tuple[Occupant, ...]  # bottom first, as authored


@dataclass(slots=True)
class _Settled:
    """One cell after the settle."""

    transformed: list[Json]
    links: list[tuple[Rule, int]]  # (transformation rule, object id) for each record
    destroyed: Sequence[list[Json]]  # per destroying contact, in rank order (() if none)
    survivors: list[Occupant]  # ascending id, nouns after the transformation
    won: bool


@dataclass(slots=True)
class Reading:
    """What :meth:`CellReader.read` found (the parts :class:`LevelAnalysis` is made of)."""

    rules: tuple[Rule, ...] = ()
    table: RuleTable | None = None
    transformed: tuple[Json, ...] = ()
    changed_by: Mapping[Rule, tuple[int, ...]] = field(default_factory=dict)
    destroyed: tuple[Json, ...] = ()
    won: bool = False
    nouns: dict[int, str] = field(default_factory=dict)
    by_noun: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    automata: tuple[Json, ...] = ()
    hints: tuple[RuleHint, ...] = ()
    stacks: tuple[StackChoice, ...] = ()
    error: RuleComplexityError | None = None
    words: tuple[WordTile, ...] = ()


class CellReader:
    """One level, kept as cells of stacks, read at move 0 on demand.

    ``stacks`` in :meth:`edit` and at construction are ``(id, kind, noun-or-text)``
    bottom first. The reader is not thread-safe: one thread at a time reads it.
    """

    def __init__(
        self,
        cells: Mapping[Cell, Sequence[Occupant]],
        vocabulary: Vocabulary,
        automata: tuple[Automaton, ...] = (),
    ) -> None:
        self.vocabulary = vocabulary
        self.automata = automata
        self._cells: dict[Cell, Stack] = {c: tuple(s) for c, s in cells.items() if s}
        self._words: dict[int, WordTile] = {}
        self._noun_cells: dict[str, set[Cell]] = {}  # authored noun -> cells holding one
        for (x, y), stack in self._cells.items():
            for i, kind, name in stack:
                if kind == "word":
                    self._words[i] = (i, name, x, y)
                else:
                    self._noun_cells.setdefault(name, set()).add((x, y))
        self._words_changed = True
        self._rules: tuple[Rule, ...] | None = None
        self._table: RuleTable | None = None
        self._error: RuleComplexityError | None = None
        self._settled: dict[Cell, _Settled] = {}
        self._dirty: set[Cell] = set(self._cells)
        self._nouns: dict[int, str] = {}
        self._by_noun: dict[str, set[int]] = {}
        self._sorted: dict[str, tuple[int, ...]] = {}
        self._transformed: dict[int, Json] = {}  # object id -> its transformation record
        self._changed_by: dict[Rule, set[int]] = {}  # transformation rule -> objects it changed
        self._contact_cells: set[Cell] = set()  # cells where a contact destroyed something
        self._won_cells: set[Cell] = set()
        self._hint_key: tuple[object, ...] | None = None
        self._outcome: tuple[tuple[Json, ...], tuple[Json, ...], bool] | None = None
        self._hints: tuple[tuple[RuleHint, ...], tuple[StackChoice, ...]] = ((), ())

    @property
    def cells(self) -> Mapping[Cell, Stack]:
        return self._cells

    def entity_count(self) -> int:
        return sum(len(s) for s in self._cells.values())

    def edit(self, stacks: Mapping[Cell, Sequence[Occupant]]) -> None:
        """Replace the stacks of some cells (an empty stack clears a cell)."""
        for cell, stack in stacks.items():
            old = self._cells.get(cell, ())
            new = tuple(stack)
            if old == new:
                continue
            if len(new) > MAX_ENTITIES:
                raise ValueError(f"a cell holds at most {MAX_ENTITIES:,} entities")
            for i, kind, name in old:
                if kind == "word":
                    self._words.pop(i, None)
                    self._words_changed = True
                elif not any(o[1] == "object" and o[2] == name for o in new):
                    self._noun_cells.get(name, set()).discard(cell)
            for i, kind, name in new:
                if kind == "word":
                    self._words[i] = (i, name, *cell)
                    self._words_changed = True
                else:
                    self._noun_cells.setdefault(name, set()).add(cell)
            if new:
                self._cells[cell] = new
            else:
                self._cells.pop(cell, None)
            self._dirty.add(cell)

    # ------------------------------------------------------------------ read
    def read(self) -> Reading:
        """The level at move 0 now. Never raises: a board over the budget sets ``error``."""
        if self._words_changed:
            self._words_changed = False
            try:
                rules = parse_rules(sorted(self._words.values()), self.vocabulary)
            except RuleComplexityError as exc:
                self._error, self._rules, self._table = exc, None, None
            else:
                self._error = None
                if rules != self._rules:
                    table = RuleTable.build(rules, self.vocabulary)
                    self._dirty |= self._cells_affected(self._table, table)
                    self._rules, self._table = rules, table
        if self._error is not None or self._table is None or self._rules is None:
            self._words_changed = self._error is not None  # parse again after the next edit
            return Reading(error=self._error, words=tuple(sorted(self._words.values())))
        table = self._table
        contacts_before = bool(self._dirty & self._contact_cells)
        for cell in self._dirty:
            self._resettle(cell, table)
        if contacts_before or self._dirty & self._contact_cells or self._outcome is None:
            self._outcome = self._contacts_outcome()
        self._dirty.clear()
        return self._assemble(self._rules, table)

    def _cells_affected(self, old: RuleTable | None, new: RuleTable) -> set[Cell]:
        """Cells whose settle can differ between two rule tables.

        A cell settles by its objects' transformation links and by the properties
        the contacts read (engine.mechanics) of the nouns they end up with; the
        movement roles and the rest never act at move 0, so a rule of theirs
        settles nothing.
        """
        if old is None:
            return set(self._cells) | set(self._settled)
        contact = new.mechanics.contact_reads

        def acts(table: RuleTable, noun: str) -> tuple[object, ...]:
            return (table.properties.get(noun, frozenset()) & contact, table.transforms.get(noun))

        nouns = (
            set(old.properties) | set(new.properties) | set(old.transforms) | set(new.transforms)
        )
        changed = {n for n in nouns if acts(old, n) != acts(new, n)}
        for table in (old, new):  # an object whose link leads to a changed noun changes too
            changed |= {n for n, (target, _rule) in table.transforms.items() if target in changed}
        cells: set[Cell] = set()
        for noun in changed:
            cells |= self._noun_cells.get(noun, set())
        return cells

    def _resettle(self, cell: Cell, table: RuleTable) -> None:
        old = self._settled.pop(cell, None)
        if old is not None:
            for i, kind, name in old.survivors:
                if kind == "object":
                    self._forget(i, name)
            for entry in old.transformed:
                self._transformed.pop(entry["id"], None)
            for rule, i in old.links:
                self._changed_by[rule].discard(i)
        self._contact_cells.discard(cell)
        self._won_cells.discard(cell)
        stack = self._cells.get(cell)
        if not stack:
            return
        occupants = sorted(stack)
        transformed: list[Json] = []
        links: list[tuple[Rule, int]] = []
        after: list[Occupant] = []
        for i, kind, name in occupants:
            link = table.transforms.get(name) if kind == "object" else None
            record = transform_entry(i, name, table) if link is not None else None
            if link is not None and record is not None:
                transformed.append(record)
                self._transformed[i] = record
                self._changed_by.setdefault(link[1], set()).add(i)
                links.append((link[1], i))
                name = link[0]
            after.append((i, kind, name))
        destroyed = cell_contacts(cell, after, table)
        gone = {e["id"] for part in destroyed for e in part}
        survivors = [o for o in after if o[0] not in gone]
        won = cell_won(survivors, table)
        self._settled[cell] = _Settled(transformed, links, destroyed, survivors, won)
        for i, kind, name in survivors:
            if kind == "object":
                self._nouns[i] = name
                self._by_noun.setdefault(name, set()).add(i)
                self._sorted.pop(name, None)
        if gone:
            self._contact_cells.add(cell)
        if won:
            self._won_cells.add(cell)

    def _forget(self, i: int, name: str) -> None:
        self._nouns.pop(i, None)
        ids = self._by_noun.get(name)
        if ids is not None:
            ids.discard(i)
            if not ids:
                del self._by_noun[name]
        self._sorted.pop(name, None)

    def _ids_of(self, noun: str) -> tuple[int, ...]:
        found = self._sorted.get(noun)
        if found is None:
            found = self._sorted[noun] = tuple(sorted(self._by_noun.get(noun, ())))
        return found

    def _contacts_outcome(self) -> tuple[tuple[Json, ...], tuple[Json, ...], bool]:
        """Each destroying contact's entries in row-major order of their cells (the settle's order)."""
        cells = sorted(self._contact_cells, key=lambda c: (c[1], c[0]))
        parts = [self._settled[c].destroyed for c in cells]
        count = len(parts[0]) if parts else 0
        destroyed = tuple(e for k in range(count) for part in parts for e in part[k])
        return (), destroyed, False

    def _assemble(self, rules: tuple[Rule, ...], table: RuleTable) -> Reading:
        assert self._outcome is not None
        _, destroyed, _ = self._outcome
        transformed = tuple(self._transformed[i] for i in sorted(self._transformed))
        won = bool(self._won_cells)
        lost_words = {e["id"] for e in destroyed if "text" in e}
        words = tuple(w for i, w in sorted(self._words.items()) if i not in lost_words)
        if lost_words:  # contacts destroyed words: the settled rules are read again
            rules = parse_rules(words, self.vocabulary)
            table = RuleTable.build(rules, self.vocabulary)
        key = (rules, words)
        if key != self._hint_key:
            self._hint_key = key
            self._hints = (
                near_sentences(words, self.vocabulary, rules),
                stack_choices(words, rules),
            )
        automata: tuple[Json, ...] = ()
        if self.automata:
            objects = sorted(self._nouns.items())
            phases = tuple(a.phase for a in self.automata)
            automata = tuple(automaton_records(self.automata, phases, objects, table))
        return Reading(
            rules=rules,
            table=table,
            transformed=transformed,
            changed_by={r: tuple(sorted(ids)) for r, ids in self._changed_by.items() if ids},
            destroyed=destroyed,
            won=won,
            nouns=dict(self._nouns),  # a copy: the reader moves on with the next edit
            by_noun=_LazyIds(self),
            automata=automata,
            hints=self._hints[0],
            stacks=self._hints[1],
            words=words,
        )

    def has_control(self, table: RuleTable) -> bool:
        return any(self._by_noun.get(n) for n in table.nouns_playing(Role.MOVER))

    def frail_ids(self, table: RuleTable) -> tuple[int, ...]:
        nouns = frail.frail_nouns(table.properties)
        return tuple(sorted(i for n in nouns for i in self._by_noun.get(n, ())))

    def properties(
        self, table: RuleTable, nouns: Mapping[int, str]
    ) -> Mapping[int, frozenset[str]]:
        """Every object of ``nouns`` that has properties at move 0, looked up when asked."""
        return _Properties(nouns, table)


class _Properties(Mapping[int, frozenset[str]]):
    """Object id -> its properties at move 0, over a fixed copy of the nouns (never recomputed)."""

    def __init__(self, nouns: Mapping[int, str], table: RuleTable) -> None:
        self._nouns = nouns
        self._table = table

    def __getitem__(self, i: int) -> frozenset[str]:
        found = self._table.properties.get(self._nouns[i])
        if not found:
            raise KeyError(i)
        return found

    def __iter__(self) -> Any:
        props = self._table.properties
        return iter([i for i, noun in self._nouns.items() if props.get(noun)])

    def __len__(self) -> int:
        props = self._table.properties
        return sum(1 for noun in self._nouns.values() if props.get(noun))


class _LazyIds(Mapping[str, tuple[int, ...]]):
    """Object ids per noun at move 0, sorted on first use (most nouns are never asked)."""

    def __init__(self, reader: CellReader) -> None:
        self._reader = reader

    def __getitem__(self, noun: str) -> tuple[int, ...]:
        return self._reader._ids_of(noun)

    def __iter__(self) -> Any:
        return iter(list(self._reader._by_noun))

    def __len__(self) -> int:
        return len(self._reader._by_noun)


def occupants_of(entities: Iterable[tuple[int, str, str, int, int]]) -> dict[Cell, list[Occupant]]:
    """Cells of stacks from ``(id, kind, name, x, y)`` pieces, in the order given."""
    cells: dict[Cell, list[Occupant]] = {}
    for i, kind, name, x, y in entities:
        cells.setdefault((x, y), []).append((i, kind, name))
    return cells
