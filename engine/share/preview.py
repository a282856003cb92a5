"""Data-only share payloads: export a pack or a level, preview and install one.

A payload is a single line of text (``rulegrid:1:...``, docs/share-format.md) that
a stranger may paste into Rulegrid, so :func:`decode` treats it as hostile: the
codec (:mod:`engine.share.codec`) bounds every layer before parsing, the content
goes through the same whole-pack validation as :func:`engine.load_pack`, replay
records are re-run and compared, and a snapshot is restored exactly the way
:meth:`Game.from_snapshot` restores one. Nothing in a payload is ever evaluated,
imported or used as a path, and nothing is written until
:meth:`SharePreview.install` is called with ``confirm=True``.

A level payload is validated as a level (problems located like
:func:`engine.load_level`'s) and installed as a one-level pack named after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from engine.errors import Problem, ValidationError, counted
from engine.limits import MAX_PAYLOAD_PLAY_UNITS
from engine.model import Level, NounStyle, Pack
from engine.packs.load import load_pack
from engine.packs.validate import load_level
from engine.play.game import Game
from engine.play.replay import parse_moves
from engine.play.work import WorkBudgetError, budgeted
from engine.rules import Meter
from engine.share.checks import (
    ReplayCheck,
    ReplayRecord,
    automata_digest,
    check_replays,
    check_snapshot,
    default_color,
    nouns_of,
    payload_budget,
    record_problems,
    record_replay,
    run_replay,
    validate_level,
    validate_pack,
)
from engine.share.codec import ShareError, from_text, seal, to_text
from engine.share.install import install_pack, install_path, renamed
from engine.share.limits import check_envelope, check_limits
from engine.share.summary import LevelSummary, ShareSummary, summarize

__all__ = [
    "LevelSummary",
    "ReplayCheck",
    "ReplayRecord",
    "ShareError",
    "SharePreview",
    "ShareSummary",
    "decode",
    "default_color",
    "encode",
    "nouns_of",
    "record_replay",
]

Kind = Literal["pack", "level"]

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
            raise ShareError.at(
                "bad-value",
                "a pack payload carries the pack's own nouns; pass nouns only with a level",
            )
        content["pack"] = subject.to_data()
    else:
        content["level"] = subject.to_data()
        if nouns is not None:
            content["nouns"] = {
                k: v.to_data() if isinstance(v, NounStyle) else dict(v) for k, v in nouns.items()
            }
            _, problems = validate_level(content["level"], content["nouns"])
            if problems:
                raise ValidationError(problems)
    records = [_record_of(item, by_id, n) for n, item in enumerate(replays)]
    if records:
        content["replays"] = [r.to_dict() for r in records]
    level = None
    if snapshot is not None:
        data = snapshot.snapshot() if isinstance(snapshot, Game) else dict(snapshot)
        level_id = data.get("level")
        level = by_id.get(level_id) if isinstance(level_id, str) else None
        if level is None:
            raise ShareError.at(
                "unknown-level",
                f"the snapshot is of level {level_id!r}, not in this payload",
                "/snapshot/level",
            )
        content["snapshot"] = data
    check_limits(content)  # before any replay runs or snapshot is restored: both cost time
    if level is not None:
        Game.from_snapshot(
            level, content["snapshot"]
        )  # raises ValidationError when it does not fit
    if records:
        content["replays"] = [r.to_dict() for r in _recorded(records, by_id)]
    document = seal(content)
    return to_text(document)


def _recorded(records: list[ReplayRecord], by_id: Mapping[str, Level]) -> list[ReplayRecord]:
    """Every record with its digests, each run under the budget an importer will run it under.

    A record kept as recorded is run too (its digests kept): no author can hand out
    a payload whose replays every importer refuses for their work.

    Raises:
        ShareError: the replays need more work than a payload may ask for.
    """
    out = []
    with budgeted(payload_budget()):
        for n, record in enumerate(records):
            level = by_id[record.level]
            try:
                events, final, _ = run_replay(level, record.moves)
            except WorkBudgetError as exc:
                raise ShareError.at(
                    "too-much-work", f"the replay of level {level.id!r} {exc}", f"/replays/{n}"
                ) from None
            digest = record.automata or automata_digest(level)
            out.append(
                replace(record, automata=digest)
                if record.events
                else ReplayRecord(level.id, record.moves, events, final, digest)
            )
    return out


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
            raise ShareError.at(
                "bad-value", "in a pack payload a replay is a (level_id, moves) pair", where
            )
        record = ReplayRecord(next(iter(by_id)), item, "", "")
    elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(v, str) for v in item):
        record = ReplayRecord(item[0], item[1], "", "")
    else:
        raise ShareError.at(
            "wrong-type",
            "a replay is a ReplayRecord, a move string or a (level_id, moves) pair",
            where,
        )
    if record.level not in by_id:
        raise ShareError.at(
            "unknown-level",
            f"replay of level {record.level!r}, which is not in this payload",
            where,
        )
    try:
        parse_moves(record.moves)
    except ValueError as exc:
        raise ShareError.at("bad-moves", str(exc), where + "/moves") from None
    if isinstance(item, ReplayRecord):
        problems = list(record_problems(record.to_dict(), where))
        if problems:
            raise ShareError(problems)
    return record  # digests still empty when encode() is to record them


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
            raise ShareError.at(
                "no-snapshot", "this payload carries no valid snapshot", "/snapshot"
            )
        return Game.from_snapshot(self.snapshot_level, self.snapshot)

    def install_path(
        self, target_folder: str | Path, *, replace: bool = False, pack_id: str | None = None
    ) -> Path:
        """Where :meth:`install` would write the pack; every check, nothing written.

        Raises:
            ShareError: the payload is invalid, ``pack_id`` is not a pack id, or the
                pack exists and not ``replace``.
        """
        return install_path(self._installable(pack_id), Path(target_folder), replace=replace)

    def install(
        self,
        target_folder: str | Path,
        *,
        confirm: bool,
        replace: bool = False,
        pack_id: str | None = None,
    ) -> Path | None:
        """Write the pack as ``<target_folder>/<pack id>.json``, only when ``confirm``.

        Without ``confirm`` every check still runs and nothing is written (not even
        the folder), so a caller can show what would happen. An existing pack of the
        same name is refused unless ``replace=True``; the file appears atomically.
        ``pack_id`` installs the pack under another id (the way to keep both when a
        pack of the same id is installed); the levels are unchanged.

        Returns:
            The written path, or ``None`` when ``confirm`` is false.

        Raises:
            ShareError: the payload is invalid, ``pack_id`` is not a pack id, or the
                pack already exists.
        """
        pack = self._installable(pack_id)
        path = install_path(pack, Path(target_folder), replace=replace)
        if not confirm:
            return None
        return install_pack(pack, path, replace=replace)

    def _installable(self, pack_id: str | None = None) -> Pack:
        if self.pack is None or self.problems:
            count = len(self.problems)
            raise ShareError.at(
                "invalid-payload",
                f"the payload has {counted(count, 'problem')}; nothing can be installed",
            )
        return renamed(self.pack, pack_id)


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
        pack, problems = validate_pack(document["pack"])
        level = None
        levels = list(pack.levels) if pack is not None else []
    else:
        pair, problems = validate_level(document["level"], document.get("nouns"))
        level, pack = pair if pair is not None else (None, None)
        levels = [level] if level is not None else []
    problems = list(problems)
    by_id = {lv.id: lv for lv in levels}
    meter = Meter(MAX_PAYLOAD_PLAY_UNITS, "this payload's replays and snapshot")
    checks, replay_problems, warnings = check_replays(
        document.get("replays", []), by_id, valid=pack is not None, meter=meter
    )
    problems += replay_problems
    snapshot_level, snapshot_problems = check_snapshot(
        document.get("snapshot"), by_id, valid=pack is not None, meter=meter
    )
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
