"""Small wrongs an author met in the first hour (issue 35, item 7): a shrink that
deleted entities without a word, a FRAIL row that made a cycle by itself, two
refusals for one mistake, a won banner that offered the stored solution and said
nothing when used, and a jump from a problem that left the Stack tab behind."""

from __future__ import annotations

from dataclasses import replace

import engine
from editor.panels.validation.jump import open_problem_field
from editor.resources import TUTORIAL_PACK
from editor.values import OBJECT, WORD, Anchor, Pos, Stamp
from tests.editor.mechanics_driver import (
    automata_panel,
    click,
    frail_panel,
    type_into,
    view_items,
)
from tests.editor.play_driver import keys, open_level, play
from tests.editor.window_driver import trigger

# ------------------------------------------------------------------ resize


def test_a_resize_that_removes_entities_says_how_many_first(make_window, dialogs) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    level.add_on_top([Pos(10, 1), Pos(11, 2), Pos(11, 3)], Stamp(OBJECT, "WALL"))
    level.add_on_top([Pos(11, 3)], Stamp(WORD, "ROCK"))
    level.add_on_top([Pos(0, 0)], Stamp(OBJECT, "BABA"))  # stays
    count = level.entity_count()
    smaller = replace(level.properties, width=10)
    dialogs.level_properties = (smaller, Anchor())
    dialogs.confirm_answer = False  # the author keeps the level as it was
    trigger(window, "actionLevelProperties")
    assert dialogs.asked[-1] == ("confirm", "Resize Level")
    assert "removes 4 entities" in dialogs.confirm_texts[-1]
    assert "3 WALL, 1 ROCK word" in dialogs.confirm_texts[-1]
    assert (level.width, level.entity_count()) == (12, count)
    dialogs.confirm_answer = True
    trigger(window, "actionLevelProperties")
    assert (level.width, level.entity_count()) == (10, count - 4)
    assert "removed 4 entities" in window.statusBar().currentMessage()
    trigger(window, "actionUndo")  # undoable as before
    assert (level.width, level.entity_count()) == (12, count)


def test_a_resize_that_removes_nothing_asks_nothing(make_window, dialogs) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    level.add_on_top([Pos(0, 0)], Stamp(OBJECT, "BABA"))
    bigger = replace(level.properties, title="Bigger", width=20, height=13)
    dialogs.level_properties = (bigger, Anchor(1, 1))  # grow around the middle
    trigger(window, "actionLevelProperties")
    assert ("confirm", "Resize Level") not in dialogs.asked
    assert (level.width, level.height) == (20, 13)
    assert level.removed_by_resize(12, 9, Anchor(1, 1)) == []  # back: nothing falls off
    assert engine.MAX_GRID_SIZE >= 20


# -------------------------------------------------------------------- FRAIL


def test_add_a_row_never_makes_a_cycle_by_itself(make_window) -> None:
    window = make_window()  # a new pack: eight starter nouns
    panel = frail_panel(window)
    click(panel.opt_in)
    nouns = list(window.pack.nouns)
    for rows in range(1, len(nouns)):
        click(panel.add_row)
        leaves = panel.leaves()
        assert leaves is not None
        assert len(leaves) == rows
        assert engine.leaves_problems(leaves) == [], leaves  # no cycle, no self-map
    # The last noun: every leftover would lead back to it. Nothing is added, and it says so.
    before = panel.leaves()
    click(panel.add_row)
    assert panel.leaves() == before
    assert "would lead back to itself" in panel.problems.text()


# ------------------------------------------------------------------ refusals


def test_typing_you_as_an_automaton_property_gives_one_refusal(make_window) -> None:
    """On clockwork the TICK words would also stop reading: a consequence, not a mistake."""
    window = make_window(TUTORIAL_PACK)
    window.session.set_level(window.pack.levels[6])  # clockwork: its automaton is TICK
    panel = automata_panel(window)
    form = panel.form
    type_into(form.property_word, "YOU")
    assert form.property_problems.text() == (
        "Not stored: YOU cannot be an automaton property: it is a built-in property"
        " (invalid-property)"
    )
    assert [p.code for p in form.property_problems.problems] == ["invalid-property"]
    assert view_items(panel)[0]["property"] == "TICK"
    type_into(form.property_word, "GEAR")  # a word of its own, but TICK words stay on the board
    assert [p.code for p in form.property_problems.problems] == ["unknown-noun"]
    assert "TICK" in form.property_problems.text()  # the one reason, still shown


# ------------------------------------------------------------- won banner


def test_the_won_banner_offers_only_a_new_solution_and_says_when_it_is_used(
    make_window, settings
) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, 0)  # first-steps: its solution is RRRRRRUU
    level = window.level
    assert level is not None
    play(window)
    keys(window, "UURRRRRR")
    button = window.play_view.banner.buttons[0]
    assert button.isEnabled()
    button.click()
    assert level.authored("solution") == "UURRRRRR"
    assert not button.isEnabled()
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Stored 8 moves as the intended solution of first-steps")
    )
    # The solution changes elsewhere (the solver panel stores one): the offer follows.
    level.set_authored("solution", "RRRRRRUU", text="Use Solver's Solution")
    assert window.play_view.property("won") is True
    assert button.isEnabled()  # offered again: these moves are no longer stored
    assert "intended solution" not in window.play_view.banner.text()
    level.set_authored("solution", "UURRRRRR", text="Use Solver's Solution")
    assert not button.isEnabled()
    assert window.play_view.banner.text().endswith("the level's intended solution")


# ------------------------------------------------------------------- a jump


def test_a_jump_to_an_entity_problem_brings_the_stack_tab_forward(make_window, qtbot) -> None:
    window = make_window(TUTORIAL_PACK)
    stack, automata = window.docks["stackInspector"], window.docks["automata"]
    automata.raise_()  # the Stack tab lies behind the Automata tab
    qtbot.waitUntil(lambda: stack.visibleRegion().isEmpty())
    window.session.inspect(Pos(0, 0))
    window.validation_panel.problem_activated.emit("first-steps", "/levels/0/entities/2")
    qtbot.waitUntil(lambda: not stack.visibleRegion().isEmpty())
    assert automata.visibleRegion().isEmpty()
    assert open_problem_field(window, "first-steps", "/levels/0/entities/2/noun") == (
        "stackInspector"
    )
