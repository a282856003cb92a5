"""Opening and saving a large pack off the UI thread (issue 20, finding 8).

"A 10,000-level pack takes 36 s to open, and every Ctrl+S validates again for 15 s
with the window frozen." Opening now checks the pack in the background with a
progress window while the window's event loop runs; saving uses the Problems
panel's current check (re-reading only what was edited) and writes in the
background. Each test drives the window as an author does: File ▸ Open, the
eraser, Ctrl+S, the progress window's Cancel. Speed itself is measured by
``bench/bench_open_save.py``, never asserted here.
"""

from __future__ import annotations

import gc
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QProgressBar

import editor.dialogs.progress
import editor.io.files
import editor.tasks.collector
import editor.tasks.validation
import engine
from editor.io.files import errors_warning
from editor.io.pack_io import validate
from editor.main_window import MainWindow
from editor.values import Pos
from tests.editor.test_validation_panel import broken_pack, open_for_repair, write
from tests.editor.window_driver import click, trigger, use
from tests.support import PACKS_DIR, grid_level, pack_document

LEVEL_ROWS = ["baba . . flag", "BABA IS YOU .", "FLAG IS WIN .", "rock . . ."]


def many_levels_pack(path: Path, count: int) -> Path:
    levels = [grid_level(LEVEL_ROWS, f"level-{i}") for i in range(count)]
    path.write_text(json.dumps(pack_document(*levels, pack_id="many")), encoding="utf-8")
    return path


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count the calls of ``engine.<name>`` from any thread (editor code calls it through ``engine``)."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(engine, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, name, counted)
    return calls


def counting_levels(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the levels the engine reports on, one at a time (``engine.report_level``)
    or in one pass (each report ``engine.report_levels`` yields: the open does this)."""
    calls = counting(monkeypatch, "report_level")
    original = engine.report_levels

    def counted(*args: Any, **kwargs: Any) -> Any:
        for report in original(*args, **kwargs):
            calls.append(1)
            yield report

    monkeypatch.setattr(engine, "report_levels", counted)
    return calls


def checked(qtbot, window: MainWindow) -> None:
    validator = window.validation_panel.validator
    qtbot.waitUntil(lambda: validator.is_current() and not validator.is_busy(), timeout=15_000)


def open_counting_reads(
    qtbot, make_window, dialogs, monkeypatch: pytest.MonkeyPatch, path: Path
) -> tuple[MainWindow, list[int]]:
    """A window, checked, that opens ``path`` while ``engine.report_level`` calls are counted."""
    window = make_window()
    checked(qtbot, window)
    reads = counting_levels(monkeypatch)
    dialogs.open_path = path
    trigger(window, "actionOpenPack")
    checked(qtbot, window)
    return window, reads


class Watch:
    """A 1 ms timer on the UI thread: it ticks only while the event loop runs, and looks
    at the progress window each time."""

    def __init__(self, window: MainWindow, on_tick: Callable[[QDialog], None] | None = None):
        self.window = window
        self.ticks = 0
        self.seen: list[tuple[str, int, int]] = []  # label, value, maximum while visible
        self._on_tick = on_tick
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        self.ticks += 1
        dialog = self.window.findChild(QDialog, "fileProgress")
        if dialog is not None and dialog.isVisible():
            bar = dialog.findChild(QProgressBar)
            label = dialog.label.text()
            self.seen.append((label, bar.value(), bar.maximum()))
            if self._on_tick is not None:
                self._on_tick(dialog)


@pytest.fixture
def progress_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Show the progress window from the start (it waits 400 ms so small packs never flash it)."""
    monkeypatch.setattr(editor.dialogs.progress, "SHOW_AFTER_MS", 0)


def test_opening_a_large_pack_shows_progress_while_the_window_keeps_running(
    qtbot, make_window, dialogs, tmp_path, progress_at_once, monkeypatch
) -> None:
    path = many_levels_pack(tmp_path / "many.json", 120)
    window = make_window()
    report_levels = engine.report_levels  # the open's one pass over the levels

    def slow_reports(*args: Any, **kwargs: Any) -> Any:  # a level takes 2 ms at least: a
        for report in report_levels(*args, **kwargs):  # fast machine must not finish
            time.sleep(0.002)  # before the 1 ms timer looks
            yield report

    monkeypatch.setattr(engine, "report_levels", slow_reports)
    watch = Watch(window)
    dialogs.open_path = path
    trigger(window, "actionOpenPack")  # returns once the pack is open
    watch.timer.stop()
    assert len(window.pack.levels) == 120
    assert window.pack.path == path
    assert watch.ticks > 0  # the event loop ran while the pack was read and checked
    checking = [(value, top) for label, value, top in watch.seen if label == "Checking levels"]
    assert checking, f"no progress seen: {watch.seen[:5]}"
    assert {top for _v, top in checking} == {120}  # counts the pack's levels
    assert [v for v, _t in checking] == sorted(v for v, _t in checking)  # only goes forward
    dialog = window.findChild(QDialog, "fileProgress")
    assert dialog is None or not dialog.isVisible()  # gone once the pack is open


def test_opening_checks_each_level_once_and_the_problems_panel_reuses_it(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    path = many_levels_pack(tmp_path / "many.json", 40)
    window, reads = open_counting_reads(qtbot, make_window, dialogs, monkeypatch, path)
    assert len(reads) == 40  # opening read each level; the panel's first check read none again
    assert window.validation_panel.validator.result.full
    assert window.validation_panel.validator.result.rechecked == 0


def test_cancel_in_the_progress_window_keeps_the_pack_that_was_open(
    qtbot, make_window, dialogs, tmp_path, progress_at_once
) -> None:
    path = many_levels_pack(tmp_path / "many.json", 400)
    window = make_window(PACKS_DIR / "tutorial.json")
    before = window.pack

    def press_cancel(dialog: QDialog) -> None:
        buttons = dialog.findChild(QDialogButtonBox)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).click()

    watch = Watch(window, press_cancel)
    dialogs.open_path = path
    trigger(window, "actionOpenPack")
    watch.timer.stop()
    assert watch.seen  # the progress window was up when Cancel was pressed
    assert window.pack is before
    assert window.statusBar().currentMessage() == "Did not open many.json: cancelled"


def test_ctrl_s_on_an_unchanged_pack_writes_it_without_checking_it_again(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    path = tmp_path / "tutorial.json"
    shutil.copy(PACKS_DIR / "tutorial.json", path)
    window = make_window(path)
    checked(qtbot, window)
    path.write_text("{}", encoding="utf-8")  # so the save is seen to write
    dialogs.changed_answer = "overwrite"  # changed on disk (issue 39): the save asks first
    reads = counting(monkeypatch, "report_level")
    whole = counting(monkeypatch, "load_pack")
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert dialogs.changed_asked == [("tutorial.json", False)]
    assert json.loads(path.read_text(encoding="utf-8")) == window.pack.to_data()
    assert (len(reads), len(whole)) == (0, 0)  # the panel's current check was used
    assert window.statusBar().currentMessage() == "Saved tutorial.json"


def test_saving_right_after_an_edit_rechecks_that_level_and_warns_as_before(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    path = write(tmp_path / "broken.json", broken_pack())
    window = open_for_repair(make_window, dialogs, path)  # level a is current
    checked(qtbot, window)
    before = path.read_text(encoding="utf-8")
    use(window, "actionToolEraser")
    click(window, Pos(0, 0))  # an edit that fixes nothing
    reads = counting(monkeypatch, "report_level")
    whole = counting(monkeypatch, "load_pack")
    dialogs.confirm_answer = False
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # no pause first
    assert (len(reads), len(whole)) == (1, 0)  # only the edited level was read again
    expected = validate(window.pack.to_data())  # what saving asked before issue 20's fix
    assert [c.code for c in expected if c.code == "unknown-noun"]
    assert dialogs.asked[-1] == ("confirm", "Save a pack with errors?")
    assert dialogs.confirm_texts[-1] == errors_warning("broken.json", expected)
    assert path.read_text(encoding="utf-8") == before  # declined: nothing written
    assert window.pack.is_dirty()
    assert window.statusBar().currentMessage() == (
        f"Not saved: broken.json still has {len(expected)} errors"
    )

    dialogs.confirm_answer = True
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert json.loads(path.read_text(encoding="utf-8")) == window.pack.to_data()
    assert not window.pack.is_dirty()
    assert window.files.problems == expected


def test_when_the_panels_check_fails_saving_checks_the_whole_pack_itself(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    path = write(tmp_path / "broken.json", broken_pack())
    window = open_for_repair(make_window, dialogs, path)
    checked(qtbot, window)

    def broken(*_args: object) -> object:
        raise RuntimeError("the panel's check broke")

    monkeypatch.setattr(editor.tasks.validation, "check", broken)
    use(window, "actionToolEraser")
    click(window, Pos(0, 0))
    dialogs.confirm_answer = False
    whole = counting(monkeypatch, "load_pack")
    QTest.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.validation_panel.validator.last_failure is not None
    assert len(whole) == 1  # the engine's whole check, off the UI thread
    assert dialogs.confirm_texts[-1] == errors_warning(
        "broken.json", validate(window.pack.to_data())
    )


def test_opening_makes_every_document_on_the_ui_thread(
    qtbot, make_window, dialogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """QObjects made on a worker risk a GIL-versus-Qt-lock deadlock: the worker only reads."""
    import threading

    from editor.documents.level import LevelDocument
    from editor.documents.pack import PackDocument

    made_on: list[int] = []
    for cls in (LevelDocument, PackDocument):
        original = cls.__init__

        def tracked(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            made_on.append(threading.get_ident())
            _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", tracked)
    window = make_window(many_levels_pack(tmp_path / "many.json", 30))
    assert window.pack.level_count() == 30
    dialogs.open_anyway = True
    assert window.files.open_path(write(tmp_path / "b.json", broken_pack()), ask_first=False)
    assert len(made_on) >= 31 + 4  # each pack and its levels (30, then 3)
    assert set(made_on) == {threading.get_ident()}


def test_a_pack_in_another_tools_entity_order_is_checked_once_on_open(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    """The engine reads entities by id, so a report of the file's order holds for the
    editor's (row by row) when no problem points into the entities."""
    levels = [grid_level(LEVEL_ROWS, f"level-{i}") for i in range(30)]
    for level in levels:
        level["entities"].reverse()  # bottom row first: not the order the editor writes
    path = tmp_path / "other.json"
    path.write_text(json.dumps(pack_document(*levels, pack_id="other")), encoding="utf-8")
    window, reads = open_counting_reads(qtbot, make_window, dialogs, monkeypatch, path)
    assert window.pack.levels[0].to_data()["entities"] != levels[0]["entities"]  # reordered
    assert len(reads) == 30  # opening read each level; the panel's first check none again
    assert window.validation_panel.validator.result.rechecked == 0


def test_a_report_is_reused_across_entity_orders_only_when_nothing_points_into_them() -> None:
    from types import SimpleNamespace

    from editor.io.pack_tasks import _same_report

    def report(*pointers: str) -> Any:
        return SimpleNamespace(
            errors=(), warnings=tuple(SimpleNamespace(pointer=p) for p in pointers)
        )

    a = {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 1}
    b = {"id": 2, "kind": "object", "noun": "ROCK", "x": 1, "y": 0}
    held = {"id": "l", "width": 2, "height": 2, "entities": [b, a]}
    raw = {"id": "l", "width": 2, "height": 2, "entities": [a, b]}
    assert _same_report(held, dict(held), report("/levels/0/entities/1/x"))
    assert _same_report(held, raw, report("/levels/0/solution"))
    assert not _same_report(held, raw, report("/levels/0/entities/1/x"))
    assert not _same_report(held, {**raw, "width": 3}, report())
    assert not _same_report(held, {**raw, "entities": [a, {**b, "x": 0}]}, report())
    assert not _same_report(held, {**raw, "title": "T"}, report())
    broken = {**raw, "entities": [a, {**b, "id": "2"}]}
    assert not _same_report({**held, "entities": [{**b, "id": "2"}, a]}, broken, report())


def test_the_writer_frees_the_collected_documents_itself(tmp_path) -> None:
    """Dropped by the UI thread at once, 10,000 levels' documents held it 50-70 ms."""
    import weakref

    from editor.io.pack_tasks import WriteRequest, write_work
    from editor.tasks.background import CancelToken
    from editor.tasks.progress import Progress

    levels = [grid_level(LEVEL_ROWS, f"level-{i}") for i in range(200)]
    data = pack_document(*levels, pack_id="freed")
    del levels

    class Probe(dict):  # a plain dict cannot be referenced weakly
        pass

    data["levels"] = [Probe(level) for level in data["levels"]]
    probes = [weakref.ref(level) for level in data["levels"]]
    target = tmp_path / "freed.json"
    write_work(WriteRequest(data, target, None, 0, Progress()), CancelToken())
    assert data["levels"] == []
    assert all(probe() is None for probe in probes)  # freed by the writer
    assert len(json.loads(target.read_text(encoding="utf-8"))["levels"]) == 200


def test_an_edit_right_after_opening_is_read_again_not_taken_from_the_open(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    """The Problems panel keys the new pack's levels in its first check, a turn after
    the pack is adopted; a level edited before that check must not keep the report
    opening made of it."""
    window = make_window()
    checked(qtbot, window)
    reads = counting_levels(monkeypatch)
    dialogs.open_path = many_levels_pack(tmp_path / "many.json", 12)
    trigger(window, "actionOpenPack")
    assert len(reads) == 12
    assert not window.validation_panel.validator.is_current()
    use(window, "actionToolEraser")
    click(window, Pos(0, 0))  # level-0's baba, before the first check started
    checked(qtbot, window)
    assert len(reads) == 13  # that level once more, every other level's report reused
    validator = window.validation_panel.validator
    assert validator.result.rechecked == 1
    assert validator.is_current()
    edited = validator.key_of(window.pack.levels[0])
    assert [k.version for k in validator.result.kept.values()] == [1]  # the edited content
    assert list(validator.result.kept) == [edited]


def test_building_a_pack_frees_each_levels_parts_in_its_own_step(tmp_path) -> None:
    """The documents copy their cells, so the plan's parts go as each level is built,
    not all at once after the pack is shown (15 ms of UI work at 10,000 levels)."""
    from editor.documents.pack import PackBuilder, read_pack_plan

    data = json.loads(many_levels_pack(tmp_path / "many.json", 5).read_text(encoding="utf-8"))
    plan = read_pack_plan(data)
    builder = PackBuilder(plan)
    waiting = []
    for _ in builder.steps():
        waiting.append(len(plan.levels))
    assert waiting == [4, 3, 2, 1, 0]
    assert builder.document is not None
    assert [lv.to_data() for lv in builder.document.levels] == data["levels"]


def test_the_reader_frees_the_files_levels_itself(tmp_path, monkeypatch) -> None:
    """Dropped with the reader's frame, 10,000 parsed levels held the interpreter 30 ms
    in one go just before the pack showed; the reader frees them a batch at a time."""
    from editor.io.pack_tasks import OpenRequest, open_work
    from editor.tasks.background import CancelToken
    from editor.tasks.progress import Progress

    path = many_levels_pack(tmp_path / "many.json", 150)
    read: list[dict[str, Any]] = []
    original = engine.read_json_file

    def kept(*args: Any, **kwargs: Any) -> Any:
        read.append(original(*args, **kwargs))
        return read[-1]

    monkeypatch.setattr(engine, "read_json_file", kept)
    opened = open_work(OpenRequest(path, False, Progress()), CancelToken())
    assert opened.plan is not None
    assert len(opened.plan.levels) == 150
    assert len(opened.seeds) == 150
    assert read[0]["levels"] == []  # emptied by the reader, not left for the last reference


def loud_pack(path: Path, count: int) -> Path:
    """Levels with warnings (nothing is WIN, the solution fails), every board the same."""
    loud = ["baba . flag", "BABA IS YOU", ". . ."]
    levels = [grid_level(loud, f"loud-{n}", solution="RR") for n in range(count)]
    return write(path, pack_document(*levels, pack_id="loud"))


def listed(window: MainWindow) -> list[tuple[str, str | None, str, str, str | None]]:
    """The panel's rows, each with the id of the level its key names now."""
    validator = window.validation_panel.validator
    found = []
    for row in validator.result.rows:
        level = validator.level_for(row.level_key)
        owner = level.level_id if level is not None else None
        found.append((row.severity, row.record["level"], row.pointer, row.record["code"], owner))
    return found


@pytest.mark.parametrize("keys", ["as planned", "given meanwhile"])
def test_the_problems_panels_first_list_is_made_while_opening(
    qtbot, make_window, dialogs, tmp_path, monkeypatch, keys: str
) -> None:
    """Opening checks every level anyway; it also makes the panel's first list, so no
    check runs beside the window's first paints of the pack. If the validator's keys
    are not the ones that list was made with, the panel checks the pack itself."""
    window = make_window()
    checked(qtbot, window)
    validator = window.validation_panel.validator
    if keys == "given meanwhile":
        planned = validator.next_key
        monkeypatch.setattr(validator, "next_key", lambda: planned() + 1)
    dialogs.open_path = loud_pack(tmp_path / "loud.json", 6)
    trigger(window, "actionOpenPack")  # returns once the pack is adopted
    checks = counting(monkeypatch, "check_pack")
    checked(qtbot, window)
    assert len(checks) == (0 if keys == "as planned" else 1)
    first = listed(window)
    assert [(s, lv, p, c) for s, lv, p, c, _owner in first][:4] == [
        ("warning", "loud-0", "/levels/0", "win-impossible"),
        ("warning", "loud-0", "/levels/0/solution", "solution-fails"),
        ("warning", "loud-1", "/levels/1", "win-impossible"),
        ("warning", "loud-1", "/levels/1", "duplicate-board"),
    ]
    assert all(owner == level for _s, level, _p, _c, owner in first)  # keys name their levels
    assert dict(validator.result.counts) == {"warning": 17}

    QTest.keyClick(window, Qt.Key.Key_F7)  # the whole pack checked afresh lists the same
    checked(qtbot, window)
    assert len(checks) == (1 if keys == "as planned" else 2)
    assert listed(window) == first


def test_opening_freezes_nothing_for_the_collector_before_the_pack_is_adopted(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    """Adopting a pack freezes it whole; anything frozen before that is thawed and the
    whole heap collected first (right for the pack being replaced, 0.4 s of a still
    window when it was only the open's own first check of 10,000 levels)."""
    monkeypatch.setattr(editor.tasks.collector, "FREEZE_FROM_LEVELS", 2)
    window = make_window()
    checked(qtbot, window)
    gc.unfreeze()
    frozen_before_adopting: list[int] = []
    adopt_still = editor.io.files.adopt_still

    def watched(replace: Callable[[], None]) -> None:
        frozen_before_adopting.append(gc.get_freeze_count())
        adopt_still(replace)

    monkeypatch.setattr(editor.io.files, "adopt_still", watched)
    dialogs.open_path = loud_pack(tmp_path / "loud.json", 6)
    trigger(window, "actionOpenPack")
    assert frozen_before_adopting == [0]
    assert gc.get_freeze_count() > 0  # the adopted pack, its first check with it
    checked(qtbot, window)
    assert window.validation_panel.validator.result.rechecked == 0  # made while opening


def test_a_level_added_to_a_large_pack_is_the_only_one_the_problems_panel_keys(
    qtbot, make_window, dialogs, tmp_path, monkeypatch
) -> None:
    """Keying every level again after an insertion cost 4-5 ms at 10,000 levels."""
    dialogs.open_path = many_levels_pack(tmp_path / "many.json", 30)
    window = make_window()
    trigger(window, "actionOpenPack")
    checked(qtbot, window)
    validator = window.validation_panel.validator
    keyed: list[object] = []
    key = type(validator)._key

    def counted(self: Any, level: Any) -> int:
        keyed.append(level)
        return key(self, level)

    monkeypatch.setattr(type(validator), "_key", counted)
    trigger(window, "actionAddLevel")
    checked(qtbot, window)
    assert keyed == [window.level]
    assert validator.level_for(validator.key_of(window.level)) is window.level
    assert validator.is_current()
