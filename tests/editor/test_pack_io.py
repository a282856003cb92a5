"""Packs on disk: atomic writes, validation on save, readable output."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import engine
from editor.documents.pack import PackDocument
from editor.io.pack_io import open_pack, read_for_repair, save_pack
from editor.resources import TUTORIAL_PACK
from editor.values import OBJECT, WORD, Pos, Stamp
from engine import dump_pack as format_pack_json
from engine import write_atomic


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "pack.json"
    target.write_text("old", encoding="utf-8")

    def refuse(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.json"]


def test_saving_writes_what_the_engine_loads_and_marks_clean(qapp, tmp_path: Path) -> None:
    pack = PackDocument.untitled()
    level = pack.levels[0]
    level.add_on_top([Pos(0, 0)], Stamp(OBJECT, "BABA"))
    level.add_on_top([Pos(0, 0)], Stamp(WORD, "BABA"))
    assert pack.is_dirty()
    problems = save_pack(pack, tmp_path / "p.json", folder=False)
    assert problems == []
    assert not pack.is_dirty()
    assert engine.load_pack(tmp_path / "p.json").to_data() == pack.to_data()
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


def test_an_invalid_pack_is_still_saved_and_its_problems_returned(qapp, tmp_path: Path) -> None:
    pack = PackDocument.untitled()
    pack.levels[0].add_on_top([Pos(1, 1)], Stamp(WORD, "FRAIL"))  # the level has not opted in
    problems = save_pack(pack, tmp_path / "p.json", folder=False)
    assert [(p.pointer, p.code) for p in problems] == [
        ("/levels/0/entities/0/text", "frail-not-declared")
    ]
    result = open_pack(tmp_path / "p.json")
    assert result.document is None
    assert result.problems == problems
    repaired, notes = read_for_repair(tmp_path / "p.json")
    assert repaired.to_data() == pack.to_data()
    assert notes == []


def test_one_entity_per_line() -> None:
    text = format_pack_json(
        {
            "levels": [
                {
                    "id": "a",
                    "entities": [
                        {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 0},
                        {"id": 2, "kind": "word", "text": "IS", "x": 1, "y": 0},
                    ],
                }
            ]
        }
    )
    lines = text.splitlines()
    assert '        {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 0},' in lines
    assert text.endswith("}\n")


@pytest.mark.skipif(not TUTORIAL_PACK.is_file(), reason="the tutorial pack is not in this checkout")
def test_the_tutorial_pack_round_trips_unchanged(qapp) -> None:
    result = open_pack(TUTORIAL_PACK)
    assert result.problems == []
    assert result.document is not None
    assert engine.load_pack(result.document.to_data()) == engine.load_pack(TUTORIAL_PACK)
