"""The bundled ``packs/keke-classics.json``: every solution wins, and it is what the raw files give.

``tools/keke_classics.py --check`` regenerates it byte for byte (the ordering runs
the solver, about a minute); here the content is checked against a fresh import
of the raw files, and against the team's corpus converted by another tool.
"""

from __future__ import annotations

import pytest

from engine import Level, load_pack, replay
from tests.support import PACKS_DIR, keke_corpus

CLASSICS = load_pack(PACKS_DIR / "keke-classics.json")
NOTICE = PACKS_DIR / "keke-classics.LICENSE.md"


@pytest.mark.parametrize("level", CLASSICS.levels, ids=[lv.id for lv in CLASSICS.levels])
def test_every_solution_in_the_classics_pack_wins(level: Level) -> None:
    assert level.solution
    events = replay(level, level.solution)
    assert all(event.accepted for event in events)
    assert [n for n, event in enumerate(events, start=1) if event.won] == [len(events)]


def test_the_pack_is_what_the_raw_files_give() -> None:
    from tools.keke_classics import collect

    fresh = {level.id: level for level in collect()}
    assert {level.id: level for level in CLASSICS.levels} == fresh


def test_the_pack_holds_the_corpus_levels() -> None:
    corpus = {record["id"]: record for record in keke_corpus()["levels"]}
    assert len(CLASSICS.levels) == 113
    assert {level.id for level in CLASSICS.levels} == set(corpus)
    for level in CLASSICS.levels:
        record = corpus[level.id]
        assert [e.model_dump(exclude={"id"}) for e in level.entities] == record["entities"]
        assert (level.title, level.solution) == (record["name"], record["solution"])


def test_sources_authors_and_licence_are_credited() -> None:
    assert CLASSICS.description is not None
    for words in ("MasterMilkX/KekeCompetition", "tsukii7/KekeCompetition", "MIT", NOTICE.name):
        assert words in CLASSICS.description
    assert all(level.author for level in CLASSICS.levels)
    text = NOTICE.read_text(encoding="utf-8")
    assert "Permission is hereby granted" in text
    for level in CLASSICS.levels:
        for author in (level.author or "").split(" + "):
            assert f"- {author.lower()} (" in text.lower()


def test_the_order_starts_with_one_move_levels_and_ends_with_long_ones() -> None:
    lengths = [len(level.solution or "") for level in CLASSICS.levels]
    third = len(lengths) // 3
    assert max(lengths[:5]) <= 2
    assert sum(lengths[:third]) * 3 < sum(lengths[-third:])
