"""``rulegrid share export|import``: data-only payloads on the command line.

``export`` prints one line of payload text; ``import`` previews a payload (its
summary, problems and replay warnings) from a file, the command line or stdin,
and installs it into the user's pack folder only with ``--yes``. Everything a payload says is printed as data, never
acted on, and a bad payload is a located error with exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine import share
from engine.cli.common import find_level, open_pack
from engine.errors import counted
from engine.limits import MAX_PAYLOAD_CHARS

#: How payload text starts; any other argument names a payload file.
PAYLOAD_PREFIX = "rulegrid:"


def register(sub: Any) -> None:
    parser = sub.add_parser("share", help="export or import data-only share payloads")
    actions = parser.add_subparsers(dest="share_command", required=True, metavar="ACTION")

    export = actions.add_parser("export", help="print a payload for a pack or one of its levels")
    export.add_argument("pack", help="a pack .json file or pack folder")
    export.add_argument(
        "--level", metavar="ID", help="share only this level (id or 1-based number)"
    )
    export.add_argument(
        "--with-solutions",
        action="store_true",
        help="keep the levels' solutions, with replay records that let importers check them",
    )
    export.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    export.set_defaults(run=run_export)

    imp = actions.add_parser("import", help="preview a payload; install it with --yes")
    imp.add_argument(
        "payload",
        help="a payload file (.rulegrid, as the editor writes them), the payload text "
        "itself (rulegrid:1:…), or - to read it from stdin",
    )
    imp.add_argument("--yes", action="store_true", help="install the pack after the preview")
    imp.add_argument(
        "--into", metavar="DIR", help=f"install into DIR instead of {share.user_pack_folder()}"
    )
    imp.add_argument(
        "--replace", action="store_true", help="overwrite an installed pack of the same id"
    )
    imp.add_argument(
        "--as",
        dest="pack_id",
        metavar="ID",
        help="install under another pack id (to keep an installed pack of the same id)",
    )
    imp.set_defaults(run=run_import)


def run_export(args: argparse.Namespace) -> int:
    pack = open_pack(args.pack, trust=args.trust)
    level = find_level(pack, args.level).id if args.level is not None else None
    print(share.export(pack, level=level, with_solutions=args.with_solutions))
    return 0


def read_preview(source: str) -> share.SharePreview:
    """Decode the payload ``source`` names: ``-`` (stdin), payload text, or a file.

    A file is checked against the payload cap before it is read; a file that is
    not a payload is refused with its name and one line saying why.
    """
    if source == "-":
        return share.decode(sys.stdin.read(MAX_PAYLOAD_CHARS + 1))
    if source.startswith(PAYLOAD_PREFIX):
        return share.decode(source)
    return share.decode_file(Path(source))


def run_import(args: argparse.Namespace) -> int:
    preview = read_preview(args.payload)
    for line in preview.summary.lines():
        print(line)
    for check in preview.replays:
        status = "matches" if check.matches else "DIFFERS"
        status += ", wins" if check.wins else ", does not win"
        print(
            f"replay {check.index + 1} of {check.record.level} ({len(check.record.moves)} moves): {status}"
        )
    for warning in preview.warnings:
        print(f"warning: {warning}")
    if preview.problems:
        for problem in preview.problems:
            print(problem, file=sys.stderr)
        print(f"not installable: {counted(len(preview.problems), 'problem')}", file=sys.stderr)
        return 1
    folder = Path(args.into) if args.into else share.user_pack_folder()
    if not args.yes:
        path = preview.install_path(folder, replace=args.replace, pack_id=args.pack_id)
        print(f"valid; would install to {path} — run again with --yes to install")
        return 0
    written = preview.install(folder, confirm=True, replace=args.replace, pack_id=args.pack_id)
    print(f"installed {written}")
    return 0
