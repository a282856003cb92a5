"""WIN: the level is won when a YOU object and a WIN object share a cell.

A contact, decided after the destroying contacts have destroyed what they destroy: a
cell whose surviving objects include a YOU object and a WIN object (or one
object that is both) wins the level. :func:`cell` is the rule of the public
turn; :func:`compact` its twin on the compact path's slots and flags. The
solver's estimate walks YOU objects towards WIN objects (its goal).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from engine.errors import Problem
from engine.mechanics.base import (
    CompactRule,
    Contact,
    Here,
    LevelFacts,
    Mechanic,
    Occupancy,
    Occupant,
    PaletteEntry,
    Phase,
    Role,
)
from engine.mechanics.you import YOU

WIN = "WIN"


def cell(here: Here) -> Sequence[Occupant]:
    """The cell's occupants when a YOU object and a WIN object are among them."""
    if any(YOU in props for _, props in here) and any(WIN in props for _, props in here):
        return [o for o, _ in here]
    return ()


def compact(bits: Mapping[str, int]) -> CompactRule:
    """:func:`cell` on slots: the first cell of ``cells`` that wins, or nothing."""
    win, you = bits[WIN], bits[YOU]

    def rule(cells: Iterable[int], occupancy: Occupancy, flags: Sequence[int]) -> Sequence[int]:
        for cell in cells:
            here = occupancy[cell]
            if any(flags[slot] & you for slot in here) and any(flags[slot] & win for slot in here):
                return here
        return ()

    return rule


def _won_at_start(facts: LevelFacts) -> Iterator[Problem]:
    if facts.won and not facts.control_lost:
        yield Problem("", "won-at-start", "the level is won at the start, before the player moves")


def _win_impossible(facts: LevelFacts) -> Iterator[Problem]:
    """Words never appear during play: without a WIN word, or a way to name an object, no win."""
    if WIN not in facts.words:
        yield Problem(
            "",
            "win-impossible",
            "there is no WIN word on the board, and words never appear during play, "
            "so nothing can ever be WIN",
        )
    elif not facts.is_word or not facts.noun_words or not (facts.objects or facts.has_leftovers):
        lacks = (
            "an IS word"
            if not facts.is_word
            else "noun words"
            if not facts.noun_words
            else "objects"
        )
        yield Problem(
            "",
            "win-impossible",
            "no sentence NOUN IS WIN can ever name an object: the board lacks " + lacks,
        )


MECHANIC = Mechanic(
    name="WIN",
    word=WIN,
    summary="the level is won when a YOU object reaches it",
    phases=(Phase.CONTACTS,),
    reads="the surviving objects of each cell that holds a YOU object",
    changes="won (the step's, and so the game's)",
    roles=frozenset({Role.GOAL}),
    contact=Contact(
        destroys=False,
        rank=10,
        at=YOU,
        needs=frozenset({WIN, YOU}),
        revisit={YOU: None, WIN: YOU},
        cell=cell,
        compact=compact,
        shows="YOU object on a WIN object",
    ),
    lints=(_won_at_start, _win_impossible),
    lint_codes=("won-at-start", "win-impossible"),
    palette=PaletteEntry("#e8c93a", "a YOU object that reaches it wins the level"),
)
