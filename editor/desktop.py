"""Desktop integration on Linux: ``rulegrid-editor --install-desktop`` and ``--uninstall-desktop``.

Installing writes three files under the XDG data folder (``$XDG_DATA_HOME``,
else ``~/.local/share``), each whole or not at all:

- ``applications/dev.rulegrid.Editor.desktop``: the menu entry, starting this
  very program (the pipx or venv launcher, or the bundle's executable) on a file;
- ``icons/hicolor/scalable/apps/dev.rulegrid.Editor.svg``: its icon;
- ``mime/packages/dev.rulegrid.Editor.xml``: the file types of share payloads
  (``*.rulegrid``, or text starting ``rulegrid:1:``) and of pack files (JSON whose
  ``format`` is ``rulegrid-pack``), so a double-click opens them in the editor.

Uninstalling removes exactly those three files. The desktop's caches are brought
up to date by ``update-mime-database`` and ``update-desktop-database`` where
they exist; they are the desktop's own files, not ours, and are never removed.
No Qt is loaded: this runs from a terminal without a display.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine
from editor.resources import application_icon_path

APP_ID = "dev.rulegrid.Editor"
PAYLOAD_MIME = "application/x-rulegrid-payload"
PACK_MIME = "application/x-rulegrid-pack+json"


def data_home() -> Path:
    """The XDG data folder: ``$XDG_DATA_HOME`` when set to an absolute path, else ``~/.local/share``."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if value and Path(value).is_absolute() else Path.home() / ".local" / "share"


def installed_files(home: Path) -> dict[str, Path]:
    """The files ``--install-desktop`` writes under ``home`` (and ``--uninstall-desktop`` removes)."""
    return {
        "entry": home / "applications" / f"{APP_ID}.desktop",
        "icon": home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
        "mime": home / "mime" / "packages" / f"{APP_ID}.xml",
    }


def launcher() -> list[str]:
    """The command that starts this editor again, for the desktop entry's ``Exec``.

    The bundle's executable when frozen; the ``rulegrid-editor`` launcher that is
    running (pipx's or a venv's, kept as given so an upgrade keeps working);
    otherwise this interpreter with ``-m editor``.
    """
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).absolute())]
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name.startswith("rulegrid-editor") and started.is_file():
        return [str(started.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "editor"]


def exec_quote(argument: str) -> str:
    """One ``Exec`` argument as the Desktop Entry Specification wants it quoted and escaped.

    Inside double quotes ``"``, `````, ``$`` and ``\\`` take a backslash; ``%`` is
    doubled; then the value as a whole escapes its backslashes once more (the
    key file's own escaping).
    """
    text = argument.replace("%", "%%")
    if any(c in text for c in " \t\n\"'\\><~|&;$*?#()`="):
        text = '"' + "".join("\\" + c if c in '"`$\\' else c for c in text) + '"'
    return text.replace("\\", "\\\\")


def desktop_entry(command: list[str]) -> str:
    exec_line = " ".join(exec_quote(part) for part in command) + " %f"
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Version=1.4\n"  # the newest desktop-file-validate 0.26 (Debian 12) knows
        "Name=Rulegrid Editor\n"
        "GenericName=Puzzle Level Editor\n"
        "Comment=Paint, test-play, solve and share levels of rule-pushing grid puzzles\n"
        f"Icon={APP_ID}\n"
        f"Exec={exec_line}\n"
        "Terminal=false\n"
        "Categories=Development;\n"
        f"MimeType={PAYLOAD_MIME};{PACK_MIME};\n"
        "Keywords=puzzle;level;editor;rules;baba;\n"
        f"X-Rulegrid-Version={engine.version()}\n"
    )


def mime_types() -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="{PAYLOAD_MIME}">
    <comment>Rulegrid share payload</comment>
    <icon name="{APP_ID}"/>
    <sub-class-of type="text/plain"/>
    <glob pattern="*{engine.share.PAYLOAD_SUFFIX}"/>
    <magic priority="60">
      <match type="string" offset="0" value="rulegrid:1:"/>
    </magic>
  </mime-type>
  <mime-type type="{PACK_MIME}">
    <comment>Rulegrid level pack</comment>
    <icon name="{APP_ID}"/>
    <sub-class-of type="application/json"/>
    <magic priority="60">
      <match type="string" offset="0:64" value="&quot;rulegrid-pack&quot;"/>
    </magic>
  </mime-type>
</mime-info>
"""


def install_files(home: Path, command: list[str] | None = None) -> list[Path]:
    """Write the entry, the icon and the file types under ``home``; returns the paths written.

    Raises:
        OSError: a file could not be written (those written before it stay, each whole).
    """
    files = installed_files(home)
    engine.write_atomic(files["icon"], application_icon_path().read_bytes())
    engine.write_atomic(files["mime"], mime_types())
    engine.write_atomic(files["entry"], desktop_entry(command or launcher()))
    _refresh(home)
    return list(files.values())


def uninstall_files(home: Path) -> list[Path]:
    """Remove exactly the files :func:`install_files` writes; returns those that were there."""
    removed = []
    for path in installed_files(home).values():
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    if removed:
        _refresh(home)
    return removed


def _refresh(home: Path) -> None:
    """Let the desktop see the change now: its own caches, rebuilt by its own tools, if any."""
    for tool, folder in (
        ("update-mime-database", home / "mime"),
        ("update-desktop-database", home / "applications"),
    ):
        found = shutil.which(tool)
        if found is None or not folder.is_dir():
            continue
        try:
            subprocess.run([found, str(folder)], capture_output=True, timeout=60, check=False)
        except (OSError, subprocess.SubprocessError):
            continue  # the files are in place; the desktop reads them at its next scan


def main(*, install: bool) -> int:
    """The command line's ``--install-desktop`` (``install``) or ``--uninstall-desktop``."""
    if not sys.platform.startswith("linux"):
        sys.stderr.write(
            "rulegrid-editor: desktop integration writes XDG files for Linux desktops; "
            "on this system, add a shortcut to the rulegrid-editor program by hand\n"
        )
        return 1
    home = data_home()
    try:
        changed = install_files(home) if install else uninstall_files(home)
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        sys.stderr.write(f"rulegrid-editor: could not write{where}: {exc.strerror or exc}\n")
        return 1
    if install:
        head = f"installed the desktop entry, icon and file types under {home}:"
    elif changed:
        head = f"removed the desktop entry, icon and file types under {home}:"
    else:
        head = f"nothing to remove under {home}"
    sys.stdout.write("".join([f"rulegrid-editor: {head}\n", *(f"  {p}\n" for p in changed)]))
    return 0
