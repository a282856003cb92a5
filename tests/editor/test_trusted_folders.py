"""A pack folder built by ``pack.py``: asked once per folder, remembered, never run untrusted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.editor.window_driver import trigger
from tests.support import grid_level

MODULE = """\
import json
from pathlib import Path

Path(__file__).with_name("ran.txt").write_text("yes")


def build():
    return json.loads({data!r})
"""


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    folder = tmp_path / "generated"
    folder.mkdir()
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "generated",
        "title": "Generated",
        "nouns": {"BABA": {"color": "#d9396a"}},
        "levels": [grid_level(["baba . .", "BABA IS YOU"], level_id="made-by-code")],
    }
    (folder / "pack.py").write_text(MODULE.format(data=json.dumps(pack)), encoding="utf-8")
    return folder


def test_an_untrusted_pack_module_is_not_run(make_window, dialogs, generated: Path) -> None:
    window = make_window()
    untitled = window.pack
    dialogs.open_path, dialogs.trust_answer = generated, False
    trigger(window, "actionOpenPackFolder")
    assert ("trust", generated) in dialogs.asked
    assert not (generated / "ran.txt").exists()
    assert window.pack is untitled
    assert "not trusted" in window.statusBar().currentMessage()


def test_a_trusted_folder_is_asked_once_and_remembered(
    make_window, dialogs, settings, generated: Path
) -> None:
    window = make_window()
    dialogs.trust_answer = True
    assert window.files.open_path(generated) is True
    assert (generated / "ran.txt").read_text() == "yes"
    assert [level.level_id for level in window.pack.levels] == ["made-by-code"]
    assert settings.is_trusted(str(generated.resolve()))
    dialogs.trust_answer = False  # would refuse if asked again
    asked = len([a for a in dialogs.asked if a[0] == "trust"])
    assert window.files.open_path(generated) is True
    assert len([a for a in dialogs.asked if a[0] == "trust"]) == asked


def test_saving_a_generated_pack_writes_a_new_data_pack(
    make_window, dialogs, generated: Path, tmp_path: Path
) -> None:
    window = make_window()
    dialogs.trust_answer = True
    window.files.open_path(generated)
    dialogs.save_path = tmp_path / "edited.json"
    trigger(window, "actionSave")
    assert ("save", False) in dialogs.asked  # Save asks where: the folder's program would win
    assert not (generated / "pack.json").exists()
    saved = json.loads((tmp_path / "edited.json").read_text(encoding="utf-8"))
    assert saved["levels"][0]["id"] == "made-by-code"
