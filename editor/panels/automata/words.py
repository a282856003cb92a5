"""What the automata form reads from the pack and from move 0, as plain functions.

The property words to offer, the cue and sound names to suggest (both from every
level of the pack, in a bounded walk), and the note under the property field:
whether a rule gives the property at move 0, and who carries it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from editor.documents.pack import PackDocument
from editor.tasks.move_zero import MoveZeroFacts

ANY_CARRIER = "any carrier"
#: Steps read for cue and sound suggestions: enough for any real pack, bounded for any file.
SUGGESTION_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    properties: tuple[str, ...]
    names: dict[str, tuple[str, ...]]  # "cue" and "sound": the names used


# One walk over the pack per change of its automata, not one per form refresh: the
# form asks three times each time it shows a step, and a pack has 10,000 levels.
_read: weakref.WeakKeyDictionary[PackDocument, tuple[int, _Vocabulary]] = (
    weakref.WeakKeyDictionary()
)


def _vocabulary(pack: PackDocument) -> _Vocabulary:
    version = pack.automata_version()
    known = _read.get(pack)
    if known is not None and known[0] == version:
        return known[1]
    properties: set[str] = set()
    names: dict[str, set[str]] = {"cue": set(), "sound": set()}
    budget = SUGGESTION_STEPS
    for level in pack.levels_with_automata():
        for automaton in level.automaton_records():
            if not isinstance(automaton, dict):
                continue
            if isinstance(automaton.get("property"), str):
                properties.add(automaton["property"])
            pattern = automaton.get("pattern")
            steps = pattern if isinstance(pattern, list) and budget > 0 else []
            for step in steps[:budget]:
                for key, found in names.items():
                    if isinstance(step, dict) and isinstance(step.get(key), str):
                        found.add(step[key])
            budget -= max(1, len(steps))
    made = _Vocabulary(tuple(sorted(properties)), {k: tuple(sorted(v)) for k, v in names.items()})
    _read[pack] = (version, made)
    return made


def automaton_words(pack: PackDocument | None) -> list[str]:
    """The automaton property words of every level of the pack, sorted."""
    return [] if pack is None else list(_vocabulary(pack).properties)


def step_names(pack: PackDocument | None, key: str) -> list[str]:
    """Cue (``key="cue"``) or sound names already used anywhere in the pack, sorted."""
    return [] if pack is None else list(_vocabulary(pack).names.get(key, ()))


def move_zero_note(record: dict[str, Any] | None, facts: MoveZeroFacts | None) -> tuple[str, str]:
    """The note under the property field and its kind ("warning" or "info")."""
    if record is None or facts is None:
        return "", "warning"
    if facts.problem is not None:
        return f"Move 0 unknown: {facts.problem}", "warning"
    entry = next((a for a in facts.automata if a.get("id") == record.get("id")), None)
    prop, subject = str(record.get("property", "")), record.get("subject")
    to = f" to {subject}" if subject else ""
    if not facts.givers(prop, subject if isinstance(subject, str) else None):
        return (
            f"No rule on the board gives {prop}{to} at move 0: "
            "this automaton will not act until such a rule forms."
        ), "warning"
    if entry is None or not entry.get("active"):
        return f"A rule gives {prop}{to} at move 0, but no object carries it there.", "warning"
    carriers = ", ".join(
        f"{g['noun']} {' '.join(f'#{i}' for i in g['instanceIds'])}"
        for g in entry.get("carriers", [])
    )
    return f"Active at move 0: {carriers}", "info"
