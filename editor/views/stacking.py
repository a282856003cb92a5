"""Which entity of a cell lies on top: one rule for the play board and every picture.

The engine's state lists entities in ascending id and does not say how a cell's
entities are stacked. The editor draws them the way an author expects from the
genre, everywhere the same (the canvas, the play board, PNG and GIF pictures,
thumbnails):

* before any move, in the level's authored order (its entity list, bottom first),
  the order the canvas shows; an entity the list does not hold (one the settle
  made) lies above the authored ones, in id order;
* after a move, what moved lies on top, in the order the turn resolved the moves
  (what arrives lies on top); the rest keep their places.

``z`` values order a cell's stack, bottom first; they only ever grow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def authored_order(entities: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """Each authored entity's ``z`` before any move: its place in the level's list."""
    return {int(e["id"]): i for i, e in enumerate(entities)}


def start_z(order: Mapping[int, int], entity_id: int) -> int:
    """An entity's ``z`` at the settled start (``order`` from :func:`authored_order`)."""
    return order.get(entity_id, len(order) + entity_id)


def lift_movers(top: int, event: Mapping[str, Any]) -> tuple[dict[int, int], int]:
    """The new ``z`` of every entity a turn moved, above ``top`` in resolution order.

    Returns them and the new top; an entity moved twice in one turn is lifted again.
    """
    raised: dict[int, int] = {}
    for move in event.get("moved", []):
        top += 1
        raised[int(move["id"])] = top
    return raised, top


def next_z(
    before: Mapping[int, int], top: int, event: Mapping[str, Any], ids: Iterable[int]
) -> tuple[dict[int, int], int]:
    """Every entity's ``z`` after an accepted turn: movers lifted, newcomers on top.

    ``before`` holds the ``z`` of the entities before the turn, ``ids`` are the
    entities after it (the state's, ascending).
    """
    raised, top = lift_movers(top, event)
    after: dict[int, int] = {}
    for entity_id in ids:
        z = raised.get(entity_id)
        if z is None:
            z = before.get(entity_id, top + 1)
        after[entity_id] = z
        top = max(top, z)
    return after, top
