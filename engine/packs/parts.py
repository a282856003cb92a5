"""A pack checked in parts: its shell, each level alone, then the pack-wide checks.

:func:`check_pack_shell` checks everything but the levels, :func:`check_pack_level`
one level against the pack's nouns, and :func:`combine_pack_problems` the
pack-wide rules over the parts. An editor re-checks only the level an author
changed and combines it with the parts it kept; :func:`engine.packs.validate.pack_problems`
runs the same parts over the whole document, so both give exactly the same problems.

The bounds of a whole pack live here too: sizes first (:mod:`engine.packs.sizes`),
one list of at most :data:`~engine.limits.MAX_PROBLEMS` problems plus the count of
the rest, schema explanations that stop once the list is full or
:data:`~engine.limits.MAX_PROBLEMS` records have been explained, and one total of
rule reading over all the levels (:data:`~engine.limits.PACK_PARSE_BUDGET`), all
carried by a :class:`PackBudget` through one pass over the levels.

A level is checked whole even when its schema fails: the records the schema
accepts get every semantic check that reads only them (:mod:`engine.packs.records`,
:mod:`engine.packs.semantic`). Whether a level's explanation is used depends only
on the levels before it, so a tool that keeps each level's check (the editor)
and :func:`combine_pack_problems` give exactly what one pass gives.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from engine.errors import Problem, ProblemList, WorkLimitError, counted
from engine.limits import MAX_ID_LENGTH, MAX_LEVELS, MAX_PROBLEMS, PACK_PARSE_BUDGET
from engine.model import ID_PATTERN, Level
from engine.packs import sizes
from engine.packs.compiled import pattern_search
from engine.packs.explain import path_key
from engine.packs.quick import quick_parts
from engine.packs.records import explain_level
from engine.packs.repeats import Repeats
from engine.packs.schema import pack_shell_problems
from engine.packs.semantic import build_level, level_problems, rule_problems
from engine.rules import Meter, metered

_is_id = pattern_search(ID_PATTERN)

#: What the pack-wide total of rule reading is called in its ``too-much-work`` problem.
PACK_WORK = "the levels of this pack"
#: Records one pass over a pack explains with jsonschema (about 70 µs each, and far
#: more for a large one): past it failing levels are named, not explained.
EXPLAINED_PER_PASS = MAX_PROBLEMS


def document_id(doc: object) -> str | None:
    """The document's id when it is a well-formed one (a label must never break a line)."""
    if isinstance(doc, Mapping):
        value = doc.get("id")
        if isinstance(value, str) and len(value) <= MAX_ID_LENGTH and _is_id(value):
            return value
    return None


@dataclass(frozen=True, slots=True)
class LevelCheck:
    """What validation found in one level of a pack, pointers relative to the level.

    ``stage`` says how far the checks got: ``"size"`` (a list or map over its cap:
    nothing else ran), ``"shape"`` (values no JSON text holds), ``"schema"`` (the
    schema refused some of it: its problems, and the semantic problems of what it
    accepted), ``"model"`` (the model refused what the schema allowed),
    ``"semantic"`` or ``"valid"``. ``level`` is the built model when the semantic
    checks ran on it. A check keeps at most the room it was given
    (:class:`PackBudget`); ``more`` counts the problems it found beyond.
    ``explained`` counts the records jsonschema explained: a ``"schema"`` check
    with none was not explained (the pack's list was full, or its explaining
    done). ``unexplained`` counts failing records past the level's own limit, the
    first at ``first_unexplained``. ``units`` is what reading its rules cost,
    charged to the pack's total by :func:`combine_pack_problems`. ``plays``: the
    level was built and its only problems (kept or not) are nouns missing from
    the pack, so the level itself can be played (and linted).
    """

    level_id: str | None
    stage: str
    problems: tuple[Problem, ...]
    level: Level | None = None
    more: int = 0
    units: int = 0
    plays: bool = False
    explained: int = 0
    unexplained: int = 0
    first_unexplained: str = ""


@dataclass(frozen=True, slots=True)
class ShellCheck:
    """What validation found in a pack outside its levels (absolute pointers).

    ``nouns`` is the declared vocabulary the levels are checked against: every
    key of the ``nouns`` map, whatever is wrong with its style (a noun whose colour
    is misspelt is still declared); ``None`` when the map itself is not an object
    (then no noun is called unknown).
    ``oversized``: the problems are containers over their caps, and nothing else
    of the shell was read.
    """

    problems: tuple[Problem, ...]
    checked: bool  # False: values no JSON text holds (or sizes); nothing else can be trusted
    nouns: frozenset[str] | None
    oversized: bool = False


class PackBudget:
    """What checking a pack's levels one after another may still spend.

    Three totals bound a whole pack: the rule reading of all its boards (a
    :class:`~engine.rules.Meter` of :data:`~engine.limits.PACK_PARSE_BUDGET`; once
    it runs out, the level where it did says so and later levels' rules are not
    read), the room left in its problem list, and the records jsonschema may still
    explain (:data:`EXPLAINED_PER_PASS`). Once no room or no explaining is left,
    failing levels are not explained, only named; levels passing the schema still
    have their problems counted. The room follows exactly what
    :func:`combine_pack_problems` lists (a level id used twice takes room too), so
    the levels one pass leaves unexplained are those the combination would not use.
    """

    __slots__ = ("explained", "ids", "meter", "room")

    def __init__(self, shell: ShellCheck) -> None:
        self.meter = Meter(PACK_PARSE_BUDGET, PACK_WORK)
        self.room = max(0, MAX_PROBLEMS - len(shell.problems))
        self.explained = 0
        self.ids: set[str] = set()

    @property
    def reading(self) -> bool:
        return self.meter.units <= self.meter.limit

    @property
    def explaining(self) -> bool:
        return self.room > 0 and self.explained < EXPLAINED_PER_PASS

    def enter(self, level_id: str | None) -> None:
        """A level comes next: a level id used before is a problem of the list."""
        if level_id is not None:
            if level_id in self.ids:
                self.room = max(0, self.room - 1)
            self.ids.add(level_id)

    def spend(self, check: LevelCheck) -> None:
        self.room = max(0, self.room - len(check.problems))
        self.explained += check.explained


def check_pack_shell(doc: object) -> ShellCheck:
    """Check everything of a pack document but its levels' contents (sizes first)."""
    oversized = sizes.pack_shell_size_problems(doc)
    if oversized:
        return ShellCheck(tuple(oversized), False, None, oversized=True)
    problems, checked, *_ = pack_shell_problems(doc)
    declared = doc.get("nouns") if isinstance(doc, dict) else None
    nouns = frozenset(declared) if isinstance(declared, dict) and checked else None
    if checked:  # each mistake once: a colour written "yellow" for ten nouns is one
        repeats = Repeats()
        repeats.add_same(problems)
        problems = repeats.problems()
    return ShellCheck(tuple(problems), checked, nouns)


def check_pack_level(
    doc: object, nouns: frozenset[str] | None, *, budget: PackBudget | None = None
) -> LevelCheck:
    """Check one level of a pack against the pack's ``nouns`` (see :func:`check_pack_shell`).

    Each level's problems depend only on the level and the vocabulary, so an editor
    re-checks just the level an author changed; :func:`combine_pack_problems` then
    gives exactly what :func:`pack_problems` gives for the whole document. A
    ``budget`` (shared by the levels of one pass over a pack) bounds the pass;
    without one, up to :data:`~engine.limits.MAX_PROBLEMS` problems are kept and
    a failing level is always explained.
    """
    level_id = document_id(doc)
    too_big = sizes.level_size_problems(doc)
    if too_big:
        return LevelCheck(level_id, "size", tuple(too_big))
    if budget is not None:
        budget.enter(level_id)
    room = MAX_PROBLEMS if budget is None else budget.room
    quick = quick_parts(doc, nouns, in_pack=True)  # a plainly valid level: one pass
    if quick is not None:
        level, words, vocabulary = quick

        def problems(read_rules: bool) -> list[Problem]:
            return rule_problems(words, vocabulary) if read_rules else []

    else:
        schema = explain_level(doc, explain=budget is None or budget.explaining)
        if not schema.checked:
            return _spent(budget, _kept(level_id, "shape", schema.problems, room))
        if schema.failing:
            if not schema.explained:  # failing, named, not explained
                return _spent(budget, LevelCheck(level_id, "schema", ()))
            semantic = (
                level_problems(doc, nouns, breaks=schema.breaks, read_rules=False)
                if isinstance(doc, Mapping)
                else []
            )
            check = _kept(level_id, "schema", in_order(schema.problems, semantic), room)
            check = replace(
                check,
                explained=schema.explained,
                unexplained=schema.unexplained,
                first_unexplained=schema.first_unexplained,
            )
            return _spent(budget, check)
        built, found = build_level(doc)
        if built is None:
            return _spent(budget, _kept(level_id, "model", found, room))
        level = built
        assert isinstance(doc, Mapping)

        def problems(read_rules: bool) -> list[Problem]:
            return level_problems(doc, nouns, read_rules=read_rules)

    reading = Meter(sys.maxsize, "this level")  # never runs out: it only measures
    try:
        if budget is None:
            with metered(reading):
                found = problems(True)
        else:
            with metered(budget.meter), metered(reading):
                found = problems(budget.reading)
    except WorkLimitError:
        if budget is None or budget.reading:
            raise  # another total, opened by the caller, ran out
        found = [_too_much_work()]
    plays = all(p.code == "unknown-noun" for p in found)
    check = _kept(level_id, "semantic" if found else "valid", found, room, level, reading.units)
    return _spent(budget, replace(check, plays=plays))


def in_order(schema: Sequence[Problem], semantic: Sequence[Problem]) -> list[Problem]:
    """A level's problems as a pack lists them: by pointer, schema problems (by code)
    first at the same pointer."""
    keyed = [((path_key(p.pointer), 0, p.code), p) for p in schema]
    keyed += [((path_key(p.pointer), 1, ""), p) for p in semantic]
    keyed.sort(key=itemgetter(0))
    return [p for _key, p in keyed]


def _spent(budget: PackBudget | None, check: LevelCheck) -> LevelCheck:
    if budget is not None:
        budget.spend(check)
    return check


def _kept(
    level_id: str | None,
    stage: str,
    found: Sequence[Problem],
    room: int,
    level: Level | None = None,
    units: int = 0,
) -> LevelCheck:
    return LevelCheck(level_id, stage, tuple(found[:room]), level, max(0, len(found) - room), units)


def _too_much_work() -> Problem:
    return Problem(
        "/entities", "too-much-work", str(WorkLimitError(0, PACK_PARSE_BUDGET, PACK_WORK))
    )


def combine_pack_problems(
    pack_name: str, shell: ShellCheck, levels: Sequence[LevelCheck]
) -> list[Problem]:
    """Every problem of a pack from its parts, located and in :func:`pack_problems`' order.

    The pack-wide checks happen here: the level count, level ids used twice, and
    the total rule reading of the levels. Sizes stop everything else, then values
    no JSON text holds; otherwise every schema problem, then the semantic problems
    of the levels whose structure is sound. At most
    :data:`~engine.limits.MAX_PROBLEMS` are listed, the first in document order,
    then one ``too-many-problems`` saying how many more there were; once the list
    is full, levels failing the schema are named, not counted.
    """
    found = ProblemList(MAX_PROBLEMS)

    def located(index: int, check: LevelCheck, problems: Iterable[Problem]) -> list[Problem]:
        return [
            p.located(pack=pack_name, level=check.level_id, prefix=f"/levels/{index}")
            for p in problems
        ]

    if shell.oversized or len(levels) > MAX_LEVELS or any(c.stage == "size" for c in levels):
        found.extend(p.located(pack=pack_name, level=None) for p in shell.problems)
        if all(p.pointer for p in found.kept):  # a pack with too many fields: levels unmeasured
            if len(levels) > MAX_LEVELS:
                found.add(sizes.too_many_levels(len(levels)).located(pack=pack_name, level=None))
            for i, c in enumerate(levels if len(levels) <= MAX_LEVELS else ()):
                if c.stage == "size":
                    found.extend(located(i, c, c.problems))
        return found.listed(pack=pack_name)
    if not shell.checked or any(c.stage == "shape" for c in levels):
        if not shell.checked:
            found.extend(p.located(pack=pack_name, level=None) for p in shell.problems)
        for i, c in enumerate(levels):
            if c.stage == "shape":
                found.extend(located(i, c, c.problems))
                found.count(c.more)
        return found.listed(lambda p: path_key(p.pointer), pack=pack_name)
    return _combined(pack_name, shell, levels, found, located)


def rules_read_until(levels: Sequence[LevelCheck]) -> int:
    """The index of the level where the pack's total of rule reading ran out, else ``len``.

    That level's problem is ``too-much-work``; later levels' rules are not read (a
    pass with a :class:`PackBudget` does not read them; a level checked alone did,
    and what it found there is set aside).
    """
    units = 0
    for index, check in enumerate(levels):
        if check.stage in ("semantic", "valid"):
            units += check.units
            if units > PACK_PARSE_BUDGET:
                return index
    return len(levels)


def _combined(
    pack_name: str,
    shell: ShellCheck,
    levels: Sequence[LevelCheck],
    found: ProblemList,
    located: Callable[[int, LevelCheck, Iterable[Problem]], list[Problem]],
) -> list[Problem]:
    """:func:`combine_pack_problems` of a pack whose sizes and values are sound.

    Problems are taken in document order (the shell, then each level) until the
    list is full. They are listed in :func:`pack_problems`' order: by pointer,
    schema problems (by code) before the others at the same pointer.
    """
    kept: list[tuple[tuple[Any, ...], Problem]] = []

    def take(problems: Iterable[Problem], schema: bool) -> None:
        """Schema problems of the shell rank by code at a pointer; a level's keep
        their order (:func:`in_order`), after the shell's."""
        for order, p in enumerate(problems):
            if not found.full:
                rank = (0, p.code) if schema else (1, str(order).zfill(6))
                kept.append(((path_key(p.pointer), *rank, len(kept)), p))
            found.add(p)

    take((p.located(pack=pack_name, level=None) for p in shell.problems), True)
    first_index: dict[str, int] = {}
    unexplained: list[int] = []
    records: list[str] = []  # the first record left unexplained
    left_out = 0  # failing records past their level's limit
    explained = 0  # records explained in the levels whose explanation is used
    stop = rules_read_until(levels)
    for index, check in enumerate(levels):
        level_id = check.level_id
        if level_id is not None:
            if level_id in first_index:
                message = (
                    f"level id {level_id!r} is already used by /levels/{first_index[level_id]}"
                )
                where = f"/levels/{index}/id"
                take([Problem(where, "duplicate-level-id", message, pack_name, level_id)], False)
            else:
                first_index[level_id] = index
        problems = check.problems
        if check.stage == "schema":
            # One pass explains a failing level while the list has room and fewer than
            # EXPLAINED_PER_PASS records were explained before it; a check made
            # without a budget is used on the same terms.
            if found.full or not check.explained or explained >= EXPLAINED_PER_PASS:
                unexplained.append(index)  # failing, named, not explained
                continue
            explained += check.explained
            if check.unexplained:
                left_out += check.unexplained
                records = records or [f"/levels/{index}{check.first_unexplained}"]
        elif index == stop:  # said once, where the pack's total ran out
            problems = (_too_much_work(),)
        elif index > stop:  # the total ran out before: its rules are not read
            problems = tuple(p for p in problems if p.code != "rule-complexity")
        if problems:  # most levels of a pack have none: 10,000 empty calls cost 5 ms
            take(located(index, check, problems), False)
        if check.more:
            found.count(check.more)
    notes = []
    if left_out:
        notes.append(
            f"{counted(left_out, 'more record')} of the levels listed fail the schema "
            f"but are not explained (the first is {records[0]})"
        )
    if unexplained:
        notes.append(
            f"{counted(len(unexplained), 'more level')} {'has' if len(unexplained) == 1 else 'have'} "
            f"schema problems that are not counted (the first is /levels/{unexplained[0]})"
        )
    found.uncounted = "; ".join(notes)
    found.kept = [p for _, p in sorted(kept, key=itemgetter(0))]
    return found.listed(pack=pack_name)
