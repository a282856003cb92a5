"""One checker for entity records: restoring a snapshot and keying a solver position agree.

``Game.from_snapshot`` and the compact path's ``CompactLevel.key_of`` both read
entity records from outside (spec 04, "Hidden FRAIL state fails closed"). They
share one checker, so the same faulty records give the same problems, code and
pointer alike, on both paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import Game, ValidationError, load_level
from engine.solve.level import CompactLevel
from tests.support import grid_level

FRAIL_MAP = [
    {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {"DRIFT": "WATER"}}
]
# ids: 1 BABA, 2 IS, 3 YOU (words), 4 drift, 5 baba (objects)
LEVEL = grid_level(["BABA IS YOU", ". drift baba"], level_id="records", mechanics=FRAIL_MAP)

Entities = list[Any]


def _set(index: int, **fields: Any) -> Callable[[Entities], object]:
    return lambda entities: entities[index].update(fields)


FAULTS: list[tuple[str, Callable[[Entities], object], list[tuple[str, str]]]] = [
    (
        "per-object leaves",
        _set(3, leaves={"DRIFT": "WATER"}),
        [("/entities/3/leaves", "per-object-leaves")],
    ),
    ("a crumble counter", _set(3, crumbles=2), [("/entities/3/crumbles", "unknown-field")]),
    (
        "leaves and an unknown noun",
        _set(4, leaves={}, noun="LAVA"),
        [("/entities/4/leaves", "per-object-leaves"), ("/entities/4/noun", "unknown-noun")],
    ),
    ("an unknown id", _set(0, id=99), [("/entities/0/id", "unknown-entity")]),
    ("an id that is text", _set(0, id="1"), [("/entities/0/id", "unknown-entity")]),
    (
        "a repeated entity",
        lambda e: e.append(dict(e[0])),
        [("/entities/5/id", "duplicate-entity-id")],
    ),
    ("an object as a word", _set(4, kind="word"), [("/entities/4/kind", "bad-value")]),
    ("a word that reads otherwise", _set(0, text="ROCK"), [("/entities/0/text", "bad-value")]),
    ("a noun the level cannot have", _set(4, noun="LAVA"), [("/entities/4/noun", "unknown-noun")]),
    ("a noun that is not text", _set(4, noun=["BABA"]), [("/entities/4/noun", "unknown-noun")]),
    ("off the grid", _set(4, x=99), [("/entities/4", "out-of-bounds")]),
    ("a position that is true", _set(4, y=True), [("/entities/4", "out-of-bounds")]),
    ("a record that is text", lambda e: e.__setitem__(1, "IS"), [("/entities/1", "wrong-type")]),
]


def snapshot_problems(level: Any, snapshot: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        Game.from_snapshot(level, snapshot)
    assert all(p.pointer.startswith("/current/") for p in caught.value.errors)
    return [(p.pointer.removeprefix("/current"), p.code) for p in caught.value.errors]


def compact_problems(compact: CompactLevel, position: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        compact.key_of(position)
    return [(p.pointer, p.code) for p in caught.value.errors]


@pytest.mark.parametrize(("fault", "tamper", "expected"), FAULTS, ids=[f[0] for f in FAULTS])
def test_the_same_faulty_records_give_the_same_problems_on_both_paths(
    fault: str, tamper: Callable[[Entities], object], expected: list[tuple[str, str]]
) -> None:
    level = load_level(LEVEL)
    compact = CompactLevel(level)
    snapshot = Game(level).snapshot()
    compact.key_of(snapshot["current"])  # the untouched position is fine on the compact path
    Game.from_snapshot(level, snapshot)  # and on the public one
    tamper(snapshot["current"]["entities"])
    assert snapshot_problems(level, snapshot) == expected, fault
    assert compact_problems(compact, snapshot["current"]) == expected, fault


def test_entities_that_are_not_a_list_are_the_same_problem_on_both_paths() -> None:
    level = load_level(LEVEL)
    snapshot = Game(level).snapshot()
    snapshot["current"]["entities"] = {"1": {"id": 1}}
    expected = [("/entities", "wrong-type")]
    assert snapshot_problems(level, snapshot) == expected
    assert compact_problems(CompactLevel(level), snapshot["current"]) == expected


def test_both_paths_accept_a_position_without_some_entities_as_those_entities_gone() -> None:
    level = load_level(LEVEL)
    compact = CompactLevel(level)
    snapshot = Game(level).snapshot()
    del snapshot["current"]["entities"][3]  # the drift object is gone
    game = Game.from_snapshot(level, snapshot)
    assert [e["id"] for e in game.state()["entities"]] == [1, 2, 3, 5]
    assert [e["id"] for e in compact.describe(compact.key_of(snapshot["current"]))["entities"]] == [
        1,
        2,
        3,
        5,
    ]
