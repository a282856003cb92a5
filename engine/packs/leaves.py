"""Chains through a FRAIL ``leaves`` map, and the two shapes an author rarely means.

A map such as ``{SAND: SHOAL, SHOAL: WATER}`` reads as chains: an object that
crumbles as SAND becomes SHOAL, which may crumble again into WATER, which is
removed if it crumbles (it has no entry). Spec 04 allows any map of nouns, so
two shapes stay *valid* but are reported as warnings, because they are rarely
what an author wants:

* ``frail-self-map``: ``DRIFT: DRIFT``: crumbling changes nothing, so a FRAIL
  DRIFT never goes away and reports a crumble on every departure;
* ``frail-cycle``: ``A: B, B: A``: objects along the loop never run out.

The FRAIL panel draws these chains and flags the same two shapes with these
codes and messages (docs/validation.md, "FRAIL map warnings"); the same function
makes the lint warnings of ``rulegrid validate --lint`` and the Problems panel
(:func:`level_leaves_problems`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import Problem, pointer
from engine.limits import TOKEN_MAX_LENGTH
from engine.packs.compiled import pattern_search
from engine.tokens import TOKEN_PATTERN

_token = pattern_search(TOKEN_PATTERN)

SELF_MAP = "frail-self-map"
CYCLE = "frail-cycle"


@dataclass(frozen=True, slots=True)
class LeavesChain:
    """One path through a leaves map: each noun leaves the next one.

    How the chain ends:

    * ``loops_to`` is the earlier noun of ``nouns`` that the last one leaves,
      closing a loop (the last noun itself for a self-map);
    * ``joins`` is a mapped noun an earlier chain already walked: the last noun
      leaves it, and the chain reads on there (each noun is walked once, so a map
      whose chains share a long tail costs no more than the map's size);
    * neither: the last noun has no entry, so crumbling it removes the object.
    """

    nouns: tuple[str, ...]
    loops_to: str | None = None
    joins: str | None = None

    @property
    def loop(self) -> tuple[str, ...]:
        """The nouns on the loop this chain closes, in map order (``()`` without one)."""
        if self.loops_to is None:
            return ()
        return self.nouns[self.nouns.index(self.loops_to) :]

    @property
    def problem(self) -> Problem | None:
        """The warning for the loop this chain closes, pointing at the loop's first noun."""
        loop = self.loop
        if not loop:
            return None
        where = pointer("leaves", loop[0])
        if len(loop) == 1:
            noun = loop[0]
            return Problem(
                where,
                SELF_MAP,
                f"{noun} leaves {noun}: crumbling changes nothing, so a FRAIL {noun} never goes away",
            )
        path = " → ".join((*loop, loop[0]))
        return Problem(where, CYCLE, f"{path} is a cycle: objects crumbling along it never run out")

    def text(self) -> str:
        """The chain as an author reads it: ``SAND → SHOAL → WATER``, ``A → B → A``, ``C → B …``."""
        if self.loops_to is not None:
            return " → ".join((*self.nouns, self.loops_to))
        if self.joins is not None:
            return " → ".join((*self.nouns, f"{self.joins} …"))
        return " → ".join(self.nouns)


def leaves_chains(leaves: Mapping[str, str]) -> tuple[LeavesChain, ...]:
    """Every chain of a leaves map, each from a noun that no other noun leaves.

    Chains start at the map's keys that are nobody's leftover, in map order, and
    follow the map until a noun without an entry, a noun already on the chain (a
    loop) or a noun an earlier chain lists (a join). Loops that no such key
    reaches come last, each from its first key in map order. Every noun is walked
    once, so the time is linear in the size of the map.
    """
    leftovers = set(leaves.values())
    chains: list[LeavesChain] = []
    walked: set[str] = set()
    for start in leaves:
        if start not in leftovers:
            chains.append(_follow(leaves, start, walked))
    for start in leaves:
        if start not in walked:  # on a loop that no chain leads into
            chains.append(_follow(leaves, start, walked))
    return tuple(chains)


def leaves_problems(leaves: Mapping[str, str]) -> list[Problem]:
    """The warnings of a leaves map: each self-map and each cycle once, in chain order.

    Pointers are relative to the mechanic (``/leaves/DRIFT``); prefix them with the
    mechanic's place (``/mechanics/0``) to locate them in a level.
    """
    return [c.problem for c in leaves_chains(leaves) if c.problem is not None]


def _follow(leaves: Mapping[str, str], start: str, walked: set[str]) -> LeavesChain:
    nouns = [start]
    on_chain = {start}
    walked.add(start)
    while True:
        nxt = leaves.get(nouns[-1])
        if nxt is None:
            return LeavesChain(tuple(nouns))
        if nxt in on_chain:
            return LeavesChain(tuple(nouns), loops_to=nxt)
        if nxt not in leaves:  # the last link: nothing to walk, whoever listed it before
            return LeavesChain((*nouns, nxt))
        if nxt in walked:
            return LeavesChain(tuple(nouns), joins=nxt)
        nouns.append(nxt)
        on_chain.add(nxt)
        walked.add(nxt)


def level_leaves_problems(doc: object) -> list[Problem]:
    """The warnings of every FRAIL map of a level document, pointers relative to the level.

    :func:`leaves_problems` of each frail mechanic's map, whatever else is wrong with
    the level or the mechanic: the map is read on its own, each entry whose noun and
    leftover are well-formed tokens (an entry that is not is an error of its own,
    and no loop runs through it).
    """
    mechanics = doc.get("mechanics") if isinstance(doc, Mapping) else None
    if not isinstance(mechanics, list):
        return []
    found = []
    for index, mechanic in enumerate(mechanics):
        if not isinstance(mechanic, Mapping) or mechanic.get("type") != "frail":
            continue
        leaves = mechanic.get("leaves")
        if not isinstance(leaves, Mapping):
            continue
        sound = {k: v for k, v in leaves.items() if _is_token(k) and _is_token(v)}
        base = pointer("mechanics", index)
        found += [Problem(base + p.pointer, p.code, p.message) for p in leaves_problems(sound)]
    return found


def _is_token(value: object) -> bool:
    return isinstance(value, str) and len(value) <= TOKEN_MAX_LENGTH and _token(value)
