"""``rulegrid validate PATH... [--json] [--trust]``: whole-pack validation for authors and CI.

Every path is validated, even after one fails, so one run lists every problem.
Problems go to standard output, one per line (or one JSON list with ``--json``) so
tools can read them; the summary goes to standard error. Exit 0 when every pack
is valid, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import Problem, ValidationError
from engine.packs.load import load_pack


def register(sub: Any) -> None:
    parser = sub.add_parser("validate", help="validate packs; exit 1 listing every problem")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="pack .json files or pack folders")
    parser.add_argument("--json", action="store_true", help="print a JSON list of problem records")
    parser.add_argument(
        "--trust", action="store_true", help="run the pack.py of these folders (you trust them)"
    )
    parser.set_defaults(run=run)


def one_line(text: str) -> str:
    """A problem on exactly one line, whatever field names the document used."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def run(args: argparse.Namespace) -> int:
    problems: list[Problem] = []
    failed = 0
    for path in args.paths:
        try:
            load_pack(path, trust=args.trust)
        except ValidationError as exc:
            problems.extend(exc.errors)
            failed += 1
    if args.json:
        print(json.dumps([p.to_dict() for p in problems], indent=2, ensure_ascii=False))
    else:
        for problem in problems:
            print(one_line(str(problem)))
    total = len(args.paths)
    if failed:
        print(f"{len(problems)} problem(s) in {failed} of {total} pack(s)", file=sys.stderr)
    else:
        print(f"{total} pack(s) valid", file=sys.stderr)
    return 1 if failed else 0
