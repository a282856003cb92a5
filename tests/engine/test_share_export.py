"""What issue 17 added to ``engine.share``: one export for the command line and the
editor, the user's pack folder, installing under another id, and the preview's
account of nouns, automata, solutions and whether each solution wins."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import engine
from engine import share
from engine.cli import main
from tests.engine.test_share import chain_level, clock_level, demo_pack, unpack


def with_solutions() -> dict[str, object]:
    doc = demo_pack()
    doc["levels"][0]["solution"] = "RRR"  # wins the chain
    doc["levels"][1]["solution"] = "R"  # does not win the clock level
    return doc


# ------------------------------------------------------------------ export


def test_export_of_a_pack_leaves_solutions_out_unless_asked() -> None:
    plain = unpack(share.export(with_solutions()))
    assert [lv.get("solution") for lv in plain["pack"]["levels"]] == [None, None]
    assert "replays" not in plain
    full = unpack(share.export(engine.load_pack(with_solutions()), with_solutions=True))
    assert [lv["solution"] for lv in full["pack"]["levels"]] == ["RRR", "R"]
    assert [(r["level"], r["moves"]) for r in full["replays"]] == [("chain", "RRR"), ("clock", "R")]


def test_export_of_a_level_carries_the_pack_styles_of_its_nouns_only() -> None:
    document = unpack(share.export(demo_pack(), level="clock"))
    assert document["level"]["id"] == "clock"
    assert document["nouns"] == {"BABA": {"color": "#102030"}, "MOUSE": {"color": "#152535"}}
    assert share.export(demo_pack(), level="clock") == share.export(
        engine.load_pack(demo_pack()), level="clock"
    )


def test_export_of_a_level_ignores_problems_in_other_levels_of_the_document() -> None:
    doc = demo_pack()
    doc["levels"][1]["entities"][0]["x"] = 99  # the clock level is broken
    with pytest.raises(engine.ValidationError):
        share.export(doc)
    assert unpack(share.export(doc, level="chain"))["level"]["id"] == "chain"


def test_export_of_an_unknown_level_names_it() -> None:
    with pytest.raises(share.ShareError, match="no level 'nope'"):
        share.export(demo_pack(), level="nope")
    with pytest.raises(share.ShareError, match="no level 'nope'"):
        share.export(engine.load_pack(demo_pack()), level="nope")


# ----------------------------------------------------------- the pack folder


def test_user_pack_folder_follows_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(share.PACKS_DIR_VARIABLE, str(tmp_path / "mine"))
    assert share.user_pack_folder() == tmp_path / "mine"
    monkeypatch.delenv(share.PACKS_DIR_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if not sys.platform.startswith("linux"):
        pytest.skip("platformdirs reads XDG_DATA_HOME on Linux only")
    assert share.user_pack_folder() == tmp_path / "xdg" / "rulegrid" / "packs"
    assert not share.user_pack_folder().exists()  # asking never creates it


def test_cli_import_installs_into_the_same_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(share.PACKS_DIR_VARIABLE, str(tmp_path / "packs"))
    assert main(["share", "import", share.export(demo_pack()), "--yes"]) == 0
    assert f"installed {tmp_path / 'packs' / 'demo.json'}" in capsys.readouterr().out


# --------------------------------------------------------- install under an id


def test_install_under_another_id_keeps_the_installed_pack(tmp_path: Path) -> None:
    preview = share.decode(share.export(demo_pack()))
    first = preview.install(tmp_path, confirm=True)
    assert first == tmp_path / "demo.json"
    assert first is not None
    with pytest.raises(share.ShareError, match="already exists"):
        preview.install(tmp_path, confirm=True)
    assert preview.install_path(tmp_path, pack_id="demo-2") == tmp_path / "demo-2.json"
    assert preview.install(tmp_path, confirm=False, pack_id="demo-2") is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.json"]  # nothing written yet
    second = preview.install(tmp_path, confirm=True, pack_id="demo-2")
    assert second is not None
    kept, renamed = engine.load_pack(first), engine.load_pack(second)
    assert (kept.id, renamed.id) == ("demo", "demo-2")
    assert renamed.levels == kept.levels
    assert renamed.nouns == kept.nouns


@pytest.mark.parametrize("bad", ["", "-lead", "a/b", "a b", "x" * 65, "CON", "dot."])
def test_install_under_an_id_that_is_no_pack_id_is_refused(tmp_path: Path, bad: str) -> None:
    preview = share.decode(share.export(demo_pack()))
    with pytest.raises(share.ShareError) as caught:
        preview.install(tmp_path, confirm=True, pack_id=bad)
    assert caught.value.errors[0].pointer == "/id"
    assert list(tmp_path.iterdir()) == []


def test_cli_import_as_another_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = share.export(demo_pack())
    assert main(["share", "import", text, "--into", str(tmp_path), "--yes"]) == 0
    assert main(["share", "import", text, "--into", str(tmp_path), "--yes"]) == 1
    assert "--as ID" in capsys.readouterr().err
    args = ["share", "import", text, "--into", str(tmp_path), "--as", "demo-2"]
    assert main(args) == 0
    assert f"would install to {tmp_path / 'demo-2.json'}" in capsys.readouterr().out
    assert main([*args, "--yes"]) == 0
    assert engine.load_pack(tmp_path / "demo-2.json").id == "demo-2"


# ------------------------------------------------------------- the preview


def test_preview_says_whether_each_solution_wins() -> None:
    preview = share.decode(share.export(with_solutions(), with_solutions=True))
    assert [(c.record.level, c.matches, c.wins) for c in preview.replays] == [
        ("chain", True, True),
        ("clock", True, False),
    ]


def test_summary_counts_nouns_automata_and_solutions() -> None:
    summary = share.decode(share.export(with_solutions(), with_solutions=True)).summary
    assert summary.nouns == ("BABA", "FLAG", "MOUSE", "SAND", "SHOAL", "WATER")
    assert (summary.automata, summary.solutions) == (1, 2)
    lines = summary.lines()
    assert "6 nouns: BABA, FLAG, MOUSE, SAND, SHOAL, WATER" in lines
    assert "1 automaton; 2 solutions" in lines
    level = share.decode(share.encode(engine.load_level(clock_level()))).summary
    assert level.nouns == ("BABA", "MOUSE")  # a level payload: its objects' nouns


def test_cli_import_prints_whether_replays_win(capsys: pytest.CaptureFixture[str]) -> None:
    text = share.export(with_solutions(), with_solutions=True)
    assert main(["share", "import", text]) == 0
    out = capsys.readouterr().out
    assert "replay 1 of chain (3 moves): matches, wins" in out
    assert "replay 2 of clock (1 moves): matches, does not win" in out


def test_a_level_payload_installs_as_a_pack_that_equals_it(tmp_path: Path) -> None:
    level = engine.load_level(chain_level())
    path = share.decode(share.export(demo_pack(), level="chain")).install(tmp_path, confirm=True)
    assert path is not None
    installed = engine.load_pack(path)
    assert installed.id == "chain"
    assert installed.levels == [level]
