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

from engine.context import LevelContext, Piece
from engine.errors import Problem, RuleComplexityError, ValidationError, pointer
from engine.play.board import Frame
from engine.play.turn import automata_entries, read_rules

FORMAT = "rulegrid-snapshot"
VERSION = 1
_TOP_KEYS = ("format", "version", "level", "current", "history")
_FRAME_KEYS = ("entities", "rules", "moves", "won", "automata")


def entity_records(frame: Frame) -> list[dict[str, Any]]:
    """The frame's entities as state and snapshot records, ascending id."""
    return [_entity(p) for p in frame.pieces]


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


def _entity(piece: Piece) -> dict[str, Any]:
    i, kind, name, x, y = piece
    key = "noun" if kind == "object" else "text"
    return {"id": i, "kind": kind, key: name, "x": x, "y": y}


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
    pieces = _pieces(ctx, record.get("entities"), base + "/entities", problems)
    moves, won = record.get("moves"), record.get("won")
    if type(moves) is not int or moves < 0:
        problems.append(Problem(base + "/moves", "wrong-type", "moves must be a whole number >= 0"))
    if not isinstance(won, bool):
        problems.append(Problem(base + "/won", "wrong-type", "won must be true or false"))
    phases, flags = _automata(ctx, record.get("automata"), base + "/automata", problems)
    if len(problems) > before or pieces is None or phases is None:
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


def _pieces(
    ctx: LevelContext, items: object, base: str, problems: list[Problem]
) -> tuple[Piece, ...] | None:
    if not isinstance(items, list):
        problems.append(Problem(base, "wrong-type", "entities must be a list"))
        return None
    pieces: dict[int, Piece] = {}
    for n, item in enumerate(items):
        where = f"{base}/{n}"
        if not isinstance(item, dict):
            problems.append(Problem(where, "wrong-type", "an entity is an object"))
            continue
        i, kind = item.get("id"), item.get("kind")
        expected = ctx.kinds.get(i) if type(i) is int else None
        if expected is None or not isinstance(i, int):
            problems.append(
                Problem(where + "/id", "unknown-entity", f"the level has no entity {i!r}")
            )
            continue
        if i in pieces:
            problems.append(
                Problem(where + "/id", "duplicate-entity-id", f"entity {i} appears twice")
            )
            continue
        if kind != expected[0]:
            problems.append(Problem(where + "/kind", "bad-value", f"entity {i} is a {expected[0]}"))
            continue
        name_key = "noun" if kind == "object" else "text"
        for key in item:
            if key == "leaves":
                problems.append(
                    Problem(
                        where + "/leaves",
                        "per-object-leaves",
                        "objects carry no 'leaves'; the FRAIL map is level data",
                    )
                )
            elif key not in ("id", "kind", name_key, "x", "y"):
                problems.append(
                    Problem(
                        where + pointer(key),
                        "unknown-field",
                        f"unknown field '{key}': snapshots carry only authoritative state",
                    )
                )
        name, x, y = item.get(name_key), item.get("x"), item.get("y")
        if kind == "word" and name != expected[1]:
            problems.append(
                Problem(where + "/text", "bad-value", f"word {i} reads {expected[1]!r}")
            )
            continue
        if kind == "object" and (not isinstance(name, str) or name not in ctx.nouns):
            problems.append(
                Problem(where + "/noun", "unknown-noun", f"{name!r} is not a noun of this level")
            )
            continue
        if type(x) is not int or type(y) is not int or not ctx.in_bounds(x, y):
            problems.append(
                Problem(where, "out-of-bounds", f"position ({x!r}, {y!r}) is not on the grid")
            )
            continue
        assert isinstance(name, str)
        pieces[i] = (i, expected[0], name, x, y)
    return tuple(pieces[i] for i in sorted(pieces))


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
