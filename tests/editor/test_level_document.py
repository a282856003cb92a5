from __future__ import annotations

import pytest

import engine
from editor.documents.level import LevelDocument
from editor.values import OBJECT, WORD, Anchor, LevelProperties, Piece, Pos, Stamp

BABA, ROCK, IS = Stamp(OBJECT, "BABA"), Stamp(OBJECT, "ROCK"), Stamp(WORD, "IS")


@pytest.fixture
def level(qapp) -> LevelDocument:
    return LevelDocument(LevelProperties("l", "L", "", 6, 4))


def test_ids_are_assigned_by_the_document_and_never_reused(level: LevelDocument) -> None:
    level.add_on_top([Pos(0, 0), Pos(1, 0)], BABA)
    level.add_on_top([Pos(0, 0)], IS)
    assert [p.id for p in level.stack_at(Pos(0, 0))] == [1, 3]
    level.undo_stack.undo()
    level.add_on_top([Pos(2, 0)], ROCK)
    assert level.stack_at(Pos(2, 0))[0].id == 4  # 3 was handed out once; it stays retired


def test_ids_stay_stable_across_undo_redo_and_moves(level: LevelDocument) -> None:
    level.add_on_top([Pos(0, 0)], BABA)
    level.add_on_top([Pos(0, 0)], IS)
    before = level.stack_at(Pos(0, 0))
    level.move_region([Pos(0, 0)], 3, 2)
    assert level.stack_at(Pos(3, 2)) == before
    level.undo_stack.undo()
    assert level.stack_at(Pos(0, 0)) == before
    level.undo_stack.undo()
    assert level.stack_at(Pos(0, 0)) == before[:1]
    level.undo_stack.redo()
    level.undo_stack.redo()
    assert level.stack_at(Pos(3, 2)) == before
    assert level.stack_at(Pos(0, 0)) == ()


def test_remove_top_takes_the_top_entity_or_the_whole_stack(level: LevelDocument) -> None:
    level.add_on_top([Pos(1, 1)], BABA)
    level.add_on_top([Pos(1, 1)], ROCK)
    level.add_on_top([Pos(1, 1)], IS)
    level.remove_top([Pos(1, 1)])
    assert [p.token for p in level.stack_at(Pos(1, 1))] == ["BABA", "ROCK"]
    level.remove_top([Pos(1, 1)], whole_stack=True)
    assert level.stack_at(Pos(1, 1)) == ()
    assert level.remove_top([Pos(1, 1)]) is False  # nothing left: no command pushed
    assert level.undo_stack.count() == 5


def test_moved_stacks_land_on_top_and_copies_get_new_ids(level: LevelDocument) -> None:
    level.add_on_top([Pos(0, 0)], BABA)
    level.add_on_top([Pos(1, 0)], ROCK)
    level.move_region([Pos(0, 0)], 1, 0, copy=True)
    stack = level.stack_at(Pos(1, 0))
    assert [p.token for p in stack] == ["ROCK", "BABA"]
    assert stack[1].id not in {1, 2}
    assert level.stack_at(Pos(0, 0))[0].id == 1
    with pytest.raises(ValueError, match="leave the grid"):
        level.move_region([Pos(0, 0)], -1, 0)


def test_set_stack_only_reorders_or_removes(level: LevelDocument) -> None:
    level.add_on_top([Pos(0, 0)], BABA)
    level.add_on_top([Pos(0, 0)], ROCK)
    a, b = level.stack_at(Pos(0, 0))
    level.set_stack(Pos(0, 0), (b, a), text="Reorder Stack")
    assert level.stack_at(Pos(0, 0)) == (b, a)
    with pytest.raises(ValueError, match="reordered or reduced"):
        level.set_stack(Pos(0, 0), (a, Piece(99, OBJECT, "WALL")), text="x")


def test_resize_shifts_contents_by_the_anchor_and_undoes(level: LevelDocument) -> None:
    level.add_on_top([Pos(0, 0), Pos(5, 3)], BABA)
    bigger = LevelProperties("l", "L", "", 8, 6)
    level.set_properties(bigger, Anchor(2, 2))  # old contents to the bottom-right
    assert set(level.cells()) == {Pos(2, 2), Pos(7, 5)}
    smaller = LevelProperties("l", "L", "", 3, 3)
    level.set_properties(smaller, Anchor(0, 0))
    assert set(level.cells()) == {Pos(2, 2)}
    level.undo_stack.undo()
    level.undo_stack.undo()
    assert (level.width, level.height) == (6, 4)
    assert set(level.cells()) == {Pos(0, 0), Pos(5, 3)}
    assert level.undo_stack.command(1).text() == "Resize Level"


def test_round_trip_keeps_stack_order_ids_and_unedited_data(level: LevelDocument) -> None:
    automata = [{"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}], "phase": 0}]
    data = {
        "id": "x",
        "title": "X",
        "width": 3,
        "height": 2,
        "solution": "R",
        "entities": [
            {"id": 5, "kind": "word", "text": "TICK", "x": 2, "y": 1},
            {"id": 9, "kind": "object", "noun": "BABA", "x": 0, "y": 0},
            {"id": 2, "kind": "word", "text": "IS", "x": 0, "y": 0},
        ],
        "automata": automata,
    }
    doc = LevelDocument.from_data(data)
    assert [p.id for p in doc.stack_at(Pos(0, 0))] == [
        9,
        2,
    ]  # list order is stack order, bottom first
    out = doc.to_data()
    assert out["automata"] == automata
    assert out["solution"] == "R"
    assert [e["id"] for e in out["entities"]] == [9, 2, 5]  # row-major, bottom first
    assert engine.load_level(out).to_data()["entities"] == out["entities"]
    assert doc.automaton_properties() == frozenset({"TICK"})


def test_reading_for_repair_keeps_off_grid_pieces_and_repeated_ids_aside() -> None:
    data = {
        "id": "x",
        "width": 2,
        "height": 2,
        "entities": [
            {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 0},
            {"id": 1, "kind": "object", "noun": "ROCK", "x": 1, "y": 0},
            {"id": 3, "kind": "object", "noun": "ROCK", "x": 5, "y": 0},
        ],
    }
    with pytest.raises(ValueError, match=r"outside the grid|already used"):
        LevelDocument.from_data(data)
    notes: list[str] = []
    doc = LevelDocument.from_data(data, notes)
    assert sorted(p.id for s in doc.cells().values() for p in s) == [1]
    assert doc.unshown() == tuple(data["entities"][1:])  # as written: issue 34 renumbers nothing
    assert doc.to_data()["entities"] == data["entities"]  # kept, written back after the board
    assert {(n.pointer, n.code) for n in notes} == {
        ("/entities/1", "not-shown"),
        ("/entities/2", "not-shown"),
    }


def test_a_pack_hears_every_kind_of_level_edit_without_asking_qt_who_sent_it(
    session, monkeypatch
) -> None:
    """``QObject.sender()`` walks every connection made to the pack, one per level or
    more: 9 ms an edit in a pack of 10,000 levels. The level names itself instead."""
    from dataclasses import replace

    from editor.documents.pack import PackDocument

    def refused(_self: object) -> None:
        pytest.fail("the pack asked Qt for the sender of a level's signal")

    monkeypatch.setattr(PackDocument, "sender", refused)
    pack = session.pack
    level = pack.levels[0]
    edited: list[LevelDocument] = []
    changed: list[int] = []
    pack.level_edited.connect(edited.append)
    pack.level_changed.connect(changed.append)
    record = {"id": "automaton", "property": "TICK", "phase": 0, "pattern": []}
    version = pack.automata_version()

    assert level.add_on_top([Pos(1, 1)], Stamp(OBJECT, "BABA"))  # cells
    assert level.set_properties(replace(level.properties, title="Renamed"))  # properties
    assert level.set_authored("automata", [record], text="Add automaton")  # authored
    assert edited == [level, level, level]
    assert changed == [0]  # the level list shows the new title
    assert pack.automata_version() > version
    assert level in pack.levels_with_automata()


def test_new_and_duplicated_levels_get_free_ids_through_renames_and_undo(session) -> None:
    """The pack keeps a count of its ids between edits; every change must reach it."""
    from dataclasses import replace

    pack = session.pack
    ids = lambda: [level.level_id for level in pack.levels]  # noqa: E731
    added = pack.add_level(1)
    assert len(set(ids())) == len(ids()) == 2
    assert added.set_properties(replace(added.properties, level_id="level-3"))
    assert pack.add_level(2).level_id == "level-2"  # "level-3", the first choice, is taken
    assert pack.duplicate_level(1).level_id == "level-3-copy"
    assert pack.duplicate_level(1).level_id == "level-3-copy-2"
    pack.undo_stack.undo()  # the second copy goes: its id is free again
    assert pack.duplicate_level(1).level_id == "level-3-copy-2"
    assert pack.unique_level_id("level-3") == "level-4"  # level-2 and level-3 are taken
    pack.remove_level(pack.levels.index(added))  # "level-3" is free again
    assert pack.unique_level_id("level-3") == "level-3"
    assert len(set(ids())) == len(ids())


def test_a_pack_read_from_a_file_knows_its_ids_before_the_first_new_level(qapp) -> None:
    from editor.documents.pack import PackDocument
    from tests.support import grid_level, pack_document

    levels = [grid_level(["baba"], level_id) for level_id in ("level-4", "level-2", "c")]
    pack = PackDocument.from_data(pack_document(*levels, pack_id="read"))
    assert pack.add_level(3).level_id == "level-3"  # "level-4" (a fourth level's) is taken
    assert pack.add_level(4).level_id == "level-5"
    assert pack.add_level(5).level_id == "level-6"


def test_a_duplicated_level_holds_everything_the_source_does_and_shares_nothing_mutable(
    qapp,
) -> None:
    """Duplicate Level copies the document rather than writing it out and reading it
    back: the copy must still carry automata, off-board records and unknown fields,
    and editing them in the copy must leave the source as it was."""
    from editor.documents.pack import PackDocument

    data = {
        "id": "src",
        "title": "Source",
        "width": 4,
        "height": 2,
        "entities": [
            {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 0, "note": {"by": ["a"]}},
            {"id": 2, "kind": "word", "text": "BABA", "x": 1, "y": 0},
            {"id": 7, "kind": "object", "noun": "ROCK", "x": 9, "y": 9},  # off the board
        ],
        "automata": [{"entity": 1, "property": "MOVE", "pattern": [{"dir": "right"}]}],
        "hint": {"steps": [1, 2]},
    }
    pack = PackDocument.untitled()
    pack.write_remove_level(0)
    pack.write_insert_level(0, LevelDocument.from_data(data, []))
    source = pack.levels[0]
    copy = pack.duplicate_level(0)
    expected = dict(source.to_data(), id="src-copy", title="Source (copy)")
    assert copy.to_data() == expected
    # the copy's own structures, not the source's:
    copy._extra["automata"][0]["pattern"].append({"dir": "left"})
    copy._extra["hint"]["steps"].append(3)
    copy._entity_extra[1]["note"]["by"].append("b")
    copy._unshown[0]["x"] = 0
    assert source.to_data() == dict(expected, id="src", title="Source")
    assert copy.add_on_top([Pos(3, 1)], BABA)
    assert copy.stack_at(Pos(3, 1))[0].id == 8
