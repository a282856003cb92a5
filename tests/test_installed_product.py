"""The installed product, as an author gets it (issue 33): a wheel in a fresh venv.

The wheel is built from a clean clone of this checkout's committed HEAD (so files
that are not committed cannot leak in), installed with its dependencies into a
new virtual environment in a temporary folder, and every command runs from
another temporary folder with a home of its own: nothing of the checkout is on
the path. The commands are the ones an author runs first: the version, the packs
the installation knows, validating a copied pack, verifying the bundled
tutorial, previewing and installing a payload file, the editor coming up
offscreen, and a picture of a bundled level. The installed files are made read
only and must be exactly as installed afterwards (a root user can write through
the read-only bits, so their contents are compared too).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = pytest.mark.slow

#: The installed folders that must never change while Rulegrid runs.
INSTALLED_PACKAGES = ("engine", "editor", "rulegrid_data")


@dataclass(frozen=True)
class Installed:
    venv: Path
    site: Path  # the venv's site-packages
    run: Path  # where the commands run: outside the checkout and the venv
    home: Path
    wheel: Path

    def env(self) -> dict[str, str]:
        keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
        env = {k: v for k, v in os.environ.items() if k in keep}
        return {
            **env,
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONNOUSERSITE": "1",
        }

    def run_command(
        self, name: str, *args: str, timeout: float = 240, **env: str
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / name), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.run,
            env={**self.env(), **env},
        )

    def ok(self, name: str, *args: str, **env: str) -> str:
        done = self.run_command(name, *args, **env)
        assert done.returncode == 0, f"{name} {' '.join(args)}: {done.stdout}{done.stderr}"
        return done.stdout


def _pip(venv: Path, *args: str) -> None:
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _installed_paths(site: Path) -> list[Path]:
    """Rulegrid's installed folders and files (a package the wheel lacks has none)."""
    return [
        path
        for package in INSTALLED_PACKAGES
        if (site / package).is_dir()
        for path in [site / package, *sorted((site / package).rglob("*"))]
    ]


def _snapshot(site: Path) -> dict[str, str]:
    """Every installed file of Rulegrid's packages, with the digest of its bytes."""
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in _installed_paths(site)
        if path.is_file()
    }


def _set_writable(site: Path, writable: bool) -> None:
    bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    for path in _installed_paths(site):
        mode = path.stat().st_mode
        path.chmod(mode | stat.S_IWUSR if writable else mode & ~bits)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("installed-product")
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=300)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    _pip(venv, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "dist"), str(clone))
    [wheel] = sorted((work / "dist").glob("rulegrid-*.whl"))
    _pip(venv, "install", "--quiet", str(wheel))
    shutil.rmtree(clone)  # the installation may use nothing of it
    [site] = sorted((venv / "lib").glob("python3*/site-packages"))
    run, home = work / "run", work / "home"
    run.mkdir()
    home.mkdir()
    _set_writable(site, False)
    product = Installed(venv, site, run, home, wheel)
    before = _snapshot(site)
    yield product
    after = _snapshot(site)
    _set_writable(site, True)  # let the temporary folder be removed
    assert after == before, "running Rulegrid changed its installed files"


def test_the_version_is_the_projects(installed: Installed) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert installed.ok("rulegrid", "--version") == f"rulegrid {project['version']}\n"
    assert installed.ok("rulegrid-editor", "--version") == (
        f"rulegrid-editor {project['version']}\n"
    )


def test_the_wheel_carries_the_data_under_its_own_name(installed: Installed) -> None:
    data = installed.site / "rulegrid_data"
    assert (data / "schemas" / "pack.schema.json").is_file()
    assert (data / "packs" / "tutorial.json").is_file()
    assert (data / "resources" / "icons" / "rulegrid.svg").is_file()
    for bare in ("schemas", "packs", "resources"):  # nothing that could clash
        assert not (installed.site / bare).exists()
    assert not list(data.rglob("*.pyc")) or all(
        "__pycache__" in p.parts for p in data.rglob("*.pyc")
    )


def test_packs_lists_the_bundled_packs_inside_the_installation(installed: Installed) -> None:
    listing = installed.ok("rulegrid", "packs")
    tutorial = installed.ok("rulegrid", "packs", "--path", "tutorial").strip()
    assert Path(tutorial) == installed.site / "rulegrid_data" / "packs" / "tutorial.json"
    assert f"bundled    tutorial       {tutorial}" in listing.splitlines()
    assert "keke-classics" in listing
    assert installed.ok("rulegrid", "schema", "--check") == ""


def test_a_copied_pack_validates_and_the_bundled_tutorial_verifies(installed: Installed) -> None:
    tutorial = installed.ok("rulegrid", "packs", "--path", "tutorial").strip()
    mine = installed.run / "mine.json"
    shutil.copy(tutorial, mine)
    mine.chmod(0o644)
    installed.ok("rulegrid", "validate", "mine.json")
    broken = mine.read_text(encoding="utf-8").replace('"width": ', '"width": -', 1)
    (installed.run / "broken.json").write_text(broken, encoding="utf-8")
    done = installed.run_command("rulegrid", "validate", "broken.json")
    assert done.returncode == 1
    assert 'tutorial/levels/0/width (level "first-steps"): -9 is out of range' in done.stdout
    verified = installed.run_command("rulegrid", "verify", tutorial, "--jobs", "2")
    assert verified.returncode == 0, verified.stderr
    assert "8 levels: 8 solved — release-ready" in verified.stderr


def test_a_payload_file_previews_and_installs_into_the_users_folder(installed: Installed) -> None:
    tutorial = installed.ok("rulegrid", "packs", "--path", "tutorial").strip()
    payload = installed.ok("rulegrid", "share", "export", tutorial, "--level", "clockwork")
    (installed.run / "clock.rulegrid").write_text(payload, encoding="utf-8")
    installed.ok("rulegrid", "share", "import", "clock.rulegrid", "--yes", "--as", "clock")
    target = installed.home / ".local" / "share" / "rulegrid" / "packs" / "clock.json"
    assert target.is_file()
    assert "installed  clock" in installed.ok("rulegrid", "packs")
    (installed.run / "clock.txt").write_text("tick tock\n", encoding="utf-8")
    done = installed.run_command("rulegrid", "share", "import", "clock.txt", "--yes")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "clock.txt: a payload starts with 'rulegrid:1:' (got 'tick tock')\n"


def test_the_editor_comes_up_offscreen_on_the_bundled_tutorial(installed: Installed) -> None:
    out = installed.ok("rulegrid-editor", RULEGRID_EDITOR_SMOKE_SECONDS="2")
    assert out.startswith("rulegrid-editor: up, tutorial.json with 8 levels (first paint after ")


def test_the_editor_renders_a_bundled_level(installed: Installed) -> None:
    tutorial = installed.ok("rulegrid", "packs", "--path", "tutorial").strip()
    said = installed.ok("rulegrid-editor", "render", tutorial, "clockwork", "-o", "clock.png")
    assert said.startswith("wrote clock.png (")
    assert (installed.run / "clock.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_where_qt_cannot_start_the_installed_editor_says_why(installed: Installed) -> None:
    done = installed.run_command("rulegrid-editor", QT_QPA_PLATFORM="nonexistent")
    assert done.returncode == 1
    assert done.stderr.startswith('rulegrid-editor: Qt has no platform plugin called "nonexistent"')
