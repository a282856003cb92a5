"""``rulegrid import-keke`` and ``export-keke``: Keke AI Competition level files.

``import-keke SRC -o PACK.json`` reads a level-set file (or one ASCII map, or
``-`` for stdin), replays every recorded solution and writes a validated pack;
levels that use what Rulegrid lacks are listed by level, character and place,
and nothing is written unless ``--skip-unsupported`` is given. ``export-keke PACK
-o FILE`` writes the levels that fit the Keke key and names the others. Files
are written atomically; any error writes nothing and exits 1 without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.cli.common import open_pack
from engine.errors import ValidationError, counted
from engine.interop.keke import KekeUnsupportedError, import_keke
from engine.interop.keke_export import export_keke
from engine.interop.keke_read import MAX_FILE_BYTES, KekeSource, KekeUnsupported
from engine.packs.save import dump_pack, write_atomic

#: Places listed for one character of one level before the rest are counted.
MAX_PLACES = 6


def register(sub: Any) -> None:
    imp = sub.add_parser(
        "import-keke",
        help="convert a Keke level file or ASCII map into a pack, replaying solutions",
    )
    imp.add_argument("source", metavar="SRC", help="a Keke *_LEVELS.json file, an ASCII map, or -")
    imp.add_argument(
        "-o", "--output", required=True, metavar="PACK", help="the pack .json to write"
    )
    imp.add_argument(
        "--skip-unsupported",
        action="store_true",
        help="import the other levels when some use KILL, MOVE, HOT, MELT or waits",
    )
    imp.add_argument(
        "--id-prefix", default="keke", metavar="P", help="level ids are P-KEKEID (default: keke)"
    )
    imp.add_argument("--pack-id", metavar="ID", help="the pack's id (default: from the file name)")
    imp.add_argument("--title", help="the pack's title")
    imp.set_defaults(run=run_import)

    exp = sub.add_parser("export-keke", help="write a pack's levels as a Keke level file")
    exp.add_argument("pack", metavar="PACK", help="a pack .json file or pack folder")
    exp.add_argument("-o", "--output", required=True, metavar="FILE", help="the Keke file to write")
    exp.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    exp.set_defaults(run=run_export)


def run_import(args: argparse.Namespace) -> int:
    source: KekeSource
    if args.source == "-":
        source, name = sys.stdin.read(MAX_FILE_BYTES + 1), "<stdin>"
    else:
        source, name = Path(args.source), Path(args.source).name
    try:
        result = import_keke(
            source,
            name=name,
            skip_unsupported=args.skip_unsupported,
            id_prefix=args.id_prefix,
            pack_id=args.pack_id,
            title=args.title,
        )
    except KekeUnsupportedError as exc:
        for line in describe(exc.unsupported):
            print(f"{name}: {line}", file=sys.stderr)
        print(
            f"{counted(len(exc.levels), 'level')} {'uses' if len(exc.levels) == 1 else 'use'} "
            "what Rulegrid lacks; nothing written "
            f"(--skip-unsupported imports the other {exc.importable})",
            file=sys.stderr,
        )
        return 1
    for line in describe(result.unsupported):
        print(f"{name}: skipped {line}", file=sys.stderr)
    if not result.pack.levels:
        print(f"{name}: no level left to import; nothing written", file=sys.stderr)
        return 1
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not _write(Path(args.output), dump_pack(result.pack)):
        return 1
    total, wins = len(result.replays), len(result.winning)
    print(
        f"wrote {args.output}: {counted(len(result.pack.levels), 'level')}"
        f"{f', {len(result.skipped)} skipped' if result.skipped else ''}; "
        f"{wins} of {counted(total, 'recorded solution')} "
        f"{'wins' if wins == 1 else 'win'} under Rulegrid's rules"
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    pack = open_pack(args.pack, trust=args.trust)
    result = export_keke(pack)
    for misfit in result.misfits:
        print(f"left out {misfit}", file=sys.stderr)
    if not result.levels:
        raise ValidationError.single(
            "", "keke-misfit", "no level fits the Keke key; nothing written", pack=pack.id
        )
    if not _write(Path(args.output), result.text()):
        return 1
    left = f", {len(result.misfits)} left out" if result.misfits else ""
    print(f"wrote {args.output}: {counted(len(result.levels), 'level')}{left}")
    return 0


def describe(unsupported: Iterable[KekeUnsupported]) -> list[str]:
    """One line per level: each character it uses that we lack, with its places."""
    levels: dict[tuple[str, str], dict[tuple[str, str], list[KekeUnsupported]]] = {}
    for item in unsupported:
        chars = levels.setdefault((item.pointer.rpartition("/")[0], item.level), {})
        chars.setdefault((item.character, item.meaning), []).append(item)
    lines = []
    for (where, label), chars in levels.items():
        parts = []
        for (char, meaning), items in chars.items():
            places = [_place(item) for item in items[:MAX_PLACES]]
            if len(items) > MAX_PLACES:
                places.append(f"and {len(items) - MAX_PLACES} more")
            at = "move" if items[0].move is not None else ""
            at += "s" if at and len(items) > 1 else ""
            parts.append(f"{char!r} ({meaning}) at {at + ' ' if at else ''}{', '.join(places)}")
        lines.append(f'level "{label}"{f" ({where})" if where else ""}: ' + "; ".join(parts))
    return lines


def _place(item: KekeUnsupported) -> str:
    if item.move is not None:
        return str(item.move)
    assert item.cell is not None
    return f"row {item.row} column {item.column} (cell {item.cell[0]},{item.cell[1]})"


def _write(path: Path, text: str) -> bool:
    if not path.parent.is_dir():  # a mistyped -o folder is an error, not a new folder
        print(f"cannot write {path}: the folder {path.parent} does not exist", file=sys.stderr)
        return False
    try:
        write_atomic(path, text)
    except OSError as exc:
        print(f"cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True
