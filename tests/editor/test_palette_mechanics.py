"""Issue 38 (B2): the palette offers a registered mechanic's word as its declaration says.

The toy property HOLLOW (tests/engine/hollow.py) is registered before the window is
built, as a plugin would be: the palette lists it among the properties, with the
tip and the tile colour its mechanic declares, and an author finds it by typing
and paints it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

import engine
from editor import values
from editor.values import WORD, Pos, Stamp
from tests.editor.window_driver import click, tokens, trigger
from tests.engine import hollow

HOLLOW = Stamp(WORD, hollow.HOLLOW)


@pytest.fixture
def registered_hollow() -> Iterator[engine.Mechanic]:
    mechanic = engine.register_mechanic(hollow.MECHANIC)
    values.vocabulary.cache_clear()  # vocabularies made before it do not know the word
    try:
        yield mechanic
    finally:
        engine.unregister_mechanic(mechanic.name)
        values.vocabulary.cache_clear()


def test_the_palette_lists_a_registered_property_with_its_declared_tip_and_colour(
    registered_hollow: engine.Mechanic, make_window
) -> None:
    window = make_window()
    palette = window.palette_panel
    assert HOLLOW in palette.stamps()
    item = palette._items[HOLLOW]
    header = item.parent()
    assert header is not None
    assert header.text(0) == "Properties"
    assert item.toolTip(0) == "Property word HOLLOW: nothing stops it"
    assert registered_hollow.palette is not None
    assert window.renderer.color_of(HOLLOW).name() == registered_hollow.palette.color
    assert window.renderer.role(HOLLOW) is engine.WordRole.PROPERTY


def test_an_author_finds_the_registered_word_by_typing_and_paints_it(
    registered_hollow: engine.Mechanic, make_window
) -> None:
    window = make_window()
    trigger(window, "actionToolBrush")
    palette = window.palette_panel
    palette.search.setFocus()
    QTest.keyClicks(palette.search, "holl")
    assert palette.stamps(visible_only=True) == [HOLLOW]
    QTest.keyClick(palette.search, Qt.Key.Key_Return)
    assert window.session.stamp == HOLLOW
    click(window, Pos(2, 2))
    assert tokens(window, Pos(2, 2)) == [hollow.HOLLOW]
