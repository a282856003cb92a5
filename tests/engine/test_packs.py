"""load_pack from files, folders, dicts and trusted pack.py modules; the bundled packs."""

from __future__ import annotations

import hashlib
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import Pack, ValidationError, load_pack, replay
from tests.support import PACKS_DIR, grid_level, pack_document

LEVEL = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS WIN"], "first", solution="RR")
DOC = pack_document(LEVEL, pack_id="mini")


def errors(source: Any, **kwargs: Any) -> list[tuple[str | None, str | None, str, str]]:
    with pytest.raises(ValidationError) as caught:
        load_pack(source, **kwargs)
    return [(p.pack, p.level, p.pointer, p.code) for p in caught.value.errors]


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_pack_loads_from_a_file_a_folder_and_a_dict(tmp_path: Path) -> None:
    (tmp_path / "mini.json").write_text(json.dumps(DOC), encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps(DOC), encoding="utf-8")
    packs = [load_pack(tmp_path / "mini.json"), load_pack(str(folder)), load_pack(DOC)]
    assert all(isinstance(p, Pack) for p in packs)
    assert packs[0] == packs[1] == packs[2]
    assert packs[0].to_data() == DOC


def test_problems_name_the_pack_by_its_id_or_else_its_file(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(DOC))
    bad["levels"][0]["width"] = 0
    (tmp_path / "named.json").write_text(json.dumps(bad), encoding="utf-8")
    assert errors(tmp_path / "named.json") == [("mini", "first", "/levels/0/width", "out-of-range")]
    bad["id"] = "not an id"
    (tmp_path / "named.json").write_text(json.dumps(bad), encoding="utf-8")
    assert [e[0] for e in errors(tmp_path / "named.json")] == ["named", "named"]
    assert [e[0] for e in errors(bad)] == ["<pack>", "<pack>"]


@pytest.mark.parametrize("make", ["missing", "empty-folder", "device"])
def test_unreadable_sources_are_one_clear_problem(tmp_path: Path, make: str) -> None:
    path = {
        "missing": tmp_path / "nope.json",
        "empty-folder": tmp_path,
        "device": Path("/dev/null"),
    }[make]
    [(_, level, pointer, code)] = errors(path)
    assert (level, pointer, code) == (None, "", "unreadable")


def test_an_invalid_pack_writes_nothing(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(DOC))
    bad["levels"][0]["entities"][0]["x"] = 40
    (tmp_path / "pack.json").write_text(json.dumps(bad), encoding="utf-8")
    before = listing(tmp_path)
    assert errors(tmp_path) == [("mini", "first", "/levels/0/entities/0/x", "out-of-bounds")]
    assert listing(tmp_path) == before


MODULE_WRITES_WHEN_IMPORTED = """
from pathlib import Path
Path(__file__).with_name("imported.txt").write_text("pack.py ran")

def build():
    return {doc!r}
"""


def module_folder(tmp_path: Path, source: str, doc: dict[str, Any] = DOC) -> Path:
    folder = tmp_path / "generated"
    folder.mkdir()
    (folder / "pack.py").write_text(
        textwrap.dedent(source).replace("{doc!r}", repr(doc)), encoding="utf-8"
    )
    return folder


def test_an_untrusted_pack_module_is_refused_and_never_imported(tmp_path: Path) -> None:
    folder = module_folder(tmp_path, MODULE_WRITES_WHEN_IMPORTED)
    (folder / "pack.json").write_text(json.dumps(DOC), encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        load_pack(folder)
    [problem] = caught.value.errors
    assert (problem.pack, problem.code) == ("generated", "untrusted-module")
    assert "trust" in problem.message
    assert not (folder / "imported.txt").exists()
    assert listing(folder) == ["pack.json", "pack.py"]


def test_a_trusted_module_builds_the_pack_and_leaves_no_bytecode(tmp_path: Path) -> None:
    folder = module_folder(tmp_path, MODULE_WRITES_WHEN_IMPORTED)
    assert load_pack(folder, trust=True) == load_pack(DOC)
    assert (folder / "imported.txt").read_text() == "pack.py ran"
    assert listing(folder) == ["imported.txt", "pack.py"]


def test_a_trusted_module_is_validated_exactly_like_json(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(DOC))
    bad["levels"].append(
        {
            **bad["levels"][0],
            "automata": [{"id": "a", "property": "YOU", "pattern": [{"action": "wait"}]}],
        }
    )
    bad["nouns"]["baba"] = {"color": "#000000"}
    folder = module_folder(tmp_path, "def build():\n    return {doc!r}\n", bad)
    from_module = errors(folder, trust=True)
    assert from_module == errors(bad)
    assert [code for *_, code in from_module] == [
        "invalid-property",
        "duplicate-level-id",
        "bad-format",
    ]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "def build():\n    levels = {}\n    return levels['x']\n",
            "pack.py (line 3) raised KeyError: 'x'",
        ),
        ("def build(:\n", "pack.py (line 1) has a syntax error"),
        ("raise SystemExit(3)\n", "pack.py (line 1) raised SystemExit: 3"),
        ("VALUE = 1\n", "pack.py has no build() function"),
        ("def build():\n    return [1, 2]\n", "pack.py: build() must return a dict, not list"),
        ("import no_such_module_here\n", "pack.py (line 1) raised ModuleNotFoundError"),
    ],
)
def test_module_failures_are_reported_without_a_traceback(
    tmp_path: Path, source: str, expected: str
) -> None:
    folder = module_folder(tmp_path, source)
    with pytest.raises(ValidationError) as caught:
        load_pack(folder, trust=True)
    [problem] = caught.value.errors
    assert (problem.pack, problem.pointer, problem.code) == ("generated", "", "module-error")
    assert problem.message.startswith(expected)
    assert "Traceback" not in str(caught.value)
    assert listing(folder) == ["pack.py"]


def test_a_function_valued_frail_entry_from_a_module_is_located(tmp_path: Path) -> None:
    source = """
    def build():
        pack = {doc!r}
        pack["levels"][0]["mechanics"] = [
            {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {"BABA": lambda: "FLAG"}}
        ]
        return pack
    """
    folder = module_folder(tmp_path, source)
    assert errors(folder, trust=True) == [
        ("mini", "first", "/levels/0/mechanics/0/leaves/BABA", "wrong-type")
    ]


# The bundled packs.

BUNDLED = sorted(PACKS_DIR.glob("*.json"))  # packs/ also holds licence notices


def test_packs_are_bundled() -> None:
    assert PACKS_DIR / "tutorial.json" in BUNDLED


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_every_bundled_pack_is_valid(path: Path) -> None:
    assert isinstance(load_pack(path), Pack)


TUTORIAL = load_pack(PACKS_DIR / "tutorial.json")


def test_the_tutorial_teaches_each_mechanic_in_a_small_level() -> None:
    levels = TUTORIAL.levels
    assert len(levels) >= 8
    for level in levels:
        assert level.title
        assert 7 <= level.width <= 12
        assert 5 <= level.height <= 9
    words = [{e.text for e in lv.entities if e.kind == "word"} for lv in levels]
    assert any("AND" in w for w in words)
    assert any({"STOP", "PUSH"} <= w for w in words)
    assert any({"SINK", "DEFEAT", "WIN"} <= w for w in words)
    assert any(lv.automata for lv in levels)
    assert any(lv.frail is not None and "FRAIL" in w for lv, w in zip(levels, words, strict=True))
    colours = [style.color.lower() for style in TUTORIAL.nouns.values()]
    assert len(set(colours)) == len(colours)


@pytest.mark.parametrize("level", TUTORIAL.levels, ids=[lv.id for lv in TUTORIAL.levels])
def test_each_tutorial_solution_wins(level: Any) -> None:
    assert level.solution
    events = replay(level, level.solution)
    assert all(e.accepted for e in events)
    assert events[-1].won


def test_the_tutorial_shows_its_mechanics_happening() -> None:
    events = {lv.id: [e.to_dict() for e in replay(lv, lv.solution or "")] for lv in TUTORIAL.levels}
    assert any(e["transformed"] for e in events["rock-is-flag"])
    assert {d["cause"] for e in events["sink-defeat-win"] for d in e["destroyed"]} == {"sink"}
    assert any(
        a["action"] == "move" and a["to"] for e in events["clockwork"] for a in e["automated"]
    )
    crumbles = [c for e in events["crumbling-bridge"] for c in e["crumbled"]]
    assert [(c["from"], c["to"]) for c in crumbles] == [("DRIFT", "WATER"), ("DRIFT", "WATER")]


def test_a_file_over_the_size_limit_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(DOC), encoding="utf-8")
    monkeypatch.setattr("engine.packs.load.MAX_PACK_BYTES", 100)
    assert errors(path) == [("big", None, "", "bad-size")]


def test_trust_pinned_to_a_digest_runs_only_that_content(tmp_path: Path) -> None:
    """Issue 20, finding 7: trust given to one version of pack.py never runs another."""
    folder = module_folder(tmp_path, MODULE_WRITES_WHEN_IMPORTED)
    digest = engine.module_digest(folder)
    assert digest == hashlib.sha256((folder / "pack.py").read_bytes()).hexdigest()
    assert load_pack(folder, trust=digest) == load_pack(DOC)
    (folder / "imported.txt").unlink()
    with (folder / "pack.py").open("a", encoding="utf-8") as module:
        module.write("\n# changed\n")
    with pytest.raises(ValidationError) as caught:
        load_pack(folder, trust=digest)
    [problem] = caught.value.errors
    assert (problem.pack, problem.code) == ("generated", "untrusted-module")
    assert "changed since it was trusted" in problem.message
    assert not (folder / "imported.txt").exists()
    assert engine.module_digest(folder) != digest
    assert engine.module_digest(tmp_path) is None  # no pack.py there
