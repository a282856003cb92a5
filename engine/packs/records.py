"""A level's schema, record by record: which records fail, which of their fields, and why.

A level document is a few records of its own (the level's fields) and lists of
records: entities, automata (each with its steps) and mechanics. The compiled
schema (:mod:`engine.packs.compiled`) says at C-like speed which records fail;
only those are explained by jsonschema, one record at a time, so that:

- the semantic checks know exactly what is broken (:class:`Breaks`) and run on
  everything else (:mod:`engine.packs.semantic`): an entity at ``x = -1`` no
  longer silences the rest of its level;
- explaining is bounded: records equal to one already explained are not explained
  again (twenty thousand ``{}`` entities cost one explanation), and a level
  explains at most :data:`~engine.limits.MAX_PROBLEMS` records; the failing
  records past that are counted (the compiled check finds them), not explained;
- identical problems of different records are one problem with a count
  (:mod:`engine.packs.repeats`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.errors import Problem
from engine.limits import MAX_PROBLEMS
from engine.packs.compiled import Check, UnsupportedSchemaError, compile_schema
from engine.packs.explain import short, translate
from engine.packs.repeats import Counted, Repeats, same_key
from engine.packs.schema import Validator, checked_in
from engine.packs.sizes import json_value_problems

#: The lists of a level whose items are records, explained one item at a time.
RECORD_LISTS = ("automata", "mechanics", "entities")
#: Records of one level explained at most; past it failing records are counted.
LEVEL_EXPLAINED = MAX_PROBLEMS
#: A record whose JSON text is longer than this is explained without being
#: remembered (the text is the key that finds an equal record already explained).
_KEY_CHARS = 4_096


def _hits(pointers: frozenset[str], ptr: str) -> bool:
    """Whether a problem at one of ``pointers`` lies at, inside or around ``ptr``."""
    for q in pointers:
        if q == ptr or q == "" or q.startswith(ptr + "/") or ptr.startswith(q + "/"):
            return True
    return False


def _above(pointers: frozenset[str], ptr: str) -> bool:
    """Whether a problem at one of ``pointers`` lies at ``ptr`` or around it."""
    return any(q == ptr or q == "" or ptr.startswith(q + "/") for q in pointers)


@dataclass(frozen=True, slots=True)
class Breaks:
    """Where the schema refused a level document (pointers relative to the level).

    ``shell``: the problems of the level's own fields (``/width``; ``/entities``
    when it is not a list; ``""`` when the level is not an object). ``records``:
    for a failing record, ``(list, index)`` gives the pointers of its problems
    relative to the record (``/x``, ``/pattern/1/dx``), or ``None`` when it was
    not explained (then every field of it counts as broken).
    """

    shell: frozenset[str] = frozenset()
    records: Mapping[tuple[str, int], frozenset[str] | None] = field(default_factory=dict)

    def sound(self, ptr: str) -> bool:
        """Whether the value at ``ptr`` is as the schema wants it, so a check may read it."""
        return self._clear(ptr, _hits)

    def holds(self, ptr: str) -> bool:
        """Whether the container at ``ptr`` is there as the schema wants it (its items
        may still be refused: a pattern with a broken step still has its length)."""
        return self._clear(ptr, _above)

    def _clear(self, ptr: str, near: Callable[[frozenset[str], str], bool]) -> bool:
        """No problem ``near`` ``ptr``: in the level's own fields, or in its record."""
        if self.shell and near(self.shell, ptr):
            return False
        if not self.records:
            return True
        parts = ptr.split("/", 3)
        if len(parts) < 3 or not parts[2].isdigit():
            return True
        found = self.records.get((parts[1], int(parts[2])), _SOUND)
        if found is None:
            return False
        return not found or not near(found, "/" + parts[3] if len(parts) > 3 else "")

    @property
    def any(self) -> bool:
        return bool(self.shell or self.records)


_SOUND: frozenset[str] = frozenset()
#: A level the schema accepts whole.
SOUND = Breaks()


@dataclass(frozen=True, slots=True)
class LevelSchema:
    """What the schema says about one level document, record by record.

    ``problems`` are grouped (pointers relative to the level, in the order found);
    ``explained`` counts the records jsonschema ran on; ``unexplained`` the failing
    records left unexplained (past :data:`LEVEL_EXPLAINED`), the first at
    ``first_unexplained``. ``checked`` is false when the document holds values no
    JSON text holds: those are the only problems then.
    """

    problems: tuple[Problem, ...] = ()
    breaks: Breaks = SOUND
    failing: bool = False
    explained: int = 0
    unexplained: int = 0
    first_unexplained: str = ""
    checked: bool = True


def explain_level(doc: object, *, explain: bool = True) -> LevelSchema:
    """Check one level document (its sizes already checked) against the pack's ``Level``.

    With ``explain=False`` a failing level is only said to fail (no problems, no
    breaks): a pack whose problem list is full saves the work.
    """
    schemas = _schemas()
    if schemas is not None and _passes(schemas.level, doc):
        return LevelSchema()
    shape = json_value_problems(doc)
    if shape:
        return LevelSchema(tuple(shape), failing=True, checked=False)
    if not explain:
        return LevelSchema(failing=True)
    return _Explainer(schemas).level(doc)


class _Explainer:
    """One level's explanation: its counts, its remembered records and its problems."""

    def __init__(self, schemas: _Schemas | None) -> None:
        self.schemas = schemas
        self.repeats = Repeats()
        self.records: dict[tuple[str, int], frozenset[str] | None] = {}
        self.explained = 0
        self.unexplained = 0
        self.first_unexplained = ""
        self.known: dict[tuple[str, object], _Explained] = {}

    def level(self, doc: object) -> LevelSchema:
        lists = {}
        if isinstance(doc, dict):
            lists = {k: doc[k] for k in RECORD_LISTS if isinstance(doc.get(k), list)}
            own: object = {**doc, **{k: [] for k in lists}}
        else:
            own = doc
        passes = self.schemas is not None and _passes(self.schemas.level, own)
        shell = [] if passes else self._explain(_validators().level, own, [])
        self.repeats.add_same(shell)
        for name, items in lists.items():
            check = self.schemas.records[name] if self.schemas is not None else None
            for index, item in enumerate(items):
                if check is not None and _passes(check, item):
                    continue
                self._record(name, index, item)
        failing = bool(shell or self.records)
        return LevelSchema(
            tuple(self.repeats.problems()),
            Breaks(frozenset(p.pointer for p in shell), self.records),
            failing,
            max(1, self.explained) if failing else self.explained,  # a failing level: one at least
            self.unexplained,
            self.first_unexplained,
        )

    def _record(self, name: str, index: int, item: object) -> None:
        key = _key(name, item, self.schemas.fields if self.schemas is not None else None)
        found = self.known.get((name, key)) if key is not None else None
        if found is None:
            if self.explained >= LEVEL_EXPLAINED:
                self.unexplained += 1
                self.first_unexplained = self.first_unexplained or f"/{name}/{index}"
                self.records[(name, index)] = None
                return
            found = _Explained.of(name, index, _record_problems(name, index, item, self._explain))
            if key is not None:
                self.known[(name, key)] = found
        if not found.problems:  # jsonschema, the authority, accepts it (no compiled check ran)
            return
        self.records[(name, index)] = found.pointers
        repeats = self.repeats
        for problem, (group, what) in zip(found.problems, found.groups, strict=True):
            if group in repeats:  # a repeat: counted, no problem made (20,000 of them)
                repeats.again(group)
            else:
                where = f"/{name}/{index}{problem.pointer}"
                repeats.add(group, Problem(where, problem.code, problem.message), what)

    def _explain(self, validator: Any, value: object, base: list[Any]) -> list[Problem]:
        """jsonschema's errors of ``value`` (found at ``base``) as problems, each once,
        in the order found."""
        self.explained += 1
        seen: dict[tuple[str, str, str], Problem] = {}
        for error in validator.iter_errors(value):
            for p in translate(error, base):
                seen.setdefault((p.pointer, p.code, p.message), p)
        return list(seen.values())


@dataclass(frozen=True, slots=True)
class _Explained:
    """One record's problems relative to it, kept for records equal to it.

    ``groups``: each problem's :func:`~engine.packs.repeats.same_key`, which does not
    depend on the record's index, so a repeat is counted without any string work.
    """

    problems: tuple[Problem, ...]
    pointers: frozenset[str]
    groups: tuple[tuple[Hashable, Counted], ...]

    @classmethod
    def of(cls, name: str, index: int, problems: Iterable[Problem]) -> _Explained:
        # Explained in place (a problem may read where it is: an entity's ``leaves``
        # is per-object-leaves), then kept relative to the record.
        at = len(f"/{name}/{index}")
        relative = tuple(Problem(p.pointer[at:], p.code, p.message) for p in problems)
        groups = tuple(
            same_key(Problem(f"/{name}/0{p.pointer}", p.code, p.message)) for p in relative
        )
        return cls(relative, frozenset(p.pointer for p in relative), groups)


def _record_problems(
    name: str,
    index: int,
    item: object,
    explain: Callable[[Any, object, list[Any]], list[Problem]],
) -> Iterator[Problem]:
    """A failing record's problems, pointers relative to the level.

    A mechanic of a type this version does not know is one ``unknown-mechanic``
    problem, not every field the known ones would want.
    """
    if name == "mechanics" and isinstance(item, dict) and "type" in item:
        kind = item["type"]
        if kind != "frail":
            yield Problem(
                f"/{name}/{index}/type",
                "unknown-mechanic",
                f"unknown mechanic type {short(kind)}; this version knows 'frail'",
            )
            return
    yield from explain(_validators().records[name], item, [name, index])


_SCALARS = (str, int, float, bool, type(None))


def _key(
    name: str, item: object, fields: Mapping[str, Mapping[str, Check]] | None
) -> object | None:
    """What finds a record already explained: its JSON text, with each field the
    schema accepts on its own written as ``✓`` (``None`` when too long to keep).

    Explaining a record says nothing of a field that is right, so records that
    differ only there (two entities with the same misspelt noun and their own ids
    and places) have the same problems.
    """
    if isinstance(item, dict) and fields is not None:
        branch = fields.get(_definition(name, item))
        if branch is not None:
            item = {
                k: "\u2713" if k in branch and k not in _TAGS and _passes(branch[k], v) else v
                for k, v in item.items()
            }
    if type(item) is dict and all(
        type(v) in _SCALARS and (type(v) is not str or len(v) <= _KEY_CHARS) for v in item.values()
    ):
        # A flat record (nearly every entity): its fields, each with its type (JSON's
        # 1, 1.0 and true differ), found without writing JSON.
        return tuple(sorted((k, type(v).__name__, v) for k, v in item.items()))
    try:
        text = json.dumps(item, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    return text if len(text) <= _KEY_CHARS else None


#: Fields that choose a record's kind: always part of the key as written.
_TAGS = frozenset({"kind", "type"})
#: The definitions an entity is checked by, by its ``kind``.
_ENTITIES = {"object": "ObjectEntity", "word": "WordEntity"}


def _definition(name: str, item: dict[str, Any]) -> str:
    """The schema definition a record of the list ``name`` is checked by ("" if none)."""
    if name == "entities":
        kind = item.get("kind")
        return _ENTITIES.get(kind, "") if isinstance(kind, str) else ""
    if name == "automata":
        return "Automaton"
    return "FrailMechanic" if item.get("type") == "frail" else ""


def _passes(check: Check, value: object) -> bool:
    try:
        return check(value)
    except Exception:  # an exotic value the compiled check cannot compare: explain it
        return False


@dataclass(frozen=True, slots=True)
class _Schemas:
    level: Check
    records: Mapping[str, Check]
    fields: Mapping[str, Mapping[str, Check]]  # definition -> field -> its own check


@dataclass(frozen=True, slots=True)
class _Validators:
    level: Any
    records: Mapping[str, Any]


def _record_schemas() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The schemas of a pack's level and of its records, from the checked-in pack schema."""
    root = checked_in("pack")
    defs = root["$defs"]
    base = {"$schema": root["$schema"], "$defs": defs}
    level = {**base, "$ref": "#/$defs/Level"}
    items = {name: defs["Level"]["properties"][name]["items"] for name in RECORD_LISTS}
    return base, level, {name: {**base, **schema} for name, schema in items.items()}


@cache
def _schemas() -> _Schemas | None:
    base, level, records = _record_schemas()
    defs = base["$defs"]
    try:
        return _Schemas(
            compile_schema(level).check,
            {name: compile_schema(schema).check for name, schema in records.items()},
            {
                name: {
                    key: compile_schema({**base, **schema}).check
                    for key, schema in defs[name]["properties"].items()
                }
                for name in (*_ENTITIES.values(), "Automaton", "FrailMechanic")
            },
        )
    except UnsupportedSchemaError:
        return None  # jsonschema alone then: slower, never different


@cache
def _validators() -> _Validators:
    _base, level, records = _record_schemas()
    return _Validators(
        Validator(level), {name: Validator(schema) for name, schema in records.items()}
    )


def record_passes(name: str, item: object) -> bool:
    """Whether one record of a level's list (``entities``, ``automata``, ``mechanics``)
    is as the schema wants it, on its own."""
    schemas = _schemas()
    if schemas is not None:
        return _passes(schemas.records[name], item)
    return not any(True for _ in _validators().records[name].iter_errors(item))
