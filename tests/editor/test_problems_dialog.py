from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPushButton

import engine
from editor.dialogs.problems import ProblemsDialog
from editor.dialogs.questions import QtDialogs

PROBLEMS = [
    engine.Problem(
        "/levels/0/entities/3/noun",
        "unknown-noun",
        "object noun GHOST is not in the pack's nouns",
        "tutorial",
        "first-steps",
    ),
    engine.Problem("/title", "missing-field", "title is required", "tutorial", None),
]


def test_every_problem_is_a_row_with_its_path(qtbot) -> None:
    dialog = ProblemsDialog("tutorial.json", PROBLEMS, can_repair=False)
    qtbot.addWidget(dialog)
    assert dialog.rows() == [
        (
            "tutorial/levels/0/entities/3/noun",
            "first-steps",
            "unknown-noun",
            "object noun GHOST is not in the pack's nouns",
        ),
        ("tutorial/title", "", "missing-field", "title is required"),
    ]
    assert dialog.repair_button is None


def test_the_real_dialog_can_open_the_pack_anyway(qtbot) -> None:
    clicked: list[bool] = []

    def press_open_anyway() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ProblemsDialog)
        button = dialog.findChild(QPushButton, "problemsOpenAnyway")
        clicked.append(button is not None)
        button.click()

    QTimer.singleShot(0, press_open_anyway)
    assert (
        QtDialogs().show_problems(
            None, "broken.json", PROBLEMS, can_repair=True, repair_notes=["x"]
        )
        is True
    )
    assert clicked == [True]
