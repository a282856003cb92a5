"""Reading rules from the words on the board.

Along every row (left to right) and column (top to bottom) the parser picks one
word from each stacked cell and reads ``NOUN (AND NOUN)* IS VALUE (AND VALUE)*``,
where a VALUE is a noun or a property word. A sentence is a maximal matching run:
it is not a sentence of its own when, for every choice of the words around it, a
longer run that contains it matches too. Because a longer run can only grow by a
``NOUN AND`` pair on the left or an ``AND VALUE`` pair on the right, that happens
exactly when the cell before the run holds only ANDs and the cell before that only
nouns (or the mirror image on the right); then the sentence is skipped and the
longer one is found instead.

The parse budget bounds the work and the size of the result. A unit is one word
placed somewhere: every candidate path the parser builds next to an IS word costs
its number of words, and so does every sentence it forms and every rule record it
returns (a rule carries its sentence's ``sourceIds``). Rules are counted before
any is built: a sentence's rules are its distinct subjects times its distinct
values, and two sentences never share ``sourceIds``. A board that needs more than
:data:`PARSE_BUDGET` units raises :class:`~engine.errors.RuleComplexityError`
before returning anything; :func:`parse_units` counts without building a rule.

Many boards (a pack's levels, a payload's replays) can each fit the budget and
still cost too much together: :func:`metered` bounds their sum.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from operator import itemgetter

from engine.errors import RuleComplexityError, WorkLimitError
from engine.limits import PARSE_BUDGET as PARSE_BUDGET  # the parser's default budget
from engine.mechanics import Mechanics, Role, registered, transformation
from engine.tokens import Vocabulary, WordClass

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
_AXES = ((HORIZONTAL, 1, 0), (VERTICAL, 0, 1))

WordTile = tuple[int, str, int, int]  # (id, text, x, y)
_NONE: frozenset[str] = frozenset()
#: RuleTable.movement: pushed nouns, blocking nouns, passing nouns; words pushed, words block
Movement = tuple[frozenset[str], frozenset[str], frozenset[str], bool, bool]


@dataclass(frozen=True, slots=True)
class Rule:
    """``subject IS predicate``, formed by the words ``source_ids`` in reading order."""

    subject: str
    predicate: str
    source_ids: tuple[int, ...]
    axis: str

    def to_dict(self) -> dict[str, object]:
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "sourceIds": list(self.source_ids),
            "axis": self.axis,
        }

    def __str__(self) -> str:
        return f"{self.subject} IS {self.predicate}"


def parse_rules(
    words: Iterable[WordTile], vocabulary: Vocabulary, *, budget: int = PARSE_BUDGET
) -> tuple[Rule, ...]:
    """Every rule the words form, in the deterministic order of docs/contract.md section 4.

    Raises:
        RuleComplexityError: the board needs more than ``budget`` units of work.
    """
    counter = _Counter(budget)
    with _charged(counter):
        sentences = _plan(_cells(words, vocabulary), counter, build=True)
    sentences.sort(key=itemgetter(0))
    return tuple(
        Rule(subject, value, key[3], _AXES[key[2]][0])
        for key, subjects, values in sentences
        for subject in subjects
        for value in values
    )


def parse_units(
    words: Iterable[WordTile], vocabulary: Vocabulary, *, budget: int | None = PARSE_BUDGET
) -> int:
    """The units :func:`parse_rules` would spend on these words, counted without building a rule.

    Validation only needs to know that a board fits the budget, so it pays for
    the search and not for the rules. ``budget=None`` counts past the budget (to
    measure how far real boards stay below it).

    Raises:
        RuleComplexityError: the words need more than ``budget`` units.
    """
    counter = _Counter(budget)
    with _charged(counter):
        _plan(_cells(words, vocabulary), counter, build=False)
    return counter.units


@dataclass(slots=True)
class Meter:
    """The rule reading a group of boards has cost so far, against its total limit."""

    limit: int
    what: str
    units: int = 0


_METERS: ContextVar[tuple[Meter, ...]] = ContextVar("rulegrid_parse_meters", default=())


@contextmanager
def metered(meter: Meter) -> Iterator[Meter]:
    """Charge every parse in this context (this thread, this task) to ``meter``.

    When its total passes its limit, the parse that passed it raises
    :class:`~engine.errors.WorkLimitError` (not a :class:`RuleComplexityError`,
    so a turn never mistakes it for its own board's complexity and the whole
    check stops). Meters nest; a parse is charged to each. A meter can be
    entered again to go on counting.
    """
    token = _METERS.set((*_METERS.get(), meter))
    try:
        yield meter
    finally:
        _METERS.reset(token)


def charge(units: int) -> None:
    """Charge the open meters ``units`` for a reading kept instead of done again.

    The incremental turn keeps a position's rules while no word moves, where the
    plain turn reads them again. It charges what that reading costs, so a meter's
    total, and the verdict on a payload or a pack, is a property of the boards and
    never of the path that played them.

    Raises:
        WorkLimitError: an open meter's total passed its limit.
    """
    meters = _METERS.get()
    for meter in meters:
        meter.units += units
    for meter in meters:
        if meter.units > meter.limit:
            raise WorkLimitError(meter.units, meter.limit, meter.what)


def parse_counted(
    words: Iterable[WordTile], vocabulary: Vocabulary
) -> tuple[tuple[Rule, ...], int]:
    """:func:`parse_rules` and the units it spent (what :func:`charge` repeats)."""
    with metered(Meter(sys.maxsize, "one reading")) as meter:
        rules = parse_rules(words, vocabulary)
    return rules, meter.units


@contextmanager
def _charged(counter: _Counter) -> Iterator[None]:
    """Charge the open meters what one parse cost, also when it stopped over its budget."""
    try:
        yield
    finally:
        meters = _METERS.get()
        if meters:
            # a parse stopped by its budget did at most about the budget's work
            cost = counter.units if counter.budget is None else min(counter.units, counter.budget)
            for meter in meters:
                meter.units += cost
            for meter in meters:
                if meter.units > meter.limit:
                    raise WorkLimitError(meter.units, meter.limit, meter.what)


@dataclass(slots=True)
class _Counter:
    budget: int | None
    units: int = 0

    def spend(self, amount: int) -> None:
        self.units += amount
        if self.budget is not None and self.units > self.budget:
            raise RuleComplexityError(self.units, self.budget, self.units - amount)


@dataclass(slots=True)
class _Cell:
    """The words of one cell, split by what they can be in a sentence (each in id order).

    The split is made once, so no step of the parser walks a crowded cell again
    without paying for it: each word it picks costs a unit.
    """

    nouns: list[tuple[int, str]] = field(default_factory=list)
    values: list[tuple[int, str]] = field(default_factory=list)  # nouns and properties
    ands: list[int] = field(default_factory=list)
    is_ids: list[int] = field(default_factory=list)
    count: int = 0

    @property
    def only_ands(self) -> bool:
        return len(self.ands) == self.count

    def only_terms(self, values: bool) -> bool:
        return len(self.values if values else self.nouns) == self.count


_Cells = dict[tuple[int, int], _Cell]
# (first word's y and x, axis rank, source ids), distinct subjects, distinct values
_Sentence = tuple[tuple[int, int, int, tuple[int, ...]], tuple[str, ...], tuple[str, ...]]


def _cells(words: Iterable[WordTile], vocabulary: Vocabulary) -> _Cells:
    cells: _Cells = {}
    for wid, text, x, y in sorted(words):
        cell = cells.get((x, y))
        if cell is None:
            cell = cells[(x, y)] = _Cell()
        cell.count += 1
        cls = vocabulary.classify(text)
        if cls is WordClass.NOUN:
            cell.nouns.append((wid, text))
            cell.values.append((wid, text))
        elif cls is WordClass.PROPERTY:
            cell.values.append((wid, text))
        elif cls is WordClass.AND:
            cell.ands.append(wid)
        else:
            cell.is_ids.append(wid)
    return cells


def _plan(cells: _Cells, counter: _Counter, *, build: bool) -> list[_Sentence]:
    """Every sentence of the board, paid for in full before any rule is built.

    A sentence pairs one subject-side option with one value-side option of an IS
    word. Its rules are its distinct subjects times its distinct values (identical
    records are kept once, and two sentences never share their ``sourceIds``), so
    the number of rules is known, and spent, before one exists.
    """
    out: list[_Sentence] = []
    for axis_rank, (_axis, dx, dy) in enumerate(_AXES):
        for (x, y), cell in cells.items():
            for wid in cell.is_ids:
                lefts = _options(cells, x - dx, y - dy, -dx, -dy, values=False, counter=counter)
                if not lefts:
                    continue
                rights = _options(cells, x + dx, y + dy, dx, dy, values=True, counter=counter)
                if not rights:
                    continue
                subjects = [_distinct(reversed(terms)) for _ids, terms in lefts]
                values = [_distinct(terms) for _ids, terms in rights]
                counter.spend(_cost(lefts, subjects, rights, values))
                if not build:
                    continue
                for (left_ids, _terms), left_subjects in zip(lefts, subjects, strict=True):
                    n = len(left_ids)
                    head = (y - dy * n, x - dx * n, axis_rank)
                    source = (*reversed(left_ids), wid)
                    for (right_ids, _values), right_values in zip(rights, values, strict=True):
                        out.append(((*head, source + right_ids), left_subjects, right_values))
    return out


def _cost(
    lefts: list[tuple[tuple[int, ...], tuple[str, ...]]],
    subjects: list[tuple[str, ...]],
    rights: list[tuple[tuple[int, ...], tuple[str, ...]]],
    values: list[tuple[str, ...]],
) -> int:
    """The words of every sentence of one IS word and of every rule they make.

    A sentence of ``n`` words (left option, the IS word, right option) with ``s``
    distinct subjects and ``v`` distinct values costs ``n * (1 + s * v)``: its
    ``sourceIds`` once, and once in each of its rule records. The sums are taken
    over the options, so nothing is built to count it.
    """
    left_words = [len(ids) + 1 for ids, _terms in lefts]  # the IS word goes with the left
    right_words = [len(ids) for ids, _terms in rights]
    s = [len(found) for found in subjects]
    v = [len(found) for found in values]
    sentences = len(rights) * sum(left_words) + len(lefts) * sum(right_words)
    records = _dot(s, left_words) * sum(v) + sum(s) * _dot(v, right_words)
    return sentences + records


def _dot(one: list[int], two: list[int]) -> int:
    return sum(a * b for a, b in zip(one, two, strict=True))


def _distinct(terms: Iterable[str]) -> tuple[str, ...]:
    """The terms in order, each once: a repeated noun makes no second identical record."""
    return tuple(dict.fromkeys(terms))


def _options(
    cells: _Cells,
    x: int,
    y: int,
    dx: int,
    dy: int,
    *,
    values: bool,
    counter: _Counter,
) -> list[tuple[tuple[int, ...], tuple[str, ...]]]:
    """The term lists that can stand on one side of an IS word, nearest word first.

    ``(x, y)`` is the cell next to the IS word and ``(dx, dy)`` points away from it.
    Only lists that end maximally are returned; longer lists are still explored.
    Each path it builds (a term picked, an AND followed) costs its number of words,
    paid before the work.
    """
    out: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
    pending: list[tuple[int, int, tuple[int, ...], tuple[str, ...]]] = [(x, y, (), ())]
    while pending:
        cx, cy, ids, terms = pending.pop()
        cell = cells.get((cx, cy))
        found = (cell.values if values else cell.nouns) if cell is not None else ()
        if not found:
            continue
        ax, ay = cx + dx, cy + dy
        after = cells.get((ax, ay))
        beyond = cells.get((ax + dx, ay + dy))
        ands = after.ands if after is not None else []
        # the list can grow past this term whatever is chosen: it is not maximal
        forced = (
            after is not None
            and after.only_ands
            and beyond is not None
            and beyond.only_terms(values)
        )
        size = len(ids) + 1  # the words of each path this step builds
        counter.spend(len(found) * (size + len(ands) * (size + 1)))
        for wid, text in found:
            term_ids, term_texts = (*ids, wid), (*terms, text)
            if not forced:
                out.append((term_ids, term_texts))
            for aid in ands:
                pending.append((ax + dx, ay + dy, (*term_ids, aid), term_texts))
    return out


@dataclass(frozen=True, slots=True)
class RuleTable:
    """What a rule set means for objects: their properties and their next noun.

    ``transforms`` maps a noun to the target and rule of its one transformation link
    (:func:`engine.mechanics.transformation.links`). ``mechanics`` are the vocabulary's
    (engine.mechanics): what each property does, for the phases that read the table.
    """

    rules: tuple[Rule, ...]
    properties: dict[str, frozenset[str]] = field(default_factory=dict)
    transforms: dict[str, tuple[str, Rule]] = field(default_factory=dict)
    mechanics: Mechanics = field(default_factory=registered, compare=False, repr=False)
    _roles: dict[Role | None, frozenset[str]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _movement: list[Movement] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def build(cls, rules: tuple[Rule, ...], vocabulary: Vocabulary) -> RuleTable:
        props: dict[str, set[str]] = {}
        nouns: list[Rule] = []
        for rule in rules:
            if vocabulary.classify(rule.predicate) is WordClass.PROPERTY:
                props.setdefault(rule.subject, set()).add(rule.predicate)
            else:
                nouns.append(rule)
        return cls(
            rules,
            {k: frozenset(v) for k, v in props.items()},
            transformation.links(nouns) if nouns else {},
            vocabulary.mechanics,
        )

    def has(self, noun: str, prop: str) -> bool:
        found = self.properties.get(noun)
        return found is not None and prop in found

    def nouns_with(self, prop: str) -> list[str]:
        """The nouns that have ``prop`` (objects of any other noun cannot have it)."""
        return [noun for noun, have in self.properties.items() if prop in have]

    def movement(self) -> Movement:
        """What the movement phases ask of these rules, worked out once a table.

        The nouns whose objects are pushed, block and pass, and whether every word
        tile is pushed and blocks.
        """
        if not self._movement:
            words = self.mechanics.word_roles
            self._movement.append(
                (
                    self.nouns_playing(Role.PUSHED),
                    self.nouns_playing(Role.BLOCKS),
                    self.nouns_playing(Role.PASSES),
                    Role.PUSHED in words,
                    Role.BLOCKS in words,
                )
            )
        return self._movement[0]

    def nouns_playing(self, role: Role) -> frozenset[str]:
        """The nouns whose objects play ``role`` under these rules (every role's, once a table)."""
        roles = self._roles
        if not roles:
            by_word, unless = self.mechanics.roles_by_word, self.mechanics.unless
            found: dict[Role | None, set[str]] = {None: set()}  # None: worked out
            for noun, have in self.properties.items():
                for word in have:
                    played = by_word.get(word)
                    if played and not (word in unless and unless[word] & have):
                        for one in played:
                            found.setdefault(one, set()).add(noun)
            for key, nouns in found.items():
                roles[key] = frozenset(nouns)
        return roles.get(role, _NONE)
