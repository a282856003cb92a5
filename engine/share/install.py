"""Installing a previewed pack: one file, named from a checked id, written atomically.

The pack id is the only payload value that reaches the file system, so it is
checked again here (not just trusted from validation): a plain name, no path
separators, no leading dot, no Windows device name. The file is written by
:func:`engine.packs.save.save_pack`, the writer the editor saves with: the same
canonical text, and the same atomic writer, asked never to overwrite unless
``replace`` (a file that another program created meanwhile is never clobbered).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from engine.limits import MAX_ID_LENGTH
from engine.model import Pack
from engine.packs.save import save_pack
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
            "pack-exists",
            f"{path} already exists; replacing it needs --replace (Replace in the editor)",
        )
    return path


def install_pack(pack: Pack, path: Path, *, replace: bool) -> Path:
    """Write ``pack`` to ``path`` atomically; the caller has checked ``install_path``.

    Raises:
        ShareError: ``path`` exists (it may have appeared since the check) and
            ``replace`` is false, or the file system refused the write (a folder
            that is a file, a full disk, no permission): nothing is written.
    """
    try:
        return save_pack(pack, path, replace=replace)
    except FileExistsError:
        raise ShareError.at("pack-exists", f"{path} already exists; not replacing it") from None
    except OSError as exc:
        raise ShareError.at("install-failed", f"cannot install {path}: {io_reason(exc)}") from None


def io_reason(exc: OSError) -> str:
    """An I/O failure in the words a user acts on (the disk is full, not ``ENOSPC``)."""
    reasons = {
        getattr(errno, "EDQUOT", -1): "the disk quota is used up",
        errno.ENOSPC: "the disk is full",
        errno.ENOTDIR: "a part of the folder path is a file, not a folder",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EROFS: "the file system is read-only",
    }
    reason = reasons.get(exc.errno or 0) or exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return reason + where
