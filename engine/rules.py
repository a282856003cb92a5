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

The parse budget bounds the work: every option the parser enumerates for the
subject or value side of an IS word, and every sentence it forms from them, costs
one unit. A board that needs more than :data:`PARSE_BUDGET` units raises
:class:`~engine.errors.RuleComplexityError` before returning anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.errors import RuleComplexityError
from engine.limits import PARSE_BUDGET as PARSE_BUDGET  # the parser's default budget
from engine.tokens import Vocabulary, WordClass

HORIZONTAL = "horizontal"
VERTICAL = "vertical"
_AXES = ((HORIZONTAL, 1, 0), (VERTICAL, 0, 1))

WordTile = tuple[int, str, int, int]  # (id, text, x, y)
_Stack = list[tuple[int, str, WordClass]]


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
    """Every rule the words form, in the deterministic order of api.md section 4.

    Raises:
        RuleComplexityError: the board needs more than ``budget`` units of work.
    """
    cells: dict[tuple[int, int], _Stack] = {}
    for wid, text, x, y in words:
        cells.setdefault((x, y), []).append((wid, text, vocabulary.classify(text)))
    for stack in cells.values():
        stack.sort()
    counter = _Counter(budget)
    found: list[tuple[tuple[object, ...], Rule]] = []
    for axis_rank, (axis, dx, dy) in enumerate(_AXES):
        for (x, y), stack in cells.items():
            for wid, _text, cls in stack:
                if cls is not WordClass.IS:
                    continue
                lefts = _options(cells, x - dx, y - dy, -dx, -dy, values=False, counter=counter)
                if not lefts:
                    continue
                rights = _options(cells, x + dx, y + dy, dx, dy, values=True, counter=counter)
                counter.spend(len(lefts) * len(rights))
                for left_ids, subjects in lefts:
                    n = len(left_ids)
                    first = (y - dy * n, x - dx * n)
                    source = (*reversed(left_ids), wid)
                    for right_ids, values in rights:
                        ids = source + right_ids
                        for si, subject in enumerate(reversed(subjects)):
                            for vi, value in enumerate(values):
                                key = (*first, axis_rank, ids, si, vi)
                                found.append((key, Rule(subject, value, ids, axis)))
    found.sort(key=lambda item: item[0])
    seen: set[Rule] = set()
    ordered: list[Rule] = []
    for _key, rule in found:
        if rule not in seen:
            seen.add(rule)
            ordered.append(rule)
    return tuple(ordered)


@dataclass(slots=True)
class _Counter:
    budget: int
    units: int = 0

    def spend(self, amount: int) -> None:
        self.units += amount
        if self.units > self.budget:
            raise RuleComplexityError(self.units, self.budget)


def _options(
    cells: dict[tuple[int, int], _Stack],
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
    """

    def is_term(cls: WordClass) -> bool:
        return cls is WordClass.NOUN or (values and cls is WordClass.PROPERTY)

    def forced_longer(ax: int, ay: int) -> bool:
        ands = cells.get((ax, ay))
        terms = cells.get((ax + dx, ay + dy))
        return bool(
            ands
            and terms
            and all(c is WordClass.AND for _, _, c in ands)
            and all(is_term(c) for _, _, c in terms)
        )

    out: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
    pending: list[tuple[int, int, tuple[int, ...], tuple[str, ...]]] = [(x, y, (), ())]
    while pending:
        cx, cy, ids, terms = pending.pop()
        for wid, text, cls in cells.get((cx, cy), ()):
            if not is_term(cls):
                continue
            counter.spend(1)
            term_ids, term_texts = (*ids, wid), (*terms, text)
            ax, ay = cx + dx, cy + dy
            if not forced_longer(ax, ay):
                out.append((term_ids, term_texts))
            for aid, _atext, acls in cells.get((ax, ay), ()):
                if acls is WordClass.AND:
                    pending.append((ax + dx, ay + dy, (*term_ids, aid), term_texts))
    return out


@dataclass(frozen=True, slots=True)
class RuleTable:
    """What a rule set means for objects: their properties and their next noun.

    ``transforms`` maps a noun to the target and rule of its one transformation link:
    the first noun-valued rule in rule order, unless an ``X IS X`` rule for that noun
    suppresses every transformation of it.
    """

    rules: tuple[Rule, ...]
    properties: dict[str, frozenset[str]] = field(default_factory=dict)
    transforms: dict[str, tuple[str, Rule]] = field(default_factory=dict)

    @classmethod
    def build(cls, rules: tuple[Rule, ...], vocabulary: Vocabulary) -> RuleTable:
        props: dict[str, set[str]] = {}
        transforms: dict[str, tuple[str, Rule]] = {}
        selfish: set[str] = set()
        for rule in rules:
            if vocabulary.classify(rule.predicate) is WordClass.PROPERTY:
                props.setdefault(rule.subject, set()).add(rule.predicate)
            elif rule.predicate == rule.subject:
                selfish.add(rule.subject)
            elif rule.subject not in transforms:
                transforms[rule.subject] = (rule.predicate, rule)
        for noun in selfish:
            transforms.pop(noun, None)
        return cls(rules, {k: frozenset(v) for k, v in props.items()}, transforms)

    def has(self, noun: str, prop: str) -> bool:
        found = self.properties.get(noun)
        return found is not None and prop in found

    def nouns_with(self, prop: str) -> list[str]:
        """The nouns that have ``prop`` (objects of any other noun cannot have it)."""
        return [noun for noun, have in self.properties.items() if prop in have]
