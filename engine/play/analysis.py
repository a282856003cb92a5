"""The level as the player sees it at move 0, read leniently for an author mid-edit.

An editor shows the rules of a level while the author is still making it: nouns
the pack does not declare yet, a FRAIL word before the level opts in, an automaton
half filled in. :func:`analyze_level` never refuses such a level. It reads what it
can (every well-formed entity, every well-formed automaton), settles the board with
the same code a :class:`~engine.play.game.Game` uses (api.md §5: the settle), and
reports what it could not use as located problems beside the reading. For a valid
level the reading is exactly what ``Game(level)`` starts from.

What it gives: the settled rules in engine order, what each rule does at move 0,
what the settle changed (transformations, SINK and DEFEAT), each object's noun and
properties at move 0, the automata entries, FRAIL objects, hints for words that
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
from engine.limits import MAX_ENTITIES, MAX_ENTITY_ID, PARSE_BUDGET
from engine.model import Automaton, Level
from engine.packs.schema import schema_problems
from engine.packs.validate import level_problems, model_problems
from engine.play.events import Json
from engine.play.hints import (
    MAX_RUN_CELLS,
    RuleHint,
    StackChoice,
    crowded_region,
    near_sentences,
    stack_choices,
)
from engine.play.turn import automaton_records, settle_board
from engine.rules import Rule, RuleTable, WordTile
from engine.tokens import FRAIL, TOKEN_PATTERN, YOU, Vocabulary, WordClass, WordRole

_is_token = re.compile(TOKEN_PATTERN).match
Piece = tuple[int, str, str, int, int]

EffectKind = Literal["property", "transform", "self"]
EffectStatus = Literal["active", "suppressed", "overridden"]


@dataclass(frozen=True, slots=True)
class RuleEffect:
    """What one rule does at move 0.

    ``kind``: ``property`` (``BABA IS YOU``), ``transform`` (``ROCK IS FLAG``) or
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
    (api.md §5). ``nouns`` maps every object left at move 0 to its noun, and
    ``properties`` every object that has any to its properties. ``hints`` holds the
    near-sentences, or the one ``rule-complexity`` hint when the board is over the
    parse budget (then there are no rules). ``problems`` are the level's validation
    problems, pointers relative to the level (empty when not asked for).
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
    as for a level inside a pack). Malformed entities and automata are skipped; a
    FRAIL word counts as a property even before the level opts in, so its rule
    shows while validation says what is missing.
    """
    doc = level.to_data() if isinstance(level, Level) else level
    problems = check_level(doc, nouns=nouns) if validate else ()
    entities = doc.get("entities") if isinstance(doc, Mapping) else None
    if not isinstance(entities, list) or len(entities) > MAX_ENTITIES:
        return LevelAnalysis(problems=problems)
    pieces = _pieces(entities)
    automata = _automata(doc.get("automata"))
    frail = _declares_frail(doc.get("mechanics")) or any(p[2] == FRAIL for p in pieces)
    vocabulary = Vocabulary.for_level(
        frail=frail, automaton_properties=_automaton_words(doc.get("automata"))
    )
    words: list[WordTile] = [(i, name, x, y) for i, kind, name, x, y in pieces if kind == "word"]
    try:
        settled = settle_board(vocabulary, tuple(pieces), tuple(a.phase for a in automata))
    except RuleComplexityError as exc:
        return LevelAnalysis(hints=(_complexity_hint(words, vocabulary, exc),), problems=problems)
    frame = settled.frame
    rules = frame.rules
    table = RuleTable.build(rules, vocabulary)
    nouns_now = {i: name for i, kind, name, _, _ in frame.pieces if kind == "object"}
    properties = {i: props for i, n in nouns_now.items() if (props := table.properties.get(n))}
    settled_words = frame.words()
    return LevelAnalysis(
        rules=rules,
        effects=_effects(rules, vocabulary, table, nouns_now, settled.transformed),
        transformed=tuple(settled.transformed),
        destroyed=tuple(settled.destroyed),
        won=frame.won,
        control_lost=not any(YOU in p for p in properties.values()),
        nouns=nouns_now,
        properties=properties,
        automata=tuple(automaton_records(automata, frame, table)),
        frail_ids=tuple(i for i, p in properties.items() if FRAIL in p),
        hints=near_sentences(settled_words, vocabulary, rules),
        stacks=stack_choices(settled_words, rules),
        problems=problems,
    )


def check_level(
    level: Mapping[str, Any] | Level, *, nouns: Iterable[str] | None = None
) -> tuple[Problem, ...]:
    """The semantic and model problems of one level document, without raising.

    The same problems :func:`~engine.load_level` reports (pointers relative to the
    level), less its JSON Schema pass, which the models agree with: the editor
    asks this after every edit. With ``nouns`` (the pack's noun vocabulary), nouns
    outside it are problems too, as in a pack.
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
    try:
        model = Level.model_validate(level)
    except PydanticError as exc:  # rare in an editor: name it as load_level would
        return tuple(schema_problems("level", level) or model_problems(exc, level))
    return tuple(level_problems(model, declared))


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
        if isinstance(w, str)
        and _is_token(w)
        and Vocabulary.builtin().role(w) is WordRole.NOUN
        and w != FRAIL
    )


def _declares_frail(raw: object) -> bool:
    return isinstance(raw, list) and any(
        isinstance(m, Mapping) and m.get("type") == "frail" for m in raw[:8]
    )


def _effects(
    rules: tuple[Rule, ...],
    vocabulary: Vocabulary,
    table: RuleTable,
    nouns: Mapping[int, str],
    transformed: list[Json],
) -> tuple[RuleEffect, ...]:
    by_noun: dict[str, list[int]] = {}
    for i, noun in nouns.items():
        by_noun.setdefault(noun, []).append(i)
    changed: dict[tuple[object, ...], list[int]] = {}
    for entry in transformed:
        rule = entry["rule"]
        key = (rule["subject"], rule["predicate"], tuple(rule["sourceIds"]), rule["axis"])
        changed.setdefault(key, []).append(int(entry["id"]))
    selfish = {r.subject: r for r in rules if r.subject == r.predicate}
    out: list[RuleEffect] = []
    for rule in rules:
        if vocabulary.classify(rule.predicate) is WordClass.PROPERTY:
            out.append(RuleEffect(rule, "property", tuple(by_noun.get(rule.subject, ()))))
        elif rule.subject == rule.predicate:
            out.append(RuleEffect(rule, "self", tuple(by_noun.get(rule.subject, ()))))
        else:
            key = (rule.subject, rule.predicate, rule.source_ids, rule.axis)
            ids = tuple(changed.get(key, ()))
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
        f"Too many ways to read the words in {where}: more than {exc.budget:,} candidate "
        "sentence paths. Remove some stacked words there."
    )
    return RuleHint("rule-complexity", message, cells, ids, None)
