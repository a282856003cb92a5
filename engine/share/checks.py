"""Checking a share payload's content: validation, replays and the snapshot.

The same whole-pack validation as :func:`engine.load_pack` (a level payload as a
level, then as the one-level pack it installs as), then every replay record is
re-run and compared, and the snapshot is restored exactly as
:meth:`Game.from_snapshot` restores one. Problems are located at the payload
(``<share>/replays/0/moves``) or inside the pack/level as ``load_pack`` and
``load_level`` locate them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.colors import default_noun_color
from engine.context import LevelContext
from engine.errors import Problem, ProblemList, ValidationError, WorkLimitError, pointer
from engine.limits import MAX_PAYLOAD_WORK, MAX_PROBLEMS, MAX_RECORD_FIELDS
from engine.model import Level, Pack
from engine.packs.parts import document_id
from engine.packs.validate import load_level, pack_name, pack_problems
from engine.play.game import Game
from engine.play.replay import parse_moves
from engine.play.work import WorkBudget, WorkBudgetError, budgeted
from engine.rules import Meter, metered
from engine.share.codec import SHARE_NAME, canonical_json, digest


@dataclass(frozen=True, slots=True)
class ReplayRecord:
    """A move string with digests of what it produced on the author's engine.

    The digests let an importer notice when its engine plays the level differently
    (another version, or a changed level) without shipping every event. ``automata``
    names the automata declaration the moves were recorded under: a record made
    under another one is refused (``automata-mismatch``) instead of being replayed
    against phases that count in another pattern.
    """

    level: str
    moves: str
    events: str  # SHA-256 of the canonical JSON of [TurnEvent.to_dict(), ...]
    final: str  # SHA-256 of the canonical JSON of Game.state() after the moves
    #: SHA-256 of the canonical JSON of the level's normalized automata records
    #: (:func:`automata_digest`); empty when not known (encode fills it in).
    automata: str = ""

    def to_dict(self) -> dict[str, str]:
        record = {
            "level": self.level,
            "moves": self.moves,
            "events": self.events,
            "final": self.final,
        }
        if self.automata:
            record["automata"] = self.automata
        return record


def automata_digest(level: Level) -> str:
    """SHA-256 of the canonical JSON of the level's automata as normalized records."""
    return digest([a.to_data() for a in level.automata])


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    """The outcome of re-running one replay record on this engine."""

    index: int
    record: ReplayRecord
    events_match: bool
    final_match: bool
    #: Whether the moves win the level on this engine (the final state is won).
    wins: bool = False

    @property
    def matches(self) -> bool:
        return self.events_match and self.final_match


def record_replay(level: Level, moves: str) -> ReplayRecord:
    """Play ``moves`` from the level's start and record their digests.

    Raises:
        ValueError: ``moves`` holds a character other than ``U D L R``.
    """
    events, final, _ = run_replay(level, moves)
    return ReplayRecord(level.id, moves, events, final, automata_digest(level))


def run_replay(level: Level, moves: str) -> tuple[str, str, bool]:
    """The digests of the events and final state of ``moves``, and whether they win.

    The events are hashed as they come (the digest of their list, built a record at
    a time), never kept: a long replay of a large board held gigabytes of them. The
    turns are charged to the open work budgets (:func:`payload_budget`).

    Raises:
        WorkBudgetError: an open budget ran out; it names the move.
    """
    game = Game(level)
    events = hashlib.sha256(b"[")
    number = 0
    try:
        for number, direction in enumerate(parse_moves(moves), start=1):
            if number > 1:
                events.update(b",")
            events.update(canonical_json(game.step(direction).to_dict(fresh=False)))
    except WorkBudgetError as exc:
        raise exc.at_move(number) from None
    events.update(b"]")
    state = game.state()
    return events.hexdigest(), digest(state), state["won"] is True


def payload_budget() -> WorkBudget:
    """The work a payload's replays may ask of the importer (and of the encoder)."""
    return WorkBudget.of(
        MAX_PAYLOAD_WORK,
        "the budget of a payload's replays",
        "a payload cannot ask for more: share the pack file instead",
    )


def validate_pack(doc: object, name: str | None = None) -> tuple[Pack | None, list[Problem]]:
    """``pack_problems`` (named like ``load_pack`` names a document), never raising.

    Should the schema ever let through something the model refuses (it once did for
    lower-case noun keys), the model's complaint is kept, located; a payload must
    never escape as a bare pydantic error.
    """
    if name is None:
        name = pack_name(doc)
    try:
        return pack_problems(doc, name)
    except PydanticError as exc:
        return None, [
            Problem(
                pointer(*(part for part in e["loc"] if part != "[key]")),
                "invalid-value",
                e["msg"],
                name,
                None,
            )
            for e in exc.errors()
        ]
    except Exception as exc:  # see _checker_failed
        return None, [_checker_failed(exc, "", name, None)]


def _checker_failed(exc: Exception, where: str, pack: str | None, level: str | None) -> Problem:
    """A validator or replay raised something other than a ValidationError.

    That is an engine bug, but the input is a stranger's payload: a paste must never
    crash the caller, so the part is refused (install is blocked) with a problem
    that says what happened and asks for a report.
    """
    return Problem(
        where,
        "checker-error",
        f"Rulegrid could not check this part ({type(exc).__name__}: {str(exc)[:160]}); "
        "it is refused — please report this payload",
        pack,
        level,
    )


def validate_level(doc: object, nouns: object) -> tuple[tuple[Level, Pack] | None, list[Problem]]:
    """Validate a level payload's level, then the one-level pack it installs as."""
    if not isinstance(doc, dict):
        return None, [Problem("", "wrong-type", "a level is a JSON object", None, None)]
    try:
        level = load_level(doc)
    except ValidationError as exc:
        return None, exc.errors
    except Exception as exc:
        return None, [_checker_failed(exc, "", None, document_id(doc))]
    wrapped = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": level.id,
        "title": level.title or level.id,
        "nouns": _noun_styles(level, nouns),
        "levels": [doc],
    }
    if level.author is not None:
        wrapped["author"] = level.author
    pack, problems = validate_pack(wrapped, level.id)
    located = [
        p.located(pack=None, level=level.id, prefix="")
        if not p.pointer.startswith("/levels/0")
        else Problem(p.pointer[len("/levels/0") :], p.code, p.message, None, level.id)
        for p in problems
    ]
    if pack is None:
        return None, located
    return (level, pack), []


def nouns_of(level: Level) -> set[str]:
    """Every noun a level uses (objects, noun words, automaton subjects, leaves map)."""
    ctx = LevelContext.of(level)
    return set(ctx.nouns) | {a.subject for a in level.automata if a.subject is not None}


def _noun_styles(level: Level, given: object) -> object:
    if given is not None and not isinstance(given, dict):
        return given  # the pack schema reports it, at /nouns
    styles: dict[str, Any] = {
        noun: {"color": default_color(noun)} for noun in sorted(nouns_of(level))
    }
    styles.update(given or {})
    return styles


def default_color(noun: str) -> str:
    """A stable colour for a noun that a level payload gives no style for."""
    return default_noun_color(noun)


def check_replays(
    records: object, by_id: Mapping[str, Level], *, valid: bool, meter: Meter
) -> tuple[list[ReplayCheck], list[Problem], list[Problem]]:
    """Re-run every replay record; their rule reading is charged to ``meter``.

    Their turns are charged to one :func:`payload_budget` together. When the meter
    or the budget runs out, the record that ran it out is refused with
    ``too-much-work`` and no later record is run.
    """
    work = payload_budget()
    checks: list[ReplayCheck] = []
    problems = ProblemList(MAX_PROBLEMS)
    warnings: list[Problem] = []
    assert isinstance(records, list)  # check_envelope made sure
    for n, item in enumerate(records):
        where = f"/replays/{n}"
        found = list(record_problems(item, where))
        if found:
            problems.extend(found)
            continue
        record = ReplayRecord(
            item["level"], item["moves"], item["events"], item["final"], item.get("automata", "")
        )
        level = by_id.get(record.level)
        if level is None:
            if valid:
                problems.add(
                    _problem(
                        where + "/level",
                        "unknown-level",
                        f"no level {record.level!r} in this payload",
                        None,
                    )
                )
            continue
        if record.automata and record.automata != automata_digest(level):
            problems.add(
                _problem(
                    where + "/automata",
                    "automata-mismatch",
                    "the replay was recorded under another automata declaration than "
                    "this level's: its phases would count in other patterns",
                    level.id,
                )
            )
            continue
        try:
            with metered(meter), budgeted(work):
                events, final, wins = run_replay(level, record.moves)
        except WorkLimitError as exc:
            message = f"the replay {exc}" if isinstance(exc, WorkBudgetError) else str(exc)
            problems.add(_problem(where, "too-much-work", message, level.id))
            break
        except Exception as exc:
            problems.add(_checker_failed(exc, where, SHARE_NAME, level.id))
            continue
        check = ReplayCheck(n, record, events == record.events, final == record.final, wins)
        checks.append(check)
        if not check.events_match:
            warnings.append(
                _problem(
                    where + "/events",
                    "replay-mismatch",
                    "the replay's events differ on this engine",
                    level.id,
                )
            )
        if not check.final_match:
            warnings.append(
                _problem(
                    where + "/final",
                    "replay-mismatch",
                    "the replay ends in a different state on this engine",
                    level.id,
                )
            )
    return checks, problems.listed(pack=SHARE_NAME), warnings


_RECORD_KEYS = ("events", "final", "level", "moves")
#: Written by every record since the automata digest was added; an older payload's
#: record without it is still read (its events digest covers the automata entries).
_OPTIONAL_RECORD_KEYS = ("automata",)


def record_problems(item: object, where: str) -> Iterable[Problem]:
    if not isinstance(item, dict):
        yield _problem(where, "wrong-type", "a replay record is an object", None)
        return
    if len(item) > MAX_RECORD_FIELDS:
        yield _problem(
            where,
            "bad-size",
            f"a replay record has at most {MAX_RECORD_FIELDS} fields; this one has {len(item):,}",
            None,
        )
        return
    for key in _RECORD_KEYS:
        if key not in item:
            yield _problem(
                f"{where}/{key}", "missing-field", f"missing required field '{key}'", None
            )
    for key in item:
        if key not in _RECORD_KEYS and key not in _OPTIONAL_RECORD_KEYS:
            yield _problem(
                where + "/" + key.replace("~", "~0").replace("/", "~1"),
                "unknown-field",
                f"unknown field '{key}'",
                None,
            )
    if not isinstance(item.get("level", ""), str):
        yield _problem(where + "/level", "wrong-type", "level must be a level id", None)
    moves = item.get("moves", "")
    try:
        parse_moves(moves)
    except ValueError as exc:
        yield _problem(where + "/moves", "bad-moves", str(exc), None)
    for key in ("events", "final", "automata"):
        value = item.get(key, "0" * 64)
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            yield _problem(
                f"{where}/{key}",
                "bad-value",
                f"{key} must be a SHA-256 (64 lower-case hex digits)",
                None,
            )


def check_snapshot(
    data: object, by_id: Mapping[str, Level], *, valid: bool, meter: Meter
) -> tuple[Level | None, list[Problem]]:
    """Restore the snapshot as :meth:`Game.from_snapshot` does, charging ``meter``."""
    if data is None:
        return None, []
    if not isinstance(data, dict):
        return None, [_problem("/snapshot", "wrong-type", "a snapshot is a JSON object", None)]
    if not valid:
        return None, []
    level_id = data.get("level")
    level = by_id.get(level_id) if isinstance(level_id, str) else None
    if level is None:
        return None, [
            _problem(
                "/snapshot/level",
                "unknown-level",
                f"snapshot of level {level_id!r}, not in this payload",
                None,
            )
        ]
    try:
        with metered(meter):
            Game.from_snapshot(level, data)
    except WorkLimitError as exc:
        return None, [_problem("/snapshot", "too-much-work", str(exc), level.id)]
    except ValidationError as exc:
        return None, [
            Problem("/snapshot" + p.pointer, p.code, p.message, SHARE_NAME, level.id)
            for p in exc.errors
        ]
    except Exception as exc:
        return None, [_checker_failed(exc, "/snapshot", SHARE_NAME, level.id)]
    return level, []


def _problem(pointer: str, code: str, message: str, level: str | None) -> Problem:
    return Problem(pointer, code, message, SHARE_NAME, level)
