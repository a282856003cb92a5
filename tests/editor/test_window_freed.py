"""A window a host builds and closes is freed, although its pack was frozen for the collector.

Opening a pack freezes it (``gc.freeze``, so full collections never walk a large
pack again and again); a frozen cycle is never collected, so closing or deleting
the window has to thaw it, or every window a test run or a script builds stays.
"""

from __future__ import annotations

import gc
import json
import weakref
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent

from editor.documents.pack import PackDocument
from editor.main_window import MainWindow
from tests.support import PACKS_DIR


def _gone(probe: weakref.ref[Any]) -> bool:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()
    gc.collect()
    return probe() is None


def test_a_closed_window_is_freed(qapp, settings, dialogs) -> None:
    window = MainWindow(PACKS_DIR / "tutorial.json", settings=settings, dialogs=dialogs)
    window.show()
    qapp.processEvents()
    assert gc.get_freeze_count() > 0  # the open pack is frozen while the window lives
    probe = weakref.ref(window)
    window.close()
    window.deleteLater()
    del window
    assert _gone(probe)


def test_a_window_deleted_without_closing_is_freed(qapp, settings, dialogs) -> None:
    window = MainWindow(PACKS_DIR / "tutorial.json", settings=settings, dialogs=dialogs)
    qapp.processEvents()
    probe = weakref.ref(window)
    window.deleteLater()
    del window
    assert _gone(probe)


def test_a_closed_window_frees_its_pack_and_levels(qapp, settings, dialogs) -> None:
    # Panels connect closures over themselves to the pack's signals, and the pack to
    # its levels' signals: held only through Qt, such cycles are invisible to the
    # collector unless the pack dies with the window.
    window = MainWindow(PACKS_DIR / "tutorial.json", settings=settings, dialogs=dialogs)
    window.show()
    qapp.processEvents()
    pack = window.session.pack
    assert pack is not None
    probes = [weakref.ref(pack), *(weakref.ref(level) for level in pack.levels)]
    del pack
    window.close()
    window.deleteLater()
    del window
    _gone(probes[0])
    assert [probe for probe in probes if probe() is not None] == []


def test_a_pack_no_window_holds_is_freed(qapp) -> None:
    # The pack follows its levels' signals, and the levels are its children: slots
    # closing over the pack would keep both alive through Qt after the last reference.
    pack = PackDocument.from_data(json.loads((PACKS_DIR / "tutorial.json").read_text()), notes=[])
    probes = [weakref.ref(pack), *(weakref.ref(level) for level in pack.levels)]
    del pack
    gc.collect()
    assert [probe for probe in probes if probe() is not None] == []
