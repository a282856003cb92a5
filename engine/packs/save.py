"""Writing packs: one canonical JSON text and one atomic file writer.

Everything that writes a pack (the editor's Save, share install) goes through
:func:`save_pack`, so a pack saved anywhere has the same bytes and a diff between
two saves shows only real edits. :func:`dump_pack` writes what it is given: a
:class:`Pack` in its normalized form, a document exactly as it stands (no
defaults are added, nothing is dropped, nothing is validated), so an author's
invalid work is saved too. The canonical form (docs/validation.md, "Writing
packs"):

* records (the pack, a noun style, a level, an entity, an automaton, a step, a
  mechanic, a reference solution) list their fields in the format's order, the
  order of the models and the schema; fields the format does not know follow,
  sorted by name;
* maps whose keys are data (``nouns``, a frail mechanic's ``leaves`` map) keep their order;
* two-space indents, one list item per line, and a record or map whose values are
  all plain (no list, no object) on one line when that line is at most 100
  characters: one entity per line;
* UTF-8 without escapes, ``", "`` and ``": "`` inside a line, a final newline.

:func:`write_atomic` writes a whole file or nothing.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine import model
from engine.model import Pack

#: A record or map of plain values stays on one line up to this many characters.
FLAT_WIDTH = 100
#: The mode of a newly written file (rw-r--r--); a replaced file keeps its own.
NEW_FILE_MODE = 0o644
#: Temporary files are ``.<name>.<writer pid>-<random>.tmp`` next to the file.
TEMP_SUFFIX = ".tmp"
#: A temporary file this old is stale whoever wrote it: a save takes seconds.
STALE_TEMP_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class _Shape:
    """Where a JSON object sits in a pack: its key order and what lies under each key.

    A record has ``keys`` (its fields in the format's order); a map (``keys`` is
    ``None``) keeps its own order and every value has the shape ``values``. Under
    a list, the shape is that of each item.
    """

    keys: tuple[str, ...] | None = None
    inner: Mapping[str, _Shape] = field(default_factory=dict)
    values: _Shape | None = None


def _fields(*kinds: type[BaseModel]) -> tuple[str, ...]:
    """The fields of one or more models (a union), each after the field it follows."""
    order: list[str] = []
    for kind in kinds:
        previous: str | None = None
        for name in kind.model_fields:
            if name not in order:
                order.insert(0 if previous is None else order.index(previous) + 1, name)
            previous = name
    return tuple(order)


_STEP = _Shape(_fields(model.MoveStep, model.WaitStep))
_LEVEL = _Shape(
    _fields(model.Level),
    {
        "entities": _Shape(_fields(model.ObjectEntity, model.WordEntity)),
        "automata": _Shape(_fields(model.Automaton), {"pattern": _STEP}),
        "mechanics": _Shape(_fields(model.FrailMechanic), {"leaves": _Shape()}),
        "references": _Shape(_fields(model.ReferenceSolution)),
    },
)
PACK_SHAPE = _Shape(
    _fields(Pack), {"nouns": _Shape(values=_Shape(_fields(model.NounStyle))), "levels": _LEVEL}
)


def dump_pack(pack_or_data: Pack | Mapping[str, Any]) -> str:
    """The canonical JSON text of a pack or a pack document (see the module docstring).

    Raises:
        ValueError: the document holds NaN or infinity, which JSON cannot.
        TypeError: the document holds a value JSON has no type for.
    """
    data = pack_or_data.to_data() if isinstance(pack_or_data, Pack) else pack_or_data
    return _text(data, PACK_SHAPE, 0) + "\n"


def dump_pack_chunks(pack_or_data: Pack | Mapping[str, Any]) -> Iterator[str]:
    """:func:`dump_pack`'s text in pieces, one per level, which join to exactly that text.

    A writer on a worker thread encodes and writes them one at a time: joining a
    10,000-level pack's text in one piece holds the interpreter lock for about
    100 ms, which the UI thread waits out.

    Raises:
        ValueError, TypeError: as :func:`dump_pack`, when the piece holding the
            value is made.
    """
    data = pack_or_data.to_data() if isinstance(pack_or_data, Pack) else pack_or_data
    levels = data.get("levels")
    nested = any(isinstance(v, Mapping | list | tuple) for k, v in data.items() if k != "levels")
    if not isinstance(levels, list) or not levels or not nested:
        yield dump_pack(data)  # small, or laid out flat: one piece
        return
    marker = f"\x00{uuid.uuid4().hex}\x00"  # no pack holds it: the levels' place
    shell = _text({k: (marker if k == "levels" else v) for k, v in data.items()}, PACK_SHAPE, 0)
    head, found, tail = shell.partition(_scalar(marker))
    assert found, "the marker is in the shell's text"
    yield head + "[\n"
    below = PACK_SHAPE.inner.get("levels")
    for index, level in enumerate(levels):
        yield (",\n" if index else "") + "    " + _text(level, below, 2)
    yield "\n  ]" + tail + "\n"


def save_pack(
    pack_or_data: Pack | Mapping[str, Any], path: str | Path, *, replace: bool = True
) -> Path:
    """Write :func:`dump_pack`'s text to ``path`` with :func:`write_atomic`.

    Returns:
        The path written.

    Raises:
        FileExistsError: ``replace`` is false and ``path`` exists; nothing written.
        OSError: the file could not be written; the old file, if any, is untouched.
    """
    return write_atomic(path, dump_pack(pack_or_data), replace=replace)


def write_atomic(
    path: str | Path, text: str | bytes | Iterable[bytes], *, replace: bool = True
) -> Path:
    """Write a whole file or nothing: a crash, a full disk or a clash never leaves half of one.

    The text (or its encoded pieces, written in turn) goes to a temporary file in the same folder (so the final rename stays
    on one file system), is flushed and ``fsync``-ed, then published: with
    ``replace``, by ``os.replace`` (atomic, overwrites); without, by a hard link,
    which is atomic and fails when the name exists, so a file that another program
    created meanwhile is never clobbered (on a file system without hard links:
    ``os.replace`` after a last existence check). The folder is then ``fsync``-ed
    so the new name survives a power cut. On any failure the temporary file is
    removed, folders it created are removed again, and the old file is left as it
    was. Temporary files that earlier, killed writes of the same path left behind
    are removed first.

    Returns:
        ``path`` as a :class:`Path`.

    Raises:
        FileExistsError: ``replace`` is false and ``path`` exists.
        OSError: the file could not be written.
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    pieces = [data] if isinstance(data, bytes) else data  # pieces: written in turn
    created = _make_folders(path.parent)
    published = False
    try:
        _remove_stale_temporaries(path)
        fd, temp_name = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.{os.getpid()}-", suffix=TEMP_SUFFIX
        )
        temp = Path(temp_name)
        try:
            with os.fdopen(fd, "wb") as handle:
                for piece in pieces:
                    handle.write(piece)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, _mode_for(path))
            if replace:
                os.replace(temp, path)
            else:
                _publish_new(temp, path)
            published = True
            _sync_folder(path.parent)
        finally:
            temp.unlink(missing_ok=True)  # gone after a replace; a link leaves it behind
    finally:
        if not published:
            for folder in reversed(created):  # leave nothing behind, not even a folder
                with contextlib.suppress(OSError):
                    folder.rmdir()
    return path


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; the ones created, outermost first."""
    missing: list[Path] = []
    current = folder
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    folder.mkdir(parents=True, exist_ok=True)
    return list(reversed(missing))


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of earlier writes of ``path`` that never finished.

    A write killed between creating its temporary file and publishing it leaves
    the file behind. Its name carries the writer's process id: on POSIX a file
    whose writer no longer runs is stale at once; any such file older than
    :data:`STALE_TEMP_SECONDS` is stale everywhere (process ids are reused, and
    Windows cannot ask about a process without touching it). Best effort: a file
    that cannot be removed is left.
    """
    prefix = f".{path.name}."
    now = time.time()
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        writer = name[len(prefix) :].partition("-")[0]
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            stale = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS
            if not stale and writer.isdigit() and os.name == "posix":
                stale = int(writer) != os.getpid() and not _running(int(writer))
            if stale:
                os.unlink(entry.path)
        except OSError:
            continue


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # POSIX only: signal 0 asks without sending anything
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return NEW_FILE_MODE


def _publish_new(temp: Path, path: Path) -> None:
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links on this file system
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "the file already exists", str(path)) from None
        os.replace(temp, path)


def _sync_folder(folder: Path) -> None:
    """Make the new name durable; best effort (Windows cannot open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _text(value: Any, shape: _Shape | None, depth: int) -> str:
    if isinstance(value, Mapping):
        return _object(value, shape, depth)
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        inner = "  " * (depth + 1)
        items = [inner + _text(item, shape, depth + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    return _scalar(value)


def _object(value: Mapping[Any, Any], shape: _Shape | None, depth: int) -> str:
    if not value:
        return "{}"
    keys: list[Any] = list(value)
    if shape is not None and shape.keys is not None:
        known = [k for k in shape.keys if k in value]
        keys = known + sorted((k for k in keys if k not in shape.keys), key=str)
    ordered = {k: value[k] for k in keys}
    if not any(isinstance(v, Mapping | list | tuple) for v in ordered.values()):
        flat = _scalar(ordered)
        if len(flat) <= FLAT_WIDTH:
            return flat
    inner = "  " * (depth + 1)
    items = []
    for key, item in ordered.items():
        if shape is None:
            below = None
        elif shape.keys is None:
            below = shape.values
        else:
            below = shape.inner.get(key)
        items.append(f"{inner}{_key(key)}: {_text(item, below, depth + 1)}")
    return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"


def _key(key: object) -> str:
    """A key as ``json.dumps`` writes it: text as is, numbers, booleans and null as text."""
    if isinstance(key, str):
        return _scalar(key)
    if key is None or isinstance(key, int | float):
        return _scalar(json.dumps(key))
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)
