"""Helpers shared by the subcommands: finding packs and levels, writing files atomically."""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import Problem, ValidationError, counted
from engine.model import Level, Pack
from engine.packs.load import load_pack, read_pack_document
from engine.packs.validate import load_level

_LEVEL_POINTER = re.compile(r"^/levels/(\d+)(?:/|$)")


def work_units(text: str) -> int:
    """A ``--budget`` value: a positive number of work units (``2000000``, ``2_000_000``, ``2e6``)."""
    try:
        value = float(text.replace("_", "").replace(",", ""))
    except ValueError:
        value = 0.0
    if not 1 <= value <= 1e15:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a number of work units (a whole number, 1 or more)"
        )
    return int(value)


def open_pack(path: str, *, trust: bool = False) -> Pack:
    return load_pack(Path(path), trust=trust)


def find_level(pack: Pack, wanted: str) -> Level:
    """The level called ``wanted`` (its id, or its 1-based number in the pack)."""
    return _find(pack.levels, wanted, pack.id)


def _find(levels: list[Level], wanted: str, pack_name: str) -> Level:
    for level in levels:
        if level.id == wanted:
            return level
    if wanted.isdigit() and 1 <= int(wanted) <= len(levels):
        return levels[int(wanted) - 1]
    known = ", ".join(level.id for level in levels[:20])
    more = " …" if len(levels) > 20 else ""
    raise ValidationError.single(
        "/levels",
        "unknown-level",
        f"no level {wanted!r} in this pack (levels: {known}{more})",
        pack=pack_name,
    )


@dataclass(slots=True)
class PlayablePack:
    """The valid levels of a pack that may have invalid ones, and its problems."""

    name: str
    levels: list[Level]
    problems: list[Problem] = field(default_factory=list)
    broken: dict[str, list[Problem]] = field(default_factory=dict)  # level id -> problems

    def find(self, wanted: str) -> Level:
        """The valid level ``wanted`` (id or 1-based number); an invalid one is refused."""
        if wanted in self.broken:
            raise ValidationError(self.broken[wanted])
        return _find(self.levels, wanted, self.name)

    def warn(self) -> None:
        """Name the pack's problems on standard error, as warnings: the valid levels still run."""
        if not self.problems:
            return
        names = ", ".join(self.broken) or "the pack itself"
        print(
            f"warning: {self.name} has {counted(len(self.problems), 'problem')} ({names}); "
            "only its valid levels are used (see rulegrid validate)",
            file=sys.stderr,
        )


def open_playable(path: str, *, trust: bool = False) -> PlayablePack:
    """Open a pack for playing or solving: its valid levels even when others are invalid.

    A pack that cannot be read at all (not JSON, no levels list) is still refused.
    """
    try:
        pack = open_pack(path, trust=trust)
    except ValidationError as exc:
        problems = exc.errors
        document, name = read_pack_document(Path(path), trust=trust)
        raw_levels = document.get("levels") if isinstance(document, dict) else None
        if not isinstance(raw_levels, list):
            raise
        by_index: dict[int, list[Problem]] = {}
        for problem in problems:
            match = _LEVEL_POINTER.match(problem.pointer)
            if match is not None:
                by_index.setdefault(int(match.group(1)), []).append(problem)
        name = problems[0].pack or name if problems else name
        playable = PlayablePack(name, [], list(problems))
        for index, raw in enumerate(raw_levels):
            level_id = str(raw.get("id")) if isinstance(raw, dict) else f"#{index + 1}"
            if index in by_index:
                playable.broken.setdefault(level_id, []).extend(by_index[index])
                continue
            try:
                playable.levels.append(load_level(raw))
            except ValidationError as level_exc:  # caught only by the pack's own checks
                playable.broken.setdefault(level_id, []).extend(level_exc.errors)
        return playable
    return PlayablePack(pack.id, list(pack.levels))


_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def plain_help(doc: str | None, width: int = 79) -> str:
    """A module docstring as ``--help`` text: reST marks taken out, paragraphs refilled.

    ````--jobs N```` reads "--jobs N"; ``:func:`engine.solve.verify.verify_level```
    reads "verify_level" (a reader of --help wants the name, not the module path).
    """
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], doc or "").replace("``", "")
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(textwrap.fill(p, width, break_on_hyphens=False) for p in paragraphs if p)
