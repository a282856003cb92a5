"""What an installation ships and how the command line finds it (issue 33).

``rulegrid packs`` lists bundled and installed packs with their paths, the
version comes from the package metadata, and ``rulegrid share import FILE``
reads payload files within the payload cap. The installed wheel itself is tested
in tests/test_installed_product.py.
"""

from __future__ import annotations

import json
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import share
from engine.cli import main
from engine.packs import shipped
from tests.support import ROOT

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def user_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "installed"
    monkeypatch.setenv(share.PACKS_DIR_VARIABLE, str(folder))
    return folder


# --------------------------------------------------------------- shipped data


def test_the_bundled_packs_are_the_checkouts_packs_folder_read_through_the_data_package() -> None:
    packs = engine.bundled_packs()
    assert [p.name for p in packs] == ["keke-classics", "tutorial"]
    assert engine.bundled_pack_folder().resolve() == (ROOT / "packs").resolve()
    assert engine.bundled_pack("tutorial") == engine.bundled_pack("tutorial.json")
    assert engine.load_pack(engine.bundled_pack("tutorial")).id == "tutorial"


def test_an_unknown_bundled_pack_names_the_ones_there_are() -> None:
    with pytest.raises(FileNotFoundError, match="bundled: keke-classics, tutorial"):
        engine.bundled_pack("tutorials")


def test_missing_data_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(FileNotFoundError, match=r"rulegrid_data\.nothing\) is not installed"):
        shipped.data_folder("rulegrid_data.nothing")


def test_no_engine_or_editor_code_finds_data_from_its_own_file_location() -> None:
    """The path arithmetic the wheel broke on (``parents[2] / "schemas"``) is gone for good."""
    offenders = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for folder in ("engine", "editor")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if "__file__" in line
        and not line.lstrip().startswith("#")
        and '__file__":' not in line  # a pack.py's namespace, not a location
        and ".__file__ = " not in line  # a trusted module told its own name
    ]
    assert offenders == []


# -------------------------------------------------------------------- version


def test_version_is_the_package_metadatas() -> None:
    assert engine.version() == metadata.version("rulegrid")


def test_version_in_a_checkout_without_metadata_is_the_project_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert engine.version() == f"{project['version']}+source"


def test_cli_version_is_the_one_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"rulegrid {engine.version()}\n"


# -------------------------------------------------------------- rulegrid packs


def test_packs_lists_bundled_and_installed_packs_with_paths(
    user_packs: Path, capsys: Capture
) -> None:
    assert main(["packs"]) == 0
    out = capsys.readouterr().out.splitlines()
    tutorial = engine.bundled_pack("tutorial")
    assert f"bundled    tutorial       {tutorial}" in out
    assert out[-1] == f"(no installed packs in {user_packs})"
    user_packs.mkdir()
    (user_packs / "mine.json").write_text("not even read", encoding="utf-8")
    (user_packs / "notes.txt").write_text("not a pack", encoding="utf-8")
    assert main(["packs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"installed  mine           {user_packs / 'mine.json'}"
    assert len(out) == 3


def test_packs_path_prints_one_path_for_scripts(user_packs: Path, capsys: Capture) -> None:
    assert main(["packs", "--path", "tutorial"]) == 0
    assert capsys.readouterr().out == f"{engine.bundled_pack('tutorial')}\n"
    assert main(["packs", "--path", "nope"]) == 1
    assert capsys.readouterr().err == (
        "rulegrid: no pack called 'nope' (known: keke-classics, tutorial)\n"
    )


def test_packs_json(user_packs: Path, capsys: Capture) -> None:
    assert main(["packs", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["kind"], r["name"]) for r in records] == [
        ("bundled", "keke-classics"),
        ("bundled", "tutorial"),
    ]
    assert records[1]["path"] == str(engine.bundled_pack("tutorial"))


def test_packs_lists_a_bounded_number_of_installed_files(
    user_packs: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engine.cli.packs.MAX_LISTED", 3)  # the command passes its own cap
    user_packs.mkdir()
    for n in range(5):
        (user_packs / f"p{n}.json").write_text("{}", encoding="utf-8")
    assert main(["packs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("installed") for line in out) == 3
    assert out[-1] == f"(more than 3 installed packs in {user_packs}: 3 of them listed)"


# ------------------------------------------------------- share import of files


def test_share_import_reads_a_payload_file(
    tmp_path: Path, user_packs: Path, capsys: Capture
) -> None:
    path = tmp_path / "tutorial.rulegrid"
    path.write_text(share.export(engine.load_pack(engine.bundled_pack("tutorial"))) + "\n", "utf-8")
    assert main(["share", "import", str(path)]) == 0
    assert f"would install to {user_packs / 'tutorial.json'}" in capsys.readouterr().out
    assert main(["share", "import", str(path), "--yes"]) == 0
    assert engine.load_pack(user_packs / "tutorial.json").id == "tutorial"


def test_a_file_that_is_not_a_payload_is_one_line_exit_1_and_nothing_written(
    tmp_path: Path, user_packs: Path, capsys: Capture
) -> None:
    path = tmp_path / "clock.txt"
    path.write_text("tick tock\n", encoding="utf-8")
    assert main(["share", "import", str(path), "--yes"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{path}: a payload starts with 'rulegrid:1:' (got 'tick tock')\n"
    assert not user_packs.exists()


def test_a_payload_file_over_the_cap_is_refused_before_it_is_read(
    tmp_path: Path, user_packs: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.rulegrid"
    with path.open("wb") as handle:  # sparse: 64 MiB + 1 byte without writing them
        handle.truncate(64 * 2**20 + 1)

    real_open = Path.open

    def no_reading(self: Path, *args: Any, **kwargs: Any) -> Any:
        assert self != path, "the oversized file was opened"
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", no_reading)
    assert main(["share", "import", str(path), "--yes"]) == 1
    assert capsys.readouterr().err == (
        f"{path}: the file is 67,108,865 bytes; a payload is at most 8,388,608 characters, "
        "so it was not read\n"
    )
    assert not user_packs.exists()


def test_a_payload_file_at_the_cap_is_read_and_judged_by_the_decoder(tmp_path: Path) -> None:
    path = tmp_path / "full.rulegrid"
    path.write_text("rulegrid:1:" + "A" * (share.MAX_CHARS - 11) + "\r\n", encoding="ascii")
    assert len(share.read_payload_file(path)) == share.MAX_CHARS
    path.write_text("rulegrid:1:" + "A" * (share.MAX_CHARS - 9), encoding="ascii")
    with pytest.raises(share.ShareError, match="more than 8,388,608"):
        share.decode_file(path)


def test_share_import_of_a_missing_file_or_a_folder_is_one_line(
    tmp_path: Path, capsys: Capture
) -> None:
    assert main(["share", "import", str(tmp_path / "gone.rulegrid")]) == 1
    assert capsys.readouterr().err == (
        f"rulegrid: No such file or directory: {tmp_path / 'gone.rulegrid'}\n"
    )
    assert main(["share", "import", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"rulegrid: Is a directory: {tmp_path}\n"
