"""Bounded work, fuzzed: every small input is answered in bounded time (issue 20).

A fixed budget of examples goes to ``load_pack``, share ``decode`` and
``Game.from_snapshot``, each under a per-example deadline: an input that takes
longer fails the run (hypothesis reports the slow example) instead of passing
slowly. The inputs are shaped like the issue's: rows of stacked words that may
form rule bombs, lists around their caps, floods of faults, and real snapshots
with values changed. Each call must return or raise the engine's own located
error, nothing else.

The deadline is the issue's goal for an input under 1 MB (2 s), with room for a
loaded CI machine; real examples take milliseconds.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, ValidationError, load_level, load_pack, share
from engine.limits import MAX_AUTOMATA, MAX_NOUNS, MAX_PATTERN_STEPS
from engine.share.codec import seal, to_text
from tests.engine.strategies import DIRECTIONS, levels
from tests.support import pack_document

#: Examples per fuzz test: a fixed budget, so a CI run costs the same every time
#: (a few seconds per test on two cores).
EXAMPLES = 100
BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=3),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

WORDS = ("A", "B", "C", "D", "AND", "AND", "IS", "YOU", "PUSH", "WIN")


@st.composite
def stacked_rows(draw: st.DrawFn) -> dict[str, Any]:
    """Rows of cells holding one to three words: often a sentence, sometimes a bomb."""
    width = draw(st.integers(3, 40))
    height = draw(st.integers(1, 3))
    entities: list[dict[str, Any]] = []
    for y in range(height):
        for x in range(width):
            pattern = ("A", "AND", "IS", "YOU")[x % 4] if draw(st.booleans()) else None
            stack = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=3))
            for text in ([pattern] if pattern else []) + stack:
                entities.append(
                    {"id": len(entities) + 1, "kind": "word", "text": text, "x": x, "y": y}
                )
    entities.append({"id": len(entities) + 1, "kind": "object", "noun": "A", "x": 0, "y": 0})
    return {"id": "rows", "width": width, "height": height, "entities": entities}


@st.composite
def long_lists(draw: st.DrawFn) -> dict[str, Any]:
    """A level or pack with one list or map of a length drawn around its cap."""
    base = {
        "id": "lists",
        "width": 3,
        "height": 1,
        "entities": [{"id": 1, "kind": "object", "noun": "A", "x": 0, "y": 0}],
    }
    which = draw(st.sampled_from(["pattern", "automata", "nouns", "entities", "fields"]))
    if which == "pattern":
        steps = [{"action": "wait"}] * draw(st.integers(MAX_PATTERN_STEPS - 2, 4000))
        base["automata"] = [{"id": "a", "property": "TICK", "pattern": steps}]
    elif which == "automata":
        count = draw(st.integers(MAX_AUTOMATA - 2, 3000))
        base["automata"] = [
            {"id": f"a{i}", "property": "TICK", "pattern": [{"action": "wait"}]}
            for i in range(count)
        ]
    elif which == "entities":
        count = draw(st.integers(0, 3000))
        base["entities"] = [
            {"id": i + 1, "kind": "object", "noun": "A", "x": 9, "y": 0} for i in range(count)
        ]  # every one out of bounds: a flood of problems
    elif which == "fields":
        base.update({f"junk{i}": i for i in range(draw(st.integers(0, 3000)))})
    doc = pack_document(base, nouns=["A"])
    if which == "nouns":
        count = draw(st.integers(MAX_NOUNS - 2, 5000))
        doc["nouns"] = {f"N{i}": {"color": "#000000"} for i in range(count)}
    return doc


def answered(call: Any, *args: Any) -> Any:
    """The result, or ``None`` for the engine's own located error; anything else fails."""
    try:
        return call(*args)
    except ValidationError as exc:
        errors = exc.errors
    assert errors
    assert all(isinstance(p.pointer, str) and p.code for p in errors)
    assert len(errors) <= 1_001
    return None


@BOUNDED
@given(stacked_rows())
def test_fuzz_load_pack_of_stacked_words(level: dict[str, Any]) -> None:
    pack = answered(load_pack, pack_document(level))
    if pack is not None:
        game = Game(pack.levels[0])
        game.step("right")
        json.dumps(game.state())


@BOUNDED
@given(long_lists())
def test_fuzz_load_pack_of_long_lists(doc: dict[str, Any]) -> None:
    answered(load_pack, doc)


@BOUNDED
@given(st.one_of(stacked_rows(), long_lists()), st.booleans())
def test_fuzz_share_decode(content: dict[str, Any], as_level: bool) -> None:
    if "format" in content:
        document = {"pack": content}
    elif as_level:
        document = {"level": content}
    else:
        document = {"pack": pack_document(content)}
    try:
        text = to_text(seal(document))
    except share.ShareError:
        return  # refused by a payload limit before it is a payload
    preview = answered(share.decode, text)
    if preview is not None:
        assert len(preview.problems) <= 1_001


SNAPSHOT_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 10**6),
    st.sampled_from([10**30, 1.5, "", "BABA", "x" * 50]),
    st.lists(st.integers(0, 5), max_size=3),
    st.dictionaries(st.sampled_from(["id", "x", "y", "kind", "leaves"]), st.integers(0, 5)),
)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*here, index))
    return found


@BOUNDED
@given(levels(), st.lists(st.sampled_from(DIRECTIONS), max_size=12), st.data())
def test_fuzz_game_from_snapshot(level: dict[str, Any], moves: list[str], data: Any) -> None:
    loaded = load_level(level)
    game = Game(loaded)
    for move in moves:
        game.step(move)
    snapshot = game.snapshot()
    for _ in range(data.draw(st.integers(0, 3))):
        path = data.draw(st.sampled_from([p for p in _paths(snapshot) if p]))
        parent = snapshot
        for key in path[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["set", "delete", "repeat"]))
        if how == "set":
            parent[path[-1]] = data.draw(SNAPSHOT_VALUES)
        elif how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.extend([parent[path[-1]]] * data.draw(st.integers(1, 200)))
    restored = answered(Game.from_snapshot, loaded, snapshot)
    if restored is not None:
        restored.step("left")
        assert restored.snapshot()["level"] == loaded.id
