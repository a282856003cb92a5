"""Issue 33 in the editor: starting where Qt cannot, the version, payload files on the
command line, where save dialogs start, and the desktop integration files."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import engine
from editor import app, desktop, render
from editor.io.folders import documents_folder
from editor.main_window import MainWindow
from editor.qt_start import explain
from editor.resources import (
    RESOURCES,
    TUTORIAL_PACK,
    application_icon_path,
    is_installation_folder,
    resource,
)
from tests.editor.share_driver import wait_for_preview
from tests.editor.window_driver import trigger
from tests.support import ROOT


def run_editor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "editor", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


def one_paragraph(text: str) -> str:
    """The text is one paragraph: no blank line, no traceback; returned without its newline."""
    text = text.strip()
    assert text, "nothing was said"
    assert "\n" not in text, text
    assert "Traceback" not in text
    return text


# ----------------------------------------------------------- Qt cannot start


def test_a_missing_platform_plugin_is_one_paragraph_and_exit_1_not_a_core_dump() -> None:
    done = run_editor(env={"QT_QPA_PLATFORM": "nonexistent"})
    assert done.returncode == 1, (done.returncode, done.stderr)  # an abort would be -6
    said = one_paragraph(done.stderr)
    assert said.startswith('rulegrid-editor: Qt has no platform plugin called "nonexistent"')
    assert "QT_QPA_PLATFORM" in said
    assert "xcb (X11)" in said
    assert "wayland (a Wayland session)" in said
    assert "offscreen (no window at all" in said
    assert done.stdout == ""


def test_render_where_qt_cannot_start_says_so_too(tmp_path: Path) -> None:
    out = tmp_path / "level.png"
    done = run_editor(
        "render", str(TUTORIAL_PACK), "1", "-o", str(out), env={"QT_QPA_PLATFORM": "nonexistent"}
    )
    assert done.returncode == 1
    assert one_paragraph(done.stderr).startswith("rulegrid-editor render: Qt has no platform")
    assert not out.exists()


def test_the_x11_plugin_without_its_libraries_or_display_is_explained() -> None:
    """Whatever this machine lacks for X11 (CI has no display and, without a desktop,
    none of the xcb libraries), the editor says which and exits 1."""
    done = run_editor(env={"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":97", "WAYLAND_DISPLAY": ""})
    assert done.returncode == 1, done.stderr
    said = one_paragraph(done.stderr)
    assert said.startswith("rulegrid-editor: Qt")
    assert "QT_QPA_PLATFORM" in said
    libraries = "missing. Install" in said and "Debian/Ubuntu `sudo apt install " in said
    assert (libraries and "on Fedora `sudo dnf install " in said) or (
        "could not connect to a display (DISPLAY=:97)" in said
    )


def test_missing_libraries_name_the_packages_of_both_distributions() -> None:
    messages = [
        "From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin.",
        'Could not load the Qt platform plugin "xcb" in "" even though it was found.',
        "This application failed to start because no Qt platform plugin could be initialized. "
        "Reinstalling the application may fix this problem.\n\n"
        "Available platform plugins are: minimal, offscreen, xcb, wayland, vnc.\n",
    ]
    said = explain(messages, probe=lambda name: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"])
    assert said == (
        'rulegrid-editor: Qt cannot load its "xcb" platform plugin because the system libraries '
        "libxcb-cursor.so.0, libxcb-icccm.so.4 are missing. Install them: on Debian/Ubuntu "
        "`sudo apt install libxcb-cursor0 libxcb-icccm4`, on Fedora `sudo dnf install "
        "xcb-util-cursor xcb-util-wm` (the README's Requirements list them all). Or choose "
        "another platform with QT_QPA_PLATFORM: wayland (a Wayland session), offscreen (no "
        "window at all, for scripts and tests); also minimal, vnc."
    )


def test_no_display_is_said_with_the_way_around_it() -> None:
    messages = [
        "could not connect to display :5",
        'Could not load the Qt platform plugin "xcb" in "" even though it was found.',
        "Available platform plugins are: offscreen, xcb.",
    ]
    said = explain(messages, probe=lambda name: [])
    assert said == (
        'rulegrid-editor: Qt\'s "xcb" platform could not connect to a display (DISPLAY=:5): '
        "start the editor inside a graphical session. Or choose another platform with "
        "QT_QPA_PLATFORM: offscreen (no window at all, for scripts and tests)."
    )


def test_any_other_fatal_start_still_gives_qts_words_and_the_alternatives() -> None:
    said = explain(
        ["EGL failed", "Available platform plugins are: offscreen, eglfs."],
        platform="eglfs",
        probe=lambda name: [],
    )
    assert said.startswith("rulegrid-editor: Qt cannot start: EGL failed")
    assert said.endswith("QT_QPA_PLATFORM: offscreen (no window at all, for scripts and tests).")


# -------------------------------------------------------------------- version


def test_the_editor_version_is_the_package_version_and_needs_no_qt() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nimport editor.app\n"
            "try:\n    editor.app.main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print('Qt loaded' if 'PySide6.QtWidgets' in sys.modules else 'no Qt')",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"rulegrid-editor {engine.version()}", "no Qt"]


def test_help_about_shows_the_one_version(make_window) -> None:
    window = make_window()
    trigger(window, "actionAbout")
    text = window.show_help("about").browser.toPlainText()
    assert f"\nRulegrid\n{engine.version()}\n" in text


def test_render_keeps_its_command_name() -> None:
    assert app.RENDER_COMMAND == render.COMMAND


# ------------------------------------------------- a payload file as argument


def test_a_payload_file_argument_opens_the_import_preview_over_the_tutorial(
    qtbot, settings, tmp_path: Path
) -> None:
    payload = tmp_path / "shared.rulegrid"
    payload.write_text(
        engine.share.export(engine.load_pack(TUTORIAL_PACK), level="clockwork") + "\n", "utf-8"
    )
    window = app.open_window(str(payload), MainWindow, settings)
    qtbot.addWidget(window)
    dialog = wait_for_preview(qtbot, window)
    assert dialog.decoded.source == "shared.rulegrid"
    assert dialog.preview is not None
    assert dialog.preview.level is not None
    assert dialog.preview.level.id == "clockwork"
    assert window.pack.path == TUTORIAL_PACK  # the window behind it: the tutorial
    assert list((tmp_path / "installed-packs").glob("*")) == []  # nothing installed
    dialog.reject()


def test_a_pack_argument_still_opens_the_pack() -> None:
    assert app.default_pack("x.json") == Path("x.json")
    assert app.default_pack("x.RULEGRID") == TUTORIAL_PACK
    assert app.is_payload_file("a/b.rulegrid")
    assert not app.is_payload_file(None)


def test_a_payload_file_too_large_is_refused_unread_in_the_editor(
    make_window, dialogs, tmp_path: Path
) -> None:
    window = make_window()
    huge = tmp_path / "huge.rulegrid"
    with huge.open("wb") as handle:
        handle.truncate(64 * 2**20 + 1)
    assert not window.sharing.importer.preview_file(huge)
    assert dialogs.errors[-1].endswith(
        "the file is 67,108,865 bytes; a payload is at most 8,388,608 characters, "
        "so it was not read"
    )


# -------------------------------------------------------------- save folders


@pytest.fixture
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "Documents"
    folder.mkdir()
    monkeypatch.setattr("platformdirs.user_documents_dir", lambda: str(folder))
    return folder


def test_saving_the_bundled_tutorial_asks_where_starting_in_documents(
    make_window, dialogs, documents: Path, qtbot
) -> None:
    before = TUTORIAL_PACK.read_bytes()
    window = make_window(TUTORIAL_PACK)
    window.activateWindow()  # keys go to the active window, as on a desktop
    qtbot.waitUntil(window.isActiveWindow)
    dialogs.save_path = None  # the author cancels the question
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert dialogs.asked == [("save", False)]
    assert dialogs.starts == [str(documents / "tutorial.json")]
    assert TUTORIAL_PACK.read_bytes() == before
    dialogs.save_path = documents / "my-tutorial.json"
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert engine.load_pack(documents / "my-tutorial.json").id == "tutorial"
    assert window.pack.path == documents / "my-tutorial.json"
    assert TUTORIAL_PACK.read_bytes() == before


def test_save_as_into_the_installation_is_refused(
    make_window, dialogs, documents: Path, qtbot
) -> None:
    window = make_window(TUTORIAL_PACK)
    dialogs.save_path = TUTORIAL_PACK.parent / "mine.json"
    trigger(window, "actionSaveAs")
    assert "part of the Rulegrid installation" in dialogs.errors[-1]
    assert not (TUTORIAL_PACK.parent / "mine.json").exists()


def test_each_kind_of_save_starts_where_that_kind_was_saved_last(
    make_window, dialogs, documents: Path, tmp_path: Path
) -> None:
    window = make_window(TUTORIAL_PACK)
    shared = tmp_path / "shared"
    shared.mkdir()
    dialogs.export_path = shared / "tutorial.rulegrid"
    trigger(window, "actionExportSharePackFile")
    assert dialogs.starts[-1] == str(documents / "tutorial.rulegrid")
    trigger(window, "actionExportSharePackFile")
    assert dialogs.starts[-1] == str(shared / "tutorial.rulegrid")  # remembered
    dialogs.picture = None  # the author cancels
    trigger(window, "actionExportLevelPicture")
    level = window.session.level
    assert level is not None
    assert dialogs.starts[-1] == str(documents / f"{level.level_id}.png")  # its own kind
    dialogs.save_path = None
    trigger(window, "actionSaveAs")
    assert dialogs.starts[-1] == str(documents / "tutorial.json")
    dialogs.import_path = None
    trigger(window, "actionImportShareFile")
    assert dialogs.starts[-1] == str(shared)  # payload files are read where they are written


def test_a_missing_documents_folder_starts_at_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr("platformdirs.user_documents_dir", lambda: str(home / "Documents"))
    assert documents_folder() == home
    assert not (home / "Documents").exists()  # never created behind the author's back


def test_a_remembered_folder_that_is_gone_or_installed_is_not_offered(
    make_window, dialogs, settings, documents: Path, tmp_path: Path
) -> None:
    window = make_window(TUTORIAL_PACK)
    settings.set_save_folder("payload", tmp_path / "gone")
    trigger(window, "actionExportSharePackFile")
    assert dialogs.starts[-1] == str(documents / "tutorial.rulegrid")
    settings.set_save_folder("payload", TUTORIAL_PACK.parent)
    trigger(window, "actionExportSharePackFile")
    assert dialogs.starts[-1] == str(documents / "tutorial.rulegrid")


def test_the_installation_folders_are_known() -> None:
    assert is_installation_folder(TUTORIAL_PACK)
    assert is_installation_folder(Path(sys.prefix) / "lib")
    assert not is_installation_folder(Path.home() / "nowhere-installed")


# ------------------------------------------------------------ shipped files


def test_every_file_under_resources_is_reachable_through_the_data_package() -> None:
    assert RESOURCES.resolve() == (ROOT / "resources").resolve()
    on_disk = sorted(
        p.relative_to(ROOT / "resources").as_posix()
        for p in (ROOT / "resources").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert on_disk
    for name in on_disk:
        assert resource(*name.split("/")).is_file(), name
    assert application_icon_path().read_bytes().startswith(b"<svg")


# -------------------------------------------------------- desktop integration


def test_install_desktop_writes_the_entry_the_icon_and_the_file_types(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "share"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    (home / "applications").mkdir(parents=True)
    other = home / "applications" / "other.desktop"
    other.write_text("[Desktop Entry]\nName=Other\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "bin dir" / "rulegrid-editor")])
    (tmp_path / "bin dir").mkdir()
    (tmp_path / "bin dir" / "rulegrid-editor").write_text("#!/bin/sh\n", encoding="utf-8")

    assert app.main(["--install-desktop"]) == 0
    files = desktop.installed_files(home)
    assert capsys.readouterr().out.splitlines() == [
        f"rulegrid-editor: installed the desktop entry, icon and file types under {home}:",
        *(f"  {p}" for p in files.values()),
    ]
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(files["entry"], encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Icon"] == desktop.APP_ID
    assert section["Exec"] == f'"{tmp_path}/bin dir/rulegrid-editor" %f'
    assert section["MimeType"] == f"{desktop.PAYLOAD_MIME};{desktop.PACK_MIME};"
    assert files["icon"].read_bytes() == application_icon_path().read_bytes()
    mime = ET.parse(files["mime"]).getroot()
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    types = {t.get("type"): t for t in mime.findall("m:mime-type", ns)}
    assert set(types) == {desktop.PAYLOAD_MIME, desktop.PACK_MIME}
    payload = types[desktop.PAYLOAD_MIME]
    assert [g.get("pattern") for g in payload.findall("m:glob", ns)] == ["*.rulegrid"]
    magic = types[desktop.PACK_MIME].find("m:magic/m:match", ns)
    assert magic is not None
    assert magic.get("value") == '"rulegrid-pack"'
    assert f'"format": {magic.get("value")}' in TUTORIAL_PACK.read_text("utf-8")[:64]
    validator = shutil.which("desktop-file-validate")
    if validator is not None:
        checked = subprocess.run([validator, str(files["entry"])], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr

    assert app.main(["--uninstall-desktop"]) == 0
    assert all(not p.exists() for p in files.values())
    assert other.read_text(encoding="utf-8") == "[Desktop Entry]\nName=Other\n"
    capsys.readouterr()
    assert app.main(["--uninstall-desktop"]) == 0
    assert capsys.readouterr().out == f"rulegrid-editor: nothing to remove under {home}\n"


def test_desktop_exec_quoting_follows_the_specification() -> None:
    assert desktop.exec_quote("/usr/bin/rulegrid-editor") == "/usr/bin/rulegrid-editor"
    assert desktop.exec_quote("/a b/c") == '"/a b/c"'
    assert desktop.exec_quote('/a"$b') == '"/a\\\\"\\\\$b"'
    assert desktop.exec_quote("/50%") == "/50%%"


def test_an_unwritable_data_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert app.main(["--install-desktop"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulegrid-editor: could not write")
    assert err.count("\n") == 1
