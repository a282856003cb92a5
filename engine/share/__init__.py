"""Data-only share payloads: the public face of ``engine.share``.

``preview`` encodes packs and levels and decodes (previews) payloads; ``codec`` is
the text codec (``rulegrid:1:`` text <-> canonical JSON), bounded layer by layer;
``limits`` bounds the work a payload may ask for; ``checks`` validates content,
replays and snapshots; ``summary`` describes a payload; ``install`` writes one
pack file atomically. Nothing in a payload is ever executed.
"""

from engine.share.preview import (
    MAX_ENTITIES,
    MAX_LEVELS,
    MAX_REPLAY_WORK,
    MAX_REPLAYS,
    MAX_SNAPSHOT_RECORDS,
    LevelSummary,
    ReplayCheck,
    ReplayRecord,
    ShareError,
    SharePreview,
    ShareSummary,
    decode,
    default_color,
    encode,
    nouns_of,
    record_replay,
)

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
    "default_color",
    "encode",
    "nouns_of",
    "record_replay",
]
