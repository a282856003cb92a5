"""Opening a broken pack for repair keeps everything the author wrote (issue 15, item 5;
issue 34, item 4: any pack file that is JSON within the caps opens).

What the board cannot show is kept aside and written back; a field the editor
cannot use (a width of ``"9"``, an id that is a number) is kept as written while
the editor works with a stand-in; each is a located note, and a comparison
catches any difference the rules missed. The property test reads random
corruptions of the tutorial pack: each opens, and saving it untouched writes back
exactly what the file holds (entities row by row).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from editor.documents.pack import PackDocument
from editor.documents.reading import NOT_SHOWN, _canonical, _same_records
from editor.io.pack_io import RepairImpossibleError, read_for_repair
from tests.engine.test_validation_fuzz import FUZZ, TUTORIAL, mutated
from tests.support import grid_level, pack_document


def read(doc: dict[str, Any]) -> tuple[PackDocument, list[engine.Problem]]:
    notes: list[engine.Problem] = []
    return PackDocument.from_data(doc, notes=notes), notes


def entity_counter(level: dict[str, Any]) -> Counter[str]:
    return Counter(json.dumps(e, sort_keys=True) for e in level["entities"])


def test_a_valid_pack_reads_without_notes_and_writes_back_the_same(qapp) -> None:
    pack, notes = read(copy.deepcopy(TUTORIAL))
    assert notes == []
    assert pack.to_data() == TUTORIAL  # (entities already row by row in the tutorial)


def test_fields_the_editor_does_not_edit_are_carried_through(qapp) -> None:
    doc = pack_document(grid_level(["baba . flag", "BABA IS YOU"], "a"), pack_id="p")
    doc["version"] = 2
    doc["x-tool"] = {"generator": "hand"}
    doc["nouns"]["GHOST"] = {"color": "grey", "glyph": "G", "shade": 3}
    doc["levels"][0]["entities"][0]["tint"] = [1, 2]
    doc["levels"][0]["x-level-note"] = "draft"
    pack, notes = read(doc)
    assert pack.to_data() == doc
    assert [(n.pointer, n.code) for n in notes] == [("/nouns/GHOST", NOT_SHOWN)]
    assert pack.nouns["GHOST"].color == "#808080"  # shown grey in the palette


def test_off_grid_and_malformed_entities_are_kept_aside_in_order(qapp) -> None:
    level = grid_level(["baba . flag"], "a")
    level["entities"] += [
        {"id": 7, "kind": "object", "noun": "ROCK", "x": 9, "y": 0},
        {"id": 8, "kind": "crate", "x": 1, "y": 0},
        {"kind": "word", "text": "IS", "x": 1, "y": 0},
        "not an entity",
        {"id": 9, "kind": "word", "text": "IS", "x": True, "y": 0},
    ]
    pack, notes = read(pack_document(level, pack_id="p", nouns=["BABA", "FLAG", "ROCK"]))
    out = pack.to_data()["levels"][0]
    assert out["entities"] == level["entities"]  # the board's two, then the rest as written
    # one note per reason (the dialog lists them): off the grid, and four incomplete
    assert [(n.pointer, n.code) for n in notes] == [
        ("/levels/0/entities/2", NOT_SHOWN),
        ("/levels/0/entities/3", NOT_SHOWN),
    ]
    assert notes[1].message.endswith("(and 3 more entities)")
    assert pack.levels[0].entity_count() == 2


def test_repeated_ids_are_kept_as_written_off_the_board_and_listed(qapp) -> None:
    """Issue 34: an id used twice is no longer renumbered (a change the author did not
    make): the repeat is kept as written, off the board, and validation lists it."""
    level = grid_level(["baba baba baba"], "a")
    for entity in level["entities"]:
        entity["id"] = 5
    level["entities"].append({"id": 6, "kind": "object", "noun": "ROCK", "x": 4, "y": 0})
    pack, notes = read(pack_document(level, pack_id="p"))
    assert pack.to_data()["levels"][0]["entities"] == level["entities"]
    assert [(n.pointer, n.code) for n in notes] == [
        ("/levels/0/entities/1", NOT_SHOWN),  # and the next, for the same reason
        ("/levels/0/entities/3", NOT_SHOWN),
    ]
    assert "its id 5 is already used on the board" in notes[0].message
    assert notes[0].message.endswith("(and 1 more entity)")
    assert pack.levels[0].entity_count() == 1
    assert pack.levels[0].allocate_ids(1) == [7]  # new entities never reuse a kept id


def test_values_the_editor_cannot_hold_are_kept_as_written_and_listed(qapp) -> None:
    level = {
        "id": 7,
        "title": 3,
        "entities": [{"id": 1, "kind": "object", "noun": "BABA", "x": 4, "y": 2}],
    }
    doc = pack_document(level, pack_id="p")
    del doc["title"]
    pack, notes = read(doc)
    assert {(n.pointer, n.code) for n in notes} == {
        ("/levels/0/id", NOT_SHOWN),
        ("/levels/0/title", NOT_SHOWN),
        ("/levels/0/width", NOT_SHOWN),
        ("/levels/0/height", NOT_SHOWN),
        ("/title", NOT_SHOWN),
    }
    props = pack.levels[0].properties
    assert (props.level_id, props.title, props.width, props.height) == ("7", "", 5, 3)
    assert pack.to_data() == doc  # nothing of the author's is changed


@pytest.mark.parametrize(("key", "value"), [("width", "5"), ("height", 300), ("width", 0)])
def test_a_size_the_grid_does_not_allow_is_kept_as_written(qapp, key: str, value: object) -> None:
    """Issue 34: a written size outside the grid opens for repair; the board uses the
    smallest grid that holds the entities and the file's value is saved until the
    author sets the size (issue 20 refused the pack; the first repair guessed)."""
    level = {"id": "a", "width": 5, "height": 3, "entities": [], key: value}
    doc = pack_document(level, pack_id="p")
    pack, notes = read(doc)
    [note] = notes
    assert (note.pointer, note.code) == (f"/levels/0/{key}", NOT_SHOWN)
    assert f"'{key}' is written as {json.dumps(value)}" in note.message
    assert getattr(pack.levels[0].properties, key) == {"width": 12, "height": 9}[key]
    assert pack.to_data() == doc
    props = pack.levels[0].properties  # the author sets the size: the new one is saved
    pack.levels[0].set_properties(replace(props, **{key: 4}))
    assert pack.to_data()["levels"][0][key] == 4
    pack.undo_stack.undo()
    assert pack.to_data() == doc


def test_a_resize_that_fits_kept_entities_puts_them_on_the_board_and_undo_takes_them_off(
    qapp,
) -> None:
    level = grid_level(["baba"], "a")
    level["entities"].append({"id": 9, "kind": "object", "noun": "ROCK", "x": 3, "y": 2, "tag": 1})
    pack, _notes = read(pack_document(level, pack_id="p"))
    doc = pack.levels[0]
    from editor.values import Pos

    doc.set_properties(doc.properties.__class__("a", "", "", 4, 3))
    assert [p.id for p in doc.stack_at(Pos(3, 2))] == [9]
    assert doc.unshown() == ()
    assert doc.to_data()["entities"][-1] == {
        "id": 9,
        "kind": "object",
        "noun": "ROCK",
        "x": 3,
        "y": 2,
        "tag": 1,
    }
    pack.undo_stack.undo()
    assert doc.unshown() == (level["entities"][-1],)
    assert doc.stack_at(Pos(3, 2)) == ()


def test_a_file_that_is_not_a_pack_object_refuses_to_open_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(RepairImpossibleError, match="not a pack object"):
        read_for_repair(path)


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ({"nouns": [], "levels": []}, "/nouns"),
        ({"nouns": {}, "levels": {}}, "/levels"),
        ({"nouns": {}, "levels": [3]}, "/levels/0"),
        ({"nouns": {}, "levels": [{"entities": 3}]}, "/levels/0/entities"),
    ],
)
def test_anything_that_is_json_opens_for_repair_and_is_saved_as_written(
    qapp, tmp_path: Path, doc: dict[str, Any], where: str
) -> None:
    """Issue 34, item 4: what the editor cannot hold (nouns that are not a map, levels
    that are not a list, a level or entities that are not what they should be) is kept
    as written, and saving the pack untouched writes the file's values back."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    pack, notes = read_for_repair(path)
    assert where in {n.pointer for n in notes}
    assert {n.code for n in notes} == {NOT_SHOWN}
    saved = pack.to_data()
    for key in ("nouns", "levels"):
        assert saved[key] == doc[key]


def grid_size_ok(level: dict[str, Any], key: str) -> bool:
    """Whether a level's size is absent or one the grid allows (issue 20: else refused)."""
    value = level.get(key, 1)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return type(value) is int and 1 <= value <= engine.MAX_GRID_SIZE


def unexplained(raw: dict[str, Any], out: dict[str, Any], notes: list[engine.Problem]) -> list[str]:
    """Differences between the file and what would be saved that no note explains."""
    changes = [n.pointer for n in notes if n.code != NOT_SHOWN]

    def noted(prefix: str) -> bool:
        return any(p == prefix or p.startswith(prefix + "/") for p in changes)

    found = []
    for key in set(raw) | set(out):
        if key != "levels" and raw.get(key) != out.get(key) and not noted(f"/{key}"):
            found.append(f"/{key}")
    levels = raw.get("levels", [])
    saved = out.get("levels", [])
    if not isinstance(levels, list) or not isinstance(saved, list):
        return found  # compared whole above
    for index, (before, after) in enumerate(zip(levels, saved, strict=True)):
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue  # a level that is not an object: compared by same_but_entity_order
        for key in set(before) | set(after):
            where = f"/levels/{index}/{key}"
            if key == "entities" and isinstance(before.get(key), list):
                renumbered = sum(
                    1 for p in changes if p.startswith(where + "/") and p.endswith("/id")
                )
                lost = entity_counter(before) - entity_counter(after)
                if sum(lost.values()) > renumbered or len(before[key]) != len(after[key]):
                    found.append(where)
            elif before.get(key) != after.get(key) and not noted(where):
                found.append(where)
    return found


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(mutated(TUTORIAL))
def test_every_difference_between_a_broken_file_and_what_is_saved_is_listed(
    tmp_path_factory: pytest.TempPathFactory, doc: dict[str, Any]
) -> None:
    path = tmp_path_factory.mktemp("repair") / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        pack, notes = read_for_repair(path)
    except RepairImpossibleError:  # only when it is not JSON a pack can be, within the caps
        assert not isinstance(doc, dict) or engine.structure_problems(doc) != []
        return
    assert unexplained(doc, pack.to_data(), notes) == []
    assert [n for n in notes if n.code != NOT_SHOWN] == []  # nothing the author wrote changes
    assert same_but_entity_order(doc, pack.to_data())
    assert pack.to_data() == json.loads(json.dumps(pack.to_data()))  # still JSON


def same_but_entity_order(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether a pack is saved as the file has it, entities row by row aside."""
    if _canonical({**before, "levels": 0}) != _canonical({**after, "levels": 0}):
        return False
    levels, saved = before.get("levels"), after.get("levels")
    if not isinstance(levels, list) or not isinstance(saved, list):
        return _canonical(levels) == _canonical(saved)
    for one, two in zip(levels, saved, strict=True):
        if isinstance(one, dict) and isinstance(one.get("entities"), list):
            if _canonical({**one, "entities": 0}) != _canonical({**two, "entities": 0}):
                return False
            if not _same_records(one["entities"], two["entities"]):
                return False
        elif _canonical(one) != _canonical(two):
            return False
    return True


_JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.sampled_from([0.0, 1.0, 1.5])
    | st.text("ab1", max_size=2),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text("ab", max_size=1), inner, max_size=2)
    ),
    max_leaves=4,
)
_RECORDS = st.lists(
    st.dictionaries(st.sampled_from(["id", "x", "kind", "noun"]), _JSONISH, max_size=4) | _JSONISH,
    max_size=4,
)


def _lookalike(value: Any) -> Any:
    """A value Python's == may take for ``value`` and JSON does not: 1 for true, 1.0 for 1."""
    if isinstance(value, dict):
        return {k: _lookalike(v) for k, v in value.items()}
    if type(value) is bool:
        return int(value)
    if type(value) is int:
        return bool(value) if value in (0, 1) else float(value)
    if type(value) is float and value.is_integer():
        return int(value)
    return value


@settings(max_examples=400, deadline=None)
@given(_RECORDS, _RECORDS, st.randoms())
def test_entity_lists_compare_as_their_canonical_json_does(
    one: list[Any], two: list[Any], rng: Any
) -> None:
    """The quick comparison of flat records gives the canonical JSON's answer, every time."""
    twisted = [_lookalike(r) if rng.random() < 0.5 else r for r in one]
    for first, second in ((one, two), (one, rng.sample(one, len(one))), (one, twisted)):
        expected = sorted(map(_canonical, first)) == sorted(map(_canonical, second))
        assert _same_records(first, second) is expected
