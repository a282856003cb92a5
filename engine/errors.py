"""Errors the engine raises, and the located problem records they carry.

Bad input is the caller's fault, so :class:`ValidationError` is also a
``ValueError``. Every problem names where it is (a JSON Pointer into the document
the caller gave us) and carries a stable machine ``code`` so tools and tests never
depend on message wording.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


class EngineError(Exception):
    """Base class of every error raised on purpose by the engine."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input document.

    ``pointer`` is a JSON Pointer into the document as given: for a pack it starts
    at the pack (``/levels/2/entities/0/x``); for a level loaded on its own it
    starts at the level (``/entities/0/x``).
    """

    pointer: str
    code: str
    message: str
    pack: str | None = None
    level: str | None = None

    def located(self, *, pack: str | None, level: str | None, prefix: str = "") -> Problem:
        """The same problem, placed inside a pack and/or under a pointer prefix."""
        # Built directly: ``dataclasses.replace`` costs several times more, and a
        # pack-wide check places every problem of every level.
        return Problem(prefix + self.pointer, self.code, self.message, pack, level)

    def to_dict(self) -> dict[str, object]:
        return {
            "pack": self.pack,
            "level": self.level,
            "pointer": self.pointer,
            "code": self.code,
            "message": self.message,
        }

    def __str__(self) -> str:
        if self.pack is not None:
            where = f"{self.pack}{self.pointer}"
            if self.level is not None:
                where += f' (level "{self.level}")'
        elif self.level is not None:
            where = f"{self.level}{self.pointer}"
        else:
            where = self.pointer or "/"
        return f"{where}: {self.message}"


class ValidationError(EngineError, ValueError):
    """Raised when input data is invalid; ``errors`` lists every problem found."""

    def __init__(self, errors: Iterable[Problem]) -> None:
        self.errors: list[Problem] = list(errors)
        super().__init__("\n".join(str(p) for p in self.errors) or "invalid input")

    @classmethod
    def single(cls, pointer: str, code: str, message: str, **where: str | None) -> ValidationError:
        return cls([Problem(pointer, code, message, where.get("pack"), where.get("level"))])


#: The code of the one problem that stands for the problems a list left out.
TOO_MANY_PROBLEMS = "too-many-problems"


class ProblemList:
    """Problems as a checker finds them: the first ``limit`` are kept, the rest counted.

    A document with a million faults must cost neither a million records nor a
    million printed lines. :meth:`listed` returns the kept ones and, when any were
    left out, one ``too-many-problems`` problem saying how many more there were.
    ``uncounted`` is for what was found faulty but not explained (a level that
    fails the schema after the list was full): it is named, not counted.
    """

    __slots__ = ("kept", "limit", "total", "uncounted")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: list[Problem] = []
        self.total = 0
        self.uncounted = ""

    @property
    def full(self) -> bool:
        return len(self.kept) >= self.limit

    def add(self, problem: Problem) -> None:
        self.total += 1
        if len(self.kept) < self.limit:
            self.kept.append(problem)

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.add(problem)

    def count(self, more: int) -> None:
        """Count problems that are not kept (the list is full): nothing is built for them."""
        self.total += more

    def __bool__(self) -> bool:
        return self.total > 0 or bool(self.uncounted)

    def listed(
        self,
        key: Callable[[Problem], Any] | None = None,
        *,
        pack: str | None = None,
        level: str | None = None,
    ) -> list[Problem]:
        """The kept problems (sorted by ``key`` when given), then the count of the others."""
        out = sorted(self.kept, key=key) if key is not None else list(self.kept)
        more = self.total - len(self.kept)
        if more or self.uncounted:
            parts = []
            if more:
                parts.append(
                    f"{counted(more, 'more problem')} {'is' if more == 1 else 'are'} not "
                    f"listed ({self.total:,} in all)"
                )
            if self.uncounted:
                parts.append(self.uncounted)
            message = "; ".join(parts) + (
                f"; the {len(self.kept):,} listed are the first found, in document order"
            )
            out.append(Problem("", TOO_MANY_PROBLEMS, message, pack, level))
        return out


class RuleComplexityError(EngineError):
    """Reading the rules of a board would cost more than the parse budget allows.

    Raised before any rule is built, so no caller ever sees a partial rule set.
    ``units`` is what the parser had counted when it stopped (at least ``budget + 1``).
    """

    def __init__(self, units: int, budget: int, done: int | None = None) -> None:
        self.units = units
        self.budget = budget
        #: The units read before the step that would pass the budget (work really done).
        self.done = min(units, budget) if done is None else done
        # The parser counts a step's combinations before it makes them, so one step
        # can ask for millions of units: the message says where reading stopped and
        # what the step would have needed, never that millions were counted.
        step = (
            f"; reading stopped after {self.done:,}, at a step that would need "
            f"{units - self.done:,} more"
            if units - self.done > 1
            else ""
        )
        super().__init__(
            "the words on this board form too many sentences and rules to read: "
            f"more than the rule-complexity budget of {budget:,} units{step}"
        )


class WorkLimitError(EngineError):
    """A whole document asked for more rule reading than its total budget.

    Each board has its own budget (:class:`RuleComplexityError`); this one bounds
    the sum over many boards: the levels of a pack, or every position a share
    payload's replays and snapshot make the engine read. ``what`` names the
    document part ("the levels of this pack").
    """

    def __init__(self, units: int, limit: int, what: str) -> None:
        self.units = units
        self.limit = limit
        self.what = what
        super().__init__(
            f"reading the rules of {what} needs more than {limit:,} units in total "
            f"(reading stopped at {units:,}; each board fits its own budget, but together "
            "they cost too much)"
            if units > limit
            else f"reading the rules of {what} needs more than {limit:,} units in total "
            "(each board fits its own budget, but together they cost too much)"
        )


#: Characters of a document's text a problem shows before it clips the rest.
SHOWN_TEXT = 40
#: Characters of one reference token a pointer keeps before it clips the rest.
SHOWN_TOKEN = 64


def clipped(text: str, limit: int = SHOWN_TEXT) -> str:
    """``text``, or its first ``limit`` characters, "…" and how long it is.

    A document's text is echoed in messages and pointers, and a stranger's field
    name can be ten megabytes: each is clipped, and says how much was left out.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…({len(text):,} characters)"


def quoted(text: str, limit: int = SHOWN_TEXT) -> str:
    """``text`` quoted as Python writes it, clipped like :func:`clipped`: ``'abc'``,
    ``'abcdef…'(10,485,760 characters)``."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…({len(text):,} characters)"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``1 error``, ``2 errors``, ``1,000 entities``: a count as an author reads it."""
    word = singular if count == 1 else (plural if plural is not None else singular + "s")
    return f"{count:,} {word}"


def escape_pointer_token(token: object) -> str:
    """Escape one reference token for a JSON Pointer (RFC 6901), clipped past
    :data:`SHOWN_TOKEN` characters (a problem's pointer is one readable line)."""
    return clipped(str(token), SHOWN_TOKEN).replace("~", "~0").replace("/", "~1")


def pointer(*parts: object) -> str:
    """Build a JSON Pointer from path parts: ``pointer("entities", 3, "x") == "/entities/3/x"``."""
    return "".join("/" + escape_pointer_token(p) for p in parts)
