"""``rulegrid schema``: print, write or check the JSON Schemas generated from the models.

``--write`` and ``--check`` work on the shipped schema files, found like every
shipped file (:mod:`engine.packs.shipped`): ``schemas/`` in an editable checkout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.packs.schema import GENERATORS, SCHEMA_FILES, stale_schemas, write_schemas


def register(sub: Any) -> None:
    parser = sub.add_parser("schema", help="print, write or check the pack and level JSON Schemas")
    parser.add_argument("which", nargs="?", choices=sorted(GENERATORS), default="pack")
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--write",
        action="store_true",
        help="regenerate the shipped schema files (schemas/ in a checkout)",
    )
    group.add_argument(
        "--check", action="store_true", help="exit 1 when the checked-in files drift"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.write:
        for path in write_schemas():
            print(f"wrote {path}")
        return 0
    if args.check:
        stale = stale_schemas()
        for name in stale:
            print(
                f"{SCHEMA_FILES[name]} is out of date: run rulegrid schema --write", file=sys.stderr
            )
        return 1 if stale else 0
    print(json.dumps(GENERATORS[args.which](), indent=2, ensure_ascii=False))
    return 0
