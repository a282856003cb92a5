"""Build Rulegrid's standalone bundle: one folder with rulegrid-editor and rulegrid, no Python needed.

    python tools/bundle.py                 # -> dist/rulegrid/ (about a minute or two)
    python tools/bundle.py --dist DIR      # somewhere else
    dist/rulegrid/rulegrid-editor          # the editor, on the bundled tutorial
    dist/rulegrid/rulegrid --version       # the command line

The bundle is made from what an author installs: this checkout's wheel is built
and installed, with PyInstaller (from PyPI), into a fresh venv under
``build/bundle/``, and PyInstaller runs there on ``tools/pyinstaller/rulegrid.spec``.
So the bundle holds exactly the wheel's modules and data, found at run time
through importlib.resources as in any installation. The same command builds on
Windows and macOS with that system's Python (PyInstaller does not cross-build);
only the Linux bundle is tested (tests/test_bundle.py, docs/install.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The spec, relative to the project being bundled.
SPEC = Path("tools") / "pyinstaller" / "rulegrid.spec"
#: PyInstaller releases this spec is known to build with (6.x: one shared _internal folder).
PYINSTALLER = "pyinstaller>=6.10,<7"


def run(command: list[str], **kwargs: Any) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, **kwargs)


def venv_python(folder: Path) -> Path:
    scripts = "Scripts" if sys.platform == "win32" else "bin"
    return folder / scripts / ("python.exe" if sys.platform == "win32" else "python")


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def build(source: Path, dist: Path, work: Path) -> Path:
    """Build the bundle of the project in ``source`` into ``dist/rulegrid``; returns that folder."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    venv.EnvBuilder(with_pip=True).create(work / "venv")
    python = str(venv_python(work / "venv"))
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    run([*pip, "wheel", "--no-deps", "--wheel-dir", str(work / "wheel"), str(source)])
    [wheel] = sorted((work / "wheel").glob("rulegrid-*.whl"))
    run([*pip, "install", str(wheel), PYINSTALLER])
    target = dist / "rulegrid"
    if target.exists():
        shutil.rmtree(target)
    run(
        [
            python,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(dist),
            "--workpath",
            str(work / "pyinstaller"),
            str(source / SPEC),
        ],
        cwd=work,  # nothing of the checkout on the analysis's path: only the installed wheel
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "dist", help="where the rulegrid folder goes"
    )
    parser.add_argument(
        "--work", type=Path, default=ROOT / "build" / "bundle", help="the build venv and files"
    )
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="the project to bundle (default: this checkout)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    target = build(args.source.resolve(), args.dist.resolve(), args.work.resolve())
    took = time.perf_counter() - started
    size = folder_size(target)
    print(f"built {target} in {took:.0f} s: {size / 2**20:.0f} MiB")
    print(f"run: {target / 'rulegrid-editor'}   and   {target / 'rulegrid'} --help")
    return 0


if __name__ == "__main__":
    sys.exit(main())
