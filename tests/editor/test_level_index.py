"""The pack's level index answers as a walk over its levels would, through any edits."""

from __future__ import annotations

import random
from dataclasses import replace

from editor.documents.level import LevelDocument, list_names
from editor.documents.level_index import SEARCHES_BEFORE_ROWS
from editor.documents.pack import PackDocument
from editor.values import LevelProperties

AUTOMATON = [{"property": "PULSE", "pattern": [1, 0]}]


def walked(pack: PackDocument, others: list[LevelDocument]) -> dict[str, object]:
    """What each answer must be, worked out from the list of levels alone."""
    levels = pack.levels
    return {
        "rows": [pack.row_of(level) for level in levels + others],
        "members": [pack.has_level(level) for level in levels + others],
        "names": pack.level_names(),
        "automata": pack.levels_with_automata(),
        "ids": [pack.unique_level_id(level.level_id) != level.level_id for level in levels],
    } | {
        "expected": (
            list(range(len(levels))) + [None] * len(others),
            [True] * len(levels) + [False] * len(others),
            list_names(levels),
            [level for level in levels if level.automaton_records()],
            [True] * len(levels),
        )
    }


def test_the_index_agrees_with_the_levels_through_random_edits_and_undo(qapp) -> None:
    levels = [
        LevelDocument(LevelProperties(f"level-{n}", f"Level {n}" if n % 3 else "", "", 5, 5))
        for n in range(12)
    ]
    pack = PackDocument.untitled()
    for level in levels:  # built in, as opening does
        pack._append_built(level)
    chance = random.Random(38)
    gone: list[LevelDocument] = []
    versions = [pack.automata_version()]
    for _step in range(150):
        count = pack.level_count()
        what = chance.choice(["add", "duplicate", "remove", "move", "rename", "automata", "undo"])
        index = chance.randrange(count)
        if what == "add":
            pack.add_level(chance.randrange(count + 1))
        elif what == "duplicate":
            pack.duplicate_level(index)
        elif what == "remove" and count > 1:
            gone.append(pack.level_at(index))
            pack.remove_level(index)
        elif what == "move" and count > 1:
            pack.move_level(index, chance.randrange(count))
        elif what == "rename":
            level = pack.level_at(index)
            title = chance.choice(["", "A", "B"])
            level.set_properties(replace(level.properties, level_id=f"x-{_step}", title=title))
        elif what == "automata":
            level = pack.level_at(index)
            value = None if level.automaton_records() else AUTOMATON
            level.set_authored("automata", value, text="Automata")
            versions.append(pack.automata_version())
        elif what == "undo" and pack.undo_stack.canUndo():
            pack.undo_stack.undo()
        # Ask a few times before the walk: the first lookups after a change search.
        for _ in range(chance.randrange(SEARCHES_BEFORE_ROWS + 3)):
            pack.row_of(pack.level_at(chance.randrange(pack.level_count())))
        others = [level for level in gone if level not in pack.levels]
        found = walked(pack, others)
        expected = found.pop("expected")
        assert tuple(found.values()) == expected
    assert versions == sorted(versions)  # every automata edit gives a new version
    assert len(set(versions)) == len(versions)
