"""Installing Rulegrid as an author does: sizes and start-up times (issue 33).

Run: ``python bench/bench_install.py`` (about three minutes; ``--no-bundle``
skips the PyInstaller bundle, ``--bundle DIR`` measures one already built).
The wheel is built from a clean clone of the committed HEAD and installed with
its dependencies into a fresh venv in a temporary folder; commands run from
another folder with a home of their own. Prints:

- the wheel's size, Rulegrid's installed size (its files in site-packages) and
  the whole venv's (Rulegrid with PySide6, pydantic, Pillow…);
- the bundle's build time and size (tools/bundle.py);
- CPU time (user + system) of ``rulegrid --version`` (goal: under 0.3 s) and of
  ``rulegrid-editor --version``, the least of several runs and their median;
- CPU time from ``rulegrid-editor`` start to the first painted window (goal: under
  1.5 s), as the editor measures it itself (``time.process_time()`` at the first
  paint, imports and interpreter start included; offscreen), least and median;
- CPU time of ``rulegrid-editor render`` of a tutorial level to PNG (goal: under
  0.5 s; issue 35), least and median;

each for the installed wheel and for the bundle. Numbers go to docs/install.md.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
VERSION_GOAL, PAINT_GOAL, RENDER_GOAL = 0.3, 1.5, 0.5
_PAINT = re.compile(r"first paint after ([0-9.]+) s CPU")


def sh(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload, no-any-return]


def mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def child_cpu(command: list[str], env: dict[str, str], cwd: Path) -> float:
    """User + system CPU seconds of one run of ``command`` (and anything it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=cwd, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def first_paint(command: list[str], env: dict[str, str], cwd: Path) -> float:
    done = subprocess.run(
        command,
        check=True,
        capture_output=True,
        text=True,
        env={**env, "RULEGRID_EDITOR_SMOKE_SECONDS": "1"},
        cwd=cwd,
        timeout=120,
    )
    found = _PAINT.search(done.stdout)
    if found is None:
        raise RuntimeError(f"no first paint reported: {done.stdout!r} {done.stderr!r}")
    return float(found.group(1))


def report(label: str, samples: list[float], goal: float | None = None) -> None:
    best, median = min(samples), statistics.median(samples)
    verdict = ""
    if goal is not None:
        verdict = f"  (goal < {goal} s: {'met' if median < goal else 'MISSED'})"
    print(f"  {label:<44} least {best:.3f} s, median {median:.3f} s of {len(samples)}{verdict}")


def times(folder: Path, run: Path, env: dict[str, str], what: str, tutorial: Path) -> None:
    print(f"{what}: CPU seconds (user + system)")
    rulegrid, editor = str(folder / "rulegrid"), str(folder / "rulegrid-editor")
    picture = str(run / "clockwork.png")
    report(
        "rulegrid-editor render (a tutorial level, PNG)",
        [
            child_cpu([editor, "render", str(tutorial), "clockwork", "-o", picture], env, run)
            for _ in range(RUNS)
        ],
        RENDER_GOAL,
    )
    report(
        "rulegrid --version",
        [child_cpu([rulegrid, "--version"], env, run) for _ in range(RUNS)],
        VERSION_GOAL,
    )
    report(
        "rulegrid-editor --version",
        [child_cpu([editor, "--version"], env, run) for _ in range(RUNS)],
    )
    report(
        "rulegrid-editor: start to first paint",
        [first_paint([editor], env, run) for _ in range(RUNS)],
        PAINT_GOAL,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-bundle", action="store_true", help="skip the PyInstaller bundle")
    parser.add_argument(
        "--bundle", type=Path, help="measure this built bundle folder instead of building one"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulegrid-bench-install-") as temp:
        work = Path(temp)
        clone, venv, dist = work / "clone", work / "venv", work / "dist"
        run, home = work / "run", work / "home"
        run.mkdir()
        home.mkdir()
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONNOUSERSITE": "1",
        }
        sh(["git", "clone", "--quiet", str(ROOT), str(clone)])
        sh([sys.executable, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "--quiet"]
        started = time.perf_counter()
        sh([*pip, "wheel", "--no-deps", "--wheel-dir", str(dist), str(clone)])
        [wheel] = sorted(dist.glob("rulegrid-*.whl"))
        built = time.perf_counter() - started
        started = time.perf_counter()
        sh([*pip, "install", str(wheel)])
        installed = time.perf_counter() - started
        [site] = sorted((venv / "lib").glob("python3*/site-packages"))
        ours = sum(folder_size(site / name) for name in ("engine", "editor", "rulegrid_data"))
        print("wheel and installation")
        print(f"  wheel {wheel.name}: {mib(wheel.stat().st_size)} (built in {built:.0f} s)")
        print(f"  Rulegrid in site-packages (engine, editor, rulegrid_data): {mib(ours)}")
        print(
            f"  the whole venv with its dependencies: {mib(folder_size(venv))} (installed in {installed:.0f} s)"
        )
        tutorial = clone / "packs" / "tutorial.json"
        times(venv / "bin", run, env, "installed wheel", tutorial)
        if args.no_bundle:
            return 0
        bundle = args.bundle
        if bundle is None:
            started = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            sh(
                [
                    sys.executable,
                    str(clone / "tools" / "bundle.py"),
                    "--dist",
                    str(work / "bdist"),
                    "--work",
                    str(work / "bwork"),
                ],
                cwd=work,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            took = time.perf_counter() - started
            bundle = work / "bdist" / "rulegrid"
            print("bundle (tools/bundle.py)")
            print(f"  built in {took:.0f} s wall, {cpu:.0f} s CPU (venv, wheel, PyInstaller)")
        else:
            print(f"bundle {bundle}")
        print(
            f"  size: {mib(folder_size(bundle))} in {sum(1 for p in bundle.rglob('*') if p.is_file()):,} files"
        )
        times(bundle, run, env, "bundle", tutorial)
        shutil.rmtree(work / "bwork", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
