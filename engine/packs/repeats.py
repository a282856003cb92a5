"""One mistake, one problem: repeats of a problem are counted, not listed.

A noun missing from the pack and used by forty entities is one mistake; forty
lines saying so would bury the next one. A checker adds each problem it finds to
a :class:`Repeats` under a key saying which mistake it is; the first problem of a
key is kept and says how many more there were: ``… (and 39 more uses)``.

Schema problems are grouped by :func:`same_key`: the same code and message at
the same place of different records (``/entities/*/kind``). The semantic checks
choose their keys (docs/validation.md, "Repetition", lists each).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import NamedTuple

from engine.errors import Problem

#: How the repeats of a problem are counted: ``(one, many)``, e.g. ``("entity", "entities")``.
Counted = tuple[str, str]

#: Lists whose items are records, and the words their repeats are counted in.
_LISTS: dict[str, Counted] = {
    "levels": ("level", "levels"),
    "entities": ("entity", "entities"),
    "automata": ("automaton", "automata"),
    "pattern": ("step", "steps"),
    "mechanics": ("mechanic", "mechanics"),
}
#: Maps whose keys are data (a noun, a leaves map's entry), not field names.
_MAPS: dict[str, Counted] = {
    "nouns": ("noun", "nouns"),
    "leaves": ("entry", "entries"),
}
_SAME_PLACE: Counted = ("time", "times")


def shape(pointer: str) -> tuple[str, Counted]:
    """The pointer with its record indexes and data keys as ``*``, and what they count.

    ``/levels/0/entities/12/x`` is ``/levels/*/entities/*/x``, counted in entities
    (the innermost list or map).
    """
    tokens = pointer.split("/")
    what = _SAME_PLACE
    for i in range(1, len(tokens) - 1):
        name = tokens[i]
        if name in _LISTS and tokens[i + 1].isdigit():
            tokens[i + 1] = "*"
            what = _LISTS[name]
        elif name in _MAPS and tokens[i - 1] != "leaves":
            tokens[i + 1] = "*"
            what = _MAPS[name]
    return "/".join(tokens), what


def same_key(problem: Problem) -> tuple[Hashable, Counted]:
    """The key of a problem whose repeats say exactly the same of another record."""
    place, what = shape(problem.pointer)
    return (problem.code, problem.message, place), what


class _Group(NamedTuple):
    first: Problem
    what: Counted


class Repeats:
    """Problems grouped by mistake, in the order each mistake was first found."""

    __slots__ = ("_counts", "_groups")

    def __init__(self) -> None:
        self._groups: dict[Hashable, _Group] = {}
        self._counts: dict[Hashable, int] = {}

    def add(self, key: Hashable, problem: Problem, what: Counted) -> None:
        """Keep ``problem`` if it is the first of ``key``; else count it."""
        if key in self._groups:
            self._counts[key] += 1
        else:
            self._groups[key] = _Group(problem, what)
            self._counts[key] = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._groups

    def again(self, key: Hashable) -> None:
        """Count one more of ``key``, whose first problem is kept (``key in self``)."""
        self._counts[key] += 1

    def add_same(self, problems: Iterable[Problem]) -> None:
        """Add each problem under :func:`same_key`."""
        for problem in problems:
            key, what = same_key(problem)
            self.add(key, problem, what)

    def __len__(self) -> int:
        return len(self._groups)

    def problems(self) -> list[Problem]:
        """One problem per mistake; a repeated one ends ``(and N more …)``."""
        out = []
        for key, (first, (one, many)) in self._groups.items():
            more = self._counts[key]
            if more:
                word = one if more == 1 else many
                first = Problem(
                    first.pointer,
                    first.code,
                    f"{first.message} (and {more:,} more {word})",
                    first.pack,
                    first.level,
                )
            out.append(first)
        return out
