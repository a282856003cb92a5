"""``rulegrid packs``: the packs this installation knows, bundled and installed, with paths.

Bundled packs ship with Rulegrid (read only, wherever it was installed); installed
packs are the ones ``rulegrid share import --yes`` wrote into the user's pack
folder. Nothing is read but the folder listings, so the command answers at once
however large the packs are; ``--path NAME`` prints one path for scripts
(``rulegrid verify "$(rulegrid packs --path tutorial)"``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.packs.shipped import bundled_packs
from engine.share import user_pack_folder

#: Installed pack files listed; more are counted as "more" (the editor lists as many).
MAX_LISTED = 500


@dataclass(frozen=True, slots=True)
class KnownPack:
    kind: str  # "bundled" or "installed"
    name: str
    path: Path


def register(sub: Any) -> None:
    parser = sub.add_parser("packs", help="list the bundled and installed packs with their paths")
    parser.add_argument(
        "--path",
        metavar="NAME",
        help="print only the path of the pack NAME (bundled first, then installed)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per pack")
    parser.set_defaults(run=run)


def installed_packs(folder: Path) -> tuple[list[KnownPack], bool]:
    """The ``*.json`` files of the user's pack folder by name, at most :data:`MAX_LISTED`.

    Returns the packs and whether the folder holds more. A missing folder is empty.
    """
    if not folder.is_dir():
        return [], False
    found: list[KnownPack] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(".json") and not entry.name.startswith("."):
                if len(found) == MAX_LISTED:
                    return sorted(found, key=lambda p: p.name), True
                found.append(KnownPack("installed", entry.name[: -len(".json")], Path(entry.path)))
    return sorted(found, key=lambda p: p.name), False


def run(args: argparse.Namespace) -> int:
    bundled = [KnownPack("bundled", p.name, p.path) for p in bundled_packs()]
    folder = user_pack_folder()
    installed, more = installed_packs(folder)
    known = bundled + installed
    if args.path is not None:
        wanted = args.path.removesuffix(".json")
        for pack in known:
            if pack.name == wanted:
                print(pack.path)
                return 0
        names = ", ".join(p.name for p in known[:20]) or "none"
        print(f"rulegrid: no pack called {args.path!r} (known: {names})", file=sys.stderr)
        return 1
    if args.json:
        for pack in known:
            print(json.dumps({"kind": pack.kind, "name": pack.name, "path": str(pack.path)}))
        return 0
    width = max((len(p.name) for p in known), default=0)
    for pack in known:
        print(f"{pack.kind:<9}  {pack.name:<{width}}  {pack.path}")
    if not installed:
        print(f"(no installed packs in {folder})")
    elif more:
        print(f"(more than {MAX_LISTED} installed packs in {folder}: {MAX_LISTED} of them listed)")
    return 0
