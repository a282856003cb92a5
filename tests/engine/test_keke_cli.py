"""``rulegrid import-keke`` and ``export-keke`` through ``engine.cli.main``.

Bad input never shows a traceback: located errors, exit 1, and nothing written
(an existing output file is left as it was).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.support import grid_level, pack_document

Capture = pytest.CaptureFixture[str]
RAW = Path(__file__).resolve().parent.parent / "data" / "keke" / "raw"
GOOD = {"id": 1, "name": "", "author": "me", "ascii": "_____\n_B12_\n_b.f_\n_____", "solution": "r"}


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_import_writes_a_valid_pack_and_says_which_solutions_win(
    tmp_path: Path, capsys: Capture
) -> None:
    out = tmp_path / "demo.json"
    argv = ["import-keke", str(RAW / "demo_LEVELS.json"), "-o", str(out), "--skip-unsupported"]
    assert main(argv) == 0
    stdout, stderr = capsys.readouterr()
    assert stdout == (
        f"wrote {out}: 11 levels, 3 skipped; "
        "11 of 11 recorded solutions win under Rulegrid's rules\n"
    )
    assert stderr.splitlines() == [
        "demo_LEVELS.json: skipped level \"8\" (/levels/7): '7' (MOVE) at row 4 column 2 "
        "(cell 0,2); 's' (a wait) at moves 1, 2, 3",
        "demo_LEVELS.json: skipped level \"10\" (/levels/9): '4' (KILL) at row 3 column 4 (cell 2,1)",
        "demo_LEVELS.json: skipped level \"13\" (/levels/12): '8' (HOT) at row 7 column 2 "
        "(cell 0,5); '9' (MELT) at row 7 column 8 (cell 6,5)",
    ]
    assert main(["validate", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["id"] == "demo_levels"
    assert [level["id"] for level in doc["levels"]][:3] == ["keke-1", "keke-2", "keke-3"]
    assert [f.name for f in tmp_path.iterdir()] == ["demo.json"]  # no temporary file left


def test_solutions_that_do_not_win_are_kept_with_a_warning(tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "biy.json"
    path = str(RAW / "full_biy_LEVELS.json")
    assert (
        main(["import-keke", path, "-o", str(out), "--skip-unsupported", "--id-prefix", "biy"]) == 0
    )
    stdout, stderr = capsys.readouterr()
    warnings = [line for line in stderr.splitlines() if line.startswith("warning:")]
    assert warnings[0] == (
        "warning: level biy-41 (Keke 41): its recorded solution (100 moves) does not win "
        "under Rulegrid's rules; kept as data"
    )
    assert len(warnings) == 6
    assert "74 of 80 recorded solutions win" in stdout
    levels = {lv["id"]: lv for lv in json.loads(out.read_text(encoding="utf-8"))["levels"]}
    assert len(levels["biy-41"]["solution"]) == 100


def test_unsupported_levels_without_skip_write_nothing(tmp_path: Path, capsys: Capture) -> None:
    out = write(tmp_path / "old.json", "old contents")
    assert main(["import-keke", str(RAW / "test_LEVELS.json"), "-o", str(out)]) == 1
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    lines = stderr.splitlines()
    assert lines[0].startswith(
        "test_LEVELS.json: level \"0\" (/levels/0): '4' (KILL) at row 2 column 11"
    )
    assert lines[-1] == (
        "2 levels use what Rulegrid lacks; nothing written (--skip-unsupported imports the other 1)"
    )
    assert out.read_text(encoding="utf-8") == "old contents"
    assert [f.name for f in tmp_path.iterdir()] == ["old.json"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"levels": [', "bad.json: not valid JSON: Expecting value at line 1 column 13"),
        (
            json.dumps({"levels": [{**GOOD, "ascii": "____\n_B1_\n_b_\n____"}]}),
            'bad.json/levels/0/ascii (level "1"): row 3 has 3 characters but row 1 has 4',
        ),
        (
            json.dumps({"levels": [GOOD, {**GOOD, "id": "x", "ascii": "___\n_Q_\n___"}]}),
            "bad.json/levels/1/ascii (level \"x\"): row 2, column 2: unknown map character 'Q'",
        ),
    ],
    ids=["bad-json", "ragged-rows", "unknown-character"],
)
def test_a_malformed_file_is_a_located_error_and_writes_nothing(
    tmp_path: Path, capsys: Capture, text: str, where: str
) -> None:
    source = write(tmp_path / "bad.json", text)
    out = tmp_path / "out.json"
    assert main(["import-keke", str(source), "-o", str(out), "--skip-unsupported"]) == 1
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    assert stderr.startswith(where)
    assert "Traceback" not in stderr
    assert not out.exists()
    assert [f.name for f in tmp_path.iterdir()] == ["bad.json"]


def test_a_missing_source_or_folder_is_reported(tmp_path: Path, capsys: Capture) -> None:
    assert main(["import-keke", str(tmp_path / "nope.json"), "-o", str(tmp_path / "o.json")]) == 1
    assert "nope.json: cannot read" in capsys.readouterr().err
    out = tmp_path / "missing" / "o.json"
    assert (
        main(
            [
                "import-keke",
                str(RAW / "user_milk_biy_LEVELS.json"),
                "-o",
                str(out),
                "--skip-unsupported",
            ]
        )
        == 1
    )
    assert "cannot write" in capsys.readouterr().err
    assert not out.parent.exists()


def test_a_single_map_from_stdin(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("_______\n_B12.._\n_b..f._\n_F13.._\n_______\n"))
    out = tmp_path / "one.json"
    assert main(["import-keke", "-", "-o", str(out), "--pack-id", "one", "--title", "One"]) == 0
    assert "wrote" in capsys.readouterr().out
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert (doc["id"], doc["title"], doc["levels"][0]["id"]) == ("one", "One", "keke-1")


def test_import_then_export_returns_the_same_maps(tmp_path: Path, capsys: Capture) -> None:
    source = RAW / "user_milk_biy_LEVELS.json"
    pack, back = tmp_path / "p.json", tmp_path / "back.json"
    assert main(["import-keke", str(source), "-o", str(pack), "--skip-unsupported"]) == 0
    assert main(["export-keke", str(pack), "-o", str(back)]) == 0
    assert capsys.readouterr().out.endswith(f"wrote {back}: 5 levels\n")
    original = json.loads(source.read_text(encoding="utf-8"))["levels"]
    maps = {lv["ascii"] for lv in original if not set(lv["ascii"]) & set("4789")}
    assert {lv["ascii"] for lv in json.loads(back.read_text(encoding="utf-8"))["levels"]} == maps


def test_export_names_the_levels_left_out(tmp_path: Path, capsys: Capture) -> None:
    doc = pack_document(
        grid_level(["BABA IS YOU", "baba . flag"], "fits"),
        grid_level(["BABA IS YOU AND", "baba . ."], "and"),
        pack_id="mixed",
    )
    pack = write(tmp_path / "mixed.json", json.dumps(doc))
    out = tmp_path / "keke.json"
    assert main(["export-keke", str(pack), "-o", str(out)]) == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == "left out and: the word AND has no character in the Keke key\n"
    assert stdout == f"wrote {out}: 1 level, 1 left out\n"
    assert [lv["id"] for lv in json.loads(out.read_text(encoding="utf-8"))["levels"]] == ["fits"]


def test_export_with_nothing_that_fits_writes_nothing(tmp_path: Path, capsys: Capture) -> None:
    doc = pack_document(grid_level(["BABA IS YOU AND"], "and"), pack_id="none")
    pack = write(tmp_path / "none.json", json.dumps(doc))
    out = tmp_path / "keke.json"
    assert main(["export-keke", str(pack), "-o", str(out)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "none: no level fits the Keke key; nothing written"
    )
    assert not out.exists()
