"""A window a host builds and closes is freed, although its pack was frozen for the collector.

Opening a pack freezes it (``gc.freeze``, so full collections never walk a large
pack again and again); a frozen cycle is never collected, so closing or deleting
the window has to thaw it, or every window a test run or a script builds stays.
"""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QCoreApplication, QEvent

from editor.main_window import MainWindow
from tests.support import PACKS_DIR


def _gone(probe: weakref.ref[MainWindow]) -> bool:
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
