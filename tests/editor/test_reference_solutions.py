"""Reference solutions in the editor: kept through open, edit and save; shown, read-only.

The editor does not edit ``references`` (docs/decisions.md, "Reference
solutions"); it carries them unchanged, shows them in Level Properties, and a
problem with one (the lint replays it) opens Level Properties.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import engine
from editor.dialogs.forms import REFERENCE_TIP_MOVES, LevelPropertiesDialog
from editor.values import OBJECT, LevelProperties, Pos, Stamp
from tests.editor.test_open_save_background import checked
from tests.editor.test_validation_panel import records
from tests.editor.window_driver import click, trigger, use
from tests.support import grid_level, pack_document

ROWS = [". . . .", "baba . flag .", "BABA IS YOU .", "FLAG IS WIN ."]
HUMAN = {"moves": "URRD", "source": "recorded in full_biy_LEVELS.json, level 7"}


def pack_with_references(path: Path, *references: dict[str, Any]) -> Path:
    level = grid_level(ROWS, "a", solution="RR", references=list(references))
    path.write_text(engine.dump_pack(pack_document(level, pack_id="refs")), encoding="utf-8")
    return path


def test_references_survive_open_an_edit_and_save_unchanged(
    qtbot, make_window, dialogs, tmp_path
) -> None:
    path = pack_with_references(tmp_path / "refs.json", HUMAN, {"moves": "RR", "source": "me"})
    before = engine.load_pack(path).levels[0].to_data()["references"]
    window = make_window(path)
    checked(qtbot, window)
    dialogs.changed_answer = "overwrite"
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # as opened
    assert (
        engine.load_pack(path).to_data()
        == engine.load_pack(
            pack_with_references(tmp_path / "again.json", HUMAN, {"moves": "RR", "source": "me"})
        ).to_data()
    )
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(3, 0))  # an edit elsewhere on the level
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    saved = engine.load_pack(path).levels[0]
    assert saved.to_data()["references"] == before
    assert any(e.x == 3 and e.y == 0 for e in saved.entities)


def test_level_properties_is_given_the_references(qtbot, make_window, dialogs, tmp_path) -> None:
    window = make_window(pack_with_references(tmp_path / "refs.json", HUMAN))
    trigger(window, "actionLevelProperties")
    assert dialogs.asked[-1][0] == "level properties"
    assert dialogs.level_references == [HUMAN]


def test_level_properties_shows_each_reference_read_only(qtbot) -> None:
    long = {"moves": "U" * (REFERENCE_TIP_MOVES + 5), "source": "a playtester"}
    odd: list[Any] = [HUMAN, "not a record", {"moves": 3, "source": "x"}, long]
    dialog = LevelPropertiesDialog(LevelProperties("a", "A", "", 4, 4), {"a"}, references=odd)
    qtbot.addWidget(dialog)
    texts = [label.text() for label in dialog.references]
    assert texts == [
        f"4 moves — {HUMAN['source']}",
        f"{REFERENCE_TIP_MOVES + 5} moves — a playtester",
    ]
    assert dialog.references[0].toolTip() == "URRD"
    assert dialog.references[1].toolTip() == "U" * REFERENCE_TIP_MOVES + "…"
    assert all(
        not (label.textInteractionFlags() & Qt.TextInteractionFlag.TextEditable)
        for label in dialog.references
    )
    plain = LevelPropertiesDialog(LevelProperties("a", "A", "", 4, 4), {"a"})
    qtbot.addWidget(plain)
    assert plain.references == []


def test_a_reference_that_fails_is_a_problem_that_opens_level_properties(
    qtbot, make_window, dialogs, tmp_path
) -> None:
    window = make_window(
        pack_with_references(tmp_path / "refs.json", {"moves": "UU", "source": "s"})
    )
    checked(qtbot, window)
    [row] = [
        i for i, r in enumerate(records(window)) if r["pointer"] == "/levels/0/references/0/moves"
    ]
    assert records(window)[row]["code"] == "solution-fails"
    window.validation_panel.activate_row(row)
    assert dialogs.asked[-1][0] == "level properties"
