"""Errors the engine raises, and the located problem records they carry.

Bad input is the caller's fault, so :class:`ValidationError` is also a
``ValueError``. Every problem names where it is (a JSON Pointer into the document
the caller gave us) and carries a stable machine ``code`` so tools and tests never
depend on message wording.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


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


class RuleComplexityError(EngineError):
    """The board holds more candidate sentences than the parse budget allows.

    Raised before any rule is returned, so no caller ever sees a partial rule set.
    """

    def __init__(self, units: int, budget: int) -> None:
        self.units = units
        self.budget = budget
        super().__init__(
            f"the words on this board form more than {budget} candidate sentence paths "
            f"(rule-complexity budget exceeded after {units})"
        )


def escape_pointer_token(token: object) -> str:
    """Escape one reference token for a JSON Pointer (RFC 6901)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(*parts: object) -> str:
    """Build a JSON Pointer from path parts: ``pointer("entities", 3, "x") == "/entities/3/x"``."""
    return "".join("/" + escape_pointer_token(p) for p in parts)
