"""Data-only share payloads: the public face of ``engine.share``.

``export`` makes the payload of a pack or one of its levels (the command line's
and the editor's); ``preview`` encodes and decodes (previews) payloads; ``codec`` is
the text codec (``rulegrid:1:`` text <-> canonical JSON), bounded layer by layer;
``limits`` bounds the work a payload may ask for; ``checks`` validates content,
replays and snapshots; ``summary`` describes a payload; ``install`` writes one
pack file atomically (into :func:`user_pack_folder` unless told otherwise).
Nothing in a payload is ever executed.
"""

# The payload caps keep their short public names here (``share.MAX_LEVELS`` is the
# payload's cap, not a pack file's); engine.limits spells them MAX_PAYLOAD_*.
from engine.limits import MAX_PAYLOAD_CHARS as MAX_CHARS
from engine.limits import MAX_PAYLOAD_ENTITIES as MAX_ENTITIES
from engine.limits import MAX_PAYLOAD_LEVELS as MAX_LEVELS
from engine.limits import MAX_PAYLOAD_REPLAY_WORK as MAX_REPLAY_WORK
from engine.limits import MAX_PAYLOAD_REPLAYS as MAX_REPLAYS
from engine.limits import MAX_PAYLOAD_SNAPSHOT_RECORDS as MAX_SNAPSHOT_RECORDS
from engine.share.export import export
from engine.share.files import (
    MAX_FILE_BYTES,
    MAX_LISTED,
    PAYLOAD_SUFFIX,
    decode_file,
    installed_pack_files,
    read_payload_file,
)
from engine.share.install import PACKS_DIR_VARIABLE, user_pack_folder
from engine.share.preview import (
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
    "MAX_CHARS",
    "MAX_ENTITIES",
    "MAX_FILE_BYTES",
    "MAX_LEVELS",
    "MAX_LISTED",
    "MAX_REPLAYS",
    "MAX_REPLAY_WORK",
    "MAX_SNAPSHOT_RECORDS",
    "PACKS_DIR_VARIABLE",
    "PAYLOAD_SUFFIX",
    "LevelSummary",
    "ReplayCheck",
    "ReplayRecord",
    "ShareError",
    "SharePreview",
    "ShareSummary",
    "decode",
    "decode_file",
    "default_color",
    "encode",
    "export",
    "installed_pack_files",
    "nouns_of",
    "read_payload_file",
    "record_replay",
    "user_pack_folder",
]
