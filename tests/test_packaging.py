"""The build configuration lists every package and maps the data folders in (issue 33).

pyproject.toml lists packages by hand, because the data packages have no folder of
their own name for discovery to find; these checks make a new subpackage that is
missing from the list fail here, not in an author's installation.
"""

from __future__ import annotations

import tomllib
from typing import Any

from tests.support import ROOT


def setuptools_table() -> dict[str, Any]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, Any] = project["tool"]["setuptools"]
    return table


def test_every_code_package_is_listed() -> None:
    on_disk = {
        init.parent.relative_to(ROOT).as_posix().replace("/", ".")
        for top in ("engine", "editor")
        for init in (ROOT / top).rglob("__init__.py")
    }
    listed = set(setuptools_table()["packages"])
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages"
    assert {p for p in listed if not p.startswith("rulegrid_data.")} == on_disk


def test_the_data_folders_are_installed_under_rulegrid_data_whole() -> None:
    table = setuptools_table()
    assert table["package-dir"] == {
        "rulegrid_data.schemas": "schemas",
        "rulegrid_data.packs": "packs",
        "rulegrid_data.resources": "resources",
    }
    for package, folder in table["package-dir"].items():
        assert package in table["packages"]
        assert (ROOT / folder / "__init__.py").is_file()  # a regular package, also editable
        assert table["package-data"][package] == ["**/*"]  # every file, whatever appears
    assert table["exclude-package-data"] == {"*": ["*.pyc"]}
