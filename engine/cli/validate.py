"""``rulegrid validate PATH...``: whole-pack validation for authors and CI."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.errors import Problem, ValidationError
from engine.packs import load_pack


def register(sub: Any) -> None:
    parser = sub.add_parser("validate", help="validate packs; exit 1 listing every problem")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="pack .json files or pack folders")
    parser.add_argument("--json", action="store_true", help="print a JSON list of problem records")
    parser.add_argument("--trust", action="store_true", help="run trusted pack.py modules")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    problems: list[Problem] = []
    for path in args.paths:
        try:
            load_pack(path, trust=args.trust)
        except ValidationError as exc:
            problems.extend(exc.errors)
    if args.json:
        print(json.dumps([p.to_dict() for p in problems], indent=2))
    else:
        for problem in problems:
            print(problem)
        if not problems:
            print(f"{len(args.paths)} pack(s) valid")
    return 1 if problems else 0
