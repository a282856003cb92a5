"""A new pack does not warn about itself: its starter nouns are the editor's (issue 35)."""

from __future__ import annotations

from editor.documents.pack import STARTER_NOUNS
from editor.main_window import MainWindow
from editor.values import OBJECT, NounSpec, Pos, Stamp
from tests.editor.window_driver import click, trigger, use


def checked(qtbot, window: MainWindow) -> None:
    validator = window.validation_panel.validator
    qtbot.waitUntil(
        lambda: validator.result is not None and not validator.is_busy(), timeout=15_000
    )


def warnings(window: MainWindow) -> list[tuple[str, str]]:
    return [(r.record["code"], r.record["pointer"]) for r in window.validation_panel.rows()]


def test_a_new_pack_and_one_brush_click_warn_about_no_starter_noun(
    qtbot, make_window, dialogs
) -> None:
    window = make_window()
    trigger(window, "actionNewPack")
    assert set(window.pack.nouns) == set(STARTER_NOUNS)
    use(window, "actionToolBrush", Stamp(OBJECT, "BABA"))
    click(window, Pos(2, 2))
    checked(qtbot, window)
    assert [w for w in warnings(window) if w[0] == "unused-noun"] == []

    dialogs.noun = ("GHOST", NounSpec("#0072b2"))  # a noun the author adds is theirs
    trigger(window, "actionAddNoun")
    checked(qtbot, window)
    qtbot.waitUntil(lambda: ("unused-noun", "/nouns/GHOST") in warnings(window), timeout=15_000)
    assert [w for w in warnings(window) if w[0] == "unused-noun"] == [
        ("unused-noun", "/nouns/GHOST")
    ]
