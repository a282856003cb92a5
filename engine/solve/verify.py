"""``engine.verify_level``: is a level release-ready, and how hard is it?

A release-ready level is known to be solvable, its intended solution (the
authored ``solution``) still wins, and the solver finds no shorter, unintended
one. Reference solutions (``references``, other known solutions kept for the
record) are not judged here: the lint replays them (docs/decisions.md,
"Reference solutions"). :func:`verify_level` answers all three for one level and measures its
difficulty; the editor's level list and solver panel and ``rulegrid verify`` all
call it, so they always agree (one wording too: a broken intended solution is
described by :func:`engine.check_solution`).

The verdict's ``status`` is the one an author must look at first, in this order:

* ``invalid``: the level does not load (the validation problem is the message);
* ``broken``: the intended solution no longer wins ("move 7 (R) is blocked");
* ``unsolvable``: the solver searched every reachable position;
* ``shortcut``: the solver won in fewer moves than the intended solution;
* ``unknown``: the solver hit its budget and no solution is known;
* ``solved``: a solution is known (the solver's, or the intended one when the
  solver ran out of budget first), and no shorter one was found.

:attr:`LevelVerdict.words` says the same in the words an author reads in the
command, the solver panel and the level list alike: *proved shortest*, *solved,
shortest at least N* (the solver's proved lower bound), *unsolvable*, *unknown
within budget*, *broken*, *shortcut* (and *invalid*). A search stopped by a
budget names it ("stopped at the time budget of 60 s"), so the author knows
which one to raise.

Difficulty is measured on the best solution known (the solver's, or the
intended one when the solver found none or a longer one): its length, the
positions the solver expanded to find a solution (to *prove* it shortest when
``shortest`` is true) and the number of turns along it that change the active
rules.

:func:`verdict_key` names a verdict by what decides it — the level's content
(not its id, title or author), the settings and the engine's own source — so a
cache of verdicts never serves an answer the engine would now give differently.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from engine.errors import ValidationError
from engine.model import Level
from engine.packs.shipped import version
from engine.packs.validate import load_level
from engine.play.replay import SolutionCheck, check_solution, replay
from engine.solve.search import (
    DEFAULT_MAX_STATES,
    Cancel,
    SolveBudget,
    SolveProgress,
    SolveResult,
    SolveStatus,
    Strategy,
    solve,
)

#: Bump when a verdict's meaning or shape changes, so cached verdicts are not reused.
VERIFY_FORMAT = 2
#: Seconds a level's search may take by default (``rulegrid solve`` and ``verify``,
#: the editor's pack check): with the level's setup, a default solve of any valid
#: level ends within 90 s (issue 39). The Keke corpus's heaviest level needs about
#: 17 s for the default 1,000,000 states, so the states bound a normal level first.
DEFAULT_SECONDS = 60.0
_UNKEYED = ("id", "title", "author", "references")  # never change a verdict


class VerdictStatus(StrEnum):
    """What an author must look at first about a level (see the module docstring)."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"
    BROKEN = "broken"
    SHORTCUT = "shortcut"
    INVALID = "invalid"


#: The statuses that make a pack not release-ready (``rulegrid verify``'s default).
FAILING = frozenset(
    {VerdictStatus.UNSOLVABLE, VerdictStatus.UNKNOWN, VerdictStatus.BROKEN, VerdictStatus.SHORTCUT}
)


@dataclass(frozen=True, slots=True)
class VerifySettings:
    """The solver settings of a verification: strategy and budgets.

    ``memory`` is the search's budget of bytes (``None``: the default share of the
    memory available when it runs). It is not part of a verdict's key: a search
    the budget did not stop answers the same under any budget, and a verdict it
    stopped depends on the machine, so it is never cached (nor one stopped by the
    time budget).
    """

    strategy: Strategy = Strategy.AUTO
    max_states: int = DEFAULT_MAX_STATES
    timeout: float | None = DEFAULT_SECONDS
    memory: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "strategy", Strategy(self.strategy))
        if self.max_states < 1 or (self.timeout is not None and not self.timeout > 0):
            raise ValueError("max_states must be at least 1 and a timeout more than 0 seconds")
        if self.memory is not None and self.memory < 1:
            raise ValueError("a memory budget must be at least 1 byte")

    @property
    def budget(self) -> SolveBudget:
        return SolveBudget(self.max_states, self.timeout, self.memory)

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": str(self.strategy),
            "maxStates": self.max_states,
            "timeout": self.timeout,
            "memory": self.memory,
        }


@dataclass(frozen=True, slots=True)
class Difficulty:
    """How hard the level is, measured on one solution (``source``: solver or intended)."""

    length: int
    states: int | None  # expansions the solver needed; None when only the intended one is known
    rule_changes: int  # turns along the solution after which the active rules differ
    shortest: bool  # proved: no shorter solution exists
    source: str  # "solver" or "intended"

    def to_dict(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "states": self.states,
            "ruleChanges": self.rule_changes,
            "shortest": self.shortest,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class LevelVerdict:
    """The checks of one level. It carries no level id: equal content, equal verdict.

    ``solve`` is ``None`` only for an invalid level; ``intended`` is ``None`` when
    the level has no ``solution``; ``shortcut`` holds the shorter solution's moves.
    """

    status: VerdictStatus
    message: str
    solve: SolveResult | None
    intended: SolutionCheck | None
    shortcut: str | None
    difficulty: Difficulty | None
    settings: VerifySettings = field(default_factory=VerifySettings)

    @property
    def cancelled(self) -> bool:
        """Stopped by ``cancel``: this verdict says nothing about the level."""
        return self.solve is not None and self.solve.stopped_by == "cancel"

    @property
    def lower_bound(self) -> int | None:
        """Proved: every solution has at least this many moves (``None``: no search ran)."""
        return None if self.solve is None else self.solve.lower_bound

    @property
    def stopped_by_budget(self) -> str | None:
        """The budget that stopped the search: ``max-states``, ``timeout`` or ``memory``."""
        stopped = None if self.solve is None else self.solve.stopped_by
        return stopped if stopped in ("max-states", "timeout", "memory") else None

    @property
    def words(self) -> str:
        """The status in the words every front end shows (see the module docstring)."""
        status = self.status
        if status is VerdictStatus.UNKNOWN:
            return "unknown within budget"
        if status is not VerdictStatus.SOLVED:
            return str(status)
        if self.difficulty is not None and self.difficulty.shortest:
            return "proved shortest"
        return solved_words(self.lower_bound or 0)

    def fails(self, failing: frozenset[VerdictStatus] = FAILING) -> bool:
        return self.status in failing

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` reads it back (the cache and ``--json`` use it)."""
        return {
            "status": str(self.status),
            "message": self.message,
            "solver": None if self.solve is None else self.solve.to_dict(),
            "intended": None if self.intended is None else _check_to_dict(self.intended),
            "shortcut": self.shortcut,
            "difficulty": None if self.difficulty is None else self.difficulty.to_dict(),
            "settings": self.settings.to_dict(),
            "words": self.words,
            "lowerBound": self.lower_bound,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LevelVerdict:
        """Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a record of another shape."""
        solver, intended, difficulty = data["solver"], data["intended"], data["difficulty"]
        settings = data["settings"]
        return cls(
            VerdictStatus(data["status"]),
            str(data["message"]),
            None if solver is None else _result_from_dict(solver),
            None if intended is None else _check_from_dict(intended),
            None if data["shortcut"] is None else str(data["shortcut"]),
            None
            if difficulty is None
            else Difficulty(
                int(difficulty["length"]),
                None if difficulty["states"] is None else int(difficulty["states"]),
                int(difficulty["ruleChanges"]),
                bool(difficulty["shortest"]),
                str(difficulty["source"]),
            ),
            VerifySettings(
                Strategy(settings["strategy"]),
                int(settings["maxStates"]),
                None if settings["timeout"] is None else float(settings["timeout"]),
                None if settings.get("memory") is None else int(settings["memory"]),
            ),
        )


def verify_level(
    level: Level | Mapping[str, Any] | str,
    settings: VerifySettings = VerifySettings(),  # frozen: safe to share
    *,
    progress: Callable[[SolveProgress], None] | None = None,
    cancel: Cancel | None = None,
) -> LevelVerdict:
    """Check one level: the intended solution, then the solver, then difficulty.

    An invalid level is a verdict (``invalid``), not an exception, so a pack-wide
    run reports every level. A cancelled run returns a verdict whose
    ``cancelled`` is true; callers drop it.
    """
    try:
        loaded = level if isinstance(level, Level) else load_level(level)
    except ValidationError as exc:
        first = exc.errors[0] if exc.errors else None
        text = first.message if first is not None else str(exc)
        return LevelVerdict(
            VerdictStatus.INVALID, f"invalid level: {text}", None, None, None, None, settings
        )
    intended = None if loaded.solution is None else check_solution(loaded, loaded.solution)
    result = solve(
        loaded,
        max_states=settings.max_states,
        timeout=settings.timeout,
        progress=progress,
        cancel=cancel,
        strategy=settings.strategy,
        memory=settings.memory,
    )
    intended_length = None
    if intended is not None and intended.wins:
        intended_length = intended.played  # "won early": the moves after the win never count
    shortcut = None
    if (
        result.status is SolveStatus.SOLVED
        and intended_length is not None
        and result.length < intended_length
    ):
        shortcut = result.moves
    difficulty = None
    solved = result.status is SolveStatus.SOLVED
    if solved and (intended_length is None or result.length <= intended_length):
        difficulty = Difficulty(
            result.length,
            result.states,
            _rule_changes(loaded, result.moves),
            result.shortest,
            "solver",
        )
    elif intended is not None and intended_length is not None:
        # the best known solution is the intended one: the solver found none, or a longer
        # one (best-first), whose expansions are still what it took to find a solution
        moves = intended.moves[:intended_length]
        # the search proved no shorter solution exists when it reached the intended length
        proved = intended_length <= result.lower_bound
        difficulty = Difficulty(
            intended_length,
            result.states if solved else None,
            _rule_changes(loaded, moves),
            proved,
            "intended",
        )
    status, message = _judge(result, intended, intended_length, shortcut, settings)
    return LevelVerdict(status, message, result, intended, shortcut, difficulty, settings)


def verdict_key(level: Level | Mapping[str, Any], settings: VerifySettings) -> str:
    """A hex digest naming the verdict of ``level`` under ``settings`` with this engine.

    The level's id, title, author and reference solutions are left out (they never
    change a verdict); the engine's source is in (a changed engine may answer differently).
    """
    data = level.to_data() if isinstance(level, Level) else dict(level)
    content = {k: v for k, v in data.items() if k not in _UNKEYED}
    keyed = {k: v for k, v in settings.to_dict().items() if k != "memory"}
    text = json.dumps(
        [VERIFY_FORMAT, _engine_fingerprint(), keyed, content],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def solved_words(lower_bound: int) -> str:
    """A solved level whose shortest length is not proved, with what is."""
    if lower_bound > 1:
        return f"solved, shortest at least {lower_bound}"
    return "solved, not proved shortest"


def no_solution_words(result: SolveResult) -> str:
    """What the search proved about short solutions: "no solution in 30 moves or fewer"."""
    within = result.no_solution_within()
    if within < 1:
        return "no solution found"
    return f"no solution in {within} move{'s' if within != 1 else ''} or fewer"


def _judge(
    result: SolveResult,
    intended: SolutionCheck | None,
    intended_length: int | None,
    shortcut: str | None,
    settings: VerifySettings,
) -> tuple[VerdictStatus, str]:
    if intended is not None and not intended.wins:
        return VerdictStatus.BROKEN, f"intended solution broken: {intended.message}"
    if result.status is SolveStatus.UNSOLVABLE:
        return (
            VerdictStatus.UNSOLVABLE,
            f"unsolvable: every reachable position was searched ({result.states:,})",
        )
    if shortcut is not None:
        return (
            VerdictStatus.SHORTCUT,
            f"shortcut: {len(shortcut)} moves vs. intended {intended_length}",
        )
    solved = result.status is SolveStatus.SOLVED
    if solved and (intended_length is None or result.length <= intended_length):
        if result.shortest:
            return VerdictStatus.SOLVED, f"proved shortest: {_moves(result.length)}"
        words = solved_words(result.lower_bound)
        return VerdictStatus.SOLVED, f"{words}: {_moves(result.length)} found ({result.strategy})"
    if solved and intended_length is not None:  # the intended solution is the shorter one
        found = f"{result.strategy} found {_moves(result.length)}"
        if intended_length <= result.lower_bound:
            return (
                VerdictStatus.SOLVED,
                f"proved shortest: the intended {_moves(intended_length)} "
                f"({no_solution_words(result)}; {found})",
            )
        return (
            VerdictStatus.SOLVED,
            f"{solved_words(result.lower_bound)}: the intended solution wins in "
            f"{_moves(intended_length)}; {found}",
        )
    stop = settings.budget.stop_text(result)
    if intended_length is not None:
        if intended_length <= result.lower_bound:
            return (
                VerdictStatus.SOLVED,
                f"proved shortest: the intended {_moves(intended_length)} "
                f"({no_solution_words(result)}; {stop})",
            )
        return (
            VerdictStatus.SOLVED,
            f"{solved_words(result.lower_bound)}: the intended solution wins in "
            f"{_moves(intended_length)}; {no_solution_words(result)} ({stop})",
        )
    return VerdictStatus.UNKNOWN, f"unknown within budget: {no_solution_words(result)} ({stop})"


def _moves(count: int) -> str:
    return f"{count} move{'s' if count != 1 else ''}"


def _rule_changes(level: Level, moves: str) -> int:
    return sum(1 for event in replay(level, moves) if event.rules_added or event.rules_removed)


def _check_to_dict(check: SolutionCheck) -> dict[str, Any]:
    return {
        "moves": check.moves,
        "wins": check.wins,
        "reason": check.reason,
        "played": check.played,
        "failedAt": check.failed_at,
        "message": check.message,
    }


def _check_from_dict(data: Mapping[str, Any]) -> SolutionCheck:
    failed = data["failedAt"]
    return SolutionCheck(
        str(data["moves"]),
        bool(data["wins"]),
        str(data["reason"]),
        int(data["played"]),
        None if failed is None else int(failed),
        str(data["message"]),
    )


def _result_from_dict(data: Mapping[str, Any]) -> SolveResult:
    stopped = data["stoppedBy"]
    return SolveResult(
        SolveStatus(data["status"]),
        str(data["moves"]),
        int(data["states"]),
        float(data["seconds"]),
        Strategy(data["strategy"]),
        bool(data["shortest"]),
        None if stopped is None else str(stopped),
        int(data["visited"]),
        int(data["lowerBound"]),
        int(data["memory"]),
    )


@cache
def _engine_fingerprint() -> str:
    """A digest of the engine's source files.

    An installation that keeps no readable sources (a PyInstaller bundle holds
    compiled modules in an archive) digests its version instead.
    """
    digest = hashlib.sha256()
    try:
        sources = sorted(_sources(resources.files("engine"), ""), key=lambda pair: pair[0])
        for name, source in sources:
            digest.update(name.encode())
            digest.update(source.read_bytes())
    except OSError:
        sources = []
        digest = hashlib.sha256()
    if not sources:
        digest.update(f"rulegrid {version()}".encode())
    return digest.hexdigest()[:16]


def _sources(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    """The ``.py`` files under ``folder``, each with its path relative to it."""
    for item in folder.iterdir():
        if item.is_dir():
            yield from _sources(item, f"{prefix}{item.name}/")
        elif item.name.endswith(".py"):
            yield prefix + item.name, item
