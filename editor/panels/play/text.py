"""The words of test-play: beat feedback (spec 03) and the event log's lines.

Pure functions of the engine's records (``TurnEvent.to_dict()``, the automata
entries of the state): the beat panel, the event log, accessible names and the
tests all read the same sentences, so the visible and the accessible text can
never disagree.

Beat feedback reads one automaton entry. "next" means what it means in the
engine's record (docs/contract.md): ``pattern[phase]``, the step the next
accepted turn plays; the step after it (``pattern[(phase + 1) % len]``) is
"then". The board's carrier tags, their tooltips and the beat panel's visible
and accessible text all use these two words::

    clock: next ← move, then wait (step 1 of 2)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Json = Mapping[str, Any]
NameOf = Callable[[int], str]

ARROWS = {(0, -1): "↑", (0, 1): "↓", (-1, 0): "←", (1, 0): "→"}
DIRECTION_ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
DIRECTION_DELTAS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def step_label(step: Json) -> str:
    """``← move`` or ``wait``: one pattern step as the beat panel names it."""
    if step.get("action") == "move":
        arrow = ARROWS.get((int(step.get("dx", 0)), int(step.get("dy", 0))), "?")
        return f"{arrow} move"
    return "wait"


def next_and_then(entry: Json) -> tuple[Json, Json]:
    """``next`` (``pattern[phase]``, the step the next turn plays) and the step after it."""
    pattern: Sequence[Json] = entry.get("pattern") or [{"action": "wait"}]
    phase = int(entry.get("phase", 0)) % len(pattern)
    return pattern[phase], pattern[(phase + 1) % len(pattern)]


def beat_line(entry: Json) -> str:
    """The automaton's beat: its next pattern step, the one after, and why it may be paused."""
    pattern = entry.get("pattern") or [{"action": "wait"}]
    step, then = next_and_then(entry)
    phase = int(entry.get("phase", 0)) % len(pattern)
    line = (
        f"{entry['id']}: next {step_label(step)}, then {step_label(then)} "
        f"(step {phase + 1} of {len(pattern)})"
    )
    if not entry.get("active"):
        subject = entry.get("subject")
        why = (
            f"{subject} is not {entry['property']}"
            if subject
            else f"nothing is {entry['property']}"
        )
        line += f" — paused: {why}"
    return line


def cue_text(step: Json) -> str:
    """The step's cue and sound names, or the default treatment when it has none."""
    cue, sound = step.get("cue"), step.get("sound")
    parts = [f"cue {cue}" if cue else "default cue"]
    if sound:
        parts.append(f"sound {sound}")
    return ", ".join(parts)


def carriers_text(entry: Json, name_of: NameOf) -> str:
    ids = [int(i) for i in entry.get("instanceIds", [])]
    if not ids:
        return "no carrier"
    return "carriers: " + ", ".join(name_of(i) for i in ids)


def automated_line(entry: Json, name_of: NameOf, direction: str | None = None) -> str:
    """One ``automated`` record: what a carrier did on this beat."""
    who = name_of(int(entry["id"]))
    arrow = DIRECTION_ARROWS.get(direction or "", "")
    if entry.get("blocked"):
        blocked = entry["blocked"]
        by = (
            name_of(int(blocked["blockerId"]))
            if blocked.get("blockerId") is not None
            else "the edge"
        )
        text = f"{who} blocked {arrow} by {by} ({blocked.get('reason')})".replace("  ", " ")
    elif entry.get("action") == "move" and entry.get("from") is not None:
        text = f"{who} moved {arrow} {_cell(entry['from'])} → {_cell(entry['to'])}".replace(
            "  ", " "
        )
    else:
        text = f"{who} waits"
    extras = []
    if entry.get("cue"):
        extras.append(f"cue {entry['cue']}")
    if entry.get("sound"):
        extras.append(f"♪ {entry['sound']}")
    tail = " · " + " · ".join(extras) if extras else ""
    return f"{entry['automaton']}: {text}{tail}"


def beat_direction(before_entries: Sequence[Json], automaton: str) -> str | None:
    """The direction an automaton's move took this turn: its ``next`` step before the turn."""
    for entry in before_entries:
        if entry.get("id") == automaton:
            step = entry.get("next") or {}
            if step.get("action") == "move":
                delta = (int(step.get("dx", 0)), int(step.get("dy", 0)))
                for name, d in DIRECTION_DELTAS.items():
                    if d == delta:
                        return name
    return None


def rule_text(rule: Json) -> str:
    return f"{rule['subject']} IS {rule['predicate']}"


def turn_title(event: Json) -> str:
    """The log's line for one turn: ``9. ← left``, with the outcome when it changed."""
    direction = str(event.get("direction") or "")
    title = f"{event.get('moves')}. {DIRECTION_ARROWS.get(direction, '')} {direction}".rstrip()
    if event.get("won"):
        title += " · won"
    elif event.get("controlLost"):
        title += " · nothing is YOU"
    return title


def turn_lines(event: Json, name_of: NameOf, before_automata: Sequence[Json] = ()) -> list[str]:
    """Everything one turn did, one line each: moved, pushed, automated, transformed,
    destroyed, crumbled, rules added and removed (the event's own order)."""
    automated_moves = {
        (int(a["id"]), tuple(a["from"]), tuple(a["to"]))
        for a in event.get("automated", [])
        if a.get("from") is not None and a.get("to") is not None
    }
    lines = []
    for move in event.get("moved", []):
        key = (int(move["id"]), tuple(move["from"]), tuple(move["to"]))
        where = f"{_cell(move['from'])} → {_cell(move['to'])}"
        if move.get("pushedBy") is not None:
            lines.append(
                f"pushed {name_of(int(move['id']))} {where} by {name_of(int(move['pushedBy']))}"
            )
        elif key in automated_moves:
            lines.append(f"moved {name_of(int(move['id']))} {where} (its automaton)")
        else:
            lines.append(f"moved {name_of(int(move['id']))} {where}")
    for entry in event.get("automated", []):
        direction = beat_direction(before_automata, str(entry["automaton"]))
        lines.append("automated " + automated_line(entry, name_of, direction))
    for entry in event.get("transformed", []):
        lines.append(
            f"transformed {str(entry['from']).lower()} #{entry['id']} → "
            f"{str(entry['to']).lower()} ({rule_text(entry['rule'])})"
        )
    for entry in event.get("destroyed", []):
        token = entry.get("noun") or entry.get("text")
        lines.append(f"destroyed {token} #{entry['id']} at {_cell(entry['at'])} ({entry['cause']})")
    for entry in event.get("crumbled", []):
        to = entry.get("to") or "nothing"
        lines.append(f"crumbled {entry['from']} #{entry['id']} → {to}")
    lines.extend(f"rule added: {rule_text(r)}" for r in event.get("rulesAdded", []))
    lines.extend(f"rule removed: {rule_text(r)}" for r in event.get("rulesRemoved", []))
    return lines


def blocked_text(event: Json, name_of: NameOf) -> str:
    """Why a step was not accepted, in one short line for the status strip."""
    if event.get("won"):
        return "The level is solved: Z undoes, R resets."
    if event.get("controlLost"):
        return "Nothing is YOU: Z undoes, R resets."
    blocked = event.get("blocked", [])
    if not blocked:
        return "That move moves nothing."
    first = blocked[0]
    by = (
        name_of(int(first["blockerId"]))
        if first.get("blockerId") is not None
        else "the edge of the level"
    )
    return f"Blocked: {name_of(int(first['id']))} cannot move {first.get('dir')} ({by})."


def _cell(xy: Sequence[int]) -> str:
    return f"({xy[0]}, {xy[1]})"
