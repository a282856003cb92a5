"""The progress window of file operations: what it says, and a bar cheap to repaint."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from editor.dialogs.progress import FileProgress


def test_the_count_and_the_bar_follow_the_stage(qtbot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    dialog = FileProgress(host, "Saving big.json", can_cancel=True)
    dialog.update_to("Collecting levels", 3456, 10000)
    assert dialog.label.text() == "Collecting levels"
    assert dialog.count.text() == "3,456 of 10,000"
    assert (dialog.bar.value(), dialog.bar.maximum()) == (3456, 10000)
    dialog.update_to("Reading big.json", 0, 0)  # how far cannot be said
    assert dialog.count.text() == ""
    assert dialog.bar.maximum() == 0
    dialog.finish()


def test_the_busy_bar_moves_and_stops_once_the_stage_counts(qtbot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    dialog = FileProgress(host, "Opening big.json", can_cancel=False)
    dialog.show()
    dialog.update_to("Reading big.json", 0, 0)
    bar = dialog.bar
    first = bar.grab().toImage()
    qtbot.wait(300)
    assert bar.grab().toImage() != first  # the block moved
    dialog.update_to("Checking levels", 5, 10)
    steady = bar.grab().toImage()
    qtbot.wait(300)
    assert bar.grab().toImage() == steady  # no animation while counting
    dialog.finish()
