"""``rulegrid schema``: print, write or check the JSON Schemas generated from the models."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.packs.schema import GENERATORS, SCHEMA_DIR, SCHEMA_FILES, write_schemas


def register(sub: Any) -> None:
    parser = sub.add_parser("schema", help="print, write or check the pack and level JSON Schemas")
    parser.add_argument("which", nargs="?", choices=sorted(GENERATORS), default="pack")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"regenerate the files in {SCHEMA_DIR}")
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
        stale = [
            name
            for name, generate in GENERATORS.items()
            if json.loads((SCHEMA_DIR / SCHEMA_FILES[name]).read_text(encoding="utf-8"))
            != generate()
        ]
        for name in stale:
            print(
                f"{SCHEMA_FILES[name]} is out of date: run rulegrid schema --write", file=sys.stderr
            )
        return 1 if stale else 0
    print(json.dumps(GENERATORS[args.which](), indent=2, ensure_ascii=False))
    return 0
