"""Starting Qt with a clear word, not a core dump, where it cannot start.

When Qt finds no usable platform plugin (a missing system library such as
``libxcb-cursor0``, no display, a misspelt ``QT_QPA_PLATFORM``), it reports it
with ``qFatal`` inside the ``QApplication`` constructor, which aborts the
process: a core dump and a message that names neither the package to install
nor the way around it. :func:`guarded_start` installs a Qt message handler for
the time the application object is being built: Qt calls it with every warning
it gives on the way and then with the fatal message, *before* aborting. The
handler prints one paragraph (what is missing, the Debian/Ubuntu and Fedora
packages that provide it, the ``QT_QPA_PLATFORM`` alternatives) and ends the
process with exit code 1. Nothing is probed when Qt starts fine, so a normal
start pays nothing; the diagnosis (loading the plugin's library to learn which
system library it lacks) runs only on the way out (docs/install.md).
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from PySide6.QtCore import QLibraryInfo, QMessageLogContext, QtMsgType, qInstallMessageHandler

#: Exit code when Qt cannot start (argparse uses 2 for usage errors).
EXIT_NO_QT = 1

#: System libraries Qt's platform plugins need, and the packages that provide them:
#: (Debian/Ubuntu, Fedora). Qt's own list: "Qt for X11 Requirements".
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libSM.so.6": ("libsm6", "libSM"),
    "libICE.so.6": ("libice6", "libICE"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}

#: Qt's X11 plugin needs this library from Qt 6.5 on, and loads it by name.
XCB_CURSOR = "libxcb-cursor.so.0"

#: What each usual platform is for, in the order the paragraph suggests them.
PLATFORMS = {
    "xcb": "X11",
    "wayland": "a Wayland session",
    "offscreen": "no window at all, for scripts and tests",
}

_MISSING = re.compile(r"(lib[\w.+-]+\.so(?:\.\d+)*)")
_QUOTED = re.compile(r'platform plugin "([^"]*)"')
_DISPLAY = re.compile(r"could not connect to display[ \t]*(\S*)[ \t]*$")


@contextmanager
def guarded_start(
    *, program: str = "rulegrid-editor", stream: TextIO | None = None
) -> Iterator[None]:
    """Build the Qt application inside this block: if Qt cannot start, say why and exit 1.

    Only the construction is guarded: afterwards Qt's messages go where they went.
    """
    messages: list[str] = []

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if kind != QtMsgType.QtFatalMsg:
            messages.append(message)
            return
        messages.append(message)
        try:
            text = explain(messages, program=program)
        except Exception:  # never let the diagnosis turn into the abort it prevents
            text = f"{program}: Qt cannot start: " + " ".join(m.strip() for m in messages)
        out = stream if stream is not None else sys.stderr
        out.write(text + "\n")
        out.flush()
        sys.stdout.flush()
        os._exit(EXIT_NO_QT)

    qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(None)


def explain(
    messages: list[str],
    *,
    program: str = "rulegrid-editor",
    platform: str | None = None,
    probe: Callable[[str], list[str]] | None = None,
) -> str:
    """One paragraph from Qt's messages: what is missing, what provides it, what else to try.

    ``probe`` lists the system libraries a platform plugin lacks (by default:
    :func:`missing_libraries`); tests pass their own.
    """
    probe = probe if probe is not None else missing_libraries
    joined = " ".join(messages)
    name = platform if platform is not None else _platform_named(joined)
    available = _available(joined)
    alternatives = _alternatives(name, available)
    if name and available and name not in available:
        return (
            f'{program}: Qt has no platform plugin called "{name}" '
            f"(QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', name)}). {alternatives}"
        )
    missing = probe(name) if name else []
    if missing:
        debian = _unique(PACKAGES.get(lib, (lib, lib))[0] for lib in missing)
        fedora = _unique(PACKAGES.get(lib, (lib, lib))[1] for lib in missing)
        return (
            f'{program}: Qt cannot load its "{name}" platform plugin because the system '
            f"{'libraries' if len(missing) > 1 else 'library'} {', '.join(missing)} "
            f"{'are' if len(missing) > 1 else 'is'} missing. Install "
            f"{'them' if len(missing) > 1 else 'it'}: on Debian/Ubuntu "
            f"`sudo apt install {' '.join(debian)}`, on Fedora `sudo dnf install {' '.join(fedora)}` "
            f"(the README's Requirements list them all). {alternatives}"
        )
    display = next((found for m in messages if (found := _DISPLAY.search(m)) is not None), None)
    if display is not None or (name == "xcb" and not os.environ.get("DISPLAY")):
        where = (display.group(1) if display else "") or os.environ.get("DISPLAY", "") or "unset"
        return (
            f'{program}: Qt\'s "{name or "xcb"}" platform could not connect to a display '
            f"(DISPLAY={where}): start the editor inside a graphical session. {alternatives}"
        )
    said = " ".join(m.strip().replace("\n", " ") for m in messages if m.strip())
    return f"{program}: Qt cannot start: {said} {alternatives}"


def _platform_named(text: str) -> str:
    found = _QUOTED.search(text)
    if found is not None:
        return found.group(1)
    return os.environ.get("QT_QPA_PLATFORM", "").split(":")[0]


def _available(text: str) -> list[str]:
    found = re.search(r"Available platform plugins are:\s*([^\n]*)", text)
    if found is not None:
        return [p.strip() for p in found.group(1).rstrip(". ").split(",") if p.strip()]
    return installed_platforms()


def _alternatives(name: str, available: list[str]) -> str:
    usual = [f"{p} ({what})" for p, what in PLATFORMS.items() if p != name and p in available]
    rest = [p for p in available if p not in PLATFORMS and p != name]
    others = f"; also {', '.join(rest)}" if rest else ""
    return (
        "Or choose another platform with QT_QPA_PLATFORM: "
        f"{', '.join(usual) or 'offscreen'}{others}."
    )


def _unique(items: Iterator[str]) -> list[str]:
    return list(dict.fromkeys(items))


def plugin_folder() -> Path:
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"


def installed_platforms() -> list[str]:
    """The platform plugins Qt has (``libqxcb.so`` is ``xcb``)."""
    try:
        names = sorted(p.name for p in plugin_folder().iterdir())
    except OSError:
        return []
    return [n[len("libq") :].split(".")[0] for n in names if n.startswith("libq")]


def missing_libraries(platform: str) -> list[str]:
    """The system libraries the platform plugin ``platform`` cannot find, first one first.

    Loading the plugin's library names the first missing one; ``ldd``, where there
    is one, names the rest. Empty when the plugin loads (or is not a library here).
    """
    candidates = sorted(plugin_folder().glob(f"libq{platform}.*")) if platform else []
    if not candidates:
        return []
    plugin = candidates[0]
    missing: list[str] = []
    if platform == "xcb":  # loaded by name at run time, so no listing of the plugin names it
        try:
            ctypes.CDLL(XCB_CURSOR)
        except OSError:
            missing.append(XCB_CURSOR)
    try:
        ctypes.CDLL(str(plugin))
        loads = True
    except OSError as exc:
        loads = False
        first = _MISSING.search(str(exc))
        if first is not None and first.group(1) not in (plugin.name, *missing):
            missing.append(first.group(1))
    ldd = shutil.which("ldd")
    if ldd is not None and not loads:
        try:
            listing = subprocess.run(
                [ldd, str(plugin)], capture_output=True, text=True, timeout=10, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            listing = ""
        for line in listing.splitlines():
            if "not found" in line:
                lib = line.split("=>")[0].strip()
                if lib and lib not in missing:
                    missing.append(lib)
    return missing
