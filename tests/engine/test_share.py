"""Share payloads: round trips, replays, snapshots (03 and 04), install, command line.

Hostile input (corruption, limits, fuzzing, writing nothing) is in
``test_share_hostile.py``; the level builders here are shared with it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import share
from engine.cli import main
from engine.share.codec import SHARE_NAME, seal
from engine.share.install import file_name, install_pack
from tests.support import grid_level

FRAIL_CHAIN = {
    "id": "frail",
    "type": "frail",
    "version": 1,
    "state": "derived",
    "leaves": {"SAND": "SHOAL", "SHOAL": "WATER"},
}


def chain_level(level_id: str = "chain") -> dict[str, Any]:
    """BABA starts on SAND; each departure crumbles it one link: SAND -> SHOAL -> WATER."""
    return grid_level(
        [
            "baba+sand . . flag",
            "BABA IS YOU .",
            "SAND IS FRAIL .",
            "SHOAL IS FRAIL .",
            "FLAG IS WIN .",
        ],
        level_id,
        title="Two-link chain",
        author="Ada",
        mechanics=[FRAIL_CHAIN],
    )


def clock_level(level_id: str = "clock") -> dict[str, Any]:
    """MOUSE IS TICK: a three-beat automaton (right, wait, left) that moves every turn."""
    return grid_level(
        ["baba . . . .", ". mouse . . .", ". . . . .", "BABA IS YOU . .", "MOUSE IS TICK . ."],
        level_id,
        automata=[
            {
                "id": "clock",
                "subject": "MOUSE",
                "property": "TICK",
                "phase": 1,
                "pattern": [
                    {"action": "move", "dx": 1, "dy": 0, "cue": "step", "sound": "tick"},
                    {"action": "wait"},
                    {"action": "move", "dx": -1, "dy": 0},
                ],
            }
        ],
    )


NOUNS = ("BABA", "SAND", "SHOAL", "WATER", "FLAG", "MOUSE")


def demo_pack(**extra: Any) -> dict[str, Any]:
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "demo",
        "title": "Demo pack",
        "author": "Grace",
        "nouns": {noun: {"color": f"#1{n}2{n}3{n}"} for n, noun in enumerate(NOUNS)},
        "levels": [chain_level(), clock_level()],
        **extra,
    }


def canonical(value: object) -> bytes:
    """Independent of the engine's codec: the canonical JSON the format document fixes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def sha(value: object) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def unpack(text: str) -> dict[str, Any]:
    """Read a payload by hand, following docs/share-format.md only."""
    assert text.startswith("rulegrid:1:")
    body = text[len("rulegrid:1:") :]
    data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    stream, tag = data[:-8], data[-8:]
    assert tag == hashlib.sha256(stream).digest()[:8]
    raw = zlib.decompress(stream)
    document: dict[str, Any] = json.loads(raw)
    assert raw == canonical(document)
    return document


def armour(document: dict[str, Any], *, checksum: bool = True) -> str:
    """A payload for any document (valid or not), sealed with a correct checksum."""
    if checksum:
        document = seal(document)
    return armour_bytes(canonical(document))


def armour_bytes(raw: bytes, *, compressed: bytes | None = None) -> str:
    """A payload whose zlib stream inflates to ``raw`` (or is ``compressed``), correctly tagged."""
    stream = zlib.compress(raw) if compressed is None else compressed
    data = stream + hashlib.sha256(stream).digest()[:8]
    return "rulegrid:1:" + base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


# ----------------------------------------------------------------- format


def test_payload_is_one_line_of_canonical_compressed_json_with_a_checksum() -> None:
    pack = engine.load_pack(demo_pack())
    text = share.encode(pack)
    assert text == text.strip()
    assert "\n" not in text
    assert "=" not in text
    assert set(text[len("rulegrid:1:") :]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )
    document = unpack(text)
    assert document["format"] == "rulegrid-share"
    assert document["version"] == 1
    assert document["pack"] == pack.to_data()
    assert set(document) == {"format", "version", "sha256", "pack"}
    body = {k: v for k, v in document.items() if k != "sha256"}
    assert document["sha256"] == sha(body)
    assert share.encode(pack) == text  # deterministic


def test_encode_accepts_documents_and_normalizes_them() -> None:
    doc = demo_pack()
    doc["levels"][0]["automata"] = []  # normalized form leaves empty optional lists out
    assert unpack(share.encode(doc))["pack"] == engine.load_pack(doc).to_data()
    assert "automata" not in unpack(share.encode(doc))["pack"]["levels"][0]
    level = unpack(share.encode(chain_level()))["level"]
    assert level == engine.load_level(chain_level()).to_data()


# ----------------------------------------------------------------- round trips


def test_pack_round_trip_validates_and_summarizes() -> None:
    pack = engine.load_pack(demo_pack())
    preview = share.decode(share.encode(pack))
    assert preview.ok
    assert preview.problems == ()
    assert preview.warnings == ()
    assert preview.kind == "pack"
    assert preview.pack == pack
    assert preview.data["pack"] == pack.to_data()
    summary = preview.summary
    assert (summary.kind, summary.id, summary.title) == ("pack", "demo", "Demo pack")
    assert summary.authors == ("Grace", "Ada")
    assert [(lv.id, lv.size, lv.entities) for lv in summary.levels] == [
        ("chain", "4x5", len(chain_level()["entities"])),
        ("clock", "5x5", len(clock_level()["entities"])),
    ]
    assert summary.levels[0].mechanics == ("frail",)
    assert summary.levels[1].mechanics == ("automata",)
    assert summary.levels[1].automata == 1
    assert summary.mechanics == ("automata", "frail")
    assert summary.replays == 0
    assert summary.snapshot_level is None
    assert any("chain — Two-link chain (4x5" in line for line in summary.lines())


def test_level_round_trip_wraps_it_in_a_pack_with_its_noun_styles() -> None:
    level = engine.load_level(clock_level())
    text = share.encode(level, nouns={"BABA": engine.NounStyle(color="#aabbcc")})
    preview = share.decode(text)
    assert preview.ok
    assert preview.kind == "level"
    assert preview.level == level
    assert preview.pack is not None
    assert preview.pack.id == "clock"
    assert preview.pack.levels == [level]
    assert preview.pack.nouns["BABA"].color == "#aabbcc"
    # a noun the payload gives no style for gets a stable colour derived from its name
    assert preview.pack.nouns["MOUSE"].color == share.default_color("MOUSE")
    assert set(preview.pack.nouns) == {"BABA", "MOUSE"}
    assert preview.summary.kind == "level"
    assert preview.summary.mechanics == ("automata",)


def test_level_payload_noun_styles_are_validated_where_they_are() -> None:
    doc = {"level": clock_level(), "nouns": {"BABA": {"color": "red"}}}
    preview = share.decode(armour(doc))
    assert not preview.ok
    assert [(p.pointer, p.level) for p in preview.problems] == [("/nouns/BABA/color", "clock")]
    with pytest.raises(engine.ValidationError):
        share.encode(engine.load_level(clock_level()), nouns={"BABA": {"color": "red"}})


def test_invalid_pack_payload_reports_exactly_what_load_pack_reports() -> None:
    doc = demo_pack()
    doc["levels"][0]["entities"][0]["x"] = 99
    doc["levels"][1]["automata"][0]["pattern"][0]["dx"] = 1
    doc["levels"][1]["automata"][0]["pattern"][0]["dy"] = 1
    with pytest.raises(engine.ValidationError) as expected:
        engine.load_pack(doc)
    preview = share.decode(armour({"pack": doc}))
    assert not preview.ok
    assert preview.pack is None
    assert list(preview.problems) == expected.value.errors
    assert {p.code for p in preview.problems} == {"out-of-bounds", "non-cardinal-move"}
    assert preview.summary.levels[0].id == "chain"  # still described


def test_a_pack_id_holding_a_newline_never_breaks_a_problem_over_two_lines() -> None:
    doc = demo_pack(id="demo\nrm -rf")
    doc["levels"][0]["entities"][0]["x"] = 99
    preview = share.decode(armour({"pack": doc}))
    assert [(p.pack, p.pointer, p.code) for p in preview.problems] == [
        ("<pack>", "/id", "bad-format"),
        ("<pack>", "/levels/0/entities/0/x", "out-of-bounds"),
    ]
    for problem in preview.problems:
        assert "\n" not in str(problem)
    assert preview.error is not None
    assert len(str(preview.error).splitlines()) == len(preview.problems)
    with pytest.raises(engine.ValidationError) as loaded:  # the same name as load_pack gives
        engine.load_pack(doc)
    assert list(preview.problems) == loaded.value.errors


def test_invalid_level_payload_reports_what_load_level_reports() -> None:
    doc = chain_level()
    doc["entities"].append(dict(doc["entities"][0]))  # duplicate id
    with pytest.raises(engine.ValidationError) as expected:
        engine.load_level(doc)
    preview = share.decode(armour({"level": doc}))
    assert list(preview.problems) == expected.value.errors
    assert preview.problems[0].code == "duplicate-entity-id"
    assert str(preview.problems[0]).startswith("chain/entities/")


def test_encode_refuses_invalid_data() -> None:
    bad = chain_level()
    bad["width"] = 0
    with pytest.raises(engine.ValidationError):
        share.encode(bad)
    level = engine.load_level(chain_level())
    with pytest.raises(share.ShareError, match="moves are written with U, D, L and R"):
        share.encode(level, replays=["RX"])
    with pytest.raises(share.ShareError, match="not in this payload"):
        share.encode(level, replays=[("elsewhere", "R")])
    with pytest.raises(share.ShareError, match="level_id, moves"):
        share.encode(engine.load_pack(demo_pack()), replays=["R"])
    other = engine.Game(clock_level())
    with pytest.raises(share.ShareError, match="snapshot is of level 'clock'"):
        share.encode(level, snapshot=other)
    with pytest.raises(share.ShareError, match="own nouns"):
        share.encode(engine.load_pack(demo_pack()), nouns={})


# ----------------------------------------------------------------- replays


def test_replay_records_carry_digests_of_events_and_final_state() -> None:
    level = engine.load_level(chain_level())
    record = share.record_replay(level, "RLRR")
    game = engine.Game(level)
    events = [game.step(m).to_dict() for m in "RLRR"]
    declared = sha([a.to_data() for a in level.automata])
    assert record == share.ReplayRecord("chain", "RLRR", sha(events), sha(game.state()), declared)
    assert any(e["crumbled"] for e in events)  # the digest covers a chain transition


def test_replays_round_trip_and_match() -> None:
    pack = engine.load_pack(demo_pack())
    text = share.encode(pack, replays=[("chain", "RLRRR"), ("clock", "DDRU"), ("chain", "")])
    document = unpack(text)
    assert [r["moves"] for r in document["replays"]] == ["RLRRR", "DDRU", ""]
    assert set(document["replays"][0]) == {"level", "moves", "events", "final", "automata"}
    preview = share.decode(text)
    assert preview.ok
    assert preview.warnings == ()
    assert [(c.record.level, c.matches) for c in preview.replays] == [
        ("chain", True),
        ("clock", True),
        ("chain", True),
    ]


def test_a_replay_that_plays_differently_here_is_reported() -> None:
    author_level = engine.load_level(chain_level())
    recorded = share.record_replay(author_level, "RRR")  # on the author's variant of the level
    changed = chain_level()
    changed["entities"][1]["x"] = 1  # the sand is elsewhere in the shared variant
    preview = share.decode(share.encode(changed, replays=[recorded]))
    assert preview.ok  # the data is valid; the mismatch is a warning
    (check,) = preview.replays
    assert not check.matches
    assert not check.events_match
    assert not check.final_match
    assert [(w.pointer, w.code, w.level) for w in preview.warnings] == [
        ("/replays/0/events", "replay-mismatch", "chain"),
        ("/replays/0/final", "replay-mismatch", "chain"),
    ]
    assert str(preview.warnings[0]).startswith(f'{SHARE_NAME}/replays/0/events (level "chain")')


def test_a_final_state_mismatch_alone_is_reported() -> None:
    level = engine.load_level(chain_level())
    record = share.record_replay(level, "R")
    tampered = share.ReplayRecord(record.level, record.moves, record.events, sha({"other": 1}))
    preview = share.decode(share.encode(level, replays=[tampered]))
    (check,) = preview.replays
    assert check.events_match
    assert not check.final_match
    assert [w.pointer for w in preview.warnings] == ["/replays/0/final"]


def test_malformed_replay_records_are_problems() -> None:
    base = share.record_replay(engine.load_level(chain_level()), "R").to_dict()
    records = [
        "R",
        {**base, "moves": "RQ"},
        {**base, "events": "ABC"},
        {k: v for k, v in base.items() if k != "final"},
        {**base, "eval": "__import__('os')"},
        {**base, "level": "nowhere"},
    ]
    preview = share.decode(armour({"level": chain_level(), "replays": records}))
    found = [(p.pointer, p.code) for p in preview.problems]
    assert found == [
        ("/replays/0", "wrong-type"),
        ("/replays/1/moves", "bad-moves"),
        ("/replays/2/events", "bad-value"),
        ("/replays/3/final", "missing-field"),
        ("/replays/4/eval", "unknown-field"),
        ("/replays/5/level", "unknown-level"),
    ]
    assert preview.pack is None
    with pytest.raises(share.ShareError, match="has 6 problem"):
        preview.install("/nonexistent-target", confirm=False)


# ----------------------------------------------------------------- snapshots


def _continue(game: engine.Game, moves: str) -> list[dict[str, Any]]:
    return [game.step(m).to_dict() for m in moves]


@pytest.mark.parametrize("as_pack", [False, True])
def test_shared_replay_preserves_a_chain_stage(as_pack: bool) -> None:
    """04: a shared level imported after one leftover link continues with the same event."""
    level = engine.load_level(chain_level())
    game = engine.Game(level)
    first = game.step("R").to_dict()
    assert first["crumbled"] == [{"id": 2, "from": "SAND", "to": "SHOAL"}]
    subject = engine.load_pack(demo_pack()) if as_pack else level
    preview = share.decode(share.encode(subject, snapshot=game))
    assert preview.ok
    assert preview.summary.snapshot_level == "chain"
    restored = preview.restore()
    assert restored.state() == game.state()
    assert restored.snapshot() == game.snapshot()
    stage = {e["id"]: e.get("noun") for e in restored.state()["entities"]}
    authored = {e["id"]: e.get("noun") for e in engine.Game(level).state()["entities"]}
    assert (authored[2], stage[2]) == ("SAND", "SHOAL")  # same stable id, current noun
    after = _continue(restored, "LR")
    assert after == _continue(game, "LR")
    assert after[1]["crumbled"] == [{"id": 2, "from": "SHOAL", "to": "WATER"}]
    assert restored.state() == game.state()


def test_restore_at_the_second_link_and_undo_through_the_shared_history() -> None:
    """04, 'Restore preserves derived FRAIL parity' at either link, history included."""
    game = engine.Game(chain_level())
    _continue(game, "RLR")
    assert {e["id"]: e.get("noun") for e in game.state()["entities"]}[2] == "WATER"
    restored = share.decode(share.encode(game.level, snapshot=game.snapshot())).restore()
    assert restored.state() == game.state()
    for _ in range(3):
        assert restored.undo().to_dict() == game.undo().to_dict()
        assert restored.state() == game.state()
    assert {e["id"]: e.get("noun") for e in restored.state()["entities"]}[2] == "SAND"


def test_shared_automaton_phase_restores_and_acts_the_same() -> None:
    """03: a shared automaton stays data; its phase and next beat survive the trip."""
    game = engine.Game(clock_level())
    _continue(game, "RD")
    phase = game.state()["automata"][0]["phase"]
    preview = share.decode(share.encode(engine.load_pack(demo_pack()), snapshot=game))
    assert preview.data["pack"]["levels"][1]["automata"] == [
        a.to_data() for a in engine.load_level(clock_level()).automata
    ]
    restored = preview.restore()
    assert restored.state()["automata"][0]["phase"] == phase
    for move in "LUR":
        mine, theirs = restored.step(move).to_dict(), game.step(move).to_dict()
        assert mine == theirs
        assert mine["automated"]
    assert restored.snapshot() == game.snapshot()


def test_a_shared_automaton_remains_data_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """03: the decoder validates and previews automata; nothing runs, nothing is installed."""
    import builtins

    def no_code(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a payload must never be evaluated or imported")

    payload = share.encode(engine.load_pack(demo_pack()))
    for name in ("eval", "exec", "compile", "__import__"):
        monkeypatch.setattr(builtins, name, no_code)
    preview = share.decode(payload)
    monkeypatch.undo()
    assert preview.ok
    clock = next(level for level in preview.summary.levels if level.id == "clock")
    assert clock.automata == 1
    assert "automata" in preview.summary.mechanics
    [entry] = next(level for level in preview.data["pack"]["levels"] if level["id"] == "clock")[
        "automata"
    ]
    assert (
        entry == engine.load_level(clock_level()).automata[0].to_data()
    )  # normalized: phase filled in
    assert preview.install(tmp_path, confirm=False) is None
    assert list(tmp_path.iterdir()) == []  # previewing installs nothing
    tampered = armour({"pack": demo_pack(), "module": "def build(): ..."})
    with pytest.raises(share.ShareError):
        share.decode(tampered)


def test_a_snapshot_with_hidden_frail_state_is_a_problem_and_blocks_install(tmp_path: Path) -> None:
    game = engine.Game(chain_level())
    game.step("R")
    snapshot = game.snapshot()
    snapshot["current"]["entities"][1]["leaves"] = {"SHOAL": "WATER"}
    with pytest.raises(engine.ValidationError):
        share.encode(game.level, snapshot=snapshot)
    preview = share.decode(armour({"level": chain_level(), "snapshot": snapshot}))
    assert [(p.pointer, p.code, p.level) for p in preview.problems] == [
        ("/snapshot/current/entities/1/leaves", "per-object-leaves", "chain")
    ]
    with pytest.raises(share.ShareError):
        preview.restore()
    with pytest.raises(share.ShareError):
        preview.install(tmp_path, confirm=True)
    assert list(tmp_path.iterdir()) == []


def test_a_snapshot_of_a_level_not_in_the_payload_is_a_problem() -> None:
    snapshot = engine.Game(clock_level()).snapshot()
    preview = share.decode(armour({"level": chain_level(), "snapshot": snapshot}))
    assert [(p.pointer, p.code) for p in preview.problems] == [("/snapshot/level", "unknown-level")]
    preview = share.decode(armour({"level": chain_level(), "snapshot": [1]}))
    assert [(p.pointer, p.code) for p in preview.problems] == [("/snapshot", "wrong-type")]


# ----------------------------------------------------------------- install


def test_install_writes_the_normalized_pack_atomically(tmp_path: Path) -> None:
    target = tmp_path / "packs"
    pack = engine.load_pack(demo_pack())
    preview = share.decode(share.encode(pack))
    assert preview.install(target, confirm=False) is None
    assert not target.exists()
    path = preview.install(target, confirm=True)
    assert path == target / "demo.json"
    assert engine.load_pack(path) == pack
    assert json.loads(path.read_text(encoding="utf-8")) == pack.to_data()
    assert [p.name for p in target.iterdir()] == ["demo.json"]  # no temporary file left


def test_install_never_overwrites_silently(tmp_path: Path) -> None:
    preview = share.decode(share.encode(engine.load_pack(demo_pack())))
    existing = tmp_path / "demo.json"
    existing.write_text("mine", encoding="utf-8")
    for confirm in (False, True):
        with pytest.raises(share.ShareError, match="already exists") as info:
            preview.install(tmp_path, confirm=confirm)
        assert info.value.errors[0].code == "pack-exists"
    assert existing.read_text(encoding="utf-8") == "mine"
    assert preview.install(tmp_path, confirm=True, replace=True) == existing
    assert engine.load_pack(existing).id == "demo"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.json"]


def test_install_refuses_next_to_a_pack_folder_of_the_same_id(tmp_path: Path) -> None:
    (tmp_path / "demo").mkdir()
    preview = share.decode(share.encode(engine.load_pack(demo_pack())))
    with pytest.raises(share.ShareError, match="pack folder"):
        preview.install(tmp_path, confirm=True, replace=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo"]


def test_publishing_never_clobbers_a_file_that_appeared_meanwhile(tmp_path: Path) -> None:
    """Between the check and the write another program may create the file."""
    pack = engine.load_pack(demo_pack())
    path = tmp_path / "demo.json"
    path.write_text("theirs", encoding="utf-8")
    with pytest.raises(share.ShareError, match="already exists"):
        install_pack(pack, path, replace=False)
    assert path.read_text(encoding="utf-8") == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["demo.json"]


def test_publishing_without_hard_links_still_refuses_and_replaces_atomically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(*_args: object) -> None:
        raise PermissionError("no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    pack = engine.load_pack(demo_pack())
    path = install_pack(pack, tmp_path / "demo.json", replace=False)
    assert engine.load_pack(path) == pack
    with pytest.raises(share.ShareError):
        install_pack(pack, path, replace=False)
    assert [p.name for p in tmp_path.iterdir()] == ["demo.json"]


@pytest.mark.parametrize(
    "unsafe",
    ["", "../evil", "a/b", "a\\b", ".hidden", "CON", "nul.txt", "Com1", "x" * 65, "name.", "é", 7],
)
def test_unsafe_pack_ids_never_become_file_names(unsafe: object) -> None:
    with pytest.raises(share.ShareError) as info:
        file_name(unsafe)
    assert info.value.errors[0].code == "unsafe-name"


def test_safe_pack_ids_become_file_names() -> None:
    assert file_name("tutorial") == "tutorial.json"
    assert file_name("v1.2_final-cut") == "v1.2_final-cut.json"
    assert file_name("console") == "console.json"


def test_a_pack_id_that_is_a_path_is_a_validation_problem() -> None:
    preview = share.decode(armour({"pack": demo_pack(id="../../etc/evil")}))
    assert [(p.pointer, p.code) for p in preview.problems] == [("/id", "bad-format")]
    with pytest.raises(share.ShareError):
        preview.install("/tmp", confirm=True)


# ----------------------------------------------------------------- command line


@pytest.fixture
def pack_file(tmp_path: Path) -> Path:
    doc = demo_pack()
    doc["levels"][0]["solution"] = "RRR"
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point platformdirs' user data dir at a temporary folder (Linux: XDG_DATA_HOME)."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home / "rulegrid" / "packs"


def _export(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["share", "export", *args]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return out.strip()


def test_cli_export_strips_solutions_unless_asked(
    pack_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = unpack(_export(capsys, str(pack_file)))
    assert "solution" not in plain["pack"]["levels"][0]
    assert "replays" not in plain
    full = unpack(_export(capsys, str(pack_file), "--with-solutions"))
    assert full["pack"]["levels"][0]["solution"] == "RRR"
    assert [(r["level"], r["moves"]) for r in full["replays"]] == [("chain", "RRR")]


def test_cli_export_one_level_carries_its_noun_styles(
    pack_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = unpack(_export(capsys, str(pack_file), "--level", "clock"))
    assert document["level"]["id"] == "clock"
    assert document["nouns"] == {"BABA": {"color": "#102030"}, "MOUSE": {"color": "#152535"}}
    by_number = unpack(_export(capsys, str(pack_file), "--level", "2"))
    assert by_number == document


def test_cli_import_previews_without_installing(
    pack_file: Path, user_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _export(capsys, str(pack_file), "--with-solutions")
    assert main(["share", "import", text]) == 0
    out = capsys.readouterr().out
    assert "pack 'demo' — Demo pack" in out
    assert "by Grace, Ada" in out
    assert "replay 1 of chain (3 moves): matches" in out
    assert f"would install to {user_data / 'demo.json'}" in out
    assert "--yes" in out
    assert not user_data.parent.parent.exists()


def test_cli_import_yes_installs_into_the_user_folder(
    pack_file: Path,
    user_data: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _export(capsys, str(pack_file))
    monkeypatch.setattr("sys.stdin", _Stdin(text + "\n"))
    assert main(["share", "import", "-", "--yes"]) == 0
    assert f"installed {user_data / 'demo.json'}" in capsys.readouterr().out
    assert engine.load_pack(user_data / "demo.json").id == "demo"
    assert main(["share", "import", text, "--yes"]) == 1
    assert "already exists" in capsys.readouterr().err
    assert main(["share", "import", text, "--yes", "--replace"]) == 0


def test_cli_import_into_a_chosen_folder(
    pack_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _export(capsys, str(pack_file), "--level", "chain")
    assert main(["share", "import", text, "--into", str(tmp_path / "mine"), "--yes"]) == 0
    assert engine.load_pack(tmp_path / "mine" / "chain.json").levels[0].id == "chain"


def test_cli_import_bad_payload_is_a_located_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["share", "import", "rulegrid:1:not*base64"]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip() == "<share>: character 15 ('*') is not base64url (A-Z a-z 0-9 - _)"
    assert "Traceback" not in captured.err + captured.out


def test_cli_import_invalid_content_lists_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = demo_pack()
    doc["levels"][0]["entities"][0]["x"] = 99
    assert main(["share", "import", armour({"pack": doc}), "--into", str(tmp_path), "--yes"]) == 1
    captured = capsys.readouterr()
    assert 'demo/levels/0/entities/0/x (level "chain"):' in captured.err
    assert "not installable: 1 problem" in captured.err
    assert list(tmp_path.iterdir()) == []


def test_cli_export_errors_are_located(
    tmp_path: Path, pack_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["share", "export", str(tmp_path / "missing.json")]) == 1
    assert main(["share", "export", str(pack_file), "--level", "nope"]) == 1
    missing, unknown = capsys.readouterr().err.splitlines()  # one located line each, no traceback
    assert missing.startswith("missing")
    assert "missing.json" in missing
    assert unknown.startswith("demo/levels")
    assert "'nope'" in unknown


class _Stdin:
    def __init__(self, text: str) -> None:
        self.text = text

    def read(self, size: int = -1) -> str:
        return self.text if size < 0 else self.text[:size]
