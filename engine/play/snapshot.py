"""Turn snapshots: the complete authoritative state of a game, history included.

A snapshot holds only what cannot be derived: every entity's id, kind, noun or
text and position, the move count, the win flag and each automaton's phase, for
the current position and for every position in the undo history. Carriers and
control are derived from the board on restore. The active rules and each
automaton's ``active`` flag are carried because the requirement documents ask for
them (01: "a turn snapshot SHALL include ... active rules"; 03: "active state"),
and both are checked against the board: a snapshot whose rules or flags disagree
with its words is rejected. Anything else (an
unknown key, a crumble counter, a per-object ``leaves`` map) is rejected too, so no
hidden state can ever ride along (spec 04, "Hidden FRAIL state fails closed").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.context import LevelContext
from engine.errors import Problem, RuleComplexityError, ValidationError, pointer
from engine.play.board import Frame
from engine.play.records import check_entity_records, entity_record
from engine.play.turn import automata_entries, read_rules

FORMAT = "rulegrid-snapshot"
VERSION = 1
_TOP_KEYS = ("format", "version", "level", "current", "history")
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


def encode(ctx: LevelContext, current: Frame, history: list[Frame]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "level": ctx.level.id,
        "current": frame_record(ctx, current),
        "history": [frame_record(ctx, f) for f in history],
    }


def decode(ctx: LevelContext, data: object) -> tuple[Frame, list[Frame]]:
    """Rebuild the current frame and the history from a snapshot, or raise.

    Raises:
        ValidationError: every problem, pointers into the snapshot document.
    """
    problems: list[Problem] = []
    frames: list[Frame | None] = []
    if not isinstance(data, dict):
        raise ValidationError.single(
            "", "wrong-type", "a snapshot is a JSON object", level=ctx.level.id
        )
    problems += _keys(data, _TOP_KEYS, "")
    if data.get("format") != FORMAT:
        problems.append(Problem("/format", "bad-value", f"expected format {FORMAT!r}"))
    if data.get("version") != VERSION:
        problems.append(Problem("/version", "bad-value", f"expected version {VERSION}"))
    if data.get("level") != ctx.level.id:
        problems.append(
            Problem(
                "/level",
                "level-mismatch",
                f"snapshot of level {data.get('level')!r}, not {ctx.level.id!r}",
            )
        )
    frames.append(_frame(ctx, data.get("current"), "/current", problems))
    history = data.get("history")
    if not isinstance(history, list):
        problems.append(Problem("/history", "wrong-type", "history must be a list"))
        history = []
    frames += [_frame(ctx, item, f"/history/{n}", problems) for n, item in enumerate(history)]
    if problems:
        raise ValidationError(p.located(pack=None, level=ctx.level.id) for p in problems)
    complete = [f for f in frames if f is not None]
    return complete[0], complete[1:]


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


def _frame(ctx: LevelContext, record: object, base: str, problems: list[Problem]) -> Frame | None:
    if not isinstance(record, dict):
        problems.append(Problem(base, "wrong-type", "expected an object"))
        return None
    before = len(problems)
    problems += _keys(record, _FRAME_KEYS, base)
    pieces, found = check_entity_records(ctx, record.get("entities"), base + "/entities")
    problems += found
    moves, won = record.get("moves"), record.get("won")
    if type(moves) is not int or moves < 0:
        problems.append(Problem(base + "/moves", "wrong-type", "moves must be a whole number >= 0"))
    if not isinstance(won, bool):
        problems.append(Problem(base + "/won", "wrong-type", "won must be true or false"))
    phases, flags = _automata(ctx, record.get("automata"), base + "/automata", problems)
    if len(problems) > before or phases is None:
        return None
    words = [(i, name, x, y) for i, kind, name, x, y in pieces if kind == "word"]
    try:
        rules = read_rules(ctx, words)
    except RuleComplexityError as exc:
        problems.append(Problem(base + "/entities", "rule-complexity", str(exc)))
        return None
    assert type(moves) is int
    assert isinstance(won, bool)
    if record.get("rules") != [r.to_dict() for r in rules]:
        problems.append(
            Problem(
                base + "/rules", "inconsistent-rules", "rules do not match the words on the board"
            )
        )
        return None
    frame = Frame(pieces, phases, moves, won, rules)
    for n, entry in enumerate(automata_entries(ctx, frame)):
        if entry["active"] != flags[n]:
            problems.append(
                Problem(
                    f"{base}/automata/{n}/active",
                    "inconsistent-active",
                    f"active is {flags[n]} but the board makes it {entry['active']}",
                )
            )
    return frame


def _automata(
    ctx: LevelContext, items: object, base: str, problems: list[Problem]
) -> tuple[tuple[int, ...] | None, list[bool]]:
    if not isinstance(items, list) or len(items) != len(ctx.automata):
        problems.append(
            Problem(base, "bad-size", f"expected one entry per automaton ({len(ctx.automata)})")
        )
        return None, []
    phases: list[int] = []
    flags: list[bool] = []
    for n, (automaton, item) in enumerate(zip(ctx.automata, items, strict=True)):
        where = f"{base}/{n}"
        if not isinstance(item, dict):
            problems.append(Problem(where, "wrong-type", "an automaton entry is an object"))
            continue
        problems.extend(_keys(item, ("id", "phase", "active"), where))
        if item.get("id") != automaton.id:
            problems.append(
                Problem(where + "/id", "bad-value", f"expected automaton {automaton.id!r}")
            )
        phase, active = item.get("phase"), item.get("active")
        if type(phase) is not int or not 0 <= phase < len(automaton.pattern):
            problems.append(
                Problem(
                    where + "/phase",
                    "phase-out-of-range",
                    f"phase must be in 0..{len(automaton.pattern) - 1}",
                )
            )
            phase = 0
        if not isinstance(active, bool):
            problems.append(
                Problem(where + "/active", "wrong-type", "active must be true or false")
            )
            active = False
        phases.append(phase)
        flags.append(active)
    return tuple(phases), flags
