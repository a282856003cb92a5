"""The standalone bundle (issue 33): tools/bundle.py builds it, and it starts.

Built from a clean clone of the committed HEAD, like the installed product, into a
temporary folder; then both programs run from another folder with a home of
their own: the version, the bundled packs, a verify on worker processes (the
bundle's executable started again: multiprocessing's spawn), the editor coming
up offscreen and a picture. About a minute and a half on two cores
(docs/install.md).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


@dataclass(frozen=True)
class Bundle:
    folder: Path
    run: Path
    home: Path

    def command(self, name: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        base = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
        return subprocess.run(
            [str(self.folder / name), *args],
            capture_output=True,
            text=True,
            timeout=240,
            cwd=self.run,
            env={
                **base,
                "HOME": str(self.home),
                "XDG_CONFIG_HOME": str(self.home / ".config"),
                "XDG_DATA_HOME": str(self.home / ".local" / "share"),
                "XDG_CACHE_HOME": str(self.home / ".cache"),
                "QT_QPA_PLATFORM": "offscreen",
                **env,
            },
        )

    def ok(self, name: str, *args: str, **env: str) -> str:
        done = self.command(name, *args, **env)
        assert done.returncode == 0, f"{name} {' '.join(args)}: {done.stdout}{done.stderr}"
        return done.stdout


def _digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bundle]:
    work = tmp_path_factory.mktemp("bundle")
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=300)
    built = subprocess.run(
        [
            sys.executable,
            str(clone / "tools" / "bundle.py"),
            "--dist",
            str(work / "dist"),
            "--work",
            str(work / "build"),
        ],
        capture_output=True,
        text=True,
        timeout=1100,
        cwd=work,
    )
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    folder = work / "dist" / "rulegrid"
    run, home = work / "run", work / "home"
    run.mkdir()
    home.mkdir()
    data = _digests(folder / "_internal" / "rulegrid_data")
    yield Bundle(folder, run, home)
    assert _digests(folder / "_internal" / "rulegrid_data") == data  # nothing ever written there


def test_both_programs_say_the_projects_version(bundle: Bundle) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert bundle.ok("rulegrid", "--version") == f"rulegrid {version}\n"
    assert bundle.ok("rulegrid-editor", "--version") == f"rulegrid-editor {version}\n"


def test_the_bundle_carries_the_data_and_verifies_on_worker_processes(bundle: Bundle) -> None:
    tutorial = bundle.ok("rulegrid", "packs", "--path", "tutorial").strip()
    assert (
        Path(tutorial) == bundle.folder / "_internal" / "rulegrid_data" / "packs" / "tutorial.json"
    )
    assert bundle.ok("rulegrid", "schema", "--check") == ""
    assert bundle.ok("rulegrid", "validate", tutorial) == ""
    verified = bundle.command("rulegrid", "verify", tutorial, "--jobs", "2")
    assert verified.returncode == 0, verified.stderr
    assert "8 levels: 8 solved — release-ready" in verified.stderr


def test_the_bundled_editor_comes_up_offscreen_and_renders(bundle: Bundle) -> None:
    out = bundle.ok("rulegrid-editor", RULEGRID_EDITOR_SMOKE_SECONDS="2")
    assert out.startswith("rulegrid-editor: up, tutorial.json with 8 levels (first paint after ")
    tutorial = bundle.ok("rulegrid", "packs", "--path", "tutorial").strip()
    said = bundle.ok("rulegrid-editor", "render", tutorial, "clockwork", "-o", "clock.png")
    assert said.startswith("wrote clock.png (352x256)")
    assert (bundle.run / "clock.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    gone = bundle.command("rulegrid-editor", QT_QPA_PLATFORM="nonexistent")
    assert gone.returncode == 1
    assert gone.stderr.startswith('rulegrid-editor: Qt has no platform plugin called "nonexistent"')
