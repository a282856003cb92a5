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
from engine.model import ID_PATTERN, Pack
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


#: Environment variable that moves the user's pack folder (portable installs, tests).
PACKS_DIR_VARIABLE = "RULEGRID_PACKS_DIR"


def user_pack_folder() -> Path:
    """The folder installed packs live in: the command line and the editor both use it.

    ``$RULEGRID_PACKS_DIR`` when set, else ``packs`` in the ``platformdirs`` user
    data folder (``~/.local/share/rulegrid/packs`` on Linux). Nothing is created.
    """
    override = os.environ.get(PACKS_DIR_VARIABLE, "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("rulegrid", appauthor=False)) / "packs"


def renamed(pack: Pack, pack_id: str | None) -> Pack:
    """``pack`` under another id, checked like a pack's id and a file name.

    Installing under another id is how an importer keeps both packs when one of
    the same id is installed; only the pack id changes, never a level.

    Raises:
        ShareError: ``pack_id`` is not a valid pack id or cannot be a file name.
    """
    if pack_id is None or pack_id == pack.id:
        return pack
    if (
        not isinstance(pack_id, str)
        or len(pack_id) > MAX_ID_LENGTH
        or not re.fullmatch(ID_PATTERN, pack_id)
    ):
        raise ShareError.at(
            "bad-value",
            f"{str(pack_id)[:70]!r} is not a pack id (letters, digits, '.', '_', '-', "
            f"starting with a letter or digit, at most {MAX_ID_LENGTH} characters)",
            "/id",
        )
    file_name(pack_id)
    return pack.model_copy(update={"id": pack_id})


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
            f"{path} already exists; replacing it needs --replace, keeping both needs "
            "another id (--as ID); the editor offers both",
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
