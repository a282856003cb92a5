"""Turns the editor plays for the author are bounded too (issue 39): the play view's
turn and the replay behind a solution picture stop at their budgets with one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import engine
from bench.hostile_work import blocked_chain_level
from editor.views.pictures import PictureError, solution_of
from tests.editor.play_driver import open_level, play, write_pack

#: 1,200 BABA walking into 1,000 stacked words: about 1.2 million units of work in
#: one turn that moves nothing, over the cap of a turn (engine.limits.TURN_WORK_CAP).
CHAIN = blocked_chain_level(1_200, 1_000)


def test_a_turn_over_the_cap_is_not_played_and_the_view_says_why(
    make_window, tmp_path: Path
) -> None:
    window = open_level(make_window, 0, write_pack(tmp_path, CHAIN))
    play(window)
    view = window.play_view
    before = view.record.game.state()
    QTest.keyClick(view, Qt.Key.Key_Right)
    assert view.status.text().startswith("This move was not played: it needs more than ")
    assert "units of work in one turn" in view.status.text()
    assert view.record.turns == 0
    assert view.record.game.state() == before
    QTest.keyClick(view, Qt.Key.Key_Up)  # and the game goes on
    assert view.record.turns == 1


def test_a_solution_picture_stops_at_its_budget_naming_the_move() -> None:
    level = engine.load_level({**CHAIN, "solution": "LR"})
    with pytest.raises(PictureError, match=r"level 'chain' needs more than .* stopped at move 2"):
        solution_of(level, "LR")
