"""Entity records: the one place that writes them and the one checker that reads them.

A state record (``Game.state()``), every position of a snapshot and the compact
solver's codec all carry entities as ``{id, kind, noun|text, x, y}``. Restoring a
snapshot (:meth:`Game.from_snapshot`) and keying a position for the solver
(:meth:`CompactLevel.key_of`) both read such records from outside, so both call
:func:`check_entity_records`: the same fault gives the same problem, with the same
code and the same pointer under the caller's base, on both paths.

Only authoritative state is accepted (spec 04: hidden state fails closed):
a key beyond ``id, kind, noun|text, x, y`` is refused, and a per-object
``leaves`` map gets its own code (``per-object-leaves``), as it does in a pack.
"""

from __future__ import annotations

from typing import Any

from engine.context import LevelContext, Piece
from engine.errors import Problem, pointer, quoted

#: The keys of an entity record besides its noun (objects) or text (words).
_POSITION_KEYS = ("id", "kind", "x", "y")


def name_key(kind: str) -> str:
    """The key that holds what an entity is: ``noun`` for objects, ``text`` for words."""
    return "noun" if kind == "object" else "text"


def entity_record(piece: Piece) -> dict[str, Any]:
    """A piece as a state or snapshot entity record."""
    i, kind, name, x, y = piece
    return {"id": i, "kind": kind, name_key(kind): name, "x": x, "y": y}


def check_entity_records(
    ctx: LevelContext, items: object, base: str
) -> tuple[tuple[Piece, ...], list[Problem]]:
    """The pieces an entity list describes, and every problem found in it.

    ``base`` is the list's JSON Pointer in the caller's document (``/current/entities``
    for a snapshot, ``/entities`` for a state record); each problem lies under it.
    An entity the list leaves out is gone. The pieces are meaningful only when the
    problem list is empty.
    """
    problems: list[Problem] = []
    if not isinstance(items, list):
        return (), [Problem(base, "wrong-type", "entities must be a list")]
    pieces: dict[int, Piece] = {}
    for n, item in enumerate(items):
        where = f"{base}/{n}"
        found = _entity_problems(ctx, item, pieces)
        if found:
            problems += [Problem(where + suffix, code, message) for suffix, code, message in found]
            continue
        assert isinstance(item, dict)  # _entity_problems made sure, and of every field
        kind = item["kind"]
        pieces[item["id"]] = (item["id"], kind, item[name_key(kind)], item["x"], item["y"])
    return tuple(pieces[i] for i in sorted(pieces)), problems


def _entity_problems(
    ctx: LevelContext, item: object, seen: dict[int, Piece]
) -> list[tuple[str, str, str]]:
    """``(pointer suffix, code, message)`` for each fault of one record, in a fixed order.

    Identity comes first (without a known id nothing else can be judged), then
    hidden state (every extra key is named), then what the level allows the
    entity to be and where.
    """
    if not isinstance(item, dict):
        return [("", "wrong-type", "an entity is an object")]
    i = item.get("id")
    expected = ctx.kinds.get(i) if type(i) is int else None
    if expected is None:
        return [("/id", "unknown-entity", f"the level has no entity {i!r}")]
    if i in seen:
        return [("/id", "duplicate-entity-id", f"entity {i} appears twice")]
    kind, text = expected
    if item.get("kind") != kind:
        return [("/kind", "bad-value", f"entity {i} is a {kind}")]
    found = [_extra_key(key) for key in item if key not in (*_POSITION_KEYS, name_key(kind))]
    name, x, y = item.get(name_key(kind)), item.get("x"), item.get("y")
    if kind == "word" and name != text:
        found.append(("/text", "bad-value", f"word {i} reads {text!r}"))
    elif kind == "object" and (not isinstance(name, str) or name not in ctx.nouns):
        found.append(("/noun", "unknown-noun", f"{name!r} is not a noun of this level"))
    elif type(x) is not int or type(y) is not int or not ctx.in_bounds(x, y):
        found.append(("", "out-of-bounds", f"position ({x!r}, {y!r}) is not on the grid"))
    return found


def _extra_key(key: object) -> tuple[str, str, str]:
    if key == "leaves":
        return (
            "/leaves",
            "per-object-leaves",
            "objects carry no 'leaves'; the FRAIL map is level data",
        )
    return (
        pointer(key),
        "unknown-field",
        f"unknown field {quoted(str(key))}: entity records carry only authoritative state",
    )
