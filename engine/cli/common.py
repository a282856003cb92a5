"""Helpers shared by the subcommands: finding packs and levels, writing files atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from engine.errors import ValidationError
from engine.model import Level, Pack
from engine.packs.load import load_pack


def open_pack(path: str, *, trust: bool = False) -> Pack:
    return load_pack(Path(path), trust=trust)


def find_level(pack: Pack, wanted: str) -> Level:
    """The level called ``wanted`` (its id, or its 1-based number in the pack)."""
    for level in pack.levels:
        if level.id == wanted:
            return level
    if wanted.isdigit() and 1 <= int(wanted) <= len(pack.levels):
        return pack.levels[int(wanted) - 1]
    known = ", ".join(level.id for level in pack.levels[:20])
    more = " …" if len(pack.levels) > 20 else ""
    raise ValidationError.single(
        "/levels",
        "unknown-level",
        f"no level {wanted!r} in this pack (levels: {known}{more})",
        pack=pack.id,
    )


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` through a temporary file in the same folder, fsync, then rename.

    A failure at any point leaves the old file (or no file) in place, never half
    of the new one.
    """
    target = path.resolve()
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def pack_json(data: Any) -> str:
    """Indented JSON with small flat objects (entities) on one line each, as the editor saves."""
    return _format(data, 0) + "\n"


def _format(value: Any, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        flat = json.dumps(value, ensure_ascii=False)
        if not value or (
            all(not isinstance(v, dict | list) for v in value.values()) and len(flat) <= 100
        ):
            return flat
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_format(v, depth + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + _format(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)
