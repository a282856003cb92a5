"""``rulegrid solve PACK [LEVEL]`` through ``engine.cli.main``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.cli import build_parser, main
from engine.cli import solve as cli_solve
from engine.cli.solve import _ProgressLine
from engine.solve import search
from engine.solve.search import SolveProgress
from tests.support import PACKS_DIR, grid_level, pack_document

Capture = pytest.CaptureFixture[str]
WALK = grid_level(["baba . . flag", "BABA IS YOU .", "FLAG IS WIN ."], "walk")
STUCK = grid_level(["baba . . . . flag", "BABA IS YOU . . ."], "stuck")  # nothing can become WIN


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(pack_document(WALK, STUCK, pack_id="mini")), encoding="utf-8")
    return path


def test_one_level(pack: Path, capsys: Capture) -> None:
    assert main(["solve", str(pack), "walk"]) == 0
    out = capsys.readouterr().out.splitlines()
    fields = dict(line.split(":", 1) for line in out)
    assert {k: v.strip() for k, v in fields.items() if k != "time"} == {
        "level": "walk",
        "status": "solved",
        "moves": "RRR",
        "length": "3 (shortest)",
        "states": "3",
        "strategy": "bfs",
    }
    assert fields["time"].strip().endswith(" s")


def test_every_level_as_a_table(pack: Path, capsys: Capture) -> None:
    assert main(["solve", str(pack)]) == 3  # one level is not solved
    out, err = capsys.readouterr()
    header, *rows = out.splitlines()
    assert header.split() == ["level", "status", "length", "states", "time", "strategy"]
    assert [row.split()[:3] for row in rows] == [
        ["walk", "solved", "3"],
        ["stuck", "unsolvable", "-"],
    ]
    assert err.startswith("2 levels: 1 solved, 1 unsolvable in ")


def test_json_lines_and_bounds(pack: Path, capsys: Capture) -> None:
    code = main(["solve", str(pack), "--json", "--max-states", "3", "--strategy", "best-first"])
    assert code == 3
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["level"], r["status"], r["strategy"]) for r in records] == [
        ("walk", "solved", "best-first"),
        ("stuck", "limit", "best-first"),
    ]
    assert records[1]["stoppedBy"] == "max-states"
    assert records[1]["states"] == 3


def test_level_by_number_and_timeout(pack: Path, capsys: Capture) -> None:
    assert main(["solve", str(pack), "1", "--timeout", "30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == "RRR"


def test_bundled_pack_is_solvable(capsys: Capture) -> None:
    assert main(["solve", str(PACKS_DIR / "tutorial.json"), "--json"]) == 0
    assert all(
        json.loads(line)["status"] == "solved" for line in capsys.readouterr().out.splitlines()
    )


def test_unknown_level_is_a_located_error(pack: Path, capsys: Capture) -> None:
    assert main(["solve", str(pack), "nope"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("mini/levels: no level 'nope' in this pack")
    assert "Traceback" not in err


def test_unreadable_pack_is_a_located_error(tmp_path: Path, capsys: Capture) -> None:
    assert main(["solve", str(tmp_path / "missing.json")]) == 1
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [["--max-states", "0"], ["--max-states", "many"], ["--timeout", "-1"], ["--strategy", "dfs"]],
)
def test_bad_options_are_usage_errors(pack: Path, args: list[str], capsys: Capture) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["solve", str(pack), *args])
    assert stopped.value.code == 2
    assert "rulegrid solve: error:" in capsys.readouterr().err


def test_progress_line_overwrites_itself_and_clears() -> None:
    stream = io.StringIO()
    line = _ProgressLine(stream, "walk", budget=100)
    line.clear()
    assert stream.getvalue() == ""  # nothing shown, nothing to clear
    line.show(SolveProgress(states=50, frontier=7, depth=3, seconds=1.25))
    line.show(SolveProgress(states=200, frontier=9, depth=4, seconds=2.5))
    line.clear()
    first, second, cleared = stream.getvalue().split("\r")[1:]
    assert first.startswith("walk [############............] 50 states, 7 queued, depth 3, 1.2 s")
    assert second.startswith("walk [########################] 200 states")
    assert cleared == "\x1b[K"


@pytest.mark.parametrize("tty", [True, False])
def test_progress_goes_to_a_terminal_only(
    pack: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch, tty: bool
) -> None:
    real_solve = cli_solve.solve

    def reporting_solve(level: object, **kwargs: object) -> object:
        progress = kwargs["progress"]
        if progress is not None:
            progress(SolveProgress(states=1, frontier=2, depth=1, seconds=0.5))  # type: ignore[operator]
        return real_solve(level, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli_solve, "solve", reporting_solve)
    monkeypatch.setattr("sys.stderr.isatty", lambda: tty, raising=False)
    assert main(["solve", str(pack), "walk"]) == 0
    err = capsys.readouterr().err
    if tty:
        assert err.startswith("\rwalk [")
        assert err.endswith("\r\x1b[K")
    else:
        assert err == ""


# ------------------------------------------------------- budgets (issues 36 and 39)
ROOM = grid_level(
    [
        "BABA IS YOU . . . . .",
        *[". rock . . rock . . ."] * 5,
        "baba . . . . . . .",
        "ROCK IS PUSH . . . . .",
    ],
    "room",
)


@pytest.mark.parametrize("command", ["solve", "verify"])
def test_solve_and_verify_have_a_default_time_and_memory_budget(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: a default solve of a 446 KB level ran 355 s into 1.95 GB before it was killed."""
    args = build_parser().parse_args([command, "pack.json"])
    assert args.timeout == 60.0
    assert args.max_states == 1_000_000
    budget = cli_solve.budget_of(args)
    assert budget.seconds == 60.0
    assert 0 < budget.memory <= 768 * 2**20
    monkeypatch.setattr(search, "available_memory", lambda: 2**30)
    assert cli_solve.budget_of(args, searches=2).memory == 2**27  # a quarter, shared by two


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("512M", 512 * 2**20),
        ("2G", 2 * 2**30),
        ("1.5GiB", 3 * 2**29),
        ("64kb", 65536),
        ("900", 900),
    ],
)
def test_memory_sizes(text: str, size: int) -> None:
    assert build_parser().parse_args(["solve", "p.json", "--memory", text]).memory == size


@pytest.mark.parametrize("args", [["--memory", "lots"], ["--memory", "0"], ["--seconds", "0"]])
def test_bad_budgets_are_usage_errors(pack: Path, args: list[str], capsys: Capture) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["solve", str(pack), *args])
    assert stopped.value.code == 2


def test_seconds_none_lifts_the_time_budget() -> None:
    assert build_parser().parse_args(["solve", "p.json", "--seconds", "none"]).timeout is None


def test_a_memory_budget_stops_a_level_with_one_located_line(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "_resident_bytes", lambda: None)  # the table's count alone
    path = tmp_path / "room.json"
    path.write_text(json.dumps(pack_document(ROOM, pack_id="rooms")), encoding="utf-8")
    assert main(["solve", str(path), "--memory", "200K", "--json"]) == 3
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert (record["status"], record["stoppedBy"]) == ("limit", "memory")
    assert 0 < record["memory"] <= 200 * 1024
    bound = record["lowerBound"]
    assert bound > 1
    assert err.splitlines() == [
        f'{path} (level "room"): stopped at the memory budget of 200 KiB after '
        f"{record['states']:,} states; no solution in {bound - 1} moves or fewer "
        "(raise it with --memory)"
    ]


def test_a_stopped_level_shows_its_bound(pack: Path, capsys: Capture) -> None:
    assert main(["solve", str(pack), "stuck", "--max-states", "2"]) == 3
    out, err = capsys.readouterr()
    fields = {k: v.strip() for k, v in (line.split(":", 1) for line in out.splitlines())}
    assert fields["status"] == "limit (max-states)"
    assert fields["length"] == "at least 3"
    assert err.strip().endswith(
        "stopped at the state budget of 2 states; no solution in 2 moves or fewer "
        "(raise it with --max-states)"
    )
    assert main(["solve", str(pack), "--max-states", "2"]) == 3
    rows = capsys.readouterr().out.splitlines()
    assert rows[2].split()[:3] == ["stuck", "limit", "≥3"]
