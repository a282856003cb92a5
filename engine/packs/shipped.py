"""What this installation of Rulegrid ships: its version, its JSON Schemas, its bundled packs.

The one place in the engine that knows where shipped data lives. The repository
keeps it in the top-level folders ``schemas/`` and ``packs/``; the build
configuration (``pyproject.toml``) installs them as the data packages
``rulegrid_data.schemas`` and ``rulegrid_data.packs``, and an editable install
maps the same names onto the same folders. Everything is found through
:mod:`importlib.resources`, so a wheel, an editable checkout and a PyInstaller
bundle all read the data the same way, and nothing depends on where the source
files happen to lie (docs/install.md).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from pathlib import Path

#: The distribution's name: its metadata holds the version.
DISTRIBUTION = "rulegrid"
#: The installed name of the data packages (docs/decisions.md: never a bare ``schemas``).
DATA_PACKAGE = "rulegrid_data"
SCHEMAS_PACKAGE = f"{DATA_PACKAGE}.schemas"
PACKS_PACKAGE = f"{DATA_PACKAGE}.packs"
#: What a bundled pack file ends with; the folder also holds licence notices.
PACK_SUFFIX = ".json"

_extracted = contextlib.ExitStack()  # files copied out of a zip import, if one ever is
atexit.register(_extracted.close)


def version() -> str:
    """Rulegrid's version, from the installed distribution's metadata.

    A source tree that was never installed has no metadata: its ``pyproject.toml``
    then says the version, marked ``+source``; ``0+unknown`` when even that is
    missing (a copy of the sources without the project file).
    """
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _source_version()


def _source_version() -> str:
    try:
        project = resources.files("engine").joinpath("..", "pyproject.toml").read_text("utf-8")
        table = tomllib.loads(project).get("project", {})
    except (OSError, ValueError):
        return "0+unknown"
    if table.get("name") != DISTRIBUTION or not isinstance(table.get("version"), str):
        return "0+unknown"
    return f"{table['version']}+source"


def data_folder(package: str) -> Traversable:
    """The shipped folder installed as ``package`` (``rulegrid_data.<part>``).

    Raises:
        FileNotFoundError: the data package is not installed (sources run without
            ``pip install``), with a sentence saying what to do.
    """
    try:
        return resources.files(package)
    except ModuleNotFoundError:
        raise FileNotFoundError(
            errno.ENOENT,
            f"Rulegrid's data ({package}) is not installed: install Rulegrid "
            "(pip install -e . in a checkout) instead of running a copy of its sources",
        ) from None


def local_path(resource: Traversable) -> Path:
    """A file system path for a shipped file or folder.

    Installed wheels, editable checkouts and PyInstaller bundles keep the data as
    plain files, so this is the resource itself; a zipped installation would get
    a temporary copy that lives until the process ends.
    """
    if isinstance(resource, Path):
        return resource
    return _extracted.enter_context(resources.as_file(resource))


def schema_folder() -> Path:
    """The folder of the shipped JSON Schemas (``schemas/`` in a checkout)."""
    return local_path(data_folder(SCHEMAS_PACKAGE))


def schema_text(file_name: str) -> str:
    """The text of the shipped schema file ``file_name``."""
    return data_folder(SCHEMAS_PACKAGE).joinpath(file_name).read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class BundledPack:
    """A pack shipped with Rulegrid: its name (the file name without ``.json``) and path."""

    name: str
    path: Path


@cache
def bundled_pack_folder() -> Path:
    """The folder of the bundled packs (``packs/`` in a checkout). Never written."""
    return local_path(data_folder(PACKS_PACKAGE))


def bundled_packs() -> list[BundledPack]:
    """Every bundled pack, by name."""
    folder = data_folder(PACKS_PACKAGE)
    found = [
        BundledPack(item.name.removesuffix(PACK_SUFFIX), local_path(item))
        for item in folder.iterdir()
        if item.is_file() and item.name.endswith(PACK_SUFFIX)
    ]
    return sorted(found, key=lambda pack: pack.name)


def bundled_pack(name: str) -> Path:
    """The path of the bundled pack ``name`` (``tutorial`` or ``tutorial.json``).

    Raises:
        FileNotFoundError: no bundled pack has that name (the message lists them).
    """
    wanted = name.removesuffix(PACK_SUFFIX)
    packs = bundled_packs()
    for pack in packs:
        if pack.name == wanted:
            return pack.path
    known = ", ".join(p.name for p in packs) or "none"
    raise FileNotFoundError(
        errno.ENOENT, f"no bundled pack is called {name!r} (bundled: {known})", name
    )
