"""A pack folder built by ``pack.py``: asked once per folder, remembered, never run untrusted."""

from __future__ import annotations

import hashlib
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


# Issue 20, finding 7: trust is pinned to pack.py's content and can be revoked.


def test_trust_is_pinned_to_the_content_and_a_change_is_asked_again(
    make_window, dialogs, settings, generated: Path
) -> None:
    """Before the fix a changed pack.py ran on reopening without a question."""
    window = make_window()
    dialogs.trust_answer = True
    assert window.files.open_path(generated) is True
    folder = str(generated.resolve())
    module = generated / "pack.py"
    assert settings.trusted_digest(folder) == hashlib.sha256(module.read_bytes()).hexdigest()
    (generated / "ran.txt").unlink()
    module.write_text(module.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    dialogs.trust_answer = False
    assert window.files.open_path(generated) is False
    assert dialogs.asked[-1] == ("trust-changed", generated)
    assert not (generated / "ran.txt").exists()  # the changed program never ran
    assert "not trusted" in window.statusBar().currentMessage()
    dialogs.trust_answer = True
    assert window.files.open_path(generated) is True
    assert (generated / "ran.txt").read_text() == "yes"
    assert settings.trusted_digest(folder) == hashlib.sha256(module.read_bytes()).hexdigest()


def test_trust_is_revoked_from_the_edit_menu(
    make_window, dialogs, settings, generated: Path
) -> None:
    window = make_window()
    dialogs.trust_answer = True
    window.files.open_path(generated)
    folder = str(generated.resolve())
    dialogs.revoke = [folder]
    trigger(window, "actionTrustedFolders")
    assert ("trusted-folders", [folder]) in dialogs.asked
    assert not settings.is_trusted(folder)
    (generated / "ran.txt").unlink()
    dialogs.trust_answer = False
    assert window.files.open_path(generated) is False
    assert dialogs.asked[-1] == ("trust", generated)  # a fresh question, not "changed"
    assert not (generated / "ran.txt").exists()


def test_a_folder_trusted_by_path_only_is_asked_again(
    make_window, dialogs, settings, generated: Path
) -> None:
    """Trust from before pinning named a path, not a content: it is not carried over."""
    settings.store.setValue("files/trusted_folders", [str(generated.resolve())])
    window = make_window()
    dialogs.trust_answer = False
    assert window.files.open_path(generated) is False
    assert dialogs.asked[-1] == ("trust", generated)
    assert not (generated / "ran.txt").exists()


def test_the_trusted_folders_dialog_lists_and_revokes(qtbot, settings) -> None:
    from PySide6.QtCore import Qt

    from editor.dialogs.trusted import TrustedFoldersDialog

    settings.trust_folder("/packs/alpha", "a" * 64)
    settings.trust_folder("/packs/beta", "b" * 64)
    dialog = TrustedFoldersDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    folders = [
        dialog.list.item(n).data(Qt.ItemDataRole.UserRole) for n in range(dialog.list.count())
    ]
    assert folders == ["/packs/alpha", "/packs/beta"]
    assert "aaaaaaaaaaaa" in dialog.list.item(0).text()
    dialog.list.setCurrentRow(1)
    qtbot.mouseClick(dialog.revoke_button, Qt.MouseButton.LeftButton)
    assert settings.trusted_modules == {"/packs/alpha": "a" * 64}
    assert dialog.list.count() == 1
    qtbot.mouseClick(dialog.revoke_button, Qt.MouseButton.LeftButton)
    assert settings.trusted_modules == {}
    assert dialog.empty.isVisible()
    assert not dialog.revoke_button.isEnabled()


# Issue 39, B10: trust covers every Python file of the folder, not pack.py alone.

HELPED = """\
import json
import helper


def build():
    return json.loads(helper.DATA)
"""


def test_a_changed_helper_beside_pack_py_is_asked_about_again(
    make_window, dialogs, settings, generated: Path
) -> None:
    """Before, trust pinned pack.py only: a trusted pack.py ran a changed helper.py."""
    data = (generated / "pack.py").read_text(encoding="utf-8").split("json.loads(")[1]
    (generated / "pack.py").write_text(HELPED, encoding="utf-8")
    helper = generated / "helper.py"
    helper.write_text(f"DATA = {data.rsplit(')', 1)[0]}\n", encoding="utf-8")
    window = make_window()
    dialogs.trust_answer = True
    assert window.files.open_path(generated) is True
    assert [level.level_id for level in window.pack.levels] == ["made-by-code"]
    helper.write_text(
        helper.read_text(encoding="utf-8")
        + "from pathlib import Path\nPath(__file__).with_name('evil.txt').write_text('ran')\n",
        encoding="utf-8",
    )
    dialogs.trust_answer = False
    assert window.files.open_path(generated) is False
    assert dialogs.asked[-1] == ("trust-changed", generated)
    assert not (generated / "evil.txt").exists()  # the changed helper never ran
