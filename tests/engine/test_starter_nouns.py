"""A new pack does not warn about the starter nouns the editor gave it (issue 35, item 3)."""

from __future__ import annotations

import engine
from tests.support import grid_level, pack_document

WINNABLE = ["baba . flag", "BABA IS YOU", "FLAG IS WIN"]


def unused(nouns: list[str]) -> list[str]:
    doc = pack_document(grid_level(WINNABLE, "a"), nouns=nouns)
    report = engine.check_pack(doc)
    assert report.errors == ()
    return [p.pointer for p in report.warnings if p.code == "unused-noun"]


def test_the_starter_set_whole_warns_about_none_of_its_nouns() -> None:
    assert unused(list(engine.STARTER_NOUNS)) == []


def test_a_noun_the_author_added_still_warns_beside_the_starter_set() -> None:
    assert unused([*engine.STARTER_NOUNS, "GHOST"]) == ["/nouns/GHOST"]


def test_once_the_author_removes_a_starter_noun_the_rest_are_their_nouns() -> None:
    nouns = [n for n in engine.STARTER_NOUNS if n != "WATER"]
    expected = sorted(f"/nouns/{n}" for n in nouns if n not in ("BABA", "FLAG"))
    assert unused(nouns) == expected


def test_a_pack_without_the_starter_set_warns_as_before() -> None:
    assert unused(["BABA", "FLAG", "ROCK"]) == ["/nouns/ROCK"]
