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
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from editor.values import OBJECT, Pos, Stamp
from editor.views.stacking import authored_order, lift_movers, start_z

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


class Frame:
    """The board after one turn: every entity with its drawing order.

    A frame holds a tuple of entities (ascending id); the per-id index, the
    per-cell stacks and their looks are built when asked and can be dropped
    again (:meth:`forget`), so a long game keeps a pointer per entity per turn.
    :func:`next_frame` builds the next frame's stacks from this one's, touching
    only the cells a turn changed.
    """

    __slots__ = ("_by_id", "_looks", "_stacks", "entities", "height", "top", "width")

    def __init__(
        self,
        width: int,
        height: int,
        entities: tuple[Shown, ...],
        top: int,
        *,
        stacks: dict[Pos, tuple[Shown, ...]] | None = None,
        looks: dict[Pos, tuple[Stamp, ...]] | None = None,
    ) -> None:
        self.width, self.height, self.entities, self.top = width, height, entities, top
        self._by_id: dict[int, Shown] | None = None
        self._stacks = stacks
        self._looks = looks

    @property
    def pieces(self) -> Mapping[int, Shown]:
        """The entities by id."""
        if self._by_id is None:
            self._by_id = {s.id: s for s in self.entities}
        return self._by_id

    def stacks(self) -> Mapping[Pos, tuple[Shown, ...]]:
        """Each non-empty cell's entities, bottom first."""
        if self._stacks is None:
            cells: dict[Pos, list[Shown]] = {}
            for shown in self.entities:
                cells.setdefault(Pos(shown.x, shown.y), []).append(shown)
            self._stacks = {pos: tuple(sorted(stack, key=_by_z)) for pos, stack in cells.items()}
        return self._stacks

    def looks(self, leave_out: frozenset[int] = frozenset()) -> dict[Pos, tuple[Stamp, ...]]:
        """Each non-empty cell's stack as stamps, bottom first (without ``leave_out``)."""
        if not leave_out:
            if self._looks is None:
                self._looks = {p: _look(s) for p, s in self.stacks().items()}
            return self._looks
        looks = dict(self.looks())
        for shown in self.entities:
            if shown.id in leave_out:
                pos = Pos(shown.x, shown.y)
                rest = tuple(s for s in self.stacks()[pos] if s.id not in leave_out)
                if rest:
                    looks[pos] = _look(rest)
                else:
                    looks.pop(pos, None)
        return looks

    def at(self, pos: Pos) -> tuple[Shown, ...]:
        """The entities in one cell, bottom first."""
        return self.stacks().get(pos, ())

    def forget(self) -> None:
        """Drop the built indexes (they are rebuilt when asked again)."""
        self._by_id = self._stacks = self._looks = None


def _by_z(shown: Shown) -> int:
    return shown.z


def _look(stack: tuple[Shown, ...]) -> tuple[Stamp, ...]:
    return tuple(s.stamp for s in stack)


def first_frame(level_data: Mapping[str, Any], state: Mapping[str, Any]) -> Frame:
    """The settled start: entities stacked in the level's authored order (``stacking``)."""
    order = authored_order(level_data.get("entities", []))
    entities = []
    for record in state["entities"]:
        entity_id = int(record["id"])
        z = start_z(order, entity_id)
        entities.append(Shown(entity_id, stamp_of(record), int(record["x"]), int(record["y"]), z))
    top = max((s.z for s in entities), default=0)
    return Frame(int(state["width"]), int(state["height"]), tuple(entities), top)


def next_frame(before: Frame, state: Mapping[str, Any], event: Mapping[str, Any]) -> Frame:
    """The frame after an accepted step: movers go on top in resolution order (``stacking``)."""
    raised, top = lift_movers(before.top, event)
    old = before.pieces
    entities: list[Shown] = []
    changed: dict[int, Shown] = {}
    for record in state["entities"]:
        entity_id = int(record["id"])
        stamp, x, y = stamp_of(record), int(record["x"]), int(record["y"])
        previous = old.get(entity_id)
        z = raised.get(entity_id, previous.z if previous is not None else top + 1)
        top = max(top, z)
        if previous is not None and previous == (entity_id, stamp, x, y, z):
            entities.append(previous)  # shared: an unchanged entity costs a pointer
        else:
            shown = Shown(entity_id, stamp, x, y, z)
            entities.append(shown)
            changed[entity_id] = shown
    gone = set(old).difference(s.id for s in entities)
    stacks, looks = _patched(before, changed, gone)
    return Frame(before.width, before.height, tuple(entities), top, stacks=stacks, looks=looks)


def _patched(
    before: Frame, changed: Mapping[int, Shown], gone: set[int]
) -> tuple[dict[Pos, tuple[Shown, ...]], dict[Pos, tuple[Stamp, ...]]]:
    """The next frame's stacks and looks: ``before``'s, with the touched cells rebuilt."""
    old = before.pieces
    touched = {Pos(s.x, s.y) for s in changed.values()}
    touched.update(Pos(old[i].x, old[i].y) for i in (*changed, *gone) if i in old)
    leaving = set(changed) | gone
    stacks = dict(before.stacks())
    looks = dict(before.looks())
    arriving: dict[Pos, list[Shown]] = {}
    for shown in changed.values():
        arriving.setdefault(Pos(shown.x, shown.y), []).append(shown)
    for pos in touched:
        kept = [s for s in stacks.get(pos, ()) if s.id not in leaving]
        stack = tuple(sorted([*kept, *arriving.get(pos, [])], key=_by_z))
        if stack:
            stacks[pos], looks[pos] = stack, _look(stack)
        else:
            stacks.pop(pos, None)
            looks.pop(pos, None)
    return stacks, looks


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
