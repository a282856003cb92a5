"""``rulegrid verify PACK [--jobs N] [--json] [--fail-on KINDS]`` through ``engine.cli.main``."""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from bench.hostile_solve import rock_rooms
from engine.cli import main
from engine.cli import verify as verify_module
from engine.cli.verify import _ProgressLine, _Runner
from tests.engine.test_verify import ROOM_ROWS, RULE_ROWS, STUCK_ROWS, WALK_ROWS, level
from tests.support import PACKS_DIR, pack_document

Capture = pytest.CaptureFixture[str]
KINDS = ("unsolvable", "unknown", "broken", "shortcut")
GOOD = level(WALK_ROWS, "RRR", id="good")
STUCK = level(STUCK_ROWS, id="stuck")
# One level per failing kind; "unknown" is the stuck level under a budget of 2 states.
FAILING_LEVEL = {
    "unsolvable": level(STUCK_ROWS, id="bad"),
    "unknown": level(STUCK_ROWS, id="bad"),
    "broken": level(WALK_ROWS, "URRR", id="bad"),
    "shortcut": level(ROOM_ROWS, "DRRRU", id="bad"),
}


def write_pack(tmp_path: Path, *levels: dict[str, Any], name: str = "pack") -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(pack_document(*levels, pack_id=name)), encoding="utf-8")
    return path


def verify(pack: Path, *args: str) -> int:
    return main(["verify", str(pack), "--jobs", "1", *args])


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_fails_the_run_only_when_fail_on_names_it(
    kind: str, tmp_path: Path, capsys: Capture
) -> None:
    pack = write_pack(tmp_path, GOOD, FAILING_LEVEL[kind])
    budget = ["--max-states", "2"] if kind == "unknown" else []
    others = ",".join(k for k in KINDS if k != kind)
    assert verify(pack, *budget) == 3  # every kind fails by default
    assert verify(pack, *budget, "--fail-on", kind) == 3
    assert verify(pack, *budget, "--fail-on", others) == 0
    assert verify(pack, *budget, "--fail-on", "none") == 0
    rows = [line.split()[:3] for line in capsys.readouterr().out.splitlines()]
    assert rows == [["#", "level", "status"], ["1", "good", "solved"], ["2", "bad", kind]] * 4


def test_a_release_ready_pack_exits_zero(capsys: Capture) -> None:
    assert main(["verify", str(PACKS_DIR / "tutorial.json"), "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    header, *rows = out.splitlines()
    assert header.split() == ["#", "level", "status", "length", "states", "rules", "detail"]
    assert [row.split()[2] for row in rows] == ["solved"] * 8
    assert "8 levels: 8 solved — release-ready" in err


def test_an_unknown_fail_on_kind_is_a_usage_error(tmp_path: Path, capsys: Capture) -> None:
    with pytest.raises(SystemExit) as stop:
        verify(write_pack(tmp_path, GOOD), "--fail-on", "slow")
    assert stop.value.code == 2
    assert "--fail-on takes 'none' or some of" in capsys.readouterr().err


def test_json_report_shape(tmp_path: Path, capsys: Capture) -> None:
    pack = write_pack(tmp_path, GOOD, FAILING_LEVEL["broken"], level(RULE_ROWS, id="rule"))
    assert verify(pack, "--json") == 3
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"pack", "settings", "failOn", "levels", "counts", "failing"}
    assert report["pack"] == "pack"
    memory = report["settings"].pop("memory")  # the default share of this machine's memory
    assert isinstance(memory, int)
    assert 0 < memory <= 768 * 2**20
    assert report["settings"] == {"strategy": "auto", "maxStates": 1_000_000, "timeout": 60.0}
    assert report["failOn"] == ["broken", "shortcut", "unknown", "unsolvable"]
    assert report["counts"] == {"broken": 1, "solved": 2}
    assert report["failing"] == ["bad"]
    assert [row["level"] for row in report["levels"]] == ["good", "bad", "rule"]
    assert [row["number"] for row in report["levels"]] == [1, 2, 3]
    for row in report["levels"]:
        assert set(row) == {
            "level",
            "number",
            "status",
            "message",
            "solver",
            "intended",
            "shortcut",
            "difficulty",
            "words",
            "lowerBound",
        }
        assert set(row["solver"]) == {
            "status",
            "moves",
            "length",
            "states",
            "seconds",
            "strategy",
            "shortest",
            "stoppedBy",
            "visited",
            "lowerBound",
            "memory",
        }
        assert set(row["difficulty"]) == {"length", "states", "ruleChanges", "shortest", "source"}
    good, bad, rule = report["levels"]
    assert good["intended"] == {
        "moves": "RRR",
        "wins": True,
        "reason": "wins",
        "played": 3,
        "failedAt": None,
        "message": "wins in 3 moves",
    }
    assert (good["words"], good["lowerBound"]) == ("proved shortest", 3)
    assert bad["status"] == bad["words"] == "broken"
    assert bad["intended"]["failedAt"] == 1
    assert bad["message"] == "intended solution broken: move 1 (U) is blocked"
    assert rule["intended"] is None
    assert rule["difficulty"]["ruleChanges"] == 1


def without_times(report: dict[str, Any]) -> dict[str, Any]:
    for row in report["levels"]:
        row["solver"].pop("seconds")
    return report


def test_two_jobs_give_the_same_report_as_one(tmp_path: Path, capsys: Capture) -> None:
    pack = write_pack(
        tmp_path,
        GOOD,
        *(dict(FAILING_LEVEL[k], id=k) for k in ("unsolvable", "broken", "shortcut")),
        level(RULE_ROWS, id="rule"),
    )
    assert verify(pack, "--json") == 3
    one = json.loads(capsys.readouterr().out)
    assert main(["verify", str(pack), "--json", "--jobs", "2"]) == 3
    two = json.loads(capsys.readouterr().out)
    assert without_times(two) == without_times(one)
    assert [row["status"] for row in one["levels"]] == [
        "solved",
        "unsolvable",
        "broken",
        "shortcut",
        "solved",
    ]


def test_the_progress_line_counts_levels_and_clears_itself() -> None:
    stream = io.StringIO()
    line = _ProgressLine(stream, 3)
    line.tick()
    line.clear()
    text = stream.getvalue()
    assert "\rverified 0/3 levels, 0 s" in text
    assert "\rverified 1/3 levels, 0 s" in text
    assert text.endswith("\r\x1b[K")


def test_workers_alone_give_the_same_verdicts_as_this_process() -> None:
    levels = [engine.load_level(lv) for lv in (GOOD, FAILING_LEVEL["shortcut"], STUCK)]
    settings = engine.VerifySettings()
    runner = _Runner(levels, settings, None, None)
    runner.start_workers(2)
    try:
        deadline = time.monotonic() + 120
        while len(runner.verdicts) < len(levels) and time.monotonic() < deadline:
            runner.service(0.5)  # this process only hands out levels and listens
    finally:
        runner.stop_workers()
    here = [engine.verify_level(level, settings) for level in levels]
    assert [runner.verdicts[i].to_dict()["status"] for i in range(3)] == [
        "solved",
        "shortcut",
        "unsolvable",
    ]
    for mine, theirs in zip(here, (runner.verdicts[i] for i in range(3)), strict=True):
        assert without_seconds(theirs.to_dict()) == without_seconds(mine.to_dict())


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_worker_that_dies_leaves_its_level_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here: list[str] = []

    def counted(level: engine.Level, *args: Any, **kwargs: Any) -> engine.LevelVerdict:
        here.append(level.id)
        return engine.verify_level(level, *args, **kwargs)

    monkeypatch.setattr(verify_module, "verify_level", counted)
    # Seconds of search without a win: the worker is surely still at it when it dies.
    rooms = ["BABA IS YOU . . . . .", *[". rock . . rock . . ."] * 5, "baba . . . . . . ."]
    levels = [engine.load_level(level([*rooms, "ROCK IS PUSH . . . . ."], id="room"))]
    runner = _Runner(levels, engine.VerifySettings(max_states=20_000), None, None)
    runner.start_workers(1)
    try:
        ((conn, (process, _)),) = runner.workers.items()
        deadline = time.monotonic() + 120
        while runner.workers[conn][1] is None and time.monotonic() < deadline:
            runner.service(0.2)  # once the worker says it is ready it gets the level
        assert not runner.pending
        os.kill(process.pid, signal.SIGKILL)
        process.join(10)
        runner.run()
    finally:
        runner.stop_workers()
    assert runner.verdicts[0].status == "unknown"
    assert here == ["room"]  # verified here, after the worker died with it
    assert runner.workers == {}


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    record["solver"].pop("seconds")
    return record


def test_every_level_stops_at_its_time_budget_and_says_which_option_raises_it(
    tmp_path: Path, capsys: Capture
) -> None:
    """Issue 39: a 30 KB, 4-level pack took ``rulegrid verify`` 11.6 CPU-minutes."""
    pack = tmp_path / "rooms.json"
    pack.write_text(json.dumps(rock_rooms()), encoding="utf-8")
    assert verify(pack, "--seconds", "0.2") == 3
    out, err = capsys.readouterr()
    rows = [line.split(None, 6) for line in out.splitlines()[1:]]
    assert [row[1:3] for row in rows] == [[f"room{n}", "unknown"] for n in range(1, 5)]
    for row in rows:
        assert row[6].startswith("unknown within budget: no solution in ")
        assert "(stopped at the time budget of 0.2 s after " in row[6]
    lines = err.splitlines()
    assert len(lines) == 5  # one a level, then the summary
    for n, line in enumerate(lines[:4], start=1):
        assert line.startswith(f'{pack} (level "room{n}"): stopped at the time budget of 0.2 s')
        assert line.endswith("(raise it with --seconds)")
    assert lines[4].startswith("4 levels: 4 unknown — 4 failing")


def test_a_memory_budget_is_given_to_every_level(tmp_path: Path, capsys: Capture) -> None:
    pack = write_pack(tmp_path, GOOD, STUCK)
    assert verify(pack, "--memory", "1M", "--json") == 3
    report = json.loads(capsys.readouterr().out)
    assert report["settings"]["memory"] == 2**20
    assert [row["words"] for row in report["levels"]] == ["proved shortest", "unsolvable"]
