"""What the play board shows after each turn, and how it moves from one turn to the next.

The engine's state record lists entities in ascending id; it does not say which of
several entities in one cell lies on top. A :class:`Frame` adds a drawing order:
the authored stacking to begin with, then every entity that moves in a turn goes
on top, in resolution order (what arrives lies on top, as in the genre). Frames
share the records of entities a turn did not change, so keeping one frame per turn
(the event log shows any of them) costs one pointer per entity, not a board copy.

:class:`Motion` is the difference between two frames, read with the turn's event:
the cells each entity slid through, and what faded (destroyed, crumbled to
nothing), changed (transformed, crumbled) or came back (undo, reset). The board
animates a motion; reduced motion skips it. Neither touches the game: the state
shown at the end of a turn is the frame, whatever was animated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from editor.documents.values import OBJECT, Pos, Stamp

Json = dict[str, Any]
FadeKind = Literal["destroyed", "transformed", "crumbled", "vanished", "appeared", "changed"]


class Shown(NamedTuple):
    """One entity as the play board draws it; ``z`` orders a cell's stack (bottom first)."""

    id: int
    stamp: Stamp
    x: int
    y: int
    z: int

    @property
    def pos(self) -> Pos:
        return Pos(self.x, self.y)


def stamp_of(record: Mapping[str, Any]) -> Stamp:
    """The stamp of an engine entity record (``{"kind", "noun" | "text", ...}``)."""
    kind = str(record["kind"])
    return Stamp(kind, str(record["noun"] if kind == OBJECT else record["text"]))


@dataclass(frozen=True, slots=True)
class Frame:
    """The board after one turn: every entity with its drawing order."""

    width: int
    height: int
    pieces: Mapping[int, Shown]
    top: int  # the largest z in use: the next entity to arrive gets top + 1
    _looks: dict[Pos, tuple[Stamp, ...]] = field(default_factory=dict, compare=False, repr=False)

    def looks(self, leave_out: frozenset[int] = frozenset()) -> dict[Pos, tuple[Stamp, ...]]:
        """Each non-empty cell's stack as stamps, bottom first (without ``leave_out``)."""
        if not leave_out and self._looks:
            return self._looks
        cells: dict[Pos, list[Shown]] = {}
        for shown in self.pieces.values():
            if shown.id not in leave_out:
                cells.setdefault(Pos(shown.x, shown.y), []).append(shown)
        looks = {
            pos: tuple(s.stamp for s in sorted(stack, key=_by_z)) for pos, stack in cells.items()
        }
        if not leave_out:
            self._looks.update(looks)
        return looks

    def at(self, pos: Pos) -> list[Shown]:
        """The entities in one cell, bottom first."""
        return sorted((s for s in self.pieces.values() if (s.x, s.y) == pos), key=_by_z)


def _by_z(shown: Shown) -> int:
    return shown.z


def first_frame(level_data: Mapping[str, Any], state: Mapping[str, Any]) -> Frame:
    """The settled start: entities stacked in the level's authored order."""
    order = {int(e["id"]): i for i, e in enumerate(level_data.get("entities", []))}
    pieces = {}
    for record in state["entities"]:
        entity_id = int(record["id"])
        z = order.get(entity_id, len(order) + entity_id)
        pieces[entity_id] = Shown(
            entity_id, stamp_of(record), int(record["x"]), int(record["y"]), z
        )
    top = max((s.z for s in pieces.values()), default=0)
    return Frame(int(state["width"]), int(state["height"]), pieces, top)


def next_frame(before: Frame, state: Mapping[str, Any], event: Mapping[str, Any]) -> Frame:
    """The frame after an accepted step: movers go on top in resolution order."""
    top = before.top
    raised: dict[int, int] = {}
    for move in event.get("moved", []):
        top += 1
        raised[int(move["id"])] = top  # a second move in one turn lifts it again
    pieces: dict[int, Shown] = {}
    old = before.pieces
    for record in state["entities"]:
        entity_id = int(record["id"])
        stamp, x, y = stamp_of(record), int(record["x"]), int(record["y"])
        previous = old.get(entity_id)
        z = raised.get(entity_id, previous.z if previous is not None else top + 1)
        if z > top:
            top = z
        if previous is not None and previous == (entity_id, stamp, x, y, z):
            pieces[entity_id] = previous  # shared: an unchanged entity costs a pointer
        else:
            pieces[entity_id] = Shown(entity_id, stamp, x, y, z)
    return Frame(before.width, before.height, pieces, top)


class Fade(NamedTuple):
    """An entity that changes look in place: ``after`` is ``None`` when it vanishes."""

    id: int
    before: Stamp | None
    after: Stamp | None
    pos: Pos
    kind: FadeKind


@dataclass(frozen=True, slots=True)
class Motion:
    """How the board goes from one frame to the next (animation only; never the state)."""

    slides: Mapping[int, tuple[Pos, ...]]  # the cells an entity passes, its start first
    fades: Mapping[int, Fade]

    @property
    def animated_ids(self) -> frozenset[int]:
        return frozenset(self.slides) | frozenset(self.fades)

    def __bool__(self) -> bool:
        return bool(self.slides or self.fades)


NO_MOTION = Motion({}, {})


def motion_between(before: Frame, after: Frame, event: Mapping[str, Any]) -> Motion:
    """The slides and fades from ``before`` to ``after`` for a step, an undo or a reset."""
    paths: dict[int, list[Pos]] = {}
    for move in event.get("moved", []):
        entity_id = int(move["id"])
        start, end = Pos(*move["from"]), Pos(*move["to"])
        path = paths.setdefault(entity_id, [start])
        if path[-1] != start:
            path.append(start)
        path.append(end)
    kinds = _fade_kinds(event)
    slides: dict[int, tuple[Pos, ...]] = {}
    fades: dict[int, Fade] = {}
    for entity_id, old in before.pieces.items():
        new = after.pieces.get(entity_id)
        if new is None:
            at = _destroyed_at(event, entity_id) or old.pos
            if entity_id in paths or at != old.pos:
                slides[entity_id] = _path(paths.get(entity_id), old.pos, at)
            fades[entity_id] = Fade(
                entity_id, old.stamp, None, at, kinds.get(entity_id, "vanished")
            )
            continue
        if new.pos != old.pos:
            slides[entity_id] = _path(paths.get(entity_id), old.pos, new.pos)
        if new.stamp != old.stamp:
            kind = kinds.get(entity_id, "changed")
            fades[entity_id] = Fade(entity_id, old.stamp, new.stamp, new.pos, kind)
    for entity_id, new in after.pieces.items():
        if entity_id not in before.pieces:
            fades[entity_id] = Fade(entity_id, None, new.stamp, new.pos, "appeared")
    return Motion(slides, fades)


def _path(moves: list[Pos] | None, start: Pos, end: Pos) -> tuple[Pos, ...]:
    if moves and moves[0] == start and moves[-1] == end:
        return tuple(moves)
    return (start, end)


def _fade_kinds(event: Mapping[str, Any]) -> dict[int, FadeKind]:
    kinds: dict[int, FadeKind] = {}
    for entry in event.get("transformed", []):
        kinds[int(entry["id"])] = "transformed"
    for entry in event.get("crumbled", []):
        kinds[int(entry["id"])] = "crumbled"
    for entry in event.get("destroyed", []):
        kinds[int(entry["id"])] = "destroyed"
    return kinds


def _destroyed_at(event: Mapping[str, Any], entity_id: int) -> Pos | None:
    for entry in event.get("destroyed", []):
        if int(entry["id"]) == entity_id:
            return Pos(*entry["at"])
    return None


def entity_name(stamp: Stamp | None, entity_id: int) -> str:
    """How the log and the beat panel name an entity: ``baba #19``, ``word TICK #30``."""
    if stamp is None:
        return f"#{entity_id}"
    if stamp.kind == OBJECT:
        return f"{stamp.token.lower()} #{entity_id}"
    return f"word {stamp.token} #{entity_id}"


def name_in(frames: Iterable[Frame], entity_id: int) -> str:
    """The entity's name in the first of ``frames`` that holds it."""
    for frame in frames:
        shown = frame.pieces.get(entity_id)
        if shown is not None:
            return entity_name(shown.stamp, entity_id)
    return entity_name(None, entity_id)
