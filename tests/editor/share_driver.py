"""Helpers for the sharing tests: wait for the preview the way an author waits for it,
and press its buttons with the mouse."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QApplication, QListWidget, QRadioButton

from editor.main_window import MainWindow
from editor.panels.library import LibraryDialog
from editor.panels.share.preview import SharePreviewDialog
from tests.editor.window_driver import trigger


def preview_of(
    qtbot, window: MainWindow, action_id: str = "actionImportShare"
) -> SharePreviewDialog:
    """Trigger an import action and wait until the preview dialog is shown."""
    trigger(window, action_id)
    return wait_for_preview(qtbot, window)


def wait_for_preview(qtbot, window: MainWindow) -> SharePreviewDialog:
    qtbot.waitUntil(lambda: window.sharing.importer.dialog is not None, timeout=10_000)
    dialog = window.sharing.importer.dialog
    assert isinstance(dialog, SharePreviewDialog)
    assert dialog.objectName() == "sharePreviewDialog"
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def click(qtbot, button: QAbstractButton) -> None:
    """Click a button where an author would: a radio button on its round indicator."""
    assert button.isVisible(), f"{button.objectName()} is not shown"
    if isinstance(button, QRadioButton):
        at = QPoint(8, button.height() // 2)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=at)
    else:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def wait_for_thumbnails(qtbot, view: QListWidget) -> None:
    qtbot.waitUntil(
        lambda: (
            view.count() > 0 and all(not view.item(n).icon().isNull() for n in range(view.count()))
        ),
        timeout=10_000,
    )


def open_library(qtbot, window: MainWindow) -> LibraryDialog:
    trigger(window, "actionInstalledPacks")
    dialog = window.sharing.library
    assert isinstance(dialog, LibraryDialog)
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.loading, timeout=10_000)
    return dialog


def put_on_clipboard(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


def drop(window: MainWindow, *, path: Path | None = None, text: str | None = None) -> bool:
    """Drag ``path`` (or ``text``) over the window and drop it; True when the drag was accepted."""
    mime = QMimeData()
    if path is not None:
        mime.setUrls([QUrl.fromLocalFile(str(path))])
    if text is not None:
        mime.setText(text)
    point = QPoint(window.width() // 2, window.height() // 2)
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(
        point, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, enter)
    if not enter.isAccepted():
        return False
    event = QDropEvent(
        point.toPointF(), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(window, event)
    return event.isAccepted()
