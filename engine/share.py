"""Data-only share payloads: export a pack or a level, preview and install one.

A payload is a single line of text (``rulegrid:1:...``, docs/share-format.md) that
a stranger may paste into Rulegrid, so :func:`decode` treats it as hostile: the
codec (:mod:`engine.share_codec`) bounds every layer before parsing, the content
goes through the same whole-pack validation as :func:`engine.load_pack`, replay
records are re-run and compared, and a snapshot is restored exactly the way
:meth:`Game.from_snapshot` restores one. Nothing in a payload is ever evaluated,
imported or used as a path, and nothing is written until
:meth:`SharePreview.install` is called with ``confirm=True``.

A level payload is validated as a level (problems located like
:func:`engine.load_level`'s) and installed as a one-level pack named after it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.board import LevelContext
from engine.errors import Problem, ValidationError
from engine.game import Game
from engine.model import Level, NounStyle, Pack
from engine.packs import load_pack
from engine.replay import parse_moves
from engine.share_codec import SHARE_NAME, ShareError, digest, from_text, seal, to_text
from engine.share_content import (
    MAX_ENTITIES,
    MAX_LEVELS,
    MAX_REPLAY_WORK,
    MAX_REPLAYS,
    MAX_SNAPSHOT_RECORDS,
    check_envelope,
    check_limits,
)
from engine.share_install import install_pack, install_path
from engine.share_summary import LevelSummary, ShareSummary, summarize
from engine.validate import load_level, pack_problems

__all__ = [
    "MAX_ENTITIES",
    "MAX_LEVELS",
    "MAX_REPLAYS",
    "MAX_REPLAY_WORK",
    "MAX_SNAPSHOT_RECORDS",
    "LevelSummary",
    "ReplayCheck",
    "ReplayRecord",
    "ShareError",
    "SharePreview",
    "ShareSummary",
    "decode",
    "encode",
    "record_replay",
]

Kind = Literal["pack", "level"]


@dataclass(frozen=True, slots=True)
class ReplayRecord:
    """A move string with digests of what it produced on the author's engine.

    The digests let an importer notice when its engine plays the level differently
    (another version, or a changed level) without shipping every event.
    """

    level: str
    moves: str
    events: str  # SHA-256 of the canonical JSON of [TurnEvent.to_dict(), ...]
    final: str  # SHA-256 of the canonical JSON of Game.state() after the moves

    def to_dict(self) -> dict[str, str]:
        return {"level": self.level, "moves": self.moves, "events": self.events, "final": self.final}


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    """The outcome of re-running one replay record on this engine."""

    index: int
    record: ReplayRecord
    events_match: bool
    final_match: bool

    @property
    def matches(self) -> bool:
        return self.events_match and self.final_match


def record_replay(level: Level, moves: str) -> ReplayRecord:
    """Play ``moves`` from the level's start and record their digests.

    Raises:
        ValueError: ``moves`` holds a character other than ``U D L R``.
    """
    events, final = _run(level, moves)
    return ReplayRecord(level.id, moves, events, final)


def _run(level: Level, moves: str) -> tuple[str, str]:
    game = Game(level)
    events = [game.step(d).to_dict() for d in parse_moves(moves)]
    return digest(events), digest(game.state())


ReplayInput = ReplayRecord | str | tuple[str, str]


def encode(
    pack_or_level: Pack | Level | Mapping[str, Any],
    *,
    replays: Iterable[ReplayInput] = (),
    snapshot: Game | Mapping[str, Any] | None = None,
    nouns: Mapping[str, NounStyle | Mapping[str, Any]] | None = None,
) -> str:
    """A payload carrying a pack or one level, with optional replays and snapshot.

    Only valid data is ever encoded, so an author cannot hand out a payload that
    every importer rejects.

    Args:
        pack_or_level: a :class:`Pack`, a :class:`Level`, or a pack/level document
            (a document with ``"format"`` is a pack).
        replays: :class:`ReplayRecord` values (kept as recorded), move strings (for
            a level payload) or ``(level_id, moves)`` pairs (recorded now).
        snapshot: a :class:`Game` or a ``Game.snapshot()`` of one of the levels.
        nouns: noun styles for a level payload (a pack carries its own).

    Raises:
        ValidationError: the pack, level, snapshot or noun styles are invalid.
        ShareError: a replay names no level of the payload, or a limit is passed.
    """
    subject = _model_of(pack_or_level)
    levels = subject.levels if isinstance(subject, Pack) else [subject]
    by_id = {level.id: level for level in levels}
    content: dict[str, Any] = {}
    if isinstance(subject, Pack):
        if nouns is not None:
            raise ShareError.at("bad-value", "a pack payload carries the pack's own nouns; pass nouns only with a level")
        content["pack"] = subject.to_data()
    else:
        content["level"] = subject.to_data()
        if nouns is not None:
            content["nouns"] = {k: v.to_data() if isinstance(v, NounStyle) else dict(v) for k, v in nouns.items()}
            _, problems = _validate_level(content["level"], content["nouns"])
            if problems:
                raise ValidationError(problems)
    records = [_record_of(item, by_id, n) for n, item in enumerate(replays)]
    if records:
        content["replays"] = [r.to_dict() for r in records]
    if snapshot is not None:
        data = snapshot.snapshot() if isinstance(snapshot, Game) else dict(snapshot)
        level = by_id.get(data.get("level")) if isinstance(data.get("level"), str) else None
        if level is None:
            raise ShareError.at("unknown-level", f"the snapshot is of level {data.get('level')!r}, not in this payload", "/snapshot/level")
        Game.from_snapshot(level, data)  # raises ValidationError when it does not fit
        content["snapshot"] = data
    document = seal(content)
    check_limits(document)
    return to_text(document)


def _model_of(value: Pack | Level | Mapping[str, Any]) -> Pack | Level:
    if isinstance(value, Pack | Level):
        return value
    if isinstance(value, Mapping):
        return load_pack(value) if "format" in value else load_level(value)
    raise TypeError(f"encode() takes a Pack, a Level or a document, not {type(value).__name__}")


def _record_of(item: ReplayInput, by_id: Mapping[str, Level], n: int) -> ReplayRecord:
    where = f"/replays/{n}"
    if isinstance(item, ReplayRecord):
        record = item
    elif isinstance(item, str):
        if len(by_id) != 1:
            raise ShareError.at("bad-value", "in a pack payload a replay is a (level_id, moves) pair", where)
        record = ReplayRecord(next(iter(by_id)), item, "", "")
    elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(v, str) for v in item):
        record = ReplayRecord(item[0], item[1], "", "")
    else:
        raise ShareError.at("wrong-type", "a replay is a ReplayRecord, a move string or a (level_id, moves) pair", where)
    level = by_id.get(record.level)
    if level is None:
        raise ShareError.at("unknown-level", f"replay of level {record.level!r}, which is not in this payload", where)
    try:
        parse_moves(record.moves)
    except ValueError as exc:
        raise ShareError.at("bad-moves", str(exc), where + "/moves") from None
    if isinstance(item, ReplayRecord):
        problems = list(_record_problems(record.to_dict(), where))
        if problems:
            raise ShareError(problems)
        return record
    return record_replay(level, record.moves)


# --------------------------------------------------------------------------- decode


@dataclass(frozen=True, slots=True)
class SharePreview:
    """What a payload holds and whether it may be installed; writes nothing itself.

    ``problems`` (validation and malformed replay/snapshot records) block
    installing; ``warnings`` (replays that play differently here) do not: the data
    is valid, but the author's engine and this one disagree about it.
    """

    kind: Kind
    data: dict[str, Any]
    summary: ShareSummary
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()
    pack: Pack | None = None
    level: Level | None = None
    replays: tuple[ReplayCheck, ...] = ()
    snapshot_level: Level | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the payload is valid and may be installed."""
        return not self.problems

    @property
    def error(self) -> ValidationError | None:
        """The problems as one error (``None`` when valid), for callers that raise."""
        return ValidationError(self.problems) if self.problems else None

    @property
    def snapshot(self) -> dict[str, Any] | None:
        value = self.data.get("snapshot")
        return value if isinstance(value, dict) else None

    def restore(self) -> Game:
        """A new game at the payload's snapshot, restored exactly (not a turn).

        Raises:
            ShareError: the payload has no valid snapshot.
        """
        if self.snapshot_level is None or self.snapshot is None:
            raise ShareError.at("no-snapshot", "this payload carries no valid snapshot", "/snapshot")
        return Game.from_snapshot(self.snapshot_level, self.snapshot)

    def install_path(self, target_folder: str | Path, *, replace: bool = False) -> Path:
        """Where :meth:`install` would write the pack; every check, nothing written.

        Raises:
            ShareError: the payload is invalid, or the pack exists and not ``replace``.
        """
        return install_path(self._installable(), Path(target_folder), replace=replace)

    def install(self, target_folder: str | Path, *, confirm: bool, replace: bool = False) -> Path | None:
        """Write the pack as ``<target_folder>/<pack id>.json``, only when ``confirm``.

        Without ``confirm`` every check still runs and nothing is written (not even
        the folder), so a caller can show what would happen. An existing pack of the
        same name is refused unless ``replace=True``; the file appears atomically.

        Returns:
            The written path, or ``None`` when ``confirm`` is false.

        Raises:
            ShareError: the payload is invalid, or the pack already exists.
        """
        pack = self._installable()
        path = install_path(pack, Path(target_folder), replace=replace)
        if not confirm:
            return None
        return install_pack(pack, path, replace=replace)

    def _installable(self) -> Pack:
        if self.pack is None or self.problems:
            count = len(self.problems)
            raise ShareError.at("invalid-payload", f"the payload has {count} problem(s); nothing can be installed")
        return self.pack


def decode(text: str) -> SharePreview:
    """Read, verify, validate and preview a payload. Never writes anything.

    Raises:
        ShareError: the text is not a readable, intact payload within the limits.
            Problems with the data itself are in the preview's ``problems``.
    """
    document = from_text(text)
    kind: Kind = check_envelope(document)
    check_limits(document)
    summary = summarize(document, kind)
    if kind == "pack":
        pack, problems = pack_problems(document["pack"], _pack_name(document["pack"]))
        level = None
        levels = list(pack.levels) if pack is not None else []
    else:
        pair, problems = _validate_level(document["level"], document.get("nouns"))
        level, pack = pair if pair is not None else (None, None)
        levels = [level] if level is not None else []
    problems = list(problems)
    by_id = {lv.id: lv for lv in levels}
    checks, replay_problems, warnings = _check_replays(document.get("replays", []), by_id, valid=pack is not None)
    problems += replay_problems
    snapshot_level, snapshot_problems = _check_snapshot(document.get("snapshot"), by_id, valid=pack is not None)
    problems += snapshot_problems
    return SharePreview(
        kind=kind,
        data=document,
        summary=summary,
        problems=tuple(problems),
        warnings=tuple(warnings),
        pack=pack if not problems else None,
        level=level,
        replays=tuple(checks),
        snapshot_level=snapshot_level,
    )


def _pack_name(doc: object) -> str:
    if isinstance(doc, dict):
        value = doc.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return "<pack>"


def _validate_level(doc: object, nouns: object) -> tuple[tuple[Level, Pack] | None, list[Problem]]:
    """Validate a level payload's level, then the one-level pack it installs as."""
    if not isinstance(doc, dict):
        return None, [Problem("", "wrong-type", "a level is a JSON object", None, None)]
    try:
        level = load_level(doc)
    except ValidationError as exc:
        return None, exc.errors
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
    pack, problems = pack_problems(wrapped, level.id)
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
    """Every noun a level uses (objects, noun words, automaton subjects, FRAIL map)."""
    ctx = LevelContext.of(level)
    return set(ctx.nouns) | {a.subject for a in level.automata if a.subject is not None}


def _noun_styles(level: Level, given: object) -> object:
    if given is not None and not isinstance(given, dict):
        return given  # the pack schema reports it, at /nouns
    styles: dict[str, Any] = {noun: {"color": default_color(noun)} for noun in sorted(nouns_of(level))}
    styles.update(given or {})
    return styles


def default_color(noun: str) -> str:
    """A stable colour for a noun that a level payload gives no style for."""
    return "#" + hashlib.sha256(noun.encode("utf-8")).hexdigest()[:6]


def _check_replays(
    records: object, by_id: Mapping[str, Level], *, valid: bool
) -> tuple[list[ReplayCheck], list[Problem], list[Problem]]:
    checks: list[ReplayCheck] = []
    problems: list[Problem] = []
    warnings: list[Problem] = []
    assert isinstance(records, list)  # check_envelope made sure
    for n, item in enumerate(records):
        where = f"/replays/{n}"
        found = list(_record_problems(item, where))
        if found:
            problems += found
            continue
        record = ReplayRecord(item["level"], item["moves"], item["events"], item["final"])
        level = by_id.get(record.level)
        if level is None:
            if valid:
                problems.append(_problem(where + "/level", "unknown-level", f"no level {record.level!r} in this payload", None))
            continue
        events, final = _run(level, record.moves)
        check = ReplayCheck(n, record, events == record.events, final == record.final)
        checks.append(check)
        if not check.events_match:
            warnings.append(
                _problem(where + "/events", "replay-mismatch", "the replay's events differ on this engine", level.id)
            )
        if not check.final_match:
            warnings.append(
                _problem(where + "/final", "replay-mismatch", "the replay ends in a different state on this engine", level.id)
            )
    return checks, problems, warnings


_RECORD_KEYS = ("events", "final", "level", "moves")


def _record_problems(item: object, where: str) -> Iterable[Problem]:
    if not isinstance(item, dict):
        yield _problem(where, "wrong-type", "a replay record is an object", None)
        return
    for key in _RECORD_KEYS:
        if key not in item:
            yield _problem(f"{where}/{key}", "missing-field", f"missing required field '{key}'", None)
    for key in item:
        if key not in _RECORD_KEYS:
            yield _problem(where + "/" + key.replace("~", "~0").replace("/", "~1"), "unknown-field", f"unknown field '{key}'", None)
    if not isinstance(item.get("level", ""), str):
        yield _problem(where + "/level", "wrong-type", "level must be a level id", None)
    moves = item.get("moves", "")
    try:
        parse_moves(moves)
    except ValueError as exc:
        yield _problem(where + "/moves", "bad-moves", str(exc), None)
    for key in ("events", "final"):
        value = item.get(key, "0" * 64)
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            yield _problem(f"{where}/{key}", "bad-value", f"{key} must be a SHA-256 (64 lower-case hex digits)", None)


def _check_snapshot(
    data: object, by_id: Mapping[str, Level], *, valid: bool
) -> tuple[Level | None, list[Problem]]:
    if data is None:
        return None, []
    if not isinstance(data, dict):
        return None, [_problem("/snapshot", "wrong-type", "a snapshot is a JSON object", None)]
    if not valid:
        return None, []
    level = by_id.get(data.get("level")) if isinstance(data.get("level"), str) else None
    if level is None:
        return None, [
            _problem("/snapshot/level", "unknown-level", f"snapshot of level {data.get('level')!r}, not in this payload", None)
        ]
    try:
        Game.from_snapshot(level, data)
    except ValidationError as exc:
        return None, [
            Problem("/snapshot" + p.pointer, p.code, p.message, SHARE_NAME, level.id) for p in exc.errors
        ]
    return level, []


def _problem(pointer: str, code: str, message: str, level: str | None) -> Problem:
    return Problem(pointer, code, message, SHARE_NAME, level)
