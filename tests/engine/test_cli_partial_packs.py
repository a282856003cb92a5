"""``rulegrid play`` and ``solve`` on a pack with some invalid levels; ``--version``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.support import grid_level, pack_document

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    good = grid_level(["BABA IS YOU", "baba . flag", "FLAG IS WIN"], "good")
    bad = grid_level(["BABA IS YOU", "baba . flag"], "bad")
    bad["entities"][0]["x"] = 99  # off the grid
    also_good = grid_level(["BABA IS YOU", "baba flag .", "FLAG IS WIN"], "also-good")
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(pack_document(good, bad, also_good, pack_id="mixed")), "utf-8")
    return path


def test_play_runs_a_valid_level_of_a_pack_with_invalid_ones(mixed: Path, capsys: Capture):
    assert main(["play", str(mixed), "good", "RR"]) == 0
    out, err = capsys.readouterr()
    events = [json.loads(line) for line in out.splitlines()]
    assert events[-1]["won"] is True
    assert "warning: mixed has 1 problem (bad)" in err


def test_play_refuses_the_invalid_level_with_its_problems(mixed: Path, capsys: Capture):
    assert main(["play", str(mixed), "bad", "R"]) == 1
    _, err = capsys.readouterr()
    assert 'mixed/levels/1/entities/0/x (level "bad")' in err


def test_play_counts_levels_among_the_valid_ones(mixed: Path, capsys: Capture) -> None:
    assert main(["play", str(mixed), "also-good", "R"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["won"] is True


def test_solve_solves_the_valid_levels_and_warns_about_the_rest(mixed: Path, capsys: Capture):
    assert main(["solve", str(mixed), "--json"]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["level"], r["status"]) for r in rows] == [
        ("good", "solved"),
        ("also-good", "solved"),
    ]
    assert "warning: mixed has 1 problem (bad)" in err


def test_a_pack_that_is_not_a_pack_is_still_refused(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "nope.json"
    path.write_text('{"levels": 3}', "utf-8")
    assert main(["play", str(path), "1", "R"]) == 1
    assert main(["solve", str(path)]) == 1


def test_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("rulegrid ")
    assert out.split()[1][0].isdigit()
