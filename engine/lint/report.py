"""Checking a pack for authors: validation errors and lint warnings, level by level.

:func:`check_pack` reports the errors :func:`engine.load_pack` would raise (the same
codes, pointers and messages, from the same validators) and, with ``lint=True``,
the warnings of :mod:`engine.lint.level` and of the pack as a whole (nouns no
level uses, levels with identical boards).

The work is split so that a tool can keep it: a level's :class:`LevelReport`
depends only on the level document and the pack's noun vocabulary
(:func:`declared_nouns`), so an editor re-checks just the level an author changed
and passes the reports it kept to :func:`check_pack`; the pack-wide checks are
then redone over the reports, which costs little.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Any

from engine.colors import STARTER_NOUNS
from engine.errors import Problem, pointer
from engine.limits import LINT_WORK_BUDGET
from engine.lint.level import LEVEL_LINT_CODES, board_digest, level_lints, lint_work
from engine.packs.explain import path_key
from engine.packs.leaves import CYCLE, SELF_MAP, level_leaves_problems
from engine.packs.parts import (
    LevelCheck,
    PackBudget,
    check_pack_level,
    check_pack_shell,
    combine_pack_problems,
    rules_read_until,
)
from engine.packs.validate import build_pack, pack_levels, pack_name, pack_size_problems
from engine.play.work import WorkBudget

#: Every lint code: a problem with one of these codes is a warning, any other an error.
LINT_CODES = frozenset((*LEVEL_LINT_CODES, SELF_MAP, CYCLE, "unused-noun", "duplicate-board"))


@dataclass(frozen=True, slots=True)
class LevelReport:
    """Everything checked about one level document, pointers relative to the level.

    ``nouns`` is the vocabulary it was checked against: a report stands for its
    level in :func:`check_pack` only when the pack declares the same nouns.
    """

    check: LevelCheck  # the validation result (its model dropped: reports are kept)
    warnings: tuple[Problem, ...]
    nouns: frozenset[str] | None
    nouns_used: frozenset[str]  # nouns the level names anywhere, read leniently
    board: str | None  # board_digest of a linted, non-empty level

    @property
    def level_id(self) -> str | None:
        return self.check.level_id

    @property
    def errors(self) -> tuple[Problem, ...]:
        return self.check.problems


#: A problem's place in document order: :func:`~engine.packs.explain.path_key` as a tuple.
SortKey = tuple[tuple[int, int | str], ...]


@dataclass(frozen=True, slots=True)
class PlacedWarnings:
    """One level's warnings located in its pack, each with its sort key.

    Made from ``report`` for the level at one index (the key it is kept under in
    :attr:`PackReport.placed`) of the pack called ``name`` (``starting``: a pack
    whose every level is empty, whose emptiness is not news); :func:`check_pack`
    reuses it (the same object) while all of these stay the same.
    """

    report: LevelReport
    name: str
    starting: bool
    keyed: tuple[tuple[SortKey, Problem], ...]

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(problem for _key, problem in self.keyed)


@dataclass(frozen=True, slots=True)
class PackReport:
    """The errors (exactly ``load_pack``'s) and the lint warnings of a pack, located and sorted.

    ``warnings`` are those of ``placed`` and ``pack_wide`` together. ``placed`` holds
    each level's own (by level index, levels without any left out), for the next
    :func:`check_pack` of the same pack to reuse: a tool that re-reads one level of
    thousands then locates only that level's warnings. ``pack_wide`` are those of
    the pack as a whole (unused nouns, duplicate boards).
    """

    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    placed: Mapping[int, PlacedWarnings] = field(default_factory=dict, compare=False, repr=False)
    pack_wide: tuple[Problem, ...] = field(default=(), compare=False, repr=False)


def declared_nouns(doc: object) -> frozenset[str] | None:
    """The pack's noun vocabulary, or ``None`` when its ``nouns`` map is itself broken."""
    return check_pack_shell(doc).nouns


def report_level(
    doc: object,
    *,
    nouns: frozenset[str] | None,
    lint: bool = True,
    budget: PackBudget | None = None,
    work: WorkBudget | None = None,
) -> LevelReport:
    """Check one level of a pack whose vocabulary is ``nouns`` (:func:`declared_nouns`).

    Lints that play the level run on a level whose only errors are nouns missing
    from the pack (the level itself plays); a level with any other error gets
    none of them. The leaves map warnings read only the map, so every frail
    mechanic the schema accepts gets them (:func:`engine.packs.leaves.level_leaves_problems`,
    what the editor's panel of the mechanic shows). ``budget`` bounds one pass over all the levels of
    a pack (as :func:`engine.load_pack` does), and ``work``
    (:func:`~engine.lint.level.lint_work`) the replays of intended solutions in it:
    pass one to every level of the pass (default: this level's own).
    """
    check = check_pack_level(doc, nouns, budget=budget)
    warnings: tuple[Problem, ...] = ()
    board = None
    level = check.level
    reading = budget is None or budget.reading  # a pack's total ran out: nothing is played
    if lint and reading and check.stage not in ("size", "shape"):
        warnings = tuple(level_leaves_problems(doc))
    if lint and reading and level is not None and check.plays:
        warnings = (*level_lints(level, work=work), *warnings)
        board = board_digest(level) if level.entities else None
    return LevelReport(replace(check, level=None), warnings, nouns, _nouns_used(doc), board)


def report_levels(
    doc: object,
    *,
    nouns: frozenset[str] | None = None,
    lint: bool = True,
    work: WorkBudget | None = None,
) -> Iterator[LevelReport]:
    """Each level's report, one at a time, made in one bounded pass over the pack.

    The pass :func:`engine.load_pack` makes (one :class:`~engine.packs.parts.PackBudget`):
    once the pack's list of problems is full, or 1,000 records have been
    explained, failing levels are named, not explained. A tool showing progress
    level by level (the editor, opening a pack) gets ``load_pack``'s bounds and,
    from :func:`check_pack` over these reports, its exact list. ``nouns``: the
    pack's (:func:`declared_nouns`), read from ``doc`` when not given. Ask
    :func:`check_pack_sizes` first: a pack with a list over its cap is not walked.
    ``work`` is one total for the replays of every level's intended solution
    (default: :func:`~engine.lint.level.lint_work` of the default budget).
    """
    shell = check_pack_shell(doc)
    if nouns is None:
        nouns = shell.nouns
    budget = PackBudget(shell)
    if work is None:
        work = lint_work(LINT_WORK_BUDGET)
    for level in pack_levels(doc):
        yield report_level(level, nouns=nouns, lint=lint, budget=budget, work=work)


def check_pack_sizes(doc: object, *, name: str | None = None) -> tuple[Problem, ...]:
    """Every list and map of a pack document over its cap, located (sizes first).

    When there are any, they are :func:`engine.load_pack`'s whole answer and nothing
    may walk the document further. A tool that checks a pack level by level
    (:func:`report_level`, then :func:`check_pack` with ``levels``) asks this first,
    as :func:`check_pack` does. ``name`` as in :func:`check_pack`.
    """
    return tuple(pack_size_problems(doc, pack_name(doc) if name is None else pack_name(doc, name)))


def check_pack(
    doc: object,
    *,
    name: str | None = None,
    lint: bool = True,
    levels: Sequence[LevelReport] | None = None,
    reuse: PackReport | None = None,
    lint_budget: int = LINT_WORK_BUDGET,
) -> PackReport:
    """Every error and (with ``lint``) every warning of a pack document.

    ``name`` names the pack in problems (as ``load_pack`` does: its id, else this).
    With ``levels`` the reports stand for the document's levels, in order, and its
    ``levels`` list is not read; each must have been checked against the pack's
    nouns. ``reuse``, the report of an earlier check of the same pack, lends its
    levels' located warnings (:attr:`PackReport.placed`) to the levels whose report,
    place and pack name are unchanged; the answer is the same without it.
    ``lint_budget`` is the work (engine.play.work) the lints of the levels read here
    may spend replaying intended solutions, together.

    Raises:
        ValueError: a report was checked against other nouns than the pack declares.
    """
    name = pack_name(doc) if name is None else pack_name(doc, name)
    if levels is None:
        too_big = pack_size_problems(doc, name)
        if too_big:  # sizes stop everything: nothing else is read
            return PackReport(tuple(too_big), ())
    shell = check_pack_shell(doc)
    if levels is None:  # one pass over the levels, bounded as load_pack's
        levels = list(report_levels(doc, nouns=shell.nouns, lint=lint, work=lint_work(lint_budget)))
    stale = _first_stale(levels, shell.nouns)
    if stale is not None:
        raise ValueError(f"level report {stale} was checked against another noun vocabulary")
    checks = [r.check for r in levels]
    errors = combine_pack_problems(name, shell, checks)
    stop = rules_read_until(checks)
    del checks
    if stop < len(levels):  # past the pack's total, levels are not played: no lints
        levels = [
            r if i < stop else replace(r, warnings=(), board=None) for i, r in enumerate(levels)
        ]
    if not errors:  # the pack's own fields, through the model as load_pack builds it
        errors = build_pack(doc, name, [])[1]
    if not lint or not shell.checked or any(r.check.stage in ("size", "shape") for r in levels):
        return PackReport(tuple(errors), ())
    # A pack whose every level is empty is just starting (a new pack): warnings about
    # its emptiness or its unused starter nouns would be noise, not news.
    starting = all(any(p.code == "empty-level" for p in r.warnings) for r in levels)
    # Each warning with its sort key. A level's are placed once and then reused
    # while its report stays: re-placing 15,000 warnings of 10,000 levels after an
    # edit of one took 45 ms on the thread that shares the interpreter with the
    # editor's window.
    earlier = reuse.placed if reuse is not None else {}
    placed: dict[int, PlacedWarnings] = {}
    keyed: list[tuple[SortKey, Problem]] = []
    for i, r in enumerate(levels):
        if not r.warnings:
            continue
        level = earlier.get(i)
        if (
            level is None
            or level.report is not r
            or level.name != name
            or level.starting != starting
        ):
            level = _placed(name, i, r, starting)
        placed[i] = level
        keyed += level.keyed
    others: list[Problem] = []
    if not starting:
        # A noun whose own entry is refused (a key in lower case) is not called unused:
        # that would be a second problem of one mistake.
        refused = {
            p.pointer.split("/")[2] for p in shell.problems if p.pointer.startswith("/nouns/")
        }
        nouns = None if shell.nouns is None else shell.nouns - refused
        others += [p.located(pack=name, level=None) for p in _unused_nouns(nouns, levels)]
    others += _duplicate_boards(name, levels)
    keyed += [(tuple(path_key(p.pointer)), p) for p in others]
    keyed.sort(key=itemgetter(0))  # stable: equal pointers keep the order above
    return PackReport(tuple(errors), tuple(map(itemgetter(1), keyed)), placed, tuple(others))


def _first_stale(levels: Sequence[LevelReport], nouns: frozenset[str] | None) -> int | None:
    """The first report checked against other nouns than ``nouns``, if any.

    The reports of one pass share one noun set, so each distinct set is compared
    once, not 10,000 times.
    """
    agreed = nouns
    for index, report in enumerate(levels):
        if report.nouns is not agreed:
            if report.nouns != nouns:
                return index
            agreed = report.nouns
    return None


def _placed(name: str, index: int, report: LevelReport, starting: bool) -> PlacedWarnings:
    """The level's warnings located at ``/levels/{index}`` (a starting pack's emptiness left out)."""
    prefix, level_id = f"/levels/{index}", report.level_id
    keyed = [
        (_level_key(index, p.pointer), p.located(pack=name, level=level_id, prefix=prefix))
        for p in report.warnings
        if not (starting and p.code == "empty-level")
    ]
    keyed.sort(key=itemgetter(0))  # stable, as the pack's sort: a level's come out in order
    return PlacedWarnings(report, name, starting, tuple(keyed))


@functools.lru_cache(maxsize=4096)
def _relative_key(pointer: str) -> SortKey:
    return tuple(path_key(pointer))


def _level_key(index: int, pointer: str) -> SortKey:
    """``path_key`` of ``/levels/{index}`` followed by ``pointer`` (a level's own), as a tuple."""
    if pointer and not pointer.startswith("/"):  # not a pointer a level makes: the long way
        return tuple(path_key(f"/levels/{index}{pointer}"))
    return ((1, "levels"), (0, index), *_relative_key(pointer))


def _unused_nouns(declared: frozenset[str] | None, levels: Sequence[LevelReport]) -> list[Problem]:
    if not declared:
        return []
    unused = set(declared)
    if STARTER_NOUNS.keys() <= unused:  # the editor's starter set, whole: its unused are not news
        unused -= STARTER_NOUNS.keys()
    for report in levels:
        unused -= report.nouns_used
        if not unused:  # usually within the first levels: the rest need not be read
            return []
    return [
        Problem(
            pointer("nouns", noun),
            "unused-noun",
            f"{noun} is in the pack's nouns, but no level has a {noun} object or word",
        )
        for noun in sorted(unused)
    ]


def _duplicate_boards(name: str, levels: Sequence[LevelReport]) -> Iterator[Problem]:
    first: dict[str, int] = {}
    for index, report in enumerate(levels):
        if report.board is None:
            continue
        if report.board in first:
            other = first[report.board]
            other_id = levels[other].level_id
            yield Problem(
                f"/levels/{index}",
                "duplicate-board",
                f"the board is the same as level {other_id!r} (/levels/{other})",
                name,
                report.level_id,
            )
        else:
            first[report.board] = index


def _nouns_used(doc: object) -> frozenset[str]:
    """Every token the level names as an object, a word, a subject or a leaves map entry.

    Read leniently from the document, so a level with errors still counts as using
    its nouns (an unused-noun warning must never come from a broken level).
    """
    if not isinstance(doc, Mapping):
        return frozenset()
    used: set[str] = set()
    for entity in _items(doc.get("entities")):
        for key in ("noun", "text"):
            if isinstance(entity.get(key), str):
                used.add(entity[key])
    for automaton in _items(doc.get("automata")):
        if isinstance(automaton.get("subject"), str):
            used.add(automaton["subject"])
    for mechanic in _items(doc.get("mechanics")):
        leaves = mechanic.get("leaves")
        if isinstance(leaves, Mapping):
            used.update(str(k) for k in leaves)
            used.update(v for v in leaves.values() if isinstance(v, str))
    return frozenset(used)


def _items(value: object) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, Mapping))
