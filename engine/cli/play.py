"""``rulegrid play PACK LEVEL MOVES``: replay a move string, one JSON event per line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.cli.common import open_playable
from engine.errors import ValidationError
from engine.play.game import Game
from engine.play.replay import parse_moves


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="replay a move string and print the events as JSON lines")
    parser.add_argument("pack", help="a pack .json file or pack folder")
    parser.add_argument("level", help="level id (or its 1-based number)")
    parser.add_argument("moves", help="moves as a string of U, D, L, R (use - to read stdin)")
    parser.add_argument("--state", action="store_true", help="also print the final state record")
    parser.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    pack = open_playable(args.pack, trust=args.trust)
    level = pack.find(args.level)
    pack.warn()
    text = sys.stdin.read().strip() if args.moves == "-" else args.moves
    try:
        directions = parse_moves(text)
    except ValueError as exc:
        raise ValidationError.single(
            "", "bad-moves", str(exc), pack=pack.name, level=level.id
        ) from None
    game = Game(level)
    for direction in directions:
        print(json.dumps(game.step(direction).to_dict(), separators=(",", ":")))
    if args.state:
        print(json.dumps(game.state(), separators=(",", ":")))
    return 0
