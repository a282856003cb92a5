"""The share document's envelope and the work limits checked before validation.

The codec bounds how much JSON a payload can hold; these limits bound how much
*work* it can ask for: validating levels (about 80 µs per entity), re-running
replays (about 11 µs per entity per move) and restoring a snapshot's history.
They are checked on the raw document, defensively, before anything is validated
or played, and :func:`engine.share.preview.encode` checks the same limits so no author
can produce a payload that importers refuse for its size. The values, and why each
is what it is, are in :mod:`engine.limits` (the ``MAX_PAYLOAD_*`` names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from engine.errors import pointer, quoted
from engine.limits import (
    MAX_PAYLOAD_ENTITIES,
    MAX_PAYLOAD_LEVELS,
    MAX_PAYLOAD_REPLAY_WORK,
    MAX_PAYLOAD_REPLAYS,
    MAX_PAYLOAD_SNAPSHOT_RECORDS,
)
from engine.share.codec import ShareError

TOP_KEYS = frozenset(
    {"format", "version", "sha256", "pack", "level", "nouns", "replays", "snapshot"}
)


def check_envelope(document: Mapping[str, Any]) -> Literal["pack", "level"]:
    """Which kind of payload this is; the envelope's shape must be exact.

    Raises:
        ShareError: unknown fields, neither or both of ``pack``/``level``, or
            misplaced ``nouns``/``replays``.
    """
    for key in document:
        if key not in TOP_KEYS:
            raise ShareError.at(
                "unknown-field",
                f"unknown field {quoted(key)}: a payload carries only a pack or a level, "
                "noun styles, replays and a snapshot",
                pointer(key),
            )
    if ("pack" in document) == ("level" in document):
        raise ShareError.at("bad-content", "a payload carries exactly one of 'pack' and 'level'")
    kind: Literal["pack", "level"] = "pack" if "pack" in document else "level"
    if kind == "pack" and "nouns" in document:
        raise ShareError.at(
            "unknown-field", "'nouns' belongs to level payloads; a pack has its own", "/nouns"
        )
    if not isinstance(document.get("replays", []), list):
        raise ShareError.at("wrong-type", "replays must be a list of replay records", "/replays")
    return kind


def check_limits(document: Mapping[str, Any]) -> None:
    """Refuse a document that asks for more work than a payload may.

    Raises:
        ShareError: naming the limit passed.
    """
    levels = _levels(document)
    if len(levels) > MAX_PAYLOAD_LEVELS:
        raise _over("levels", len(levels), MAX_PAYLOAD_LEVELS, "/pack/levels")
    sizes: dict[str, int] = {}  # level id -> what one move may cost, counted before playing
    total = 0
    for level in levels:
        count = _length(level.get("entities")) if isinstance(level, dict) else 0
        total += count
        level_id = level.get("id") if isinstance(level, dict) else None
        if isinstance(level_id, str):
            # every automaton may move every entity, each beat: automata x carriers
            automata = _length(level.get("automata")) if isinstance(level, dict) else 0
            sizes.setdefault(level_id, max(count, 1) * (1 + automata))
    if total > MAX_PAYLOAD_ENTITIES:
        raise _over("entities", total, MAX_PAYLOAD_ENTITIES, "")
    replays = document.get("replays", [])
    if isinstance(replays, list):
        if len(replays) > MAX_PAYLOAD_REPLAYS:
            raise _over("replays", len(replays), MAX_PAYLOAD_REPLAYS, "/replays")
        work = 0
        for record in replays:
            if isinstance(record, dict) and isinstance(record.get("moves"), str):
                level_id = record.get("level")
                size = sizes.get(level_id, 0) if isinstance(level_id, str) else 0
                work += (len(record["moves"]) + 1) * max(size, 1)
        if work > MAX_PAYLOAD_REPLAY_WORK:
            raise ShareError.at(
                "too-much-work",
                f"the replays need {work:,} entity-moves to check (automata move entities "
                f"too), more than a payload's {MAX_PAYLOAD_REPLAY_WORK:,}; a payload cannot ask "
                "for more: share the pack file instead",
                "/replays",
            )
    snapshot = document.get("snapshot")
    if isinstance(snapshot, dict):
        frames = [snapshot.get("current")]
        history = snapshot.get("history")
        if isinstance(history, list):
            frames += history
        records = sum(
            1 + (_length(f.get("entities")) if isinstance(f, dict) else 0) for f in frames
        )
        if records > MAX_PAYLOAD_SNAPSHOT_RECORDS:
            raise _over(
                "snapshot positions and entity records",
                records,
                MAX_PAYLOAD_SNAPSHOT_RECORDS,
                "/snapshot",
            )


def _levels(document: Mapping[str, Any]) -> list[Any]:
    if "level" in document:
        return [document["level"]]
    pack = document.get("pack")
    levels = pack.get("levels") if isinstance(pack, dict) else None
    return levels if isinstance(levels, list) else []


def _length(value: object) -> int:
    return len(value) if isinstance(value, list) else 0


def _over(what: str, count: int, limit: int, pointer: str) -> ShareError:
    return ShareError.at(
        "too-many", f"the payload holds {count:,} {what}, more than {limit:,}", pointer
    )
