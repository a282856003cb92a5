"""The ``rulegrid`` command line: headless tools for authors and CI.

Each subcommand lives in its own module exposing ``register(subparsers)``; the
module sets ``run`` on its parser as the function that executes it and returns
the exit code. Bad input never shows a traceback: engine errors are printed as
located problems and the exit code is 1 (2 for wrong usage, as argparse does).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.cli import keke, packs, play, schema, share, solve, validate, verify
from engine.errors import ValidationError
from engine.packs.shipped import version

COMMANDS = (validate, play, solve, verify, schema, share, keke, packs)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulegrid",
        description="Rulegrid: validate, play and solve rule-pushing puzzle packs.",
    )
    parser.add_argument("--version", action="version", version=f"rulegrid {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except ValidationError as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file that could not be read or written: one line, no traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"rulegrid: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
