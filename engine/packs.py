"""Reading packs from disk or memory, including trusted local Python modules.

A pack is a ``.json`` file, a folder holding ``pack.json``, a folder holding a
trusted ``pack.py`` whose ``build()`` returns the pack document, or an in-memory
dict. Whatever the source, the document goes through the same whole-pack
validation (:func:`engine.validate.pack_problems`) and a :class:`Pack` is returned
only when every level is valid. Nothing is cached or registered before that.

``pack.py`` runs only when the caller passes ``trust=True`` for a folder on the
author's own disk; without trust it is refused and never imported.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.errors import ValidationError
from engine.model import Pack
from engine.validate import pack_problems, parse_json_text

PACK_FILE = "pack.json"
PACK_MODULE = "pack.py"
MAX_PACK_BYTES = 64 * 1024 * 1024


def load_pack(source: str | Path | Mapping[str, Any], *, trust: bool = False) -> Pack:
    """Validate a whole pack and return it, or raise listing every problem.

    Args:
        source: a ``.json`` pack file, a pack folder, or a pack document.
        trust: allow a folder's ``pack.py`` to run (the author trusts this folder).

    Raises:
        ValidationError: problems located as ``PACK/levels/N/... (level "id")``.
    """
    if isinstance(source, Mapping):
        doc: Any = dict(source)
        name = _name_of(doc, "<pack>")
    else:
        doc, fallback = read_pack_document(Path(source), trust=trust)
        name = _name_of(doc, fallback)
    pack, problems = pack_problems(doc, name)
    if pack is None:
        raise ValidationError(problems)
    return pack


def read_pack_document(path: Path, *, trust: bool = False) -> tuple[Any, str]:
    """The raw document of a pack file or folder, and a name for its errors."""
    name = path.stem if path.suffix == ".json" else path.name
    if path.is_dir():
        module = path / PACK_MODULE
        if module.is_file():
            if not trust:
                raise ValidationError.single(
                    "",
                    "untrusted-module",
                    f"{module} builds this pack with Python code; it runs only for a "
                    "folder you trust (trust=True, or 'Trust this folder' in the editor)",
                    pack=name,
                )
            return _run_module(module, name), name
        path = path / PACK_FILE
    try:
        if path.stat().st_size > MAX_PACK_BYTES:
            raise ValidationError.single(
                "", "bad-size", f"{path} is larger than {MAX_PACK_BYTES // 2**20} MiB", pack=name
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ValidationError.single("", "unreadable", f"cannot read {path}: {exc.strerror or exc}", pack=name) from None
    return parse_json_text(raw, source=name), name


def _run_module(module: Path, name: str) -> Any:
    unique = f"_rulegrid_pack_{abs(hash(str(module.resolve())))}"
    spec = importlib.util.spec_from_file_location(unique, module)
    if spec is None or spec.loader is None:
        raise ValidationError.single("", "module-error", f"cannot load {module}", pack=name)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
        build = getattr(mod, "build", None)
        if not callable(build):
            raise ValidationError.single("", "module-error", f"{module} has no build() function", pack=name)
        result = build()
    except ValidationError:
        raise
    except Exception as exc:  # the author's code failed: report it, located at the module
        last = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" (line {last[0].lineno})" if last else ""
        raise ValidationError.single(
            "", "module-error", f"{module.name}{where} raised {type(exc).__name__}: {exc}", pack=name
        ) from None
    finally:
        sys.modules.pop(unique, None)
    if not isinstance(result, dict):
        raise ValidationError.single(
            "", "module-error", f"{module.name}: build() must return a dict, not {type(result).__name__}", pack=name
        )
    return result


def _name_of(doc: Any, fallback: str) -> str:
    if isinstance(doc, dict):
        value = doc.get("id")
        if isinstance(value, str) and 0 < len(value) <= 64:
            return value
    return fallback
