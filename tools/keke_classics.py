"""Regenerate ``packs/keke-classics.json`` from the Keke level files in ``tests/data/keke/raw/``.

Run: ``python tools/keke_classics.py`` (about a minute on two cores: the
ordering runs the solver on every level); ``--check`` compares instead of writing
and exits 1 when the bundled pack is out of date; ``--refresh`` searches every
level's shortest solution again instead of reading ``SOLUTIONS`` (about four
CPU minutes: docs/keke.md).

Every raw file goes through ``engine.import_keke`` (the same code as ``rulegrid
import-keke``) with ``--skip-unsupported``; a level is kept when its recorded
solution wins under our rules. The same map appears in several files (the
framework's sets overlap): it is kept once, with the id, title and solution of
its first file in ``SOURCES`` and the authors of every file that credits it.
Untitled levels get the names the team's corpus gives them. The levels are
ordered by solver effort — the positions ``engine.solve(strategy="auto")``
expands before it finds a solution — which tracks how much there is to try
better than the length of a human solution (human solutions wander; one of 100
moves has a 64-move answer). Ties go to the shorter recorded solution, then the id.

Each level's intended ``solution`` is the shortest known: breadth-first's
(proved shortest), or, where no breadth-first search finishes on a desktop
(biy-81, biy-153, biy-176), the pack check's own best-first solution. When the
recorded solution is longer, it is kept as the level's reference solution with
its file and Keke id (docs/decisions.md, "Reference solutions"). The searches'
answers are kept in ``SOLUTIONS`` beside this tool, each with the digest of its
board, and are replayed (not trusted) when read.

This lives in ``tools/`` rather than ``bench/`` because it builds a shipped
file rather than measuring anything.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import dump_pack, write_atomic  # noqa: E402
from engine.interop.keke_key import COLORS as KEKE_COLORS  # noqa: E402
from engine.lint.level import board_digest  # noqa: E402
from engine.model import ReferenceSolution  # noqa: E402

RAW = ROOT / "tests" / "data" / "keke" / "raw"
PACK = ROOT / "packs" / "keke-classics.json"
NOTICE = ROOT / "packs" / "keke-classics.LICENSE.md"
#: The shortest known solution of each level, with its board's digest (``--refresh`` remakes it).
SOLUTIONS = ROOT / "tools" / "keke_classics.solutions.json"
#: Budget of a breadth-first proof: biy-107, the slowest proved level, needs about 30 s.
PROOF_SECONDS = 90.0
PROOF_MEMORY = 4 * 2**30
#: File, level id prefix, title for untitled levels; earlier files name a shared map.
SOURCES = (
    ("new_full_biy_LEVELS.json", "biy", "Baba is Y'all #{id}"),
    ("full_biy_LEVELS.json", "biy", "Baba is Y'all #{id}"),
    ("user_milk_biy_LEVELS.json", "biy", "Baba is Y'all #{id}"),
    ("demo_LEVELS.json", "demo", "Keke demo level {id}"),
    ("test_LEVELS.json", "test", "Keke test level {id}"),
    ("search_biy_LEVELS.json", "search", "Keke search level {id}"),
)
DESCRIPTION = (
    "Levels from the Keke AI Competition level sets (MasterMilkX/KekeCompetition, "
    "Keke_JS/json_levels, and new_full_biy_LEVELS.json of its fork tsukii7/KekeCompetition), "
    "made by users of the Baba is Y'all site and by the framework's authors; each level "
    "names its author. MIT licence, as the source repositories state: see "
    "keke-classics.LICENSE.md. Only levels whose recorded solution wins under Rulegrid's "
    "rules are included, ordered from the least to the most solver effort (positions "
    "expanded to find a solution). Each level's solution is the shortest known (proved "
    "shortest but for three levels); a longer recorded solution is kept as its reference "
    "solution. Regenerate with: python tools/keke_classics.py"
)

MapKey = tuple[int, int, tuple[tuple[str, str, int, int], ...]]


def map_key(level: engine.Level) -> MapKey:
    pieces = tuple(
        (e.kind, e.noun if e.kind == "object" else e.text, e.x, e.y) for e in level.entities
    )
    return level.width, level.height, pieces


def collect(raw: Path = RAW) -> list[engine.Level]:
    """The winning levels of every raw file, each map once, in first-seen order.

    Each level carries its recorded solution as ``solution`` and, as a reference
    solution, the same moves with their source (:func:`with_shortest` keeps that
    reference only where a shorter solution replaces the recorded one).
    """
    kept: dict[MapKey, engine.Level] = {}
    authors: dict[MapKey, list[str]] = {}
    taken: set[str] = set()
    for file_name, prefix, untitled in SOURCES:
        result = engine.import_keke(raw / file_name, skip_unsupported=True, id_prefix=prefix)
        wins = set(result.winning)
        keke_ids = {r.level: r.keke_id for r in result.replays}
        for level in result.pack.levels:
            if level.id not in wins:
                continue
            key = map_key(level)
            names = authors.setdefault(key, [])
            if level.author and level.author.lower() not in (n.lower() for n in names):
                names.append(level.author)
            if key in kept:
                continue
            level_id = level.id if level.id not in taken else f"{Path(file_name).stem}-{level.id}"
            taken.add(level_id)
            title = level.title or untitled.format(id=keke_ids[level.id])
            source = (
                f"recorded in {file_name} of the Keke AI Competition, level {keke_ids[level.id]}"
            )
            recorded = ReferenceSolution(moves=level.solution or "", source=source)
            kept[key] = level.model_copy(
                update={"id": level_id, "title": title, "references": [recorded]}
            )
    return [
        level.model_copy(update={"author": " + ".join(authors[key]) or None})
        for key, level in kept.items()
    ]


def effort(level: engine.Level, result: engine.SolveResult) -> tuple[int, int, int, str]:
    """Sort key: positions the solver expands, its solution's length, the human one's, the id."""
    return result.states, result.length, len(level.solution or ""), level.id


@dataclass(frozen=True, slots=True)
class Known:
    """The shortest solution known for a level's board; ``proved``: no shorter one exists."""

    board: str
    moves: str
    proved: bool

    def to_dict(self) -> dict[str, Any]:
        return {"board": self.board, "moves": self.moves, "proved": self.proved}


def read_known(path: Path = SOLUTIONS) -> dict[str, Known]:
    """The searches' answers kept beside the tool, by level id (none when the file is absent)."""
    if not path.exists():
        return {}
    levels = json.loads(path.read_text(encoding="utf-8"))["levels"]
    return {
        key: Known(str(v["board"]), str(v["moves"]), bool(v["proved"])) for key, v in levels.items()
    }


def write_known(known: dict[str, Known], path: Path = SOLUTIONS) -> None:
    document = {
        "about": (
            "The shortest known solution of each level of packs/keke-classics.json, with the "
            "digest of its board (engine.lint.level.board_digest). proved: breadth-first "
            "(engine.solve, strategy bfs) found it, so none is shorter; otherwise it is the "
            "best-first solution of engine.solve(strategy='auto'). Made by "
            "python tools/keke_classics.py --refresh."
        ),
        "levels": {key: known[key].to_dict() for key in sorted(known, key=_natural)},
    }
    write_atomic(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def _natural(level_id: str) -> tuple[str, int, str]:
    prefix, _, number = level_id.rpartition("-")
    return (prefix, int(number), "") if number.isdigit() else (level_id, 0, "")


def _wins_exactly(level: engine.Level, moves: str) -> bool:
    check = engine.check_solution(level, moves)
    return check.wins and check.reason == "wins"


def shortest_known(level: engine.Level, auto: engine.SolveResult, known: Known | None) -> Known:
    """The shortest solution known for ``level``: kept, proved now, or the pack check's own.

    A kept answer counts only for the same board and only if it still wins to its
    last move. Otherwise breadth-first searches for a proof (``PROOF_SECONDS``);
    where it cannot finish, the ``auto`` search's solution is the best known (the
    one the pack check finds itself, so it never reports it as a shortcut).
    """
    board = board_digest(level)
    if known is not None and known.board == board and _wins_exactly(level, known.moves):
        found = known
    elif auto.shortest:
        found = Known(board, auto.moves, True)
    else:
        proof = engine.solve(
            level, strategy="bfs", max_states=10**9, timeout=PROOF_SECONDS, memory=PROOF_MEMORY
        )
        found = Known(board, proof.moves, True) if proof.shortest else Known(board, "", False)
    if (
        not found.proved
        and auto.status is engine.SolveStatus.SOLVED
        and (not found.moves or auto.length < len(found.moves))
    ):
        found = Known(board, auto.moves, False)
    return found


def with_shortest(level: engine.Level, known: Known | None) -> engine.Level:
    """``level`` with the shortest known solution as intended, the recorded one as reference.

    A recorded solution as short as the shortest known stays the intended one, with
    no reference (it is the author's own and loses nothing).
    """
    recorded = level.solution or ""
    if known is None or not known.moves or len(known.moves) >= len(recorded):
        return level.model_copy(update={"references": []})
    return level.model_copy(update={"solution": known.moves})


def build(levels: list[engine.Level]) -> dict[str, Any]:
    nouns: set[str] = set()
    for level in levels:
        nouns.update(e.noun if e.kind == "object" else e.text for e in level.entities)
    colors = {name: color for name, color in KEKE_COLORS.items() if name in nouns}
    document = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "keke-classics",
        "title": "Keke Classics",
        "author": "Baba is Y'all and Keke AI Competition authors (see each level)",
        "description": DESCRIPTION,
        "nouns": {name: {"color": color} for name, color in colors.items()},
        "levels": [level.to_data() for level in levels],
    }
    return engine.load_pack(document).to_data()


def notice(levels: list[engine.Level]) -> str:
    """The licence notice: sources, the MIT text, and every author with their levels."""
    counts: dict[str, int] = {}
    spelling: dict[str, str] = {}
    for level in levels:
        for author in (level.author or "").split(" + "):
            if author:
                key = spelling.setdefault(author.lower(), author)
                counts[key] = counts.get(key, 0) + 1
    authors = "\n".join(
        f"- {name} ({n} level{'s' if n > 1 else ''})"
        for name, n in sorted(counts.items(), key=lambda item: item[0].lower())
    )
    return NOTICE_TEXT.format(count=len(levels), authors=authors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the bundled pack")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help=f"search every shortest solution again instead of reading {SOLUTIONS.name}",
    )
    args = parser.parse_args(argv)
    levels = collect()
    print(f"{len(levels)} levels win under Rulegrid's rules; ordering by solver effort …")
    solved = {level.id: engine.solve(level, strategy="auto") for level in levels}
    ordered = sorted(levels, key=lambda level: effort(level, solved[level.id]))
    kept = {} if args.refresh else read_known()
    known = {lv.id: shortest_known(lv, solved[lv.id], kept.get(lv.id)) for lv in ordered}
    proved = sum(k.proved for k in known.values())
    print(f"shortest solutions: {proved} proved, {len(known) - proved} best known")
    final = [with_shortest(level, known[level.id]) for level in ordered]
    files = {PACK: dump_pack(build(final)), NOTICE: notice(final)}
    stale = 0
    for path, text in files.items():
        name = path.relative_to(ROOT)
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            stale += not same
            print(f"{name} is {'up to date' if same else 'OUT OF DATE'}")
        else:
            write_atomic(path, text)
            print(f"wrote {name}")
    if not args.check and known != kept:
        write_known(known)
        print(f"wrote {SOLUTIONS.relative_to(ROOT)}")
    return 1 if stale else 0


NOTICE_TEXT = """\
# Keke Classics: sources, authors and licence

`keke-classics.json` holds {count} levels from the level sets of the Keke AI
Competition framework, made by users of the "Baba is Y'all" site and by the
framework's authors. Rulegrid converted them with `rulegrid import-keke` (the
pack is regenerated by `python tools/keke_classics.py`) and kept only the levels
whose recorded solution wins under Rulegrid's rules. The maps, names, authors and
recorded solutions are the authors' own; the conversion changed only the format
(the border ring is dropped, solutions are written in `U D L R`). Untitled levels
are named after their set and number. Where Rulegrid's solver found a shorter
solution, that one is the level's intended `solution` and the recorded one is
kept as its reference solution (`references`), naming the file and level it
comes from.

## Sources

- `MasterMilkX/KekeCompetition`, folder `Keke_JS/json_levels/`
  (`demo_LEVELS.json`, `full_biy_LEVELS.json`, `user_milk_biy_LEVELS.json`,
  `test_LEVELS.json`, `search_biy_LEVELS.json`), commit
  `091d297c8d95ef1ff691e6d9fe836c17be096916`:
  <https://github.com/MasterMilkX/KekeCompetition>
- `tsukii7/KekeCompetition`, a fork of the above, file
  `JS/Keke_JS/json_levels/new_full_biy_LEVELS.json`, commit
  `c0cd3b1e55bb00b811d4a18277c7d455be2b705a`:
  <https://github.com/tsukii7/KekeCompetition>

Unchanged copies of these files are in `tests/data/keke/raw/`.

## Licence

Both repositories state "License: MIT" in `Keke_JS/README.md`; neither has a
LICENSE file or a copyright line. The MIT licence, as it applies to these levels:

> Copyright (c) the Keke AI Competition framework authors and the level authors
> listed below
>
> Permission is hereby granted, free of charge, to any person obtaining a copy of
> this software and associated documentation files (the "Software"), to deal in
> the Software without restriction, including without limitation the rights to
> use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of
> the Software, and to permit persons to whom the Software is furnished to do so,
> subject to the following conditions:
>
> The above copyright notice and this permission notice shall be included in all
> copies or substantial portions of the Software.
>
> THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
> IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS
> FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
> COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN
> AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
> WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

## Level authors

As the source files credit them; a level found in several files credits every
author they name (`PCG.js` names the framework's procedural level generator,\n`Demo` its demo set).

{authors}
"""

if __name__ == "__main__":
    sys.exit(main())
