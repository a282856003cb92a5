"""Trust covers what runs (issue 39, B10): every Python file of a trusted pack folder.

Trust was pinned to ``pack.py`` alone, so a trusted ``pack.py`` that runs a
sibling ``helper.py`` ran a changed helper without asking. Now the digest covers
every ``.py`` file of the folder, the folder's modules that ``pack.py`` imports
run the bytes that were checked, and a Python file of the folder that was not
pinned is refused.
"""

from __future__ import annotations

import hashlib
import sys
import textwrap
from pathlib import Path

import pytest

import engine
from engine import ValidationError, load_pack
from engine.limits import MAX_TRUSTED_FILES
from tests.engine.test_packs import DOC, listing

HELPER = """
from pathlib import Path
Path(__file__).with_name("helper-ran.txt").write_text({mark!r})

def levels():
    return {levels!r}
"""

PACK_IMPORTING_THE_HELPER = """
import helper

def build():
    return {{**{doc!r}, "levels": helper.levels()}}
"""

PACK_ON_SYS_PATH = """
import os, sys
sys.path.insert(0, os.path.dirname(__file__))

def build():
    from helper import levels  # imported as build() runs, the classic way
    return {{**{doc!r}, "levels": levels()}}
"""


def folder_with(tmp_path: Path, pack: str, **files: str) -> Path:
    folder = tmp_path / "generated"
    folder.mkdir()
    shell = {k: v for k, v in DOC.items() if k != "levels"}
    (folder / "pack.py").write_text(textwrap.dedent(pack).format(doc=shell), encoding="utf-8")
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def helper(mark: str) -> str:
    return HELPER.format(mark=mark, levels=DOC["levels"])


@pytest.mark.parametrize("pack", [PACK_IMPORTING_THE_HELPER, PACK_ON_SYS_PATH])
def test_a_changed_helper_beside_a_trusted_pack_py_is_asked_about_again(
    tmp_path: Path, pack: str
) -> None:
    folder = folder_with(tmp_path, pack, **{"helper.py": helper("trusted")})
    digest = engine.module_digest(folder)
    assert load_pack(folder, trust=digest) == load_pack(DOC)
    assert (folder / "helper-ran.txt").read_text() == "trusted"
    (folder / "helper.py").write_text(helper("evil"), encoding="utf-8")
    assert engine.module_digest(folder) != digest
    with pytest.raises(ValidationError) as caught:
        load_pack(folder, trust=digest)
    [problem] = caught.value.errors
    assert problem.code == "untrusted-module"
    assert "or a Python file beside it changed since it was trusted" in problem.message
    assert (folder / "helper-ran.txt").read_text() == "trusted"  # the changed helper never ran


def test_a_helper_changed_while_pack_py_runs_is_not_what_runs(tmp_path: Path) -> None:
    """The bytes checked are the bytes that run: pack.py rewrites its helper before
    importing it (a race, made certain), and the import still gets the pinned one."""
    folder = folder_with(tmp_path, PACK_IMPORTING_THE_HELPER, **{"helper.py": helper("ok")})
    module = folder / "pack.py"
    rewrite = (
        "from pathlib import Path\n"
        f"Path(__file__).with_name('helper.py').write_text({helper('evil')!r})\n"
    )
    module.write_text(rewrite + module.read_text(encoding="utf-8"), encoding="utf-8")
    digest = engine.module_digest(folder)
    assert load_pack(folder, trust=digest) == load_pack(DOC)
    assert (folder / "helper-ran.txt").read_text() == "ok"
    assert "evil" in (folder / "helper.py").read_text(encoding="utf-8")  # it was rewritten


def test_a_python_file_of_the_folder_that_was_not_pinned_is_refused(tmp_path: Path) -> None:
    made_later = """
    from pathlib import Path
    Path(__file__).with_name("later.py").write_text("open('later-ran.txt', 'w')")
    import later

    def build():
        return {doc!r}
    """
    folder = folder_with(tmp_path, made_later)
    [problem] = _errors(folder, trust=True)
    assert problem.code == "module-error"
    assert "later" in problem.message
    assert "was not in the pack folder when it was trusted" in (problem.message)
    assert not (folder / "later-ran.txt").exists()


def test_packages_of_the_folder_are_served_and_nothing_is_left_behind(tmp_path: Path) -> None:
    pack = """
    from levelkit.grid import levels
    from levelkit import NAME

    def build():
        return {{**{doc!r}, "title": NAME, "levels": levels()}}
    """
    folder = folder_with(
        tmp_path,
        pack,
        **{
            "levelkit/__init__.py": "NAME = 'From a package'\n",
            "levelkit/grid.py": f"def levels():\n    return {DOC['levels']!r}\n",
        },
    )
    path_before, modules_before = list(sys.path), set(sys.modules)
    assert load_pack(folder, trust=engine.module_digest(folder)).title == "From a package"
    assert sys.path == path_before
    assert set(sys.modules) == modules_before
    assert listing(folder) == ["levelkit", "levelkit/__init__.py", "levelkit/grid.py", "pack.py"]


def test_a_module_the_process_imported_already_is_the_processs(tmp_path: Path) -> None:
    """As on ``sys.path``: ``import textwrap`` is the standard library's, not the folder's."""
    pack = (
        (
            "import textwrap\n\ndef build():\n"
            f"    return {{**{DOC!r}, 'title': textwrap.dedent('  Dedented')}}\n"
        )
        .replace("{", "{{")
        .replace("}", "}}")
    )  # folder_with formats the text
    shadow = "open(__file__ + '.ran', 'w').close()\n"
    folder = folder_with(tmp_path, pack, **{"textwrap.py": shadow})
    assert load_pack(folder, trust=engine.module_digest(folder)).title == "Dedented"
    assert not (folder / "textwrap.py.ran").exists()


def test_an_error_in_a_helper_names_the_helper_and_its_line(tmp_path: Path) -> None:
    broken = "def levels():\n    return {}['missing']\n"
    folder = folder_with(tmp_path, PACK_IMPORTING_THE_HELPER, **{"helper.py": broken})
    [problem] = _errors(folder, trust=True)
    assert problem.code == "module-error"
    assert problem.message == "helper.py (line 2) raised KeyError: 'missing'"


def test_a_pack_py_alone_keeps_the_digest_it_always_had(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "def build():\n    return {doc!r}\n")
    module = folder / "pack.py"
    assert engine.module_digest(folder) == hashlib.sha256(module.read_bytes()).hexdigest()
    (folder / "notes.txt").write_text("not Python: not pinned", encoding="utf-8")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.py").write_text("# not the author's", encoding="utf-8")
    assert engine.module_digest(folder) == hashlib.sha256(module.read_bytes()).hexdigest()


def test_a_folder_of_too_many_python_files_is_refused_unwalked(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "def build():\n    return {doc!r}\n")
    for n in range(MAX_TRUSTED_FILES):
        (folder / f"m{n}.py").write_text("", encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        engine.module_digest(folder)
    [problem] = caught.value.errors
    assert problem.code == "bad-size"
    assert "1,000 Python files" in problem.message


def _errors(folder: Path, **options: object) -> list[engine.Problem]:
    with pytest.raises(ValidationError) as caught:
        load_pack(folder, **options)  # type: ignore[arg-type]
    return list(caught.value.errors)
