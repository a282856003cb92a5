"""Any pack file that is JSON within the caps opens for repair (issue 34, item 4).

A value of the wrong type is kept as written, shown in the Problems panel with its
pointer and the reason, and the author fixes it in the form that owns it: Level
Properties for a level's size, Noun Style for a noun's colour. The open dialog says
why the pack is invalid in words (the first problems, "and N more"), or why it
cannot be opened at all. The Problems panel lists exactly what ``load_pack``
lists, and the FRAIL map lints are the FRAIL panel's own.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

import engine
from editor.dialogs.forms import LevelPropertiesDialog, NounStyleDialog
from editor.dialogs.problems import ProblemsDialog
from editor.main_window import MainWindow
from editor.values import TOP_LEFT, LevelProperties, NounSpec
from tests.editor.window_driver import trigger
from tests.support import grid_level, pack_document

WINNABLE = ["baba . . flag", "BABA IS YOU .", "FLAG IS WIN ."]


def write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def checked(qtbot, window: MainWindow) -> None:
    validator = window.validation_panel.validator
    qtbot.waitUntil(lambda: validator.is_current() and not validator.is_busy(), timeout=15_000)


def rows(window: MainWindow) -> list[tuple[str, str]]:
    view = window.validation_panel.view
    model = view.model()
    found = [model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
    return [(r["pointer"], r["code"]) for r in found]


def load_errors(path: Path) -> list[tuple[str, str]]:
    try:
        engine.load_pack(path)
    except engine.ValidationError as exc:
        return [(p.pointer, p.code) for p in exc.errors]
    return []


def test_a_width_written_as_text_opens_and_is_fixed_in_level_properties(
    qtbot, make_window, dialogs, tmp_path: Path
) -> None:
    """Before: "width": "9" offered only Close, and the reason came in the status bar."""
    rows_ = ["baba . . flag", "BABA IS YOU keke", "FLAG IS WIN ."]  # KEKE: undeclared
    level = grid_level(rows_, "a", solution="RRR")
    level["width"] = "9"
    path = write(tmp_path / "text-width.json", pack_document(level, nouns=["BABA", "FLAG"]))
    dialogs.open_anyway, dialogs.open_path = True, path
    window = make_window()
    trigger(window, "actionOpenPack")
    source, can_repair, notes = next(v for k, v in dialogs.asked if k == "problems")
    assert (source, can_repair) == ("text-width.json", True)
    assert any("'width' is written as \"9\"" in n for n in notes)
    assert window.pack.path == path
    assert not window.pack.is_dirty()  # nothing of the author's was changed
    assert window.level.width == 4  # a grid that holds the entities stands in for "9"

    checked(qtbot, window)
    assert rows(window) == load_errors(path)  # the Problems panel lists load_pack's list
    assert ("/levels/0/width", "wrong-type") in rows(window)
    assert ("/levels/0/entities/5/noun", "unknown-noun") in rows(window)  # found in one pass

    # The panel's row leads to the form that owns the width; the author sets it there.
    dialogs.level_properties = (
        LevelProperties("a", "", "", 9, 3, written=window.level.properties.written[1:]),
        TOP_LEFT,
    )
    row = rows(window).index(("/levels/0/width", "wrong-type"))
    window.validation_panel.activate_row(row)
    assert dialogs.asked[-1][0] == "level properties"
    assert dialogs.asked[-1][1].written[0][:2] == ("width", "9")  # the form is told
    checked(qtbot, window)
    assert ("/levels/0/width", "wrong-type") not in rows(window)
    assert window.pack.to_data()["levels"][0]["width"] == 9
    trigger(window, "actionUndo")
    assert window.pack.to_data()["levels"][0]["width"] == "9"  # back as written


def test_a_misspelt_colour_is_fixed_in_the_noun_style_form(
    qtbot, make_window, dialogs, tmp_path: Path
) -> None:
    doc = pack_document(grid_level(WINNABLE, "a", solution="RRR"), nouns=["BABA", "FLAG"])
    doc["nouns"]["FLAG"]["color"] = "yellow"
    path = write(tmp_path / "yellow.json", doc)
    dialogs.open_anyway = True
    window = make_window(path)
    checked(qtbot, window)
    assert rows(window) == [("/nouns/FLAG/color", "bad-format")]
    dialogs.noun_style = NounSpec("#f0e442")
    window.validation_panel.activate_row(0)
    asked, (name, _spec, written) = dialogs.asked[-1]
    assert (asked, name, written) == ("noun style", "FLAG", {"color": "yellow"})
    checked(qtbot, window)
    assert rows(window) == []
    assert window.pack.to_data()["nouns"]["FLAG"] == {"color": "#f0e442"}
    trigger(window, "actionUndo")
    assert window.pack.to_data()["nouns"]["FLAG"] == {"color": "yellow"}


def test_what_the_editor_cannot_hold_is_kept_and_saved_as_written(
    qtbot, make_window, dialogs, tmp_path: Path
) -> None:
    """A level that is not an object, nouns that are a list: the pack opens, the panel
    lists load_pack's problems, and Save writes the file's values back."""
    doc = pack_document(grid_level(WINNABLE, "a", solution="RRR"), nouns=["BABA", "FLAG"])
    doc["levels"].append(7)
    doc["levels"].append({"id": "c", "width": 2, "height": 2, "entities": {"x": 1}})
    path = write(tmp_path / "odd.json", doc)
    dialogs.open_anyway = True
    window = make_window(path)
    assert window.pack.level_count() == 3
    checked(qtbot, window)
    assert rows(window) == load_errors(path)
    assert ("/levels/1", "wrong-type") in rows(window)
    assert ("/levels/2/entities", "wrong-type") in rows(window)
    dialogs.save_path, dialogs.confirm_answer = tmp_path / "saved.json", True
    trigger(window, "actionSaveAs")
    assert json.loads((tmp_path / "saved.json").read_text(encoding="utf-8")) == doc


def test_the_open_dialog_says_why_in_words(qtbot) -> None:
    problems = [
        engine.Problem(f"/levels/{n}/width", "wrong-type", "expected an integer", "p", f"l{n}")
        for n in range(5)
    ]
    dialog = ProblemsDialog("p.json", problems, can_repair=True, repair_notes=[])
    qtbot.addWidget(dialog)
    text = html.unescape(dialog.findChild(QLabel, "problemsSummary").text())
    assert "did not load: 5 problems." in text
    assert '/levels/0/width (level "l0"): expected an integer' in text
    assert "and 2 more (listed below)" in text
    assert "You can open it anyway" in text
    one = ProblemsDialog("p.json", problems[:1], can_repair=False, repair_notes=[], why_not="x")
    qtbot.addWidget(one)
    summary = one.findChild(QLabel, "problemsSummary").text()
    assert "did not load: 1 problem." in summary
    assert "It cannot be opened for repair: x." in summary


def test_a_file_that_is_not_a_pack_says_why_in_the_dialog(
    make_window, dialogs, tmp_path: Path
) -> None:
    path = write(tmp_path / "list.json", [1, 2])
    dialogs.open_anyway, dialogs.open_path = True, path
    window = make_window()
    trigger(window, "actionOpenPack")
    assert dialogs.asked[-1][1][1] is False  # no repair offered
    assert "not a pack object" in dialogs.why_not[-1]
    assert window.pack.properties.pack_id == "untitled"


def test_the_level_properties_form_keeps_what_the_author_does_not_set(qtbot) -> None:
    written = (("width", "9", 4), ("title", 7, ""))
    props = LevelProperties("a", "", "", 4, 3, written=written)
    dialog = LevelPropertiesDialog(props, {"a"})
    qtbot.addWidget(dialog)
    note = dialog.findChild(QLabel, "formWritten").text()
    assert "'width' is written as \"9\"" in note
    assert "'title' is written as 7" in note
    assert dialog.result_properties().written == written  # untouched: kept as written
    dialog.width_box.setValue(9)
    assert dialog.result_properties().written == (("title", 7, ""),)
    assert dialog.result_properties().width == 9


def test_the_noun_style_form_says_what_the_file_has(qtbot) -> None:
    dialog = NounStyleDialog("FLAG", NounSpec("#808080"), {"color": "yellow"})
    qtbot.addWidget(dialog)
    assert '{"color": "yellow"}' in dialog.findChild(QLabel, "formWritten").text()
    dialog.set_color(dialog.color_button.palette().button().color())
    dialog.glyph.setText("F")
    assert dialog.result_style().glyph == "F"


def test_a_frail_map_loop_is_a_lint_in_the_problems_panel_too(
    qtbot, make_window, tmp_path: Path
) -> None:
    """The FRAIL panel flagged ROCK → ROCK alone; now the Problems panel and
    validate --lint list it too, made by the same engine function."""
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived"}
    rows_ = [*WINNABLE, "ROCK IS FRAIL ."]
    level = grid_level(
        rows_, "a", solution="RRR", mechanics=[{**frail, "leaves": {"ROCK": "ROCK"}}]
    )
    window = make_window(write(tmp_path / "loop.json", pack_document(level)))
    checked(qtbot, window)
    assert rows(window) == [("/levels/0/mechanics/0/leaves/ROCK", "frail-self-map")]
    expected = engine.leaves_problems({"ROCK": "ROCK"})[0].message
    model = window.validation_panel.view.model()
    assert model.index(0, 0).data(Qt.ItemDataRole.UserRole)["message"] == expected


BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"


def records(window: MainWindow) -> list[tuple[str, str, str, str]]:
    from editor.panels.validation.model import SEVERITY_ROLE

    model = window.validation_panel.view.model()
    found = []
    for r in range(model.rowCount()):
        index = model.index(r, 0)
        record = index.data(Qt.ItemDataRole.UserRole)
        found.append(
            (index.data(SEVERITY_ROLE), record["pointer"], record["code"], record["message"])
        )
    return sorted(found)


def test_every_broken_pack_lists_in_the_problems_panel_what_load_pack_lists(
    qtbot, make_window, dialogs
) -> None:
    """The corpus of issue 34 (tests/data/broken), opened for repair: the panel's errors
    are load_pack's and its warnings validate --lint's, row for row."""
    dialogs.open_anyway = True
    window = make_window()
    for path in sorted(p for p in BROKEN.glob("*.json") if ".mistakes." not in p.name):
        dialogs.open_path = path
        trigger(window, "actionOpenPack")
        assert window.pack.path == path, path.name
        checked(qtbot, window)
        report = engine.check_pack(json.loads(path.read_text(encoding="utf-8")), name=path.stem)
        expected = sorted(
            [("error", p.pointer, p.code, p.message) for p in report.errors]
            + [("warning", p.pointer, p.code, p.message) for p in report.warnings]
        )
        assert records(window) == expected, path.name
        assert [(p.pointer, p.code) for p in dialogs.problems_shown[-1]] == [
            (p.pointer, p.code) for p in report.errors
        ]
