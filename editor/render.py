"""``rulegrid-editor render PACK LEVEL -o FILE``: pictures of levels and solutions, headless.

The same pictures as the editor's Export menu (the canvas's tile renderer, the
engine's turns), from a script or CI, with no window and no display: it runs on
Qt's ``offscreen`` platform unless another is chosen. ``render`` as the first
argument always means this command; a pack file called ``render`` opens with
``rulegrid-editor ./render``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import engine
from editor.io.animation import encode, format_for, write
from editor.views.pictures import (
    Board,
    PictureError,
    cell_for_scale,
    frames,
    look_for,
    paint,
    solution_of,
)
from editor.views.theme import THEMES, theme_named
from editor.views.tiles import TileRenderer

COMMAND = "render"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulegrid-editor render",
        description="Draw a level (or its solution, animated) to an image file, without a window.",
        epilog="A pack file named 'render' opens in the editor with: rulegrid-editor ./render",
    )
    parser.add_argument("pack", help="a pack .json file or pack folder")
    parser.add_argument("level", help="the level's id, or its 1-based number in the pack")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        type=Path,
        help="the file to write: .png, or .gif (with --solution: .gif, or .png for an APNG)",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="1 draws 32 pixels a cell, like the editor at 100%% (default 1; 0.125 to 8)",
    )
    parser.add_argument(
        "--transparent",
        action="store_true",
        help="no board background or grid (PNG and APNG; a GIF is always themed)",
    )
    parser.add_argument("--theme", choices=sorted(THEMES), default="light")
    parser.add_argument(
        "--solution",
        action="store_true",
        help="animate the level's solution: the start, one frame per move, a hold on the end",
    )
    parser.add_argument(
        "--moves", metavar="UDLR", help="animate these moves instead of the level's solution"
    )
    parser.add_argument("--trust", action="store_true", help="run the folder's trusted pack.py")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the command; 0 on success, 1 with a located message on bad input."""
    args = build_parser().parse_args(list(argv))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # pictures need no display
    from PySide6.QtGui import QGuiApplication

    from editor.qt_start import guarded_start

    with guarded_start(program="rulegrid-editor render"):
        app = QGuiApplication.instance() or QGuiApplication([sys.argv[0] if sys.argv else "render"])
    assert app is not None  # pixmaps need it alive until the picture is written
    try:
        message = render(args)
    except engine.ValidationError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    except (PictureError, ValueError, OSError) as exc:
        sys.stderr.write(f"{args.output}: {exc}\n")
        return 1
    sys.stdout.write(message + "\n")
    return 0


def render(args: argparse.Namespace) -> str:
    """Draw and write the picture; returns what was written, for the terminal."""
    pack = engine.load_pack(Path(args.pack), trust=args.trust)
    level = find_level(pack, args.level)
    animated = args.solution or args.moves is not None
    kind = format_for(args.output, animated=animated)
    cell = cell_for_scale(args.scale)
    transparent = args.transparent and kind != "gif"
    renderer = TileRenderer(look_for(theme_named(args.theme), pack.nouns, level))
    if not animated:
        image = paint(renderer, Board.of_level(level), cell, transparent=transparent)
        write(args.output, encode([image], kind=kind))
        return f"wrote {args.output} ({image.width()}x{image.height()})"
    moves = args.moves if args.moves is not None else (level.solution or "")
    solution = solution_of(level, moves)
    images = frames(renderer, solution, cell, transparent=transparent)
    write(args.output, encode(images, solution.durations(), kind=kind))
    ending = "they win" if solution.won else f"they do not win: {solution.problem}"
    return (
        f"wrote {args.output} ({images[0].width()}x{images[0].height()}, "
        f"{len(images)} frames for {len(moves)} moves; {ending})"
    )


def find_level(pack: engine.Pack, wanted: str) -> engine.Level:
    """The level called ``wanted`` (its id, or its 1-based number), as ``rulegrid`` finds it."""
    for level in pack.levels:
        if level.id == wanted:
            return level
    if wanted.isdigit() and 1 <= int(wanted) <= len(pack.levels):
        return pack.levels[int(wanted) - 1]
    known = ", ".join(level.id for level in pack.levels[:20])
    more = " …" if len(pack.levels) > 20 else ""
    raise engine.ValidationError.single(
        "/levels",
        "unknown-level",
        f"no level {wanted!r} in this pack (levels: {known}{more})",
        pack=pack.id,
    )
