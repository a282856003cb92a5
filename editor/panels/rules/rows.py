"""What the rules panel says, as plain values: one :class:`Row` per item of its tree.

Kept apart from Qt so the wording (effect summaries, hints, accessible text) is
built and tested as data, and so the panel can compare two readings row by row
and touch only the items that changed.

The rows, top to bottom: the parse-budget error when there is one; every rule in
engine order (a sentence with several rules becomes a row holding them); then
groups for what the settle did at move 0, why some words form no rule, which word
of each stack each rule uses, and the level's problems.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from editor.tasks.analysis import AnalysisState
from editor.values import Pos

Json = dict[str, Any]
ARROWS = {"horizontal": "→", "vertical": "↓"}
#: Rows shown in one group; an author fixes the first ones first.
MAX_GROUP_ROWS = 100
#: Rule rows shown. Real boards form a few dozen rules; stacked words under the
#: parse budget can form tens of thousands, which no one reads and which would
#: block the UI thread while the list is built.
MAX_RULE_ROWS = 1000


@dataclass(frozen=True, slots=True)
class Row:
    """One item of the panel. ``key`` stays equal across readings for the same thing.

    ``kind``: ``rule``, ``sentence``, ``group``, ``effect``, ``hint``, ``stack``,
    ``stack-word``, ``problem``, ``error`` or ``empty``. ``rule`` is
    ``Rule.to_dict()`` for rule rows only (the item's ``Qt.UserRole``). ``ids``
    are the entities selecting the row highlights; ``words`` the tokens drawn as
    tiles before ``summary``.
    """

    key: tuple[object, ...]
    kind: str
    text: str
    words: tuple[str, ...] = ()
    summary: str = ""
    accessible: str = ""
    tooltip: str = ""
    ids: tuple[int, ...] = ()
    rule: dict[str, object] | None = None
    severity: str = ""  # "", "warning" or "error"
    children: tuple[Row, ...] = ()


def plural(noun: str, count: int) -> str:
    """``1 baba``, ``3 rocks``, ``2 grasses``: object counts as an author says them."""
    word = noun.lower()
    if count != 1:
        word += "es" if word.endswith(("s", "x", "ch", "sh")) else "s"
    return f"{count} {word}" if count else f"no {noun.lower()}"


def cells_text(cells: Iterable[Pos | tuple[int, int]]) -> str:
    return ", ".join(f"({x}, {y})" for x, y in cells)


def effect_summary(effect: engine.RuleEffect) -> str:
    """What a rule does at move 0, e.g. ``YOU: 1 baba`` or ``ROCK → FLAG: 3 rocks``."""
    rule = effect.rule
    count = len(effect.object_ids)
    if effect.kind == "property":
        return f"{rule.predicate}: {plural(rule.subject, count)}"
    if effect.kind == "self":
        return f"keeps {rule.subject} as {rule.subject}: {plural(rule.subject, count)}"
    head = f"{rule.subject} → {rule.predicate}"
    if effect.status == "suppressed" and effect.by is not None:
        return f"{head}: suppressed by {effect.by}"
    if effect.status == "overridden" and effect.by is not None:
        return f"{head}: no effect, {effect.by} comes first"
    return f"{head}: {plural(rule.subject, count)}"


def build_rows(state: AnalysisState | None) -> tuple[Row, ...]:
    """Every row of the panel for one reading (``None``: no level, or not read yet)."""
    if state is None:
        return ()
    analysis = state.analysis
    rows: list[Row] = []
    error = analysis.complexity
    if error is not None:
        rows.append(
            Row(
                ("error", "rule-complexity"),
                "error",
                error.message,
                accessible=error.message,
                tooltip=f"{error.message}\nWords at {cells_text(error.cells[:8])}",
                ids=error.word_ids,
                severity="error",
            )
        )
    rows += _rule_rows(state)
    if not analysis.rules and error is None:
        text = "No rules yet: paint words such as BABA IS YOU in a row or a column"
        rows.append(Row(("empty",), "empty", text, accessible=text))
    for group in (_settle_group(state), _hint_group(state), _stack_group(state)):
        if group is not None:
            rows.append(group)
    problems = _problem_group(analysis.problems)
    if problems is not None:
        rows.append(problems)
    return tuple(rows)


def _rule_key(rule: engine.Rule) -> tuple[object, ...]:
    return ("rule", rule.subject, rule.predicate, rule.source_ids, rule.axis)


def _rule_rows(state: AnalysisState) -> list[Row]:
    effects = {e.rule: e for e in state.analysis.effects}
    stacks = state.analysis.stacks
    rows: list[Row] = []
    sentence: list[engine.Rule] = []

    def flush() -> None:
        if not sentence:
            return
        children = tuple(
            _rule_row(state, r, effects.get(r), stacks, len(sentence) > 1) for r in sentence
        )
        if len(children) == 1:
            rows.append(children[0])
        else:
            first = sentence[0]
            words = tuple(text for text, _ in state.rule_words(first))
            arrow = ARROWS.get(first.axis, "")
            text = " ".join(words)
            rows.append(
                Row(
                    ("sentence", first.source_ids, first.axis),
                    "sentence",
                    f"{text} {arrow}",
                    words=words,
                    summary=f"{arrow} {len(children)} rules",
                    accessible=f"{text}, {first.axis}, {len(children)} rules",
                    tooltip=f"{text}: a {first.axis} sentence giving {len(children)} rules",
                    ids=first.source_ids,
                    children=children,
                )
            )
        sentence.clear()

    rules = state.analysis.rules
    for rule in rules[:MAX_RULE_ROWS]:
        if sentence and (rule.source_ids, rule.axis) != (sentence[0].source_ids, sentence[0].axis):
            flush()
        sentence.append(rule)
    flush()
    if len(rules) > MAX_RULE_ROWS:
        text = f"… and {len(rules) - MAX_RULE_ROWS:,} more rules (stacked words form them)"
        rows.append(Row(("more-rules",), "empty", text, accessible=text))
    return rows


def _rule_row(
    state: AnalysisState,
    rule: engine.Rule,
    effect: engine.RuleEffect | None,
    stacks: Sequence[engine.StackChoice],
    in_sentence: bool,
) -> Row:
    summary = effect_summary(effect) if effect is not None else ""
    positions = [pos for _, pos in state.rule_words(rule)]
    where = cells_text(positions)
    arrow = ARROWS.get(rule.axis, "")
    notes = [
        f"uses {choice.texts[choice.word_ids.index(used)]} from the stack "
        f"[{'+'.join(choice.texts)}] at ({choice.cell[0]}, {choice.cell[1]})"
        for choice in stacks
        if (used := choice.word_for(rule)) is not None
    ]
    tooltip = "\n".join([f"{rule} — {rule.axis}, words at {where}", summary, *notes])
    return Row(
        _rule_key(rule),
        "rule",
        f"{rule}  {summary}",
        words=(rule.subject, "IS", rule.predicate),
        summary=summary if in_sentence else f"{arrow} {summary}",
        accessible=f"{rule}, words at {where}",
        tooltip=tooltip,
        ids=rule.source_ids,
        rule=rule.to_dict(),
        severity="warning" if effect is not None and effect.status != "active" else "",
    )


def _group(key: str, title: str, children: list[Row]) -> Row | None:
    if not children:
        return None
    shown = tuple(children[:MAX_GROUP_ROWS])
    text = f"{title} ({len(children)})"
    return Row(("group", key), "group", text, accessible=text, children=shown)


def _settle_group(state: AnalysisState) -> Row | None:
    """What the settle changed: transformations, suppressions, sinks and defeats, win, no YOU.

    Stops building rows at :data:`MAX_GROUP_ROWS` (a board that sinks thousands of
    objects at move 0 still updates the panel quickly) and counts the rest.
    """
    analysis = state.analysis
    rows: list[Row] = []
    for effect in analysis.effects:
        if effect.kind == "transform" and effect.object_ids:
            rule = effect.rule
            text = (
                f"{plural(rule.subject, len(effect.object_ids))} become {rule.predicate} ({rule})"
            )
            key: tuple[object, ...] = (
                "settle",
                "transform",
                rule.subject,
                rule.predicate,
                rule.source_ids,
            )
            rows.append(Row(key, "effect", text, accessible=text, ids=effect.object_ids))
    keepers = {e.rule: e.object_ids for e in analysis.effects if e.kind == "self"}
    for effect in analysis.effects:
        if effect.status == "suppressed" and effect.by is not None:
            kept = keepers.get(effect.by, ())
            text = (
                f"{effect.by} keeps {plural(effect.rule.subject, len(kept))} from becoming "
                f"{effect.rule.predicate}"
            )
            key = ("settle", "suppressed", effect.rule.subject, effect.rule.predicate)
            rows.append(Row(key, "effect", text, accessible=text, ids=kept))
    if analysis.won:
        text = "The level is won at move 0: a YOU object already stands on WIN"
        rows.append(Row(("settle", "won"), "effect", text, accessible=text, severity="warning"))
    if analysis.control_lost and analysis.complexity is None:
        text = "No YOU at move 0: the player controls nothing"
        rows.append(Row(("settle", "no-you"), "effect", text, accessible=text, severity="warning"))
    by_cell: dict[tuple[str, tuple[int, int]], list[Json]] = {}
    shown = 0
    for entry in analysis.destroyed:  # grouped by cell already: sinks, then defeats
        at = entry["at"]
        where = (str(entry["cause"]), (int(at[0]), int(at[1])))
        if where not in by_cell and len(rows) + len(by_cell) >= MAX_GROUP_ROWS:
            break
        by_cell.setdefault(where, []).append(entry)
        shown += 1
    for (cause, (x, y)), entries in by_cell.items():
        names = ", ".join(
            str(e["noun"]).lower() if "noun" in e else str(e["text"]) for e in entries
        )
        verb = "sink" if cause == "sink" else "are defeated" if len(entries) > 1 else "is defeated"
        if cause == "sink" and len(entries) == 1:
            verb = "sinks"
        text = f"{names} {verb} at ({x}, {y})"
        destroyed = tuple(int(e["id"]) for e in entries)
        key = ("settle", cause, x, y)
        rows.append(Row(key, "effect", text, accessible=text, ids=destroyed, severity="warning"))
    more = len(analysis.destroyed) - shown
    if more:
        text = f"… and {more:,} more entities sink or are defeated at move 0"
        rows.append(Row(("settle", "more"), "effect", text, accessible=text))
    return _group("settle", "At move 0", rows)


def _hint_group(state: AnalysisState) -> Row | None:
    rows = [
        Row(
            ("hint", hint.code, hint.cells, hint.axis),
            "hint",
            hint.message,
            accessible=f"{hint.message}, words at {cells_text(hint.cells)}",
            tooltip=f"{hint.message}\nWords at {cells_text(hint.cells)}",
            ids=hint.word_ids,
            severity="warning",
        )
        for hint in state.analysis.hints
        if hint.code != "rule-complexity"
    ]
    return _group("hints", "Why is this not a rule?", rows)


def _stack_group(state: AnalysisState) -> Row | None:
    rows: list[Row] = []
    for choice in state.analysis.stacks:
        x, y = choice.cell
        children: list[Row] = []
        parts: list[str] = []
        for word_id, text in zip(choice.word_ids, choice.texts, strict=True):
            users = [str(rule) for rule, used in choice.uses if used == word_id]
            summary = f"used by {', '.join(users)}" if users else "used by no rule"
            parts.append(f"{text}: {', '.join(users) if users else 'no rule'}")
            children.append(
                Row(
                    ("stack-word", word_id),
                    "stack-word",
                    f"{text}  {summary}",
                    words=(text,),
                    summary=summary,
                    accessible=f"{text} at ({x}, {y}), {summary}",
                    ids=(word_id,),
                )
            )
        stack = "+".join(choice.texts)
        text = f"[{stack}] at ({x}, {y})"
        rows.append(
            Row(
                ("stack", choice.cell),
                "stack",
                text,
                words=choice.texts,
                summary=f"at ({x}, {y})",
                accessible=f"Stacked words {', '.join(choice.texts)} at ({x}, {y}): {'; '.join(parts)}",
                tooltip="\n".join(parts),
                ids=choice.word_ids,
                children=tuple(children),
            )
        )
    return _group("stacks", "Stacked words", rows)


def _problem_group(problems: Sequence[engine.Problem]) -> Row | None:
    rows = [
        Row(
            ("problem", p.pointer, p.code, n),
            "problem",
            p.message,
            accessible=f"{p.message} ({p.pointer})",
            tooltip=f"{p.pointer or '/'}: {p.message} [{p.code}]",
            severity="error",
        )
        for n, p in enumerate(problems)
    ]
    return _group("problems", "Problems", rows)
