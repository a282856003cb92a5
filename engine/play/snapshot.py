"""Turn snapshots: the complete authoritative state of a game, history included.

A snapshot holds only what cannot be derived: every entity's id, kind, noun or
text and position, the move count, the win flag and each automaton's phase, for
the current position and for every position in the undo history. Carriers and
control are derived from the board on restore. The active rules and each
automaton's ``active`` flag are carried because the requirements ask for
them (docs/contract.md: a turn snapshot includes the active rules and each
automaton's active state), and both are checked against the board: a snapshot
whose rules or flags disagree with its words is rejected. Anything else (an
unknown key, a crumble counter, a per-object ``leaves`` map) is rejected too, so no
hidden state can ever ride along (spec 04: hidden state fails closed).

The level's normalized automata declaration (``id``, optional ``subject``,
``property``, ``pattern`` and the declared start ``phase`` of each) rides along
once, at the top: a phase means something only under the pattern it counts in,
so a snapshot restored against a level whose declaration differs is refused at
the first difference (``automata-mismatch``) before any position is read. Once,
not per position: every position of one game has the same declaration, and a
long history would otherwise repeat it hundreds of times (docs/decisions.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine.context import LevelContext
from engine.errors import (
    Problem,
    ProblemList,
    RuleComplexityError,
    ValidationError,
    WorkLimitError,
    pointer,
)
from engine.limits import MAX_PROBLEMS, SNAPSHOT_PARSE_BUDGET
from engine.play.board import Direction, Frame
from engine.play.records import check_entity_records, entity_record
from engine.play.turn import automata_entries, cell_won, read_rules, resolve_step, table_for
from engine.rules import Meter, Rule, metered

FORMAT = "rulegrid-snapshot"
#: 2: the automata declaration is carried (version 1 named the level by id only).
VERSION = 2
_TOP_KEYS = ("format", "version", "level", "automata", "current", "history")
_FRAME_KEYS = ("entities", "rules", "moves", "won", "automata")


def entity_records(frame: Frame) -> list[dict[str, Any]]:
    """The frame's entities as state and snapshot records, ascending id."""
    return [entity_record(p) for p in frame.pieces]


def frame_record(ctx: LevelContext, frame: Frame) -> dict[str, Any]:
    active = [entry["active"] for entry in automata_entries(ctx, frame)]
    return {
        "entities": entity_records(frame),
        "rules": [r.to_dict() for r in frame.rules],
        "moves": frame.moves,
        "won": frame.won,
        "automata": [
            {"id": a.id, "phase": phase, "active": flag}
            for a, phase, flag in zip(ctx.automata, frame.phases, active, strict=True)
        ],
    }


def declaration(ctx: LevelContext) -> list[dict[str, Any]]:
    """The level's automata as normalized records, the way the level document holds them."""
    return [a.to_data() for a in ctx.automata]


def encode(ctx: LevelContext, current: Frame, history: list[Frame]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "level": ctx.level.id,
        "automata": declaration(ctx),
        "current": frame_record(ctx, current),
        "history": [frame_record(ctx, f) for f in history],
    }


def decode(ctx: LevelContext, data: object, start: Frame) -> tuple[Frame, list[Frame]]:
    """Rebuild the current frame and the history from a snapshot, or raise.

    ``start`` is the level's settled start; the move counts and win flags must be
    what the history can produce (:func:`_consistency`).
    At most :data:`~engine.limits.MAX_PROBLEMS` problems are listed (the rest are
    counted), and the rule reading of all positions together is bounded by
    :data:`~engine.limits.SNAPSHOT_PARSE_BUDGET`; positions with the same words
    are read once.

    Raises:
        ValidationError: the problems found, pointers into the snapshot document.
    """
    problems = ProblemList(MAX_PROBLEMS)
    frames: list[Frame | None] = []
    if not isinstance(data, dict):
        raise ValidationError.single(
            "", "wrong-type", "a snapshot is a JSON object", level=ctx.level.id
        )
    problems.extend(_keys(data, _TOP_KEYS, ""))
    if data.get("format") != FORMAT:
        problems.add(Problem("/format", "bad-value", f"expected format {FORMAT!r}"))
    if data.get("version") != VERSION:
        older = (
            " (version 1 did not carry the automata declaration)"
            if data.get("version") == 1
            else ""
        )
        problems.add(Problem("/version", "bad-value", f"expected version {VERSION}{older}"))
    if data.get("level") != ctx.level.id:
        problems.add(
            Problem(
                "/level",
                "level-mismatch",
                f"snapshot of level {str(data.get('level'))[:80]!r}, not {ctx.level.id!r}",
            )
        )
    given = data.get("automata", declaration(ctx))  # a missing one is reported above
    differs = first_difference(declaration(ctx), given, "/automata")
    if differs is not None:  # taken under another declaration: its phases mean nothing here
        problems.add(differs)
        listed = problems.listed(level=ctx.level.id)
        raise ValidationError(p.located(pack=None, level=ctx.level.id) for p in listed)
    history = data.get("history")
    if not isinstance(history, list):
        problems.add(Problem("/history", "wrong-type", "history must be a list"))
        history = []
    reader = _Reader(ctx)
    try:
        with metered(Meter(SNAPSHOT_PARSE_BUDGET, "this snapshot's positions")):
            frames.append(_frame(reader, data.get("current"), "/current", problems))
            frames += [
                _frame(reader, item, f"/history/{n}", problems) for n, item in enumerate(history)
            ]
    except WorkLimitError as exc:
        problems.add(Problem("/history", "too-much-work", str(exc)))
    if not problems:
        complete = [f for f in frames if f is not None]
        problems.extend(_consistency(ctx, complete[0], complete[1:], start))
    if problems:
        listed = problems.listed(level=ctx.level.id)
        raise ValidationError(p.located(pack=None, level=ctx.level.id) for p in listed)
    complete = [f for f in frames if f is not None]
    return complete[0], complete[1:]


def _consistency(
    ctx: LevelContext, current: Frame, history: list[Frame], start: Frame
) -> Iterator[Problem]:
    """What the history says about the move counts and win flags, checked.

    The undo history holds the position before each accepted step, so position
    ``n`` is after ``n`` moves and none is won (no step is played from a won
    position). The current position's ``won`` is what its board shows (a cell
    where a winning contact holds under its rules), or, when a word was destroyed in the
    last step (the rules were read again after the win was decided), what replaying
    that step gives.
    """
    for n, frame in enumerate(history):
        if frame.moves != n:
            yield Problem(
                f"/history/{n}/moves",
                "inconsistent-moves",
                f"position {n} of the history comes after {n} moves, not {frame.moves}",
            )
        if frame.won:
            yield Problem(
                f"/history/{n}/won",
                "inconsistent-won",
                "a position in the history is never won: no move is played from a won one",
            )
    if current.moves != len(history):
        yield Problem(
            "/current/moves",
            "inconsistent-moves",
            f"after a history of {len(history)} positions the current one comes after "
            f"{len(history)} moves, not {current.moves}",
        )
    if current.won != _expected_win(ctx, history, current, start):
        shows = " or ".join(c.shows for _, c in ctx.vocabulary.mechanics.wins)
        yield Problem(
            "/current/won",
            "inconsistent-won",
            f"won is {'true' if current.won else 'false'} but the board shows "
            f"{'no' if current.won else 'a'} {shows}",
        )


def _shows_win(ctx: LevelContext, frame: Frame) -> bool:
    table = table_for(ctx, frame.rules)
    cells: dict[tuple[int, int], list[tuple[int, str, str]]] = {}
    for i, kind, name, x, y in frame.pieces:
        cells.setdefault((x, y), []).append((i, kind, name))
    return any(cell_won(here, table) for here in cells.values())


def _expected_win(ctx: LevelContext, history: list[Frame], current: Frame, start: Frame) -> bool:
    """What ``won`` must be: what the board shows, unless a word sank in the last step.

    The settled start knows its own answer. After a step that destroyed a word,
    the step that leads from the last position to this one is played again and
    its answer is the one (the win was decided with the rules read before).
    """
    if not history:
        if (current.pieces, current.phases) == (start.pieces, start.phases):
            return start.won
        return _shows_win(ctx, current)
    before = history[-1]
    here = {piece[0] for piece in current.pieces}
    if all(i in here for i, kind, *_ in before.pieces if kind == "word"):
        return _shows_win(ctx, current)
    for direction in Direction:
        frame, _event = resolve_step(ctx, before, direction)
        if frame is not None and (frame.pieces, frame.phases) == (current.pieces, current.phases):
            return frame.won
    return _shows_win(ctx, current)


def first_difference(expected: object, given: object, base: str) -> Problem | None:
    """Where ``given`` first departs from ``expected`` (document order), as a problem.

    Keys are visited in the expected record's order, then the keys only ``given``
    has; list items by index. ``1`` and ``true`` differ (JSON types are compared),
    so the walk is exact. It never looks further than ``expected`` reaches, so its
    cost is bounded by the level's own declaration, whatever ``given`` holds.
    """
    if isinstance(expected, dict) and isinstance(given, dict):
        for key, value in expected.items():
            where = base + pointer(key)
            if key not in given:
                return _mismatch(where, f"the level has {_short(value)} here, the snapshot none")
            found = first_difference(value, given[key], where)
            if found is not None:
                return found
        for key in given:
            if key not in expected:
                return _mismatch(
                    base + pointer(str(key)),
                    f"the snapshot has {str(key)[:40]!r} here, the level none",
                )
        return None
    if isinstance(expected, list) and isinstance(given, list):
        for n, value in enumerate(expected):
            if n >= len(given):
                return _mismatch(
                    f"{base}/{n}",
                    f"the level has {len(expected)} items here, the snapshot {len(given)}",
                )
            found = first_difference(value, given[n], f"{base}/{n}")
            if found is not None:
                return found
        if len(given) > len(expected):
            return _mismatch(
                f"{base}/{len(expected)}",
                f"the level has {len(expected)} items here, the snapshot {len(given):,}",
            )
        return None
    if type(expected) is type(given) and expected == given:
        return None
    return _mismatch(base, f"the level has {_short(expected)}, the snapshot {_short(given)}")


def _mismatch(where: str, detail: str) -> Problem:
    return Problem(
        where,
        "automata-mismatch",
        f"the snapshot was taken under another automata declaration: {detail}",
    )


def _short(value: object) -> str:
    """A value as a message quotes it: JSON for a scalar, the shape for the rest."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value):,}"
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


class _Reader:
    """Reads the rules of a snapshot's positions, once for each arrangement of words."""

    def __init__(self, ctx: LevelContext) -> None:
        self.ctx = ctx
        self._seen: dict[tuple[tuple[int, str, int, int], ...], tuple[Rule, ...]] = {}

    def rules(self, words: list[tuple[int, str, int, int]]) -> tuple[Rule, ...]:
        key = tuple(words)
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = read_rules(self.ctx, words)
        return found


def _keys(record: dict[str, Any], allowed: tuple[str, ...], base: str) -> Iterator[Problem]:
    for key in allowed:
        if key not in record:
            yield Problem(base + pointer(key), "missing-field", f"missing required field '{key}'")
    for key in record:
        if key not in allowed:
            yield Problem(
                base + pointer(key),
                "unknown-field",
                f"unknown field '{key}': snapshots carry only authoritative state",
            )


def _frame(reader: _Reader, record: object, base: str, problems: ProblemList) -> Frame | None:
    ctx = reader.ctx
    if not isinstance(record, dict):
        problems.add(Problem(base, "wrong-type", "expected an object"))
        return None
    before = problems.total
    problems.extend(_keys(record, _FRAME_KEYS, base))
    pieces, found = check_entity_records(ctx, record.get("entities"), base + "/entities")
    problems.extend(found)
    moves, won = record.get("moves"), record.get("won")
    if type(moves) is not int or moves < 0:
        problems.add(Problem(base + "/moves", "wrong-type", "moves must be a whole number >= 0"))
    if not isinstance(won, bool):
        problems.add(Problem(base + "/won", "wrong-type", "won must be true or false"))
    phases, flags = _automata(ctx, record.get("automata"), base + "/automata", problems)
    if problems.total > before or phases is None:
        return None
    words = [(i, name, x, y) for i, kind, name, x, y in pieces if kind == "word"]
    try:
        rules = reader.rules(words)
    except RuleComplexityError as exc:
        problems.add(Problem(base + "/entities", "rule-complexity", str(exc)))
        return None
    assert type(moves) is int
    assert isinstance(won, bool)
    if record.get("rules") != [r.to_dict() for r in rules]:
        problems.add(
            Problem(
                base + "/rules", "inconsistent-rules", "rules do not match the words on the board"
            )
        )
        return None
    frame = Frame(pieces, phases, moves, won, rules)
    for n, entry in enumerate(automata_entries(ctx, frame)):
        if entry["active"] != flags[n]:
            problems.add(
                Problem(
                    f"{base}/automata/{n}/active",
                    "inconsistent-active",
                    f"active is {flags[n]} but the board makes it {entry['active']}",
                )
            )
    return frame


def _automata(
    ctx: LevelContext, items: object, base: str, problems: ProblemList
) -> tuple[tuple[int, ...] | None, list[bool]]:
    if not isinstance(items, list) or len(items) != len(ctx.automata):
        problems.add(
            Problem(base, "bad-size", f"expected one entry per automaton ({len(ctx.automata)})")
        )
        return None, []
    phases: list[int] = []
    flags: list[bool] = []
    for n, (automaton, item) in enumerate(zip(ctx.automata, items, strict=True)):
        where = f"{base}/{n}"
        if not isinstance(item, dict):
            problems.add(Problem(where, "wrong-type", "an automaton entry is an object"))
            continue
        problems.extend(_keys(item, ("id", "phase", "active"), where))
        if item.get("id") != automaton.id:
            problems.add(
                Problem(where + "/id", "bad-value", f"expected automaton {automaton.id!r}")
            )
        phase, active = item.get("phase"), item.get("active")
        if type(phase) is not int or not 0 <= phase < len(automaton.pattern):
            problems.add(
                Problem(
                    where + "/phase",
                    "phase-out-of-range",
                    f"phase must be in 0..{len(automaton.pattern) - 1}",
                )
            )
            phase = 0
        if not isinstance(active, bool):
            problems.add(Problem(where + "/active", "wrong-type", "active must be true or false"))
            active = False
        phases.append(phase)
        flags.append(active)
    return tuple(phases), flags
