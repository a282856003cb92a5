"""FRAIL: an object that crumbles when what shared its cell leaves it alone (spec 04).

A level opts in with a mechanic of type ``frail``, whose ``leaves`` map says what
a crumbling object becomes (a noun without an entry is removed); elsewhere FRAIL
is a mechanic word no object can have. The FRAIL checkpoint, after movement and
transformation and before the contacts, crumbles every object that was FRAIL at
the start of the turn (start noun, start rules) and still is now, has not moved,
shared its cell with another entity at the start of the turn, and is alone there
now. Only a cell something left can hold such an object.

:func:`checkpoint` is the phase of the public turn; :class:`CompactCheckpoint` its
twin on the compact path's slots and flags, made once per level by
:func:`compact_checkpoint`.

A leaves map such as ``{SAND: SHOAL, SHOAL: WATER}`` reads as chains
(:func:`leaves_chains`): an object that crumbles as SAND becomes SHOAL, which may
crumble again into WATER, which is removed if it crumbles (it has no entry). Spec
04 allows any map of nouns, so two shapes stay *valid* but are warned about
(:func:`leaves_problems`), because they are rarely what an author wants:
``frail-self-map`` (``DRIFT: DRIFT``: crumbling changes nothing, so a FRAIL DRIFT
never goes away and reports a crumble on every departure) and ``frail-cycle``
(``A: B, B: A``: objects along the loop never run out). The FRAIL panel draws the
chains and flags the same shapes with the same codes and messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Protocol

from engine.errors import Problem, pointer
from engine.mechanics.base import (
    Cell,
    Json,
    LevelFacts,
    Mechanic,
    Occupancy,
    PaletteEntry,
    Phase,
    Piece,
    Table,
)

FRAIL = "FRAIL"
#: The type of the level mechanic that opts a level into FRAIL.
TYPE = "frail"


class CrumbleBoard(Protocol):
    """What the checkpoint reads and changes of the public turn's board (engine.play.board.Board)."""

    @property
    def left(self) -> Set[Cell]: ...
    @property
    def before(self) -> Mapping[int, Piece]: ...
    @property
    def cells(self) -> Mapping[Cell, Set[int]]: ...
    @property
    def kind(self) -> Mapping[int, str]: ...
    @property
    def name(self) -> Mapping[int, str]: ...

    def remove(self, i: int) -> None: ...
    def rename(self, i: int, noun: str) -> None: ...


def checkpoint(
    board: CrumbleBoard, leaves: Mapping[str, str] | None, start: Table, now: Table
) -> list[Json]:
    """Crumble the objects that crumble this turn; their ``crumbled`` entries, ascending id.

    ``leaves`` is the level's map (``None``: the level has not opted in, nothing
    crumbles); ``start`` the rules at the start of the turn, ``now`` the rules
    after transformation. The board was marked at the start of the turn, so
    :attr:`CrumbleBoard.before` holds the start of every entity that changed.
    """
    if leaves is None or not board.left:
        return []
    moved_from = Counter((p[3], p[4]) for p in board.before.values())
    crumbling: list[int] = []
    for cell in board.left:
        here = board.cells.get(cell)
        if here is None or len(here) != 1:
            continue
        (i,) = here
        if board.kind[i] != "object":
            continue
        began = board.before.get(i)
        if began is not None and (began[3], began[4]) != cell:
            continue  # it arrived here: it moved
        start_noun = board.name[i] if began is None else began[2]
        if not (now.has(board.name[i], FRAIL) and start.has(start_noun, FRAIL)):
            continue
        # entities whose start was this cell: those that changed, and i if it did not
        if moved_from[cell] + (began is None) > 1:
            crumbling.append(i)
    out: list[Json] = []
    for i in sorted(crumbling):
        before = board.name[i]
        after = leaves.get(before)
        out.append({"id": i, "from": before, "to": after})
        if after is None:
            board.remove(i)
        else:
            board.rename(i, after)
    return out


class CompactCheckpoint:
    """:func:`checkpoint` on the compact path's vectors, for one level that opted in.

    ``leftovers`` maps a noun index to the noun index a crumbling object leaves
    (``None``: it is removed); ``ids`` and ``nouns`` name slots and noun indices
    for the ``crumbled`` records; the noun of slot ``s`` is ``vector[noun_base + s]``.
    """

    def __init__(
        self,
        bit: int,
        leftovers: dict[int, int | None],
        ids: Sequence[int],
        nouns: Sequence[str],
        noun_base: int,
    ) -> None:
        self.bit = bit
        self.leftovers = leftovers
        self.ids = ids
        self.nouns = nouns
        self.noun_base = noun_base

    def crumble(
        self,
        before: Sequence[int],
        occupancy_before: Occupancy,
        vector: list[int],
        occupancy: Occupancy,
        flags: Sequence[int],
        flags_before: Sequence[int],
        left: list[int],
        crumbled: list[tuple[int, str, str | None]] | None,
        remove: Callable[[list[int], Occupancy, int], None],
    ) -> bool:
        """Crumble what crumbles (``left``: the cells entities moved out of); whether any did.

        ``before`` and ``occupancy_before`` are the position at the start of the
        turn and ``flags_before`` its noun flags; ``flags`` the noun flags now.
        ``crumbled`` collects ``(id, from, to)`` per crumbled object, ascending id;
        ``remove`` takes a slot off the board.
        """
        noun_base, bit = self.noun_base, self.bit
        crumbling = []
        for cell in set(left):
            here = occupancy.get(cell)
            if here and len(here) == 1 and len(occupancy_before.get(cell, ())) > 1:
                slot = here[0]
                if (
                    before[slot] == cell
                    and flags[vector[noun_base + slot]] & bit
                    and flags_before[before[noun_base + slot]] & bit
                ):
                    crumbling.append(slot)
        crumbling.sort(key=self.ids.__getitem__)
        for slot in crumbling:
            noun = vector[noun_base + slot]
            leftover = self.leftovers[noun]
            if crumbled is not None:
                crumbled.append(
                    (
                        self.ids[slot],
                        self.nouns[noun],
                        None if leftover is None else self.nouns[leftover],
                    )
                )
            if leftover is None:
                remove(vector, occupancy, slot)
            else:
                vector[noun_base + slot] = leftover
        return bool(crumbling)


def compact_checkpoint(
    bits: Mapping[str, int],
    leaves: Mapping[str, str] | None,
    noun_index: Mapping[str, int],
    ids: Sequence[int],
    nouns: Sequence[str],
    noun_base: int,
) -> CompactCheckpoint | None:
    """The level's compact checkpoint; ``None`` when it has not opted in (nothing crumbles)."""
    if leaves is None:
        return None
    leftovers = {k: (noun_index[leaves[n]] if n in leaves else None) for n, k in noun_index.items()}
    return CompactCheckpoint(bits[FRAIL], leftovers, ids, nouns, noun_base)


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


def frail_nouns(properties: Mapping[str, frozenset[str]]) -> list[str]:
    """The nouns that are FRAIL under a rule set (``RuleTable.properties``): what the FRAIL panel marks."""
    return [noun for noun, have in properties.items() if FRAIL in have]


def _frail_unused(facts: LevelFacts) -> Iterator[Problem]:
    declared = next((index for index, kind in facts.mechanics if kind == TYPE), None)
    if declared is not None and FRAIL not in facts.words:
        yield Problem(
            pointer("mechanics", declared),
            "frail-unused",
            "the level opts into FRAIL but there is no FRAIL word on the board, "
            "so nothing can ever crumble",
        )


MECHANIC = Mechanic(
    name="FRAIL",
    word=FRAIL,
    summary="crumbles when left alone in its cell, leaving what the level's map says",
    phases=(Phase.FRAIL_CHECKPOINT,),
    reads="the cells entities left this turn; the rules at the start of the turn and now",
    changes="renames or removes the objects that crumble (the level's leaves map)",
    encoding="one bit of a noun's flags; the leaves map is level data (noun index to noun index)",
    checkpoint=True,
    opt_in=TYPE,
    not_declared=(
        "FRAIL is used but the level has not opted into the frail mechanic "
        "(add the frail entry to 'mechanics')"
    ),
    lints=(_frail_unused,),
    lint_codes=("frail-unused",),
    palette=PaletteEntry("#9c7fdc", "crumbles when what shared its cell leaves it alone"),
)
