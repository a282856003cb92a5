"""The level context: everything about a level that never changes during play.

Validation, the public turn and the compact path all read a level through one
:class:`LevelContext`, so they classify words and know the frail mechanic's map the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.model import Automaton, Level, ObjectEntity
from engine.tokens import Vocabulary

Piece = tuple[int, str, str, int, int]  # (id, kind, noun-or-text, x, y)


@dataclass(frozen=True, slots=True)
class LevelContext:
    """Everything about a level that never changes during play."""

    level: Level
    vocabulary: Vocabulary
    automata: tuple[Automaton, ...]
    leaves: dict[str, str] | None  # the frail mechanic's map, None when the level has not opted in
    nouns: frozenset[str]  # every noun an object of this level can ever carry
    kinds: dict[int, tuple[str, str | None]]  # id -> (kind, word text or None)

    @classmethod
    def of(cls, level: Level) -> LevelContext:
        frail = level.frail
        vocabulary = Vocabulary.for_level(
            frail=False,
            opted=[m.type for m in level.mechanics],
            automaton_properties=tuple(a.property for a in level.automata),
        )
        nouns: set[str] = set()
        kinds: dict[int, tuple[str, str | None]] = {}
        for e in level.entities:
            if isinstance(e, ObjectEntity):
                nouns.add(e.noun)
                kinds[e.id] = ("object", None)
            else:
                if vocabulary.is_noun(e.text):
                    nouns.add(e.text)
                kinds[e.id] = ("word", e.text)
        if frail is not None:
            nouns.update(frail.leaves)
            nouns.update(frail.leaves.values())
        return cls(
            level=level,
            vocabulary=vocabulary,
            automata=tuple(level.automata),
            leaves=dict(frail.leaves) if frail is not None else None,
            nouns=frozenset(nouns),
            kinds=kinds,
        )

    @property
    def width(self) -> int:
        return self.level.width

    @property
    def height(self) -> int:
        return self.level.height

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.level.width and 0 <= y < self.level.height

    def authored_pieces(self) -> tuple[Piece, ...]:
        pieces = (
            (e.id, e.kind, e.noun if isinstance(e, ObjectEntity) else e.text, e.x, e.y)
            for e in self.level.entities
        )
        return tuple(sorted(pieces))

    def authored_phases(self) -> tuple[int, ...]:
        return tuple(a.phase for a in self.automata)
