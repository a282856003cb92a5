"""Why words form no rule: near-sentences, stacked choices and the crowded region.

The parser (:mod:`engine.rules`) says which rules a board forms; an author also
needs to know why some words form none. These readings explain the parse and
never change it:

* :func:`near_sentences`: runs of words along a row or column that look like a
  sentence but break the grammar (``BABA IS`` with nothing after it, an ``IS`` and
  a value without a subject, ``ROCK AND IS``, a property where a noun must stand);
* :func:`stack_choices`: for every stacked word cell that takes part in rules,
  which word of the stack each rule uses;
* :func:`crowded_region`: for a board over the parse budget, the box whose lines
  spend most of it, so an author knows where to thin out stacked words.

Each walks cells, never word combinations, and stops at a documented cap, so a
hostile board (thousands of words in one cell) costs bounded time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import RuleComplexityError
from engine.limits import PARSE_BUDGET
from engine.rules import HORIZONTAL, VERTICAL, Rule, WordTile, parse_rules
from engine.tokens import Vocabulary, WordClass

Cell = tuple[int, int]
_AXES = ((HORIZONTAL, 1, 0), (VERTICAL, 0, 1))

#: Hints (and stack explanations) one board yields; past it the reading stops.
#: No author reads more, and a board of broken words stays cheap to explain.
MAX_HINTS = 100
#: Cells of a run shown in a hint; a longer run is cut (its message ends in "…").
MAX_RUN_CELLS = 16
#: Words of one stacked cell named in a message.
MAX_STACK_NAMES = 4
#: Lines the crowded-region search measures, and the share of the budget each may
#: spend: at most twice the budget in all, so the error case stays quick.
CROWDED_LINES = 16
CROWDED_SHARE = 8

_Word = tuple[int, str, WordClass]


@dataclass(frozen=True, slots=True)
class RuleHint:
    """Something an author may want to fix about the words on ``cells``.

    ``code`` is a stable machine name: ``missing-value``, ``missing-subject``,
    ``dangling-and``, ``property-subject``, ``broken-sentence`` for near-sentences,
    ``rule-complexity`` for a board over the parse budget.
    """

    code: str
    message: str
    cells: tuple[Cell, ...]
    word_ids: tuple[int, ...]
    axis: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "cells": [list(c) for c in self.cells],
            "wordIds": list(self.word_ids),
            "axis": self.axis,
        }


@dataclass(frozen=True, slots=True)
class StackChoice:
    """A stacked word cell that takes part in rules, and the word each rule takes from it.

    ``word_ids`` and ``texts`` list the cell's words in ascending id (the parser's
    order); ``uses`` pairs each rule that reads the cell with the id it uses, in
    rule order.
    """

    cell: Cell
    word_ids: tuple[int, ...]
    texts: tuple[str, ...]
    uses: tuple[tuple[Rule, int], ...]

    def word_for(self, rule: Rule) -> int | None:
        """The id of the word ``rule`` uses in this cell (``None``: it does not read it)."""
        return next((i for r, i in self.uses if r == rule), None)

    @property
    def unused(self) -> tuple[int, ...]:
        """Words of the stack that no rule uses."""
        used = {i for _, i in self.uses}
        return tuple(i for i in self.word_ids if i not in used)


def _cells(words: Iterable[WordTile], vocabulary: Vocabulary) -> dict[Cell, list[_Word]]:
    cells: dict[Cell, list[_Word]] = {}
    for wid, text, x, y in words:
        cells.setdefault((x, y), []).append((wid, text, vocabulary.classify(text)))
    for stack in cells.values():
        stack.sort()
    return cells


def _reading_order(cells: Iterable[Cell]) -> list[Cell]:
    return sorted(cells, key=lambda c: (c[1], c[0]))


def _run(cells: dict[Cell, list[_Word]], cell: Cell, dx: int, dy: int) -> list[Cell]:
    """The maximal line of word cells through ``cell`` along ``(dx, dy)``, in reading order."""
    x, y = cell
    while (x - dx, y - dy) in cells:
        x, y = x - dx, y - dy
    run: list[Cell] = []
    while (x, y) in cells:
        run.append((x, y))
        x, y = x + dx, y + dy
    return run


def _name(stack: Sequence[_Word]) -> str:
    texts = [text for _, text, _ in stack]
    if len(texts) == 1:
        return texts[0]
    shown = "+".join(texts[:MAX_STACK_NAMES])
    return f"[{shown}{'+…' if len(texts) > MAX_STACK_NAMES else ''}]"


def near_sentences(
    words: Iterable[WordTile], vocabulary: Vocabulary, rules: Sequence[Rule]
) -> tuple[RuleHint, ...]:
    """Runs of words that look like a sentence but form no rule, one hint per run.

    A run is a line of adjacent word cells along a row or column. It gets a hint
    when an IS (or, in a run holding an IS, an AND) forms no rule along that line
    while a noun or property stands next to it. Words that do form rules on the
    other axis and only touch by accident (two parallel sentences) get none.
    """
    cells = _cells(words, vocabulary)
    used: dict[str, set[int]] = {HORIZONTAL: set(), VERTICAL: set()}
    for rule in rules:
        used[rule.axis].update(rule.source_ids)
    anywhere = used[HORIZONTAL] | used[VERTICAL]
    hints: list[RuleHint] = []
    for axis, dx, dy in _AXES:
        done: set[Cell] = set()
        for cell in _reading_order(cells):
            if cell in done or len(hints) >= MAX_HINTS:
                continue
            run = _run(cells, cell, dx, dy)
            done.update(run)
            if len(run) >= 2:
                hint = _diagnose([cells[c] for c in run], run, axis, used[axis], anywhere)
                if hint is not None:
                    hints.append(hint)
    hints.sort(key=lambda h: (h.cells[0][1], h.cells[0][0], h.axis != HORIZONTAL))
    return tuple(hints)


def _diagnose(
    stacks: list[list[_Word]],
    run: list[Cell],
    axis: str,
    used_here: set[int],
    anywhere: set[int],
) -> RuleHint | None:
    classes = [{cls for _, _, cls in stack} for stack in stacks]
    terms = {WordClass.NOUN, WordClass.PROPERTY}

    def loose(i: int, cls: WordClass) -> bool:
        """Cell ``i`` holds a word of ``cls`` that no rule along this line uses."""
        return any(c is cls and wid not in used_here for wid, _, c in stacks[i])

    def accidental(i: int, cls: WordClass) -> bool:
        """Every such operator and its term neighbours form rules on the other axis."""
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(stacks)]
        words = [w for w in stacks[i] if w[2] is cls and w[0] not in used_here]
        words += [w for j in near for w in stacks[j] if w[2] in terms]
        return all(wid in anywhere for wid, _, _ in words)

    def at(i: int) -> set[WordClass]:
        return classes[i] if 0 <= i < len(classes) else set()

    has_is = any(WordClass.IS in c for c in classes)
    for op in (WordClass.IS, WordClass.AND):
        if op is WordClass.AND and not has_is:
            break
        for i in range(len(stacks)):
            if not loose(i, op) or not (at(i - 1) & terms or at(i + 1) & terms):
                continue
            if accidental(i, op):
                continue
            code, why = _why(op, stacks, i, at(i - 1), at(i + 1))
            return _hint(code, why, stacks, run, axis)
    return None


def _why(
    op: WordClass, stacks: list[list[_Word]], i: int, before: set[WordClass], after: set[WordClass]
) -> tuple[str, str]:
    values = {WordClass.NOUN, WordClass.PROPERTY}
    if op is WordClass.IS:
        if WordClass.NOUN not in before:
            if WordClass.PROPERTY in before:
                prop = next(t for _, t, c in stacks[i - 1] if c is WordClass.PROPERTY)
                return "property-subject", f"{prop} is a property: only a noun can stand before IS"
            if WordClass.AND in before:
                return "dangling-and", "the AND before IS has no noun after it"
            return "missing-subject", "no subject: put a noun before IS"
        if not after & values:
            if WordClass.AND in after:
                return "dangling-and", "AND right after IS: put a noun or a property between them"
            return "missing-value", "nothing after IS: add a noun or a property"
        return "broken-sentence", "these words form no rule"
    if not before & values:
        return "dangling-and", "AND has no noun or property before it"
    if not after & values:
        return "dangling-and", "AND at the end joins nothing: add a noun or a property after it"
    return (
        "broken-sentence",
        "AND joins two nouns before IS, or two values after it; these words form no rule",
    )


def _hint(code: str, why: str, stacks: list[list[_Word]], run: list[Cell], axis: str) -> RuleHint:
    shown = stacks[:MAX_RUN_CELLS]
    text = " ".join(_name(s) for s in shown) + (" …" if len(stacks) > MAX_RUN_CELLS else "")
    ids = tuple(wid for s in shown for wid, _, _ in s[:MAX_STACK_NAMES])
    return RuleHint(code, f"{text}: {why}", tuple(run[:MAX_RUN_CELLS]), ids, axis)


def stack_choices(words: Iterable[WordTile], rules: Sequence[Rule]) -> tuple[StackChoice, ...]:
    """Every stacked word cell some rule reads, in reading order, with each rule's word."""
    cells: dict[Cell, list[tuple[int, str]]] = {}
    where: dict[int, Cell] = {}
    for wid, text, x, y in words:
        cells.setdefault((x, y), []).append((wid, text))
        where[wid] = (x, y)
    uses: dict[Cell, list[tuple[Rule, int]]] = {}
    for rule in rules:
        for wid in rule.source_ids:
            cell = where.get(wid)
            if cell is not None and len(cells[cell]) > 1:
                uses.setdefault(cell, []).append((rule, wid))
    out: list[StackChoice] = []
    for cell in _reading_order(uses)[:MAX_HINTS]:
        stack = sorted(cells[cell])
        out.append(
            StackChoice(
                cell,
                tuple(i for i, _ in stack),
                tuple(t for _, t in stack),
                tuple(uses[cell]),
            )
        )
    return tuple(out)


def crowded_region(
    words: Iterable[WordTile], vocabulary: Vocabulary, *, budget: int = PARSE_BUDGET
) -> tuple[Cell, Cell] | None:
    """The box (top-left, bottom-right cell) whose lines spend most of the parse budget.

    Only lines of adjacent word cells that hold an IS and a stacked cell can be
    costly. The :data:`CROWDED_LINES` with the most word combinations are parsed
    alone, each with a share of the budget, and the box holds every line that
    costs at least half as much as the costliest. ``None`` when no line is stacked.
    """
    tiles = list(words)
    cells = _cells(tiles, vocabulary)
    by_cell: dict[Cell, list[WordTile]] = {}
    for tile in tiles:
        by_cell.setdefault((tile[2], tile[3]), []).append(tile)
    lines: list[tuple[int, list[Cell]]] = []
    for _axis, dx, dy in _AXES:
        done: set[Cell] = set()
        for cell in _reading_order(cells):
            if cell in done:
                continue
            run = _run(cells, cell, dx, dy)
            done.update(run)
            stacked = [len(cells[c]) for c in run if len(cells[c]) > 1]
            holds_is = any(cls is WordClass.IS for c in run for _, _, cls in cells[c])
            if stacked and holds_is and len(run) >= 2:
                weight = 1
                for size in stacked:
                    weight = min(weight * size, budget)
                lines.append((weight, run))
    if not lines:
        return None
    lines.sort(key=lambda item: (-item[0], item[1][0][1], item[1][0][0]))
    share = max(1, budget // CROWDED_SHARE)
    costs: list[tuple[int, list[Cell]]] = []
    for _weight, run in lines[:CROWDED_LINES]:
        line_words = [t for c in run for t in by_cell[c]]
        try:
            parse_rules(line_words, vocabulary, budget=share)
            cost = 0
        except RuleComplexityError as exc:
            cost = exc.units
        costs.append((cost, run))
    top = max(cost for cost, _ in costs)
    chosen = [run for cost, run in costs if cost >= top / 2] if top else [costs[0][1]]
    xs = [c[0] for run in chosen for c in run]
    ys = [c[1] for run in chosen for c in run]
    return (min(xs), min(ys)), (max(xs), max(ys))
