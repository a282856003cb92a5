"""Installing a previewed pack: one file, named from a checked id, written atomically.

The pack id is the only payload value that reaches the file system, so it is
checked again here (not just trusted from validation): a plain name, no path
separators, no leading dot, no Windows device name. The file is written to a
temporary name in the same folder, flushed, and published with a hard link
(which fails if the name exists, so a concurrent writer is never clobbered) or,
when the folder cannot hold links, ``os.replace`` after a final existence check.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path

from engine.limits import MAX_ID_LENGTH
from engine.model import Pack
from engine.share.codec import ShareError

_SAFE_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_ID_LENGTH - 1}}}")
_DEVICE_NAMES = frozenset(
    {"CON", "PRN", "AUX", "NUL"} | {f"COM{n}" for n in range(10)} | {f"LPT{n}" for n in range(10)}
)


def file_name(pack_id: object) -> str:
    """The install file name for a pack id, or a :class:`ShareError` if it is unsafe."""
    if (
        not isinstance(pack_id, str)
        or not _SAFE_NAME.fullmatch(pack_id)
        or pack_id.endswith(".")
        or pack_id.split(".")[0].upper() in _DEVICE_NAMES
    ):
        raise ShareError.at(
            "unsafe-name", f"the pack id {str(pack_id)[:70]!r} cannot be used as a file name", "/id"
        )
    return pack_id + ".json"


def install_path(pack: Pack, folder: Path, *, replace: bool = False) -> Path:
    """Where ``pack`` goes in ``folder``; refuses an existing pack unless ``replace``.

    Reads the file system only; never writes.
    """
    path = folder / file_name(pack.id)
    if path.parent != folder:  # cannot happen for a safe name; kept as a last guard
        raise ShareError.at("unsafe-name", f"{path} is outside {folder}", "/id")
    if folder.exists() and not folder.is_dir():
        raise ShareError.at("not-a-folder", f"{folder} is not a folder")
    if (folder / pack.id).exists():
        raise ShareError.at(
            "pack-exists", f"a pack folder {folder / pack.id} already exists; not replacing it"
        )
    if os.path.lexists(path) and not replace:
        raise ShareError.at(
            "pack-exists", f"{path} already exists; pass replace=True (--replace) to overwrite it"
        )
    return path


def install_pack(pack: Pack, path: Path, *, replace: bool) -> Path:
    """Write ``pack`` to ``path`` atomically; the caller has checked ``install_path``."""
    text = json.dumps(pack.to_data(), indent=2, ensure_ascii=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        _publish(temp, path, replace=replace)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
    return path


def _publish(temp: Path, path: Path, *, replace: bool) -> None:
    if replace:
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)  # atomic and never overwrites
    except FileExistsError:
        raise ShareError.at("pack-exists", f"{path} already exists; not replacing it") from None
    except OSError:  # no hard links on this file system
        if os.path.lexists(path):
            raise ShareError.at("pack-exists", f"{path} already exists; not replacing it") from None
        os.replace(temp, path)
