"""The level as the player sees it at move 0, read leniently for an author mid-edit.

An editor shows the rules of a level while the author is still making it: nouns
the pack does not declare yet, the word of a mechanic before the level opts into
it, an automaton half filled in. :func:`analyze_level` never refuses such a level. It reads what it
can (every well-formed entity, every well-formed automaton), settles the board with
the same code a :class:`~engine.play.game.Game` uses (docs/contract.md §5: the settle), and
reports what it could not use as located problems beside the reading. For a valid
level the reading is exactly what ``Game(level)`` starts from.

What it gives: the settled rules in engine order, what each rule does at move 0,
what the settle changed (transformations, the destroying contacts), each object's
noun and properties at move 0, the automata entries, the frail objects, hints for words that
form no rule, the stacked cells each rule reads, and, for a board over the parse
budget, one ``rule-complexity`` hint naming the crowded region instead of rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import ValidationError as PydanticError

from engine.errors import Problem, RuleComplexityError
from engine.limits import (
    MAX_ENTITIES,
    MAX_ENTITY_ID,
    MAX_GRID_SIZE,
    PARSE_BUDGET,
    TOKEN_MAX_LENGTH,
)
from engine.mechanics import registered
from engine.model import Automaton, Level, ObjectEntity, WordEntity
from engine.packs.schema import schema_problems
from engine.packs.semantic import level_problems, model_problems
from engine.play.events import Json
from engine.play.hints import MAX_RUN_CELLS, RuleHint, StackChoice, crowded_region
from engine.play.reader import CellReader, occupants_of
from engine.rules import Rule, RuleTable, WordTile
from engine.tokens import TOKEN_PATTERN, Vocabulary, WordClass, WordRole

_is_token = re.compile(TOKEN_PATTERN).match
Piece = tuple[int, str, str, int, int]

EffectKind = Literal["property", "transform", "self"]
EffectStatus = Literal["active", "suppressed", "overridden"]


@dataclass(frozen=True, slots=True)
class RuleEffect:
    """What one rule does at move 0.

    ``kind``: ``property`` (the predicate is a property word), ``transform`` (``ROCK IS FLAG``) or
    ``self`` (``ROCK IS ROCK``, which keeps ROCK and suppresses its transformations).
    ``object_ids``: for a property or ``self`` rule, the objects of its subject at
    move 0; for a transformation, the objects it changed in the settle.
    ``status``: ``suppressed`` when an ``X IS X`` rule stops this transformation,
    ``overridden`` when an earlier transformation of the same noun wins; ``by``
    names that rule.
    """

    rule: Rule
    kind: EffectKind
    object_ids: tuple[int, ...]
    status: EffectStatus = "active"
    by: Rule | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule.to_dict(),
            "kind": self.kind,
            "objectIds": list(self.object_ids),
            "status": self.status,
            "by": None if self.by is None else self.by.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class LevelAnalysis:
    """A level at move 0 (after the settle), as :func:`analyze_level` reads it.

    ``transformed`` and ``destroyed`` are the settle's effects as event entries
    (docs/contract.md §5). ``nouns`` maps every object left at move 0 to its noun, and
    ``properties`` every object that has any to its properties. ``hints`` holds the
    near-sentences, or the one ``rule-complexity`` hint when the board is over the
    parse budget (then there are no rules). ``problems`` are the level's validation
    problems, pointers relative to the level (empty when not asked for). ``words``
    are the words on the board at move 0 as ``(id, text, x, y)``, ascending id.
    """

    rules: tuple[Rule, ...] = ()
    effects: tuple[RuleEffect, ...] = ()
    transformed: tuple[Json, ...] = ()
    destroyed: tuple[Json, ...] = ()
    won: bool = False
    control_lost: bool = True
    nouns: Mapping[int, str] = field(default_factory=dict)
    properties: Mapping[int, frozenset[str]] = field(default_factory=dict)
    automata: tuple[Json, ...] = ()
    frail_ids: tuple[int, ...] = ()
    hints: tuple[RuleHint, ...] = ()
    stacks: tuple[StackChoice, ...] = ()
    problems: tuple[Problem, ...] = ()
    words: tuple[WordTile, ...] = ()

    @property
    def complexity(self) -> RuleHint | None:
        """The parse-budget hint when the board is over the budget."""
        return next((h for h in self.hints if h.code == "rule-complexity"), None)

    def with_problems(self, problems: Iterable[Problem]) -> LevelAnalysis:
        return replace(self, problems=tuple(problems))

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (for tools and tests)."""
        return {
            "rules": [r.to_dict() for r in self.rules],
            "effects": [e.to_dict() for e in self.effects],
            "transformed": [dict(t) for t in self.transformed],
            "destroyed": [dict(d) for d in self.destroyed],
            "won": self.won,
            "controlLost": self.control_lost,
            "properties": {str(i): sorted(p) for i, p in sorted(self.properties.items())},
            "automata": [dict(a) for a in self.automata],
            "frailIds": list(self.frail_ids),
            "hints": [h.to_dict() for h in self.hints],
            "problems": [p.to_dict() for p in self.problems],
        }


def analyze_level(
    level: Mapping[str, Any] | Level,
    *,
    nouns: Iterable[str] | None = None,
    validate: bool = True,
) -> LevelAnalysis:
    """Read ``level`` (a level document, valid or not) as the player sees it at move 0.

    Never raises for bad data: what cannot be read is left out and, with
    ``validate``, reported in ``problems`` (``nouns`` is the pack's noun vocabulary,
    as for a level inside a pack). Malformed entities and automata are skipped; the
    word of a mechanic a level opts into (engine.mechanics.frail) counts as a property even before
    the level opts in, so its rule shows while validation says what is missing.
    """
    doc = level.to_data() if isinstance(level, Level) else level
    problems = check_level(doc, nouns=nouns) if validate else ()
    reader = LevelReader.from_document(doc)
    if reader is None:
        return LevelAnalysis(problems=problems)
    return reader.analyze().with_problems(problems)


class LevelReader(CellReader):
    """A level kept by an editor and read at move 0 after each edit, cheaply.

    Build it once from a level document (:meth:`from_document`), then tell it which
    cells changed (:meth:`edit`, stacks of ``(id, kind, noun-or-text)`` bottom
    first) and ask :meth:`analyze`: only the edited cells settle again, and the
    words are parsed again only when a word cell changed. Authored data beyond the
    board (automata, mechanics) is read once: build a new reader when it changes.
    One thread at a time may use a reader.
    """

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> LevelReader | None:
        """A reader of a level document, read leniently; ``None`` when it has no entity list."""
        entities = doc.get("entities") if isinstance(doc, Mapping) else None
        if not isinstance(entities, list) or len(entities) > MAX_ENTITIES:
            return None
        pieces = _pieces(entities)
        automata = _automata(doc.get("automata"))
        opted = _declared_types(doc.get("mechanics"))
        names = {p[2] for p in pieces}
        opted |= {kind for kind, m in registered().by_type.items() if m.word in names}
        vocabulary = Vocabulary.for_level(
            frail=False, opted=opted, automaton_properties=_automaton_words(doc.get("automata"))
        )
        return cls(occupants_of(pieces), vocabulary, automata)

    def analyze(self) -> LevelAnalysis:
        """The level at move 0 now (no problems: :func:`check_level` finds those)."""
        found = self.read()
        if found.error is not None:
            hint = _complexity_hint(list(found.words), self.vocabulary, found.error)
            return LevelAnalysis(hints=(hint,), words=found.words)
        table = found.table
        assert table is not None
        return LevelAnalysis(
            rules=found.rules,
            effects=_effects(found.rules, self.vocabulary, table, found.by_noun, found.changed_by),
            transformed=found.transformed,
            destroyed=found.destroyed,
            won=found.won,
            control_lost=not self.has_control(table),
            nouns=found.nouns,
            properties=self.properties(table, found.nouns),
            automata=found.automata,
            frail_ids=self.frail_ids(table),
            hints=found.hints,
            stacks=found.stacks,
            words=found.words,
        )


def check_level(
    level: Mapping[str, Any] | Level, *, nouns: Iterable[str] | None = None
) -> tuple[Problem, ...]:
    """The semantic and model problems of one level document, without raising.

    The same problems :func:`~engine.load_level` reports (pointers relative to the
    level), less its JSON Schema pass, which the models agree with: the editor
    asks this after every pause in editing. With ``nouns`` (the pack's noun
    vocabulary), nouns outside it are problems too, as in a pack.

    Entities whose fields have the right types are checked in Python rather than
    by the model in one call: the model validator holds the interpreter lock for
    its whole run, and an editor validating thousands of entities in a worker
    thread must leave the UI thread its turns.
    """
    declared = None if nouns is None else frozenset(nouns)
    if isinstance(level, Level):
        return tuple(level_problems(level, declared))
    entities = level.get("entities") if isinstance(level, Mapping) else None
    if isinstance(entities, list) and len(entities) > MAX_ENTITIES:
        return (
            Problem(
                "/entities",
                "bad-size",
                f"a level holds at most {MAX_ENTITIES:,} entities; this one has {len(entities):,}",
            ),
        )
    model = _plain_level(level) if isinstance(entities, list) else None
    if model is None:
        try:
            model = Level.model_validate(level)
        except PydanticError as exc:  # rare in an editor: name it as load_level would
            return tuple(schema_problems("level", level) or model_problems(exc, level))
    return tuple(level_problems(level, declared))


def _plain_level(doc: Mapping[str, Any]) -> Level | None:
    """The level when every entity is plainly well formed, its entities checked here.

    ``None`` when anything is off: the caller then lets the model say what.
    """
    entities = doc["entities"]
    built: list[ObjectEntity | WordEntity] = []
    for raw in entities:
        if not isinstance(raw, dict) or len(raw) != 5:
            return None
        i, kind, x, y = raw.get("id"), raw.get("kind"), raw.get("x"), raw.get("y")
        if not (type(i) is int and type(x) is int and type(y) is int):
            return None
        if not (1 <= i <= MAX_ENTITY_ID and 0 <= x < MAX_GRID_SIZE and 0 <= y < MAX_GRID_SIZE):
            return None
        if kind == "object":
            name = raw.get("noun")
            if not isinstance(name, str) or not _is_plain_token(name):
                return None
            built.append(ObjectEntity.model_construct(id=i, kind=kind, noun=name, x=x, y=y))
        elif kind == "word":
            name = raw.get("text")
            if not isinstance(name, str) or not _is_plain_token(name):
                return None
            built.append(WordEntity.model_construct(id=i, kind=kind, text=name, x=x, y=y))
        else:
            return None
    rest = {k: v for k, v in doc.items() if k != "entities"}
    try:
        shell = Level.model_validate({**rest, "entities": []})
    except PydanticError:
        return None
    return shell.model_copy(update={"entities": built})


def _is_plain_token(name: str) -> bool:
    return len(name) <= TOKEN_MAX_LENGTH and _is_token(name) is not None


# ------------------------------------------------------------------- reading


def _pieces(entities: list[Any]) -> list[Piece]:
    """Every well-formed entity, first of each id; malformed ones are left to validation."""
    seen: set[int] = set()
    pieces: list[Piece] = []
    for raw in entities:
        if not isinstance(raw, Mapping):
            continue
        i, kind, x, y = raw.get("id"), raw.get("kind"), raw.get("x"), raw.get("y")
        name = raw.get("noun") if kind == "object" else raw.get("text") if kind == "word" else None
        if not (
            isinstance(i, int)
            and isinstance(x, int)
            and isinstance(y, int)
            and _whole(i, 1, MAX_ENTITY_ID)
            and _whole(x, 0, None)
            and _whole(y, 0, None)
        ):
            continue
        if not isinstance(name, str) or not _is_token(name) or i in seen:
            continue
        seen.add(i)
        pieces.append((i, str(kind), name, x, y))
    pieces.sort()
    return pieces


def _whole(value: object, low: int, high: int | None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def _automata(raw: object) -> tuple[Automaton, ...]:
    """The automata that can act: well formed, with a phase inside their pattern."""
    if not isinstance(raw, list):
        return ()
    found: list[Automaton] = []
    for entry in raw[:64]:
        try:
            automaton = Automaton.model_validate(entry)
        except PydanticError:
            continue
        builtin = Vocabulary.builtin().role(automaton.property) is not WordRole.NOUN
        if automaton.phase < len(automaton.pattern) and not builtin:
            found.append(automaton)
    return tuple(found)


def _automaton_words(raw: object) -> tuple[str, ...]:
    """Property words of automata, even of ones not yet well formed (their words still read)."""
    if not isinstance(raw, list):
        return ()
    words = [e.get("property") for e in raw[:64] if isinstance(e, Mapping)]
    return tuple(
        w
        for w in words
        if isinstance(w, str) and _is_token(w) and Vocabulary.builtin().role(w) is WordRole.NOUN
    )


def _declared_types(raw: object) -> set[str]:
    """The types of the level's mechanics (``frail``), read leniently."""
    if not isinstance(raw, list):
        return set()
    return {t for m in raw[:8] if isinstance(m, Mapping) and isinstance(t := m.get("type"), str)}


def _effects(
    rules: tuple[Rule, ...],
    vocabulary: Vocabulary,
    table: RuleTable,
    by_noun: Mapping[str, tuple[int, ...]],
    changed_by: Mapping[Rule, tuple[int, ...]],
) -> tuple[RuleEffect, ...]:
    selfish = {r.subject: r for r in rules if r.subject == r.predicate}
    out: list[RuleEffect] = []
    for rule in rules:
        if vocabulary.classify(rule.predicate) is WordClass.PROPERTY:
            out.append(RuleEffect(rule, "property", by_noun.get(rule.subject, ())))
        elif rule.subject == rule.predicate:
            out.append(RuleEffect(rule, "self", by_noun.get(rule.subject, ())))
        else:
            ids = changed_by.get(rule, ())
            keeper = selfish.get(rule.subject)
            chosen = table.transforms.get(rule.subject)
            if keeper is not None:
                out.append(RuleEffect(rule, "transform", ids, "suppressed", keeper))
            elif chosen is not None and chosen[1] != rule:
                out.append(RuleEffect(rule, "transform", ids, "overridden", chosen[1]))
            else:
                out.append(RuleEffect(rule, "transform", ids))
    return tuple(out)


def _complexity_hint(
    words: list[WordTile], vocabulary: Vocabulary, exc: RuleComplexityError
) -> RuleHint:
    region = crowded_region(words, vocabulary, budget=exc.budget or PARSE_BUDGET)
    cells: tuple[tuple[int, int], ...] = ()
    ids: tuple[int, ...] = ()
    if region is None:
        where = "this board"
    else:
        (x0, y0), (x1, y1) = region
        where = f"({x0}, {y0})" if (x0, y0) == (x1, y1) else f"({x0}, {y0})–({x1}, {y1})"
        inside = sorted((y, x, i) for i, _, x, y in words if x0 <= x <= x1 and y0 <= y <= y1)
        cells = tuple(dict.fromkeys((x, y) for y, x, _ in inside))[: MAX_RUN_CELLS * 4]
        ids = tuple(i for y, x, i in inside if (x, y) in cells)
    message = (
        f"Too many ways to read the words in {where}: more than {exc.budget:,} units of "
        "rule reading. Remove some stacked words there."
    )
    return RuleHint("rule-complexity", message, cells, ids, None)
