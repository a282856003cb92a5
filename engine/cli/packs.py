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
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.packs.shipped import bundled_packs
from engine.share import MAX_LISTED, installed_pack_files, user_pack_folder


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
    """The installed pack files (at most :data:`MAX_LISTED`) and whether there are more."""
    if not folder.is_dir():
        return [], False
    paths, more = installed_pack_files(folder, MAX_LISTED)
    return [KnownPack("installed", p.name.removesuffix(".json"), p) for p in paths], more


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
