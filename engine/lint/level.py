"""Lints of one level: warnings about a valid level that is probably not what the author meant.

Each lint reads the level as the player meets it (the settled start, through
:class:`engine.Game`) or asks a question that has a certain answer without a
search: a WIN word that is not on the board can never appear, because words never
change during play. None of them guesses about reachability, so a warning is a
real defect or an unfinished level, never an opinion. Pointers are relative to
the level (``/automata/0/property``; ``""`` for the level as a whole).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from engine.context import LevelContext
from engine.errors import Problem, pointer
from engine.model import Level, ObjectEntity, WordEntity
from engine.play.game import Game
from engine.play.replay import check_solution, replay
from engine.tokens import FRAIL, IS, WIN, YOU

#: The codes of the per-level lints, in the order docs/validation.md lists them.
LEVEL_LINT_CODES = (
    "empty-level",
    "no-you-at-start",
    "won-at-start",
    "win-impossible",
    "frail-unused",
    "automaton-never-active",
    "solution-fails",
    "solution-wins-early",
)


def level_lints(level: Level) -> list[Problem]:
    """Every lint warning of one valid level (pointers relative to the level)."""
    if not level.entities:
        return [Problem("", "empty-level", "the level is empty")]
    return [*_start_lints(level), *_word_lints(level), *_solution_lints(level)]


def _start_lints(level: Level) -> Iterator[Problem]:
    game = Game(level)
    if game.control_lost:
        you = sorted({r.subject for r in game.rules if r.predicate == YOU})
        if you:
            names = " and ".join(you)
            yield Problem(
                "",
                "no-you-at-start",
                f"nothing is YOU at the start: {names} IS YOU, but no {names} is on the "
                "board once it settles, so the player cannot move",
            )
        else:
            yield Problem(
                "",
                "no-you-at-start",
                "no rule makes anything YOU at the start, so the player cannot move",
            )
    elif game.won:
        yield Problem("", "won-at-start", "the level is won at the start, before the player moves")


def _word_lints(level: Level) -> Iterator[Problem]:
    ctx = LevelContext.of(level)
    words = {e.text for e in level.entities if isinstance(e, WordEntity)}
    objects = {e.noun for e in level.entities if isinstance(e, ObjectEntity)}
    noun_words = {w for w in words if ctx.vocabulary.is_noun(w)}
    if WIN not in words:
        yield Problem(
            "",
            "win-impossible",
            "there is no WIN word on the board, and words never appear during play, "
            "so nothing can ever be WIN",
        )
    elif IS not in words or not noun_words or not (objects or (ctx.leaves or {})):
        yield Problem(
            "",
            "win-impossible",
            "no sentence NOUN IS WIN can ever name an object: the board lacks "
            + ("an IS word" if IS not in words else "noun words" if not noun_words else "objects"),
        )
    frail = level.frail
    if frail is not None and FRAIL not in words:
        index = next(i for i, m in enumerate(level.mechanics) if m is frail)
        yield Problem(
            pointer("mechanics", index),
            "frail-unused",
            "the level opts into FRAIL but there is no FRAIL word on the board, "
            "so nothing can ever crumble",
        )
    for index, automaton in enumerate(level.automata):
        if automaton.property not in words:
            yield Problem(
                pointer("automata", index, "property"),
                "automaton-never-active",
                f"automaton {automaton.id!r} never acts: there is no {automaton.property} "
                "word on the board to give its property",
            )


def _solution_lints(level: Level) -> Iterator[Problem]:
    """The intended solution, replayed with :func:`engine.check_solution`'s wording."""
    moves = level.solution
    if not moves:
        return
    check = check_solution(level, moves)
    if check.reason == "won-early":
        yield Problem(
            "/solution",
            "solution-wins-early",
            f"the intended solution wins before its end: {check.message}",
        )
    elif not check.wins:
        message = check.message
        if check.failed_at is not None:  # play on, as a player would, to say where it ends
            won = any(event.won for event in replay(level, moves))
            total = len(moves)
            message += (
                f"; the level is still won after {total} moves"
                if won
                else f"; the level is not won after {total} moves"
            )
        yield Problem(
            "/solution", "solution-fails", f"the intended solution no longer wins: {message}"
        )


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
