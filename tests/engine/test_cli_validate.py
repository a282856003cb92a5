"""``rulegrid validate PATH... [--json] [--trust]`` through ``engine.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.support import PACKS_DIR, grid_level, pack_document

Capture = pytest.CaptureFixture[str]
GOOD = pack_document(
    grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], "first"), pack_id="good"
)


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def bad_pack(tmp_path: Path) -> Path:
    doc = json.loads(json.dumps(GOOD))
    doc["id"] = "bad"
    doc["levels"][0]["entities"][0]["x"] = 9
    doc["levels"].append({**doc["levels"][0], "id": "second", "width": 0})
    return write(tmp_path / "bad.json", doc)


def test_valid_packs_exit_zero(tmp_path: Path, capsys: Capture) -> None:
    assert (
        main(
            ["validate", str(write(tmp_path / "good.json", GOOD)), str(PACKS_DIR / "tutorial.json")]
        )
        == 0
    )
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "2 packs valid\n"


def test_every_bundled_pack_validates_from_the_command_line(capsys: Capture) -> None:
    assert main(["validate", *map(str, sorted(PACKS_DIR.glob("*.json")))]) == 0


def test_problems_are_printed_one_per_line_for_every_pack(tmp_path: Path, capsys: Capture) -> None:
    good = write(tmp_path / "good.json", GOOD)
    assert (
        main(["validate", str(bad_pack(tmp_path)), str(good), str(tmp_path / "missing.json")]) == 1
    )
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        'bad/levels/0/entities/0/x (level "first"): x=9 is outside the 3x3 grid',
        'bad/levels/1/width (level "second"): 0 is out of range (must be >= 1)',
        f"missing: cannot read {tmp_path / 'missing.json'}: it does not exist",
    ]
    assert err == "3 errors in 2 of 3 packs\n"


def test_json_output_is_a_list_of_problem_records(tmp_path: Path, capsys: Capture) -> None:
    assert main(["validate", "--json", str(bad_pack(tmp_path))]) == 1
    records = json.loads(capsys.readouterr().out)
    assert [(r["pack"], r["level"], r["pointer"], r["code"]) for r in records] == [
        ("bad", "first", "/levels/0/entities/0/x", "out-of-bounds"),
        ("bad", "second", "/levels/1/width", "out-of-range"),
    ]
    assert all(set(r) == {"pack", "level", "pointer", "code", "message"} for r in records)
    assert main(["validate", "--json", str(PACKS_DIR / "tutorial.json")]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("missing.json", None, "missing: cannot read"),
        ("folder", "dir", "folder: cannot read"),
        (
            "broken.json",
            '{\n  "format": "rulegrid-pack",\n  "levels": [1,,]\n}',
            "broken: not valid JSON: Expecting value at line 3 column 16",
        ),
        ("junk.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "junk: not valid JSON"),
        ("empty.json", "", "empty: not valid JSON: Expecting value at line 1 column 1"),
        ("list.json", "[1, 2, 3]", "list: expected an object, got a list"),
    ],
)
def test_bad_input_is_one_line_without_a_traceback(
    tmp_path: Path, capsys: Capture, name: str, content: str | bytes | None, expected: str
) -> None:
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    [line] = out.splitlines()
    assert line.startswith(expected)
    assert "Traceback" not in out + err


def test_pack_modules_run_only_with_trust(tmp_path: Path, capsys: Capture) -> None:
    folder = tmp_path / "built"
    folder.mkdir()
    (folder / "pack.py").write_text(f"def build():\n    return {GOOD!r}\n", encoding="utf-8")
    assert main(["validate", str(folder)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("built: ")
    assert "trust" in line
    assert main(["validate", "--trust", str(folder)]) == 0


def test_no_path_is_a_usage_error(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["validate"])
    assert caught.value.code == 2


def test_a_field_name_with_a_line_break_stays_on_one_line(tmp_path: Path, capsys: Capture) -> None:
    path = write(tmp_path / "odd.json", {**GOOD, "two\nlines": 1})
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == ["good/two\\nlines: unknown field 'two\\nlines'"]


def linted_pack(tmp_path: Path) -> Path:
    """One error (an object off the grid) and two warnings (a dead automaton, an unused noun)."""
    doc = json.loads(json.dumps(GOOD))
    doc["id"] = "linted"
    doc["nouns"]["GHOST"] = {"color": "#808080"}
    second = {**json.loads(json.dumps(doc["levels"][0])), "id": "second"}
    second["automata"] = [{"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}]
    second["entities"].append({"id": 50, "kind": "object", "noun": "BABA", "x": 2, "y": 2})
    doc["levels"][0]["entities"][0]["x"] = 9
    doc["levels"].append(second)
    return write(tmp_path / "linted.json", doc)


def test_lint_adds_warnings_after_the_errors_and_only_errors_fail(
    tmp_path: Path, capsys: Capture
) -> None:
    path = linted_pack(tmp_path)
    assert main(["validate", "--lint", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        'linted/levels/0/entities/0/x (level "first"): x=9 is outside the 3x3 grid',
        "warning: linted/levels/1/automata/0/property (level \"second\"): automaton 'clock' "
        "never acts: there is no TICK word on the board to give its property",
        "warning: linted/nouns/GHOST: GHOST is in the pack's nouns, but no level has a GHOST "
        "object or word",
    ]
    assert err == "1 error in 1 of 1 pack, 2 warnings\n"
    assert main(["validate", str(path)]) == 1  # without --lint: the errors alone
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_lint_json_records_carry_a_severity(tmp_path: Path, capsys: Capture) -> None:
    assert main(["validate", "--lint", "--json", str(linted_pack(tmp_path))]) == 1
    records = json.loads(capsys.readouterr().out)
    assert [(r["pointer"], r["code"], r["severity"]) for r in records] == [
        ("/levels/0/entities/0/x", "out-of-bounds", "error"),
        ("/levels/1/automata/0/property", "automaton-never-active", "warning"),
        ("/nouns/GHOST", "unused-noun", "warning"),
    ]
    assert all(
        set(r) == {"pack", "level", "pointer", "code", "message", "severity"} for r in records
    )


def test_warnings_alone_exit_zero(tmp_path: Path, capsys: Capture) -> None:
    doc = json.loads(json.dumps(GOOD))
    doc["nouns"]["GHOST"] = {"color": "#808080"}
    assert main(["validate", "--lint", str(write(tmp_path / "w.json", doc))]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("warning: good/nouns/GHOST: ")
    assert err == "1 pack valid, 1 warning\n"


def test_lint_reports_unreadable_packs_like_validate(tmp_path: Path, capsys: Capture) -> None:
    assert main(["validate", "--lint", str(tmp_path / "missing.json")]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("missing: cannot read")
