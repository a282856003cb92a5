"""Lints of one level: warnings about a valid level that is probably not what the author meant.

Each mechanic declares its own lints (engine.mechanics): they read the level as
the player meets it (the settled start, through :class:`engine.Game`) or ask a
question that has a certain answer without a search, because words never change
during play (:class:`~engine.mechanics.LevelFacts`). This module adds the empty
level and the replay of the intended solution. None of them guesses about
reachability, so a warning is a real defect or an unfinished level, never an
opinion. Pointers are relative to the level (``/automata/0/property``; ``""``
for the level as a whole).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from engine.context import LevelContext
from engine.errors import Problem, pointer
from engine.limits import LINT_WORK_BUDGET
from engine.mechanics import LevelFacts, registered
from engine.model import Level, ObjectEntity, WordEntity
from engine.play.game import Game
from engine.play.replay import check_solution, parse_moves
from engine.play.work import WorkBudget, WorkBudgetError, budgeted
from engine.tokens import IS

#: The codes of the per-level lints, in the order docs/validation.md lists them: the
#: empty level, each mechanic's in registration order, the intended solution's.
LEVEL_LINT_CODES = (
    "empty-level",
    *registered().lint_codes,
    "solution-fails",
    "solution-wins-early",
    "solution-unchecked",
)


#: How the lint's work budget is raised, said in its warning.
RAISE_LINT_BUDGET = (
    "raise it with --budget (rulegrid validate --lint) or the editor's work/lint_budget setting"
)


def lint_work(limit: int = LINT_WORK_BUDGET) -> WorkBudget:
    """The work budget of replaying intended solutions: one level's, or one check's of a pack.

    A check of a whole pack passes one to each of its levels (:func:`level_lints`),
    so together they stay within ``limit``; an editor re-checking one level gives it
    its own.
    """
    return WorkBudget.of(limit, "the lint budget", RAISE_LINT_BUDGET)


def level_lints(level: Level, *, work: WorkBudget | None = None) -> list[Problem]:
    """Every lint warning of one valid level (pointers relative to the level).

    The intended solution is replayed under ``work`` (default: a budget of this
    level's own, :func:`lint_work`). Past it, one ``solution-unchecked`` warning
    says so; once a shared budget is spent, later levels' solutions are not replayed.
    """
    if not level.entities:
        return [Problem("", "empty-level", "the level is empty")]
    return [*_mechanic_lints(level), *_solution_lints(level, work or lint_work())]


def _mechanic_lints(level: Level) -> Iterator[Problem]:
    """Every mechanic's lints, in registration order, over the facts of the level."""
    game = Game(level)
    ctx = LevelContext.of(level)
    words = frozenset(e.text for e in level.entities if isinstance(e, WordEntity))
    facts = LevelFacts(
        words=words,
        objects=frozenset(e.noun for e in level.entities if isinstance(e, ObjectEntity)),
        noun_words=frozenset(w for w in words if ctx.vocabulary.is_noun(w)),
        is_word=IS in words,
        has_leftovers=bool(ctx.leaves),
        rules=tuple((r.subject, r.predicate) for r in game.rules),
        control_lost=game.control_lost,
        won=game.won,
        mechanics=tuple((index, m.type) for index, m in enumerate(level.mechanics)),
        automata=tuple((index, a.id, a.property) for index, a in enumerate(level.automata)),
    )
    for lint in ctx.vocabulary.mechanics.lints:
        yield from lint(facts)


def _solution_lints(level: Level, work: WorkBudget) -> Iterator[Problem]:
    """The intended solution, then each reference solution, replayed under ``work``.

    A reference solution (``references``) is checked like the intended one, with
    :func:`engine.check_solution`'s wording and the same codes, at its own pointer.
    """
    yield from _moves_lints(level, level.solution, "/solution", "the intended solution", work)
    for index, reference in enumerate(level.references):
        where = pointer("references", index, "moves")
        name = f"reference solution {index + 1} ({reference.source})"
        yield from _moves_lints(level, reference.moves, where, name, work)


def _moves_lints(
    level: Level, moves: str | None, where: str, name: str, work: WorkBudget
) -> Iterator[Problem]:
    """One stored solution, replayed with :func:`engine.check_solution`'s wording, under ``work``."""
    if not moves or work.units > work.limit:  # a shared budget already spent: no replay
        return
    try:
        with budgeted(work):
            check = check_solution(level, moves)
            won = not check.wins and check.failed_at is not None and _won_playing_on(level, moves)
    except WorkBudgetError as exc:
        yield Problem(where, "solution-unchecked", f"{name} was not replayed to its end: it {exc}")
        return
    if check.reason == "won-early":
        yield Problem(where, "solution-wins-early", f"{name} wins before its end: {check.message}")
    elif not check.wins:
        message = check.message
        if check.failed_at is not None:  # played on, as a player would, to say where it ends
            total = len(moves)
            message += (
                f"; the level is still won after {total} moves"
                if won
                else f"; the level is not won after {total} moves"
            )
        yield Problem(where, "solution-fails", f"{name} no longer wins: {message}")


def _won_playing_on(level: Level, moves: str) -> bool:
    """Whether the moves win at some point when a rejected move is simply skipped.

    Each event is looked at and dropped: a thousand moves of a crowded board once
    kept 2.4 GB of them.
    """
    game = Game(level)
    for number, direction in enumerate(parse_moves(moves), start=1):
        try:
            event = game.step(direction)
        except WorkBudgetError as exc:
            raise exc.at_move(number) from None
        if event.won:
            return True
    return False


def board_digest(level: Level) -> str:
    """A digest of everything that makes two levels play the same.

    The size, every cell's stack bottom first (ids aside), the automata and the
    mechanics; titles, ids and solutions are not part of play.
    """
    cells = sorted(
        (e.y, e.x, order, e.kind, e.noun if isinstance(e, ObjectEntity) else e.text)
        for order, e in enumerate(level.entities)
    )
    content = {
        "size": [level.width, level.height],
        "cells": [[y, x, kind, token] for y, x, _order, kind, token in cells],
        "automata": [a.to_data() for a in level.automata],
        "mechanics": [m.to_data() for m in level.mechanics],
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
