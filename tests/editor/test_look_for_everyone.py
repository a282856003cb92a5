"""A look for everyone: high contrast, colour-blind-safe defaults, glyphs that differ."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

import engine
from editor.documents.pack import STARTER_NOUNS
from editor.values import OBJECT, NounSpec, Stamp
from editor.views.look import distinct_glyphs
from tests.editor.window_driver import trigger


def test_nouns_that_share_a_first_letter_get_glyphs_that_differ() -> None:
    nouns = {n: NounSpec("#000000") for n in ("GOOP", "GRASS", "LAVA", "LOVE", "BABA", "KEKE")}
    nouns["KEY"] = NounSpec("#000000", "Y")  # the author's own glyph wins
    glyphs = distinct_glyphs(nouns)
    assert glyphs["GOOP"] == "GO"
    assert glyphs["GRASS"] == "GR"
    assert glyphs["LAVA"] == "LA"
    assert glyphs["LOVE"] == "LO"
    assert glyphs["BABA"] == "B"
    assert glyphs["KEY"] == "Y"
    assert glyphs["KEKE"] == "K"
    assert len(set(glyphs.values())) == len(glyphs)


def test_the_canvas_draws_the_distinct_glyphs(make_window) -> None:
    window = make_window()
    window.pack.add_noun("GOOP", NounSpec("#009e73"))
    window.pack.add_noun("GRASS", NounSpec("#009e73"))
    assert window.look.glyph("GOOP") != window.look.glyph("GRASS")
    goop = window.renderer.tile(Stamp(OBJECT, "GOOP"), 48).toImage()
    grass = window.renderer.tile(Stamp(OBJECT, "GRASS"), 48).toImage()
    assert goop != grass  # same colour, told apart by their letters


def test_new_packs_start_with_colour_blind_safe_nouns() -> None:
    assert set(STARTER_NOUNS.values()) <= set(engine.NOUN_COLORS)
    assert len(set(STARTER_NOUNS.values())) == len(STARTER_NOUNS)


def test_high_contrast_is_a_theme_of_its_own_and_remembered(make_window, settings) -> None:
    window = make_window()
    trigger(window, "actionHighContrast")
    assert settings.theme == "contrast"
    assert window.renderer.theme.strong_edges
    assert QApplication.palette().window().color().name() == "#ffffff"
    trigger(window, "actionDarkTheme")  # dark and high contrast exclude each other
    assert settings.theme == "dark"
    assert not window.actions_by_id["actionHighContrast"].isChecked()
    trigger(window, "actionDarkTheme")
    assert settings.theme == "light"
