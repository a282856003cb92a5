"""What trusting a pack folder covers: every Python file in it, pinned by content.

Trust given to a folder's ``pack.py`` once covered that one file, while the
program it runs is often more: ``pack.py`` imports ``helper.py`` beside it, and a
changed helper ran without a question. So a folder's trust digest
(:func:`folder_digest`) covers every ``.py`` file in it (subfolders too; not
``__pycache__`` or hidden folders): the SHA-256 of a manifest of each file's
SHA-256 and path. A folder whose only Python file is ``pack.py`` keeps the digest
it always had (the file's own SHA-256), so trust given before stays valid.

When a trusted folder runs, every file is read once (:func:`read_python_files`),
the digest is checked on those bytes, and the folder's modules are served to
``pack.py``'s imports from them (:func:`pinned_imports`): ``import helper`` runs the
bytes that were checked, never a file changed since, and an import that would load
a Python file of the folder that was not pinned (one created meanwhile) is refused.
Nothing is compiled to ``__pycache__`` and nothing stays in ``sys.modules``. A
module name the process has imported already is the process's, as it would be
with the folder on ``sys.path`` (a folder's ``textwrap.py`` never replaces the
standard library's for the editor's other threads).
Code that reads a file itself (``exec(open(...).read())``) gets the file as it
is then: the digest checked just before the run covers it, not a change during it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from engine.errors import ValidationError
from engine.limits import MAX_PACK_BYTES, MAX_TRUSTED_FILES

#: Directory entries looked at while listing a folder's Python files: a pack folder
#: holding a whole tree (a virtual environment, a checkout) is refused, not walked.
_MAX_ENTRIES = 20 * MAX_TRUSTED_FILES
#: One trusted folder runs at a time: the import hook is process-wide.
_RUNNING = threading.Lock()


def python_files(folder: Path, name: str) -> list[str]:
    """The folder's Python files, as POSIX paths relative to it, sorted.

    Raises:
        ValidationError: ``bad-size`` when the folder holds more than
            :data:`~engine.limits.MAX_TRUSTED_FILES` of them (or a tree too large
            to list), ``unreadable`` when it cannot be listed.
    """
    found: list[str] = []
    seen = 0
    try:
        for root, dirs, files in os.walk(folder, onerror=_raise):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            seen += len(dirs) + len(files)
            base = Path(root).relative_to(folder)
            found += [(base / f).as_posix() for f in files if f.endswith(".py")]
            if len(found) > MAX_TRUSTED_FILES or seen > _MAX_ENTRIES:
                raise ValidationError.single(
                    "",
                    "bad-size",
                    f"{folder} holds more than {MAX_TRUSTED_FILES:,} Python files (or a tree too "
                    "large to list); trust pins every Python file of a pack folder",
                    pack=name,
                )
    except OSError as exc:
        raise ValidationError.single(
            "", "unreadable", f"cannot list {folder}: {exc.strerror or exc}", pack=name
        ) from None
    return sorted(found)


def _raise(error: OSError) -> None:
    raise error


def read_python_files(folder: Path, name: str) -> dict[str, bytes]:
    """Every Python file of the folder (:func:`python_files`), read once, in all at most
    a pack file's size.

    Raises:
        ValidationError: as :func:`python_files`, or a file cannot be read.
    """
    out: dict[str, bytes] = {}
    total = 0
    for relative in python_files(folder, name):
        path = folder / relative
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_PACK_BYTES - total + 1)
        except OSError as exc:
            raise ValidationError.single(
                "", "unreadable", f"cannot read {path}: {exc.strerror or exc}", pack=name
            ) from None
        total += len(data)
        if total > MAX_PACK_BYTES:
            raise ValidationError.single(
                "",
                "bad-size",
                f"the Python files of {folder} are larger than {MAX_PACK_BYTES // 2**20} MiB",
                pack=name,
            )
        out[relative] = data
    return out


def folder_digest(files: dict[str, bytes]) -> str:
    """The trust digest of a folder's Python files (``pack.py`` alone: its own SHA-256)."""
    if list(files) == ["pack.py"]:
        return hashlib.sha256(files["pack.py"]).hexdigest()
    manifest = "".join(
        f"{hashlib.sha256(files[relative]).hexdigest()} {relative}\n" for relative in sorted(files)
    )
    return hashlib.sha256(manifest.encode("utf-8", "surrogatepass")).hexdigest()


@contextmanager
def pinned_imports(folder: Path, files: dict[str, bytes]) -> Iterator[None]:
    """While ``pack.py`` runs: its imports of the folder's modules run the pinned bytes.

    ``sys.path`` and ``sys.modules`` are as before afterwards: the folder's modules
    are dropped, so the next run executes the bytes it checks.
    """
    with _RUNNING:
        finder = _PinnedFinder(folder, files, threading.get_ident())
        saved_path = list(sys.path)
        before = set(sys.modules)
        sys.meta_path.insert(0, finder)
        try:
            yield
        finally:
            sys.meta_path[:] = [f for f in sys.meta_path if f is not finder]
            sys.path[:] = saved_path
            sys.path_importer_cache.pop(str(folder.resolve()), None)  # looked up to refuse
            for module_name in set(sys.modules) - before:
                module = sys.modules.get(module_name)
                if module is not None and finder.owns(module):
                    del sys.modules[module_name]


class _PinnedFinder(importlib.abc.MetaPathFinder):
    """Finds the folder's modules in the pinned bytes; refuses the folder's unpinned files."""

    def __init__(self, folder: Path, files: dict[str, bytes], thread: int) -> None:
        self._folder = folder.resolve()
        self._thread = thread
        #: module name -> (pinned path relative to the folder, or None: a plain folder)
        self._modules: dict[str, str | None] = {}
        for relative in files:
            parts = relative[: -len(".py")].split("/")
            for depth in range(1, len(parts)):  # the folders on the way are packages
                self._modules.setdefault(".".join(parts[:depth]), None)
            if parts[-1] == "__init__":
                self._modules[".".join(parts[:-1])] = relative
            else:
                self._modules[".".join(parts)] = relative
        self._modules.pop("", None)
        self._files = files

    def owns(self, module: ModuleType | None) -> bool:
        spec = getattr(module, "__spec__", None)
        return spec is not None and isinstance(spec.loader, _PinnedLoader)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if threading.get_ident() != self._thread:
            return None  # another thread's import: not the pack's
        parent = fullname.rpartition(".")[0]
        ours = not parent or self.owns(sys.modules.get(parent))
        # A name the process had imported already wins, as on sys.path: then its
        # submodules are its own, never the folder's.
        if ours and fullname in self._modules:
            relative = self._modules[fullname]
            is_package = relative is None or relative.endswith("__init__.py")
            if relative is None:
                origin = str(self._folder / fullname.replace(".", "/"))
                loader = _PinnedLoader(None, origin)
            else:
                origin = str(self._folder / relative)
                loader = _PinnedLoader(self._files[relative], origin)
            spec = importlib.util.spec_from_loader(
                fullname, loader, origin=origin, is_package=is_package
            )
            if spec is not None and relative is not None:
                spec.has_location = True
            return spec
        # Not pinned: refused if it would load a file of the folder (on ``sys.path``,
        # or beside pack.py, where the pinned modules are found).
        places = [path] if path is not None else [None, [str(self._folder)]]
        for place in places:
            found = importlib.machinery.PathFinder.find_spec(fullname, place)
            elsewhere = getattr(found, "origin", None)
            if isinstance(elsewhere, str) and _inside(elsewhere, self._folder):
                raise ImportError(
                    f"{fullname} ({elsewhere}) was not in the pack folder when it was "
                    "trusted; trust the folder again to run it",
                    name=fullname,
                )
        return None


class _PinnedLoader(importlib.abc.Loader):
    """Runs pinned bytes (``None``: an empty package standing for a plain folder)."""

    def __init__(self, source: bytes | None, filename: str) -> None:
        self._source = source
        self._filename = filename

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = self._filename
        if self._source is not None:
            exec(compile(self._source, self._filename, "exec"), module.__dict__)


def _inside(origin: str, folder: Path) -> bool:
    try:
        return Path(origin).resolve().is_relative_to(folder)
    except (OSError, ValueError):
        return False
