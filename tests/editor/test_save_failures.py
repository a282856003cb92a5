"""Saving what no JSON file can hold: one clear dialog, nothing written (issue 20, finding 5).

``engine.dump_pack`` refuses NaN (``ValueError``) and a title holding a lone
surrogate cannot be UTF-8 (``UnicodeEncodeError``). Before the fix only
``OSError`` was caught, so such a save ended in a traceback. Now the save says
where the value is, the file on disk and the backups are untouched, no temporary
file is left, and the pack stays unsaved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from editor.values import OBJECT, PackProperties, Pos, Stamp
from tests.editor.window_driver import click, trigger, use

BABA = Stamp(OBJECT, "BABA")


def lone_surrogate_title(window: Any) -> str:
    props = window.pack.properties
    window.pack.set_properties(PackProperties(props.pack_id, "odd \ud800", props.author))
    return "/title: the text holds a lone surrogate"


def nan_in_a_level(window: Any) -> str:
    window.level.set_authored("x-weight", float("nan"), text="weight")
    return "/levels/0/x-weight: nan is not a JSON number"


@pytest.mark.parametrize("spoil", [lone_surrogate_title, nan_in_a_level], ids=["surrogate", "nan"])
def test_a_pack_no_json_file_can_hold_is_not_saved_and_says_where(
    make_window, dialogs, settings, tmp_path: Path, spoil: Any
) -> None:
    path = tmp_path / "packs" / "mine.json"
    path.parent.mkdir()
    dialogs.save_path = path
    window = make_window()
    use(window, "actionToolBrush", BABA)
    click(window, Pos(1, 1))
    trigger(window, "actionSaveAs")
    written = path.read_bytes()
    where = spoil(window)
    dialogs.confirm_answer = True  # "save a pack with errors?" yes: the write itself must refuse
    trigger(window, "actionSave")
    [error] = dialogs.errors
    assert error.startswith(f"Could not save: {path}: nothing was written: ")
    assert where in error
    assert path.read_bytes() == written
    assert sorted(p.name for p in path.parent.iterdir()) == ["mine.json"]  # no temporary left
    assert window.files.backups.list(path) == []  # nor a backup of the untouched file
    assert window.pack.is_dirty()
