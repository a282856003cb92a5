"""``engine.import_keke`` and ``engine.export_keke`` on the published Keke files.

The raw files (tests/data/keke/raw, copied unchanged from the framework) are the
input. What each level uses is computed here by scanning its text, independently
of the importer, and compared with what the importer reports; the replays are
compared with the team's corpus (tests/data/keke/levels.json), converted by a
different tool.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import (
    KekeUnsupported,
    KekeUnsupportedError,
    ValidationError,
    export_keke,
    import_keke,
    load_pack,
    replay,
)
from tests.support import keke_corpus

RAW = Path(__file__).resolve().parent.parent / "data" / "keke" / "raw"
FILES = sorted(RAW.glob("*_LEVELS.json"))
#: Levels in each file, and how many use KILL, MOVE, HOT, MELT, a wait or an inner border.
COUNTS = {
    "demo_LEVELS.json": (14, 3),
    "full_biy_LEVELS.json": (184, 104),
    "new_full_biy_LEVELS.json": (246, 134),
    "search_biy_LEVELS.json": (62, 62),
    "test_LEVELS.json": (3, 2),
    "user_milk_biy_LEVELS.json": (17, 12),
}


def raw_levels(path: Path) -> list[dict[str, Any]]:
    levels: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["levels"]
    return levels


def lacks_something(level: dict[str, Any]) -> bool:
    """The oracle: a plain scan of the text for what our engine does not have."""
    rows = level["ascii"].split("\n")
    ringed = set(rows[0] + rows[-1] + "".join(r[0] + r[-1] for r in rows)) == {"_"}
    inside = [r[1:-1] for r in rows[1:-1]] if ringed else rows
    used = set("".join(inside))
    return bool(used & set("4789_")) or "s" in (level["solution"] or "").lower()


def test_the_raw_files_are_all_here() -> None:
    assert sorted(p.name for p in FILES) == sorted(COUNTS)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_each_raw_file_reports_exactly_the_unsupported_levels(path: Path) -> None:
    levels = raw_levels(path)
    expected = [str(level["id"]) for level in levels if lacks_something(level)]
    assert (len(levels), len(expected)) == COUNTS[path.name]
    with pytest.raises(KekeUnsupportedError) as caught:
        import_keke(path)
    assert caught.value.levels == tuple(expected)
    assert caught.value.importable == len(levels) - len(expected)
    assert {p.code for p in caught.value.errors} == {"keke-unsupported"}
    assert {p.pack for p in caught.value.errors} == {path.name}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_skip_unsupported_imports_the_rest(path: Path) -> None:
    levels = raw_levels(path)
    result = import_keke(path, skip_unsupported=True)
    kept = [level for level in levels if not lacks_something(level)]
    assert result.skipped == tuple(str(lv["id"]) for lv in levels if lacks_something(lv))
    assert [lv.id for lv in result.pack.levels] == [f"keke-{lv['id']}" for lv in kept]
    assert load_pack(result.pack.to_data()) == result.pack
    for level, raw in zip(result.pack.levels, kept, strict=True):
        assert level.author == raw["author"]
        assert level.title == (raw["name"] or None)
        assert level.solution == raw["solution"].upper()


def test_unsupported_uses_are_placed_by_level_character_and_cell() -> None:
    with pytest.raises(KekeUnsupportedError) as caught:
        import_keke(RAW / "demo_LEVELS.json")
    by_level: dict[str, list[KekeUnsupported]] = {}
    for item in caught.value.unsupported:
        by_level.setdefault(item.level, []).append(item)
    assert by_level["10"] == [
        KekeUnsupported(9, "10", "4", "KILL", "/levels/9/ascii", row=3, column=4, cell=(2, 1))
    ]
    assert by_level["13"] == [
        KekeUnsupported(12, "13", "8", "HOT", "/levels/12/ascii", row=7, column=2, cell=(0, 5)),
        KekeUnsupported(12, "13", "9", "MELT", "/levels/12/ascii", row=7, column=8, cell=(6, 5)),
    ]
    waits = [u for u in by_level["8"] if u.meaning == "a wait"]
    assert [(u.character, u.move, u.pointer, u.cell) for u in waits] == [
        ("s", n, "/levels/7/solution", None) for n in (1, 2, 3)
    ]
    assert str(by_level["10"][0]) == (
        "level 10: row 3, column 4 (cell 2, 1): '4' is KILL, which Rulegrid does not have"
    )
    problem = by_level["10"][0].problem("demo_LEVELS.json")
    assert (problem.pack, problem.level, problem.pointer, problem.code) == (
        "demo_LEVELS.json",
        "10",
        "/levels/9/ascii",
        "keke-unsupported",
    )


def test_a_border_tile_inside_a_map_is_unsupported() -> None:
    with pytest.raises(KekeUnsupportedError) as caught:
        import_keke("______\n.....B\n.....1\n____.2\n", name="edge.txt")
    cells = [(u.character, u.meaning, u.row, u.column, u.cell) for u in caught.value.unsupported]
    assert cells[0] == ("_", "a border tile inside the map", 1, 1, (0, 0))
    assert len(cells) == 10  # six on the first row, four on the last: no complete ring


def test_replays_say_which_solutions_win_and_keep_the_others() -> None:
    unverified = {r["id"] for r in keke_corpus()["unverified_levels"]}
    result = import_keke(RAW / "full_biy_LEVELS.json", skip_unsupported=True, id_prefix="biy")
    losing = {r.level for r in result.replays if not r.wins}
    assert losing == unverified - {"biy-211"}  # 211 is only in the fork's file
    assert len(result.winning) == 74
    assert all(result.pack.level(name).solution for name in losing)
    assert len(result.warnings) == len(losing)
    assert "biy-41 (Keke 41)" in result.warnings[0]
    for check in result.replays:
        level = result.pack.level(check.level)
        events = replay(level, level.solution or "")
        won = [n for n, event in enumerate(events, start=1) if event.won]
        assert check.won_at == (won[0] if won else None)
        assert check.moves == len(level.solution or "")


def test_the_maps_match_the_team_corpus() -> None:
    """The corpus was converted by another tool: same maps, same entity order."""
    imported = {}
    for name in ("new_full_biy_LEVELS.json", "demo_LEVELS.json"):
        prefix = "demo" if name.startswith("demo") else "biy"
        for level in import_keke(RAW / name, skip_unsupported=True, id_prefix=prefix).pack.levels:
            imported.setdefault(level.id, level)
    for record in keke_corpus()["levels"]:
        if record["id"] == "biy-58":  # the corpus took it from full_biy: demo-1 is the same map
            continue
        level = imported[record["id"]]
        ours = [e.model_dump(exclude={"id"}) for e in level.entities]
        assert ours == record["entities"], record["id"]
        assert (level.width, level.height) == (record["width"], record["height"])


# ------------------------------------------------------------------ export


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_import_then_export_returns_the_same_maps(path: Path) -> None:
    kept = [level for level in raw_levels(path) if not lacks_something(level)]
    result = import_keke(path, skip_unsupported=True)
    exported = export_keke(result.pack)
    assert exported.misfits == ()
    assert [lv["ascii"] for lv in exported.levels] == [lv["ascii"] for lv in kept]
    assert [lv["solution"] for lv in exported.levels] == [lv["solution"].lower() for lv in kept]
    again = import_keke(exported.text(), id_prefix="")
    assert [lv.entities for lv in again.pack.levels] == [lv.entities for lv in result.pack.levels]
    assert [lv.id for lv in again.pack.levels] == [lv.id for lv in result.pack.levels]


def pack_with(*levels: dict[str, Any]) -> Any:
    from tests.support import pack_document

    return load_pack(pack_document(*levels))


def level_of(rows: list[str], level_id: str, **extra: Any) -> dict[str, Any]:
    from tests.support import grid_level

    return grid_level(rows, level_id, **extra)


def test_export_names_the_levels_that_do_not_fit() -> None:
    pack = pack_with(
        level_of(["BABA IS YOU", "baba . flag"], "fits", solution="RR", title="Fits"),
        level_of(["BABA IS YOU AND", "baba+rock . drift"], "stacked"),
        level_of(["BABA IS YOU", "baba KILL ."], "kill-word"),
        level_of(["BABA IS YOU", "baba . DEFEAT"], "defeat"),
    )
    result = export_keke(pack)
    assert [lv["id"] for lv in result.levels] == ["fits"]
    assert result.levels[0] == {
        "id": "fits",
        "name": "Fits",
        "author": "",
        "ascii": "_____\n_B12_\n_b.f_\n_____",
        "solution": "rr",
    }
    assert [(m.level, m.reasons) for m in result.misfits] == [
        (
            "stacked",
            (
                "the word AND has no character in the Keke key",
                "the object DRIFT has no character in the Keke key",
                "cell (0, 1) holds 2 entities; a Keke cell holds one",
            ),
        ),
        ("kill-word", ("the word KILL is a noun here but a property in Keke",)),
        ("defeat", ("the word DEFEAT has no character in the Keke key",)),
    ]
    assert json.loads(result.text()) == {"levels": list(result.levels)}


def test_export_leaves_out_automata_and_frail() -> None:
    clock = {"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}
    pack = pack_with(
        level_of(["BABA IS YOU"], "auto", automata=[clock]),
        level_of(["BABA IS YOU"], "frail", mechanics=[frail]),
    )
    assert [(m.level, m.reasons) for m in export_keke(pack).misfits] == [
        ("auto", ("it has automata, which Keke does not",)),
        ("frail", ("it uses the FRAIL mechanic, which Keke does not have",)),
    ]


# --------------------------------------------------------------- malformed


def problems(source: object, **kwargs: Any) -> list[tuple[str | None, str | None, str, str]]:
    with pytest.raises(ValidationError) as caught:
        import_keke(source, name="bad.json", **kwargs)  # type: ignore[arg-type]
    assert not isinstance(caught.value, KekeUnsupportedError)
    return [(p.pack, p.level, p.pointer, p.code) for p in caught.value.errors]


def message(source: object) -> str:
    with pytest.raises(ValidationError) as caught:
        import_keke(source, name="bad.json")  # type: ignore[arg-type]
    return str(caught.value)


GOOD = {"id": 1, "name": "", "author": "me", "ascii": "_____\n_B12_\n_b.f_\n_____", "solution": "r"}


def test_bad_json_is_located_by_line_and_column() -> None:
    assert problems('{"levels": [\n  {"id": 1,,}]}') == [("bad.json", None, "", "invalid-json")]
    assert "line 2 column 12" in message('{"levels": [\n  {"id": 1,,}]}')


def test_ragged_rows_name_the_level_and_the_row() -> None:
    doc = {"levels": [GOOD, {**GOOD, "id": 7, "ascii": "_____\n_B12_\n_b.f\n_____"}]}
    assert problems(doc) == [("bad.json", "7", "/levels/1/ascii", "keke-map")]
    assert 'bad.json/levels/1/ascii (level "7"): row 3 has 4 characters but row 1 has 5' in (
        message(doc)
    )


def test_an_unknown_character_names_its_row_column_and_character() -> None:
    doc = {"levels": [{**GOOD, "ascii": "_____\n_B1x_\n_b.f_\n_____"}]}
    assert problems(doc) == [("bad.json", "1", "/levels/0/ascii", "keke-map")]
    assert "row 2, column 4: unknown map character 'x'" in message(doc)
    assert "row 1, column 3: unknown map character '#'" in message("..#\n...")


def test_every_malformed_level_is_listed_at_once() -> None:
    doc = {
        "levels": [
            {**GOOD, "solution": "uux"},
            "not a level",
            {**GOOD, "id": [1], "name": 5},
            {**GOOD, "ascii": None},
            GOOD,
        ]
    }
    assert problems(doc) == [
        ("bad.json", "1", "/levels/0/solution", "keke-solution"),
        ("bad.json", None, "/levels/1", "keke-format"),
        ("bad.json", "#3", "/levels/2/id", "keke-format"),
        ("bad.json", "#3", "/levels/2/name", "keke-format"),
        ("bad.json", "1", "/levels/3/ascii", "keke-format"),
    ]
    assert "move 3 is 'x'" in message(doc)


@pytest.mark.parametrize(
    ("doc", "pointer"),
    [
        (json.dumps([GOOD]), ""),
        ({"level": [GOOD]}, "/levels"),
        ({"levels": {"0": GOOD}}, "/levels"),
    ],
)
def test_a_file_that_is_not_a_level_set(doc: object, pointer: str) -> None:
    assert problems(doc) == [("bad.json", None, pointer, "keke-format")]


def test_caps_are_checked_before_the_walk() -> None:
    assert problems({"levels": [0] * 2_001}) == [("bad.json", None, "/levels", "too-many")]
    huge = {"levels": [{**GOOD, "ascii": "_" * 20_000}]}
    assert problems(huge) == [("bad.json", "1", "/levels/0/ascii", "keke-map")]
    long = {"levels": [{**GOOD, "solution": "u" * 10_001}]}
    assert problems(long) == [("bad.json", "1", "/levels/0/solution", "too-many")]
    # 9,000 moves x (5 entities + 10) = 135,000 each: the 30th level passes 4,000,000.
    many = {"levels": [{**GOOD, "id": n, "solution": "u" * 9_000} for n in range(40)]}
    assert problems(many) == [("bad.json", "29", "/levels/29/solution", "too-many")]
    wide = "_" * 131 + "\n" + "_" * 131
    assert "at most 130" in message(wide)
    assert problems(b"\xff\xfe") == [("bad.json", None, "", "keke-format")]


def test_a_bad_id_prefix_is_refused() -> None:
    assert problems({"levels": [GOOD]}, id_prefix="no spaces") == [(None, None, "", "bad-option")]


# ------------------------------------------------------------ single maps


def test_a_single_map_with_its_ring() -> None:
    result = import_keke("__________\n_B12..F13_\n_........_\n_.b....f._\n__________\n")
    (level,) = result.pack.levels
    assert (level.id, level.width, level.height, level.solution) == ("keke-1", 8, 3, None)
    assert [(e.kind, e.x, e.y) for e in level.entities][:3] == [
        ("word", 0, 0),
        ("word", 1, 0),
        ("word", 2, 0),
    ]
    assert result.replays == ()
    assert (result.pack.id, result.pack.title) == ("keke-import", "Keke levels")
    assert sorted(result.pack.nouns) == ["BABA", "FLAG"]


def test_a_map_without_a_ring_is_read_as_it_stands() -> None:
    (level,) = import_keke("B12\nb f\nF13").pack.levels
    assert (level.width, level.height, len(level.entities)) == (3, 3, 8)


def test_ids_are_prefixed_and_unique() -> None:
    doc = {"levels": [GOOD, GOOD, {**GOOD, "id": "a b/c"}, {**GOOD, "id": None}]}
    result = import_keke(doc, id_prefix="k", pack_id="mine", title="Mine")
    assert [lv.id for lv in result.pack.levels] == ["k-1", "k-1-2", "k-a-b-c", "k-4"]
    assert (result.pack.id, result.pack.title) == ("mine", "Mine")
