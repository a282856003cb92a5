"""Nothing in the repository points outside it (issue 37): the contract the code relies
on is ``docs/contract.md``, not a file the repository does not hold."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "editor", "tests", "docs", "tools", "bench", "schemas", "packs", ".ci")
SUFFIXES = {".py", ".md", ".json", ".toml", ".txt", ""}
#: Spelled in pieces so this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        re.escape(p)
        for p in (
            "shared" + "/spec",
            "shared" + "/guide",
            "shared" + "/corpora",
            "api" + ".md",
            "../" + "shared",
            "/work" + "/",
        )
    )
)


def _files() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "results" not in path.parts:
                found.append(path)
    return found


def test_no_file_points_outside_the_repository() -> None:
    hits = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert hits == []


def test_the_contract_is_in_the_repository() -> None:
    contract = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
    for heading in (
        "## 3. The Python API",
        "## 4. The state record",
        "## 5. The event record",
        "## 6. The command line",
        "## 7. Editor names the tests use",
        "## 8. The behaviour requirements",
    ):
        assert heading in contract
