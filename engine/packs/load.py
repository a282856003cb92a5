"""Reading packs from disk or memory, including trusted local Python modules.

A pack is a ``.json`` file, a folder holding ``pack.json``, a folder holding a
trusted ``pack.py`` whose ``build()`` returns the pack document, or an in-memory
dict. Whatever the source, the document goes through the same whole-pack
validation (:func:`engine.packs.validate.pack_problems`) and a :class:`Pack` is returned
only when every level is valid. Nothing is cached, registered or written before
that, or after a failure.

``pack.py`` runs only when the caller passes ``trust=True`` for a folder on the
author's own disk; without trust it is refused and never imported, even when the
folder also holds a ``pack.json`` (the module is what the author maintains). It is
compiled from its text rather than imported, so no ``__pycache__`` is written into
the pack folder and nothing lands in ``sys.modules``. Trust pinned to a digest
covers every Python file of the folder, and the folder's modules that ``pack.py``
imports run the very bytes that were checked (:mod:`engine.packs.trusted`).
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.errors import ValidationError
from engine.limits import MAX_PACK_BYTES
from engine.model import Pack
from engine.packs.jsontext import parse_json_text
from engine.packs.trusted import folder_digest, pinned_imports, read_python_files
from engine.packs.validate import pack_name, pack_problems

PACK_FILE = "pack.json"
PACK_MODULE = "pack.py"


def load_pack(source: str | Path | Mapping[str, Any], *, trust: bool | str = False) -> Pack:
    """Validate a whole pack and return it, or raise listing every problem.

    Args:
        source: a ``.json`` pack file, a pack folder, or a pack document.
        trust: allow a folder's ``pack.py`` to run (the author trusts this folder);
            a SHA-256 (:func:`module_digest`) allows it only while the folder's
            Python files (``pack.py`` and every ``.py`` beside or below it) have
            exactly that content, so trust given to one version never runs another.

    Raises:
        ValidationError: problems located as ``PACK/levels/N/... (level "id")``.
    """
    return load_pack_document(source, trust=trust)[0]


def load_pack_document(
    source: str | Path | Mapping[str, Any], *, trust: bool | str = False
) -> tuple[Pack, dict[str, Any]]:
    """:func:`load_pack`, and the validated document as the author wrote it.

    Tools that write a pack back (the editor) keep the document, not the model's
    dump: the model fills in defaults (``"phase": 0``) and a fixed key order, and a
    pack opened and saved untouched must not change.

    Raises:
        ValidationError: as :func:`load_pack`.
    """
    if isinstance(source, Mapping):
        doc: Any = dict(source)
        name = pack_name(doc)
    else:
        doc, fallback = read_pack_document(Path(source), trust=trust)
        name = pack_name(doc, fallback)
    pack, problems = pack_problems(doc, name)
    if pack is None:
        raise ValidationError(problems)
    return pack, doc


def read_pack_document(path: Path, *, trust: bool | str = False) -> tuple[Any, str]:
    """The raw document of a pack file or folder, and a name for its errors."""
    name = path.stem if path.suffix == ".json" else path.name
    name = name or str(path)
    if path.is_dir():
        module = path / PACK_MODULE
        if module.is_file():
            if not trust:
                raise ValidationError.single(
                    "",
                    "untrusted-module",
                    f"{module} builds this pack with Python code; it runs only for a "
                    "folder you trust (trust=True, --trust, or 'Trust this folder' in the editor)",
                    pack=name,
                )
            return _run_module(module, name, trust), name
        if not (path / PACK_FILE).is_file():
            raise ValidationError.single(
                "",
                "unreadable",
                f"cannot read {path}: a folder without a {PACK_FILE} (or a {PACK_MODULE})",
                pack=name,
            )
        path = path / PACK_FILE
    return read_json_file(path, name=name), name


def read_json_file(path: str | Path, *, limit: int | None = None, name: str | None = None) -> Any:
    """The JSON document in a file, read as strictly and as boundedly as a pack file.

    For tools that must hold a document the engine may refuse (the editor's repair,
    backups, recovered work): at most ``limit + 1`` bytes are read (default
    :data:`~engine.limits.MAX_PACK_BYTES`), and the text is
    parsed by the pack reader (UTF-8 only, each key once, no NaN, no number too
    large, no nesting past the parser, no lone surrogate), so a hostile file is a
    located problem, never a ``RecursionError``, ``ValueError`` or ``OverflowError``.
    ``name`` labels the problems (default: the file name).

    Raises:
        ValidationError: ``unreadable``, ``bad-size``, ``invalid-json``,
            ``duplicate-key`` or ``bad-text``.
    """
    path = Path(path)
    label = path.name if name is None else name
    limit = MAX_PACK_BYTES if limit is None else limit
    return parse_json_text(read_bounded(path, limit, label), source=label)


def read_bounded(path: Path, limit: int, name: str) -> bytes:
    """The bytes of the file ``path``, refused with a located problem past ``limit`` bytes.

    At most ``limit + 1`` bytes are ever read, so a huge file costs nothing.
    ``name`` labels the problems (a pack or file name).
    """
    try:
        if not path.exists():
            raise ValidationError.single(
                "", "unreadable", f"cannot read {path}: it does not exist", pack=name
            )
        if not path.is_file():
            raise ValidationError.single(
                "", "unreadable", f"cannot read {path}: not a regular file", pack=name
            )
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise ValidationError.single(
            "", "unreadable", f"cannot read {path}: {exc.strerror or exc}", pack=name
        ) from None
    if len(raw) > limit:
        raise ValidationError.single(
            "", "bad-size", f"{path} is larger than {_amount(limit)}", pack=name
        )
    return raw


def _amount(size: int) -> str:
    return f"{size // 2**20} MiB" if size >= 2**20 else f"{size:,} bytes"


def module_digest(folder: str | Path) -> str | None:
    """The trust digest (SHA-256, hex) of a pack folder's Python files, or ``None``
    when it has no ``pack.py``.

    It covers ``pack.py`` and every other ``.py`` file in the folder and below it
    (:func:`engine.packs.trusted.folder_digest`; ``pack.py`` alone: its own
    SHA-256). What an author trusts is this content: pass it as ``trust=`` and the
    folder runs only while its Python files still have exactly these bytes.

    Raises:
        ValidationError: a file cannot be read, or the folder holds too many or too
            large Python files.
    """
    folder = Path(folder)
    if not (folder / PACK_MODULE).is_file():
        return None
    name = folder.name or str(folder)
    return folder_digest(read_python_files(folder, name))


def _run_module(module: Path, name: str, trust: bool | str) -> Any:
    """Run ``module``'s ``build()``; with a digest as ``trust``, only that exact content.

    The folder's Python files are read once: the digest is checked on the very
    bytes that run, and ``pack.py``'s imports of the folder's modules get them.
    """
    files = read_python_files(module.parent, name)
    source = files.get(PACK_MODULE)
    if source is None:  # gone since the folder was looked at
        raise ValidationError.single(
            "", "unreadable", f"cannot read {module}: it does not exist", pack=name
        )
    if isinstance(trust, str) and folder_digest(files) != trust:
        raise ValidationError.single(
            "",
            "untrusted-module",
            f"{module} or a Python file beside it changed since it was trusted; "
            "it runs only once you trust it again",
            pack=name,
        )
    filename = str(module)
    namespace: dict[str, Any] = {"__name__": f"rulegrid_pack_{name}", "__file__": filename}
    try:
        with pinned_imports(module.parent, files):  # build() may import lazily too
            exec(compile(source, filename, "exec"), namespace)
            build = namespace.get("build")
            if not callable(build):
                raise ValidationError.single(
                    "", "module-error", f"{module.name} has no build() function", pack=name
                )
            result = build()
    except ValidationError:
        raise
    except (Exception, SystemExit) as exc:  # the author's code failed: report it, no traceback
        raise ValidationError.single("", "module-error", _failure(exc, module), pack=name) from None
    if not isinstance(result, dict):
        raise ValidationError.single(
            "",
            "module-error",
            f"{module.name}: build() must return a dict, not {type(result).__name__}",
            pack=name,
        )
    return result


def _failure(exc: BaseException, module: Path) -> str:
    """``pack.py (line 7) raised KeyError: 'x'``: the author's line, not the engine's."""
    if isinstance(exc, SyntaxError) and exc.filename == str(module):
        return f"{module.name} (line {exc.lineno}) has a syntax error: {exc.msg}"
    folder = module.parent.resolve()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _within(f.filename, folder)]
    if not frames:
        return f"{module.name} raised {type(exc).__name__}: {exc}"
    last = frames[-1]  # the author's line: in pack.py or a module of the folder
    label = Path(last.filename).resolve().relative_to(folder).as_posix()
    return f"{label} (line {last.lineno}) raised {type(exc).__name__}: {exc}"


def _within(filename: str, folder: Path) -> bool:
    try:
        return Path(filename).resolve().is_relative_to(folder)
    except (OSError, ValueError):
        return False
