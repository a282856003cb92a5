"""``rulegrid play PACK LEVEL MOVES``: replay a move string, one JSON event per line.

The moves are a stranger's text as often as the author's, so playing them is
bounded: at most :data:`~engine.limits.MAX_PLAY_MOVES` moves (read no further from
standard input), and the turns run under a work budget (engine.play.work,
``--budget``). Events are printed as each turn ends; past the budget one located
line says where it stopped and how to raise it (exit 1), never minutes of silence.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.cli.common import open_playable, work_units
from engine.errors import ValidationError
from engine.limits import MAX_PLAY_MOVES, PLAY_WORK_BUDGET
from engine.play.game import Game
from engine.play.replay import parse_moves
from engine.play.work import WorkBudget, WorkBudgetError, budgeted

#: Characters of standard input read beyond the longest move string: room for
#: whitespace around it. Reading stops there, whatever is piped in.
_STDIN_SLACK = 4_096


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="replay a move string and print the events as JSON lines")
    parser.add_argument("pack", help="a pack .json file or pack folder")
    parser.add_argument("level", help="level id (or its 1-based number)")
    parser.add_argument("moves", help="moves as a string of U, D, L, R (use - to read stdin)")
    parser.add_argument("--state", action="store_true", help="also print the final state record")
    parser.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    parser.add_argument(
        "--budget",
        type=work_units,
        default=PLAY_WORK_BUDGET,
        metavar="UNITS",
        help=f"units of work the moves may cost (default {PLAY_WORK_BUDGET:,}; "
        "see docs/validation.md, 'Work budgets')",
    )
    parser.set_defaults(run=run)


def read_moves(given: str) -> str | None:
    """The move string (``-``: standard input, read no further than it may be long).

    ``None`` when it is longer than :data:`~engine.limits.MAX_PLAY_MOVES`.
    """
    if given != "-":
        return given if len(given) <= MAX_PLAY_MOVES else None
    limit = MAX_PLAY_MOVES + _STDIN_SLACK
    raw = sys.stdin.read(limit)
    text = raw.strip()
    return text if len(raw) < limit and len(text) <= MAX_PLAY_MOVES else None


def run(args: argparse.Namespace) -> int:
    pack = open_playable(args.pack, trust=args.trust)
    level = pack.find(args.level)
    pack.warn()
    text = read_moves(args.moves)
    if text is None:
        raise ValidationError.single(
            "",
            "bad-size",
            f"the move string is longer than {MAX_PLAY_MOVES:,} moves, the most a solution may have",
            pack=pack.name,
            level=level.id,
        )
    try:
        directions = parse_moves(text)
    except ValueError as exc:
        raise ValidationError.single(
            "", "bad-moves", str(exc), pack=pack.name, level=level.id
        ) from None
    budget = WorkBudget.of(args.budget, "the play budget", "raise it with --budget")
    number = 0
    try:
        with budgeted(budget):
            game = Game(level)
            for direction in directions:
                number += 1
                event = game.step(direction).to_dict(fresh=False)  # printed, then dropped
                print(json.dumps(event, separators=(",", ":")))
            number = 0  # every move was played: the state record is what costs now
            if args.state:
                print(json.dumps(game.state(), separators=(",", ":")))
    except WorkBudgetError as exc:
        sys.stdout.flush()  # the events played so far come first
        stopped = exc.at_move(number) if number else exc
        raise ValidationError.single(
            "", "too-much-work", f"playing the moves {stopped}", pack=pack.name, level=level.id
        ) from None
    return 0
