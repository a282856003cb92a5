"""Legible marks on the board: letters contrast 4.5:1 with what they are drawn on in
every theme, a stacked cell's chip names what lies beneath, and no mark covers the
stack count (issue 35, item 6)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from itertools import product
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QImage

import engine
from editor.documents.pack import STARTER_NOUNS
from editor.resources import TUTORIAL_PACK
from editor.tasks.move_zero import place_in_words, preview
from editor.values import OBJECT, WORD, NounSpec, Pos, Stamp
from editor.views.contrast import MIN_CONTRAST, contrast, legible_tint, text_on
from editor.views.look import Look
from editor.views.theme import PROPERTY_COLORS, THEMES, UNKNOWN_NOUN_COLOR, Theme
from editor.views.tiles import TileRenderer, badge_rect, chip_rect
from tests.editor.mechanics_driver import automata_panel, wait_for_facts
from tests.editor.test_mechanics_automata import KNOWN_LEVEL, _pack_file
from tests.editor.window_driver import trigger
from tests.support import ROOT as REPO_ROOT

MECHANIC = "TICK"  # an automaton's property word in the looks below


def bundled_noun_colors() -> dict[str, str]:
    """Every noun colour the editor ships: default palette, starter nouns, bundled packs."""
    colors = {f"DEFAULT{i}": c for i, c in enumerate(engine.NOUN_COLORS)}
    colors.update({f"STARTER_{name}": c for name, c in STARTER_NOUNS.items()})
    for path in (Path(TUTORIAL_PACK), REPO_ROOT / "packs" / "keke-classics.json"):
        nouns = json.loads(path.read_text(encoding="utf-8"))["nouns"]
        colors.update({f"{path.stem}_{n}".upper(): s["color"] for n, s in nouns.items()})
    return colors


def renderer_for(theme: Theme, colors: dict[str, str]) -> TileRenderer:
    look = Look(theme)
    look.set_nouns({name: NounSpec(color) for name, color in colors.items()})
    look.set_level_words(frozenset({MECHANIC}), True)
    return TileRenderer(look)


def every_word_kind() -> list[Stamp]:
    """Operators, the built-in properties, FRAIL and an automaton's property word."""
    tokens = [*sorted(engine.OPERATORS), *sorted(engine.BASE_PROPERTIES), engine.FRAIL, MECHANIC]
    return [Stamp(WORD, token) for token in tokens]


def failures(renderer: TileRenderer, stamps: list[Stamp]) -> list[str]:
    found = []
    for stamp in stamps:
        fill, text = renderer.label_colors(stamp)
        ratio = contrast(fill, text)
        if ratio < MIN_CONTRAST:
            found.append(f"{stamp.kind} {stamp.token}: {text.name()} on {fill.name()} {ratio:.2f}")
    return found


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_every_shipped_noun_colour_and_word_kind_reads_at_4_5_to_1(qapp, theme: Theme) -> None:
    colors = {**bundled_noun_colors(), "UNKNOWN": UNKNOWN_NOUN_COLOR}
    renderer = renderer_for(theme, colors)
    stamps = [Stamp(kind, name) for name in colors for kind in (OBJECT, WORD)]
    stamps.append(Stamp(WORD, "NOBODY"))  # a noun word the pack does not style
    stamps += every_word_kind()
    assert failures(renderer, stamps) == []
    assert contrast(theme.badge, theme.badge_text) >= MIN_CONTRAST  # the stack count


def test_skull_and_wall_words_keep_their_hue_but_read_clearly(qapp) -> None:
    """The two words an author could not read: their letters are tinted, not replaced."""
    for theme in THEMES.values():
        renderer = renderer_for(theme, {"SKULL": "#8e1d1d", "WALL": "#737373"})
        for noun in ("SKULL", "WALL"):
            fill, text = renderer.label_colors(Stamp(WORD, noun))
            assert contrast(fill, text) >= MIN_CONTRAST
    fill, skull = renderer_for(THEMES["light"], {"SKULL": "#8e1d1d"}).label_colors(
        Stamp(WORD, "SKULL")
    )
    assert skull.hue() == QColor("#8e1d1d").hue()  # still red: a tint towards white
    assert skull.red() > skull.green()
    assert skull.red() > skull.blue()


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_any_colour_an_author_picks_gets_legible_letters(qapp, theme: Theme) -> None:
    """The noun colour dialog accepts any colour: a 16-step sweep of the RGB cube."""
    levels = range(0, 256, 17)
    colors = {
        f"C{r:02x}{g:02x}{b:02x}": f"#{r:02x}{g:02x}{b:02x}"
        for r, g, b in product(levels, levels, levels)
    }
    renderer = renderer_for(theme, colors)
    stamps = [Stamp(kind, name) for name in colors for kind in (OBJECT, WORD)]
    assert failures(renderer, stamps) == []


def test_black_or_white_always_reaches_the_minimum_and_tints_are_the_least_needed() -> None:
    for value in range(256):
        grey = QColor(value, value, value)
        assert contrast(text_on(grey), grey) >= MIN_CONTRAST
    assert legible_tint("#ede285", "#262a36").name() == "#ede285"  # legible already: kept
    tint = legible_tint("#8e1d1d", "#262a36")
    assert MIN_CONTRAST <= contrast(tint, "#262a36") < MIN_CONTRAST + 0.1  # no lighter than needed


def colours_in(image: QImage, rect: QRect) -> Counter[str]:
    return Counter(
        image.pixelColor(x, y).name()
        for x in range(rect.left(), rect.right() + 1)
        for y in range(rect.top(), rect.bottom() + 1)
    )


@pytest.mark.parametrize("theme", list(THEMES.values()), ids=list(THEMES))
def test_tiles_are_drawn_in_the_colours_that_were_checked(qapp, theme: Theme) -> None:
    """The letters on the drawn tile are the checked colour, on the checked background."""
    renderer = renderer_for(theme, {"SKULL": "#8e1d1d", "WALL": "#737373", "ROCK": "#c29e46"})
    for stamp in (
        Stamp(WORD, "SKULL"),
        Stamp(WORD, "WALL"),
        Stamp(OBJECT, "ROCK"),
        Stamp(WORD, "PUSH"),
        Stamp(WORD, "IS"),
        Stamp(WORD, MECHANIC),
    ):
        image = renderer.tile(stamp, 64).toImage()
        counts = colours_in(image, QRect(12, 12, 40, 40))
        fill, text = renderer.label_colors(stamp)
        assert counts.most_common(1)[0][0] == fill.name(), stamp
        assert counts[text.name()] >= 20, (stamp, text.name(), counts.most_common(4))


def test_a_stacked_cell_has_a_chip_with_the_glyph_of_what_lies_beneath(qapp) -> None:
    renderer = renderer_for(THEMES["light"], {"FLAG": "#ede285", "ROCK": "#c29e46"})
    stack = (Stamp(OBJECT, "FLAG"), Stamp(OBJECT, "ROCK"))  # ROCK on top of FLAG
    image = renderer.stack(stack, 32).toImage()
    chip = chip_rect(32)
    assert chip is not None
    assert chip.width() >= 10
    inside = colours_in(image, chip.toRect().adjusted(1, 1, -1, -1))
    fill, glyph = renderer.label_colors(Stamp(OBJECT, "FLAG"))
    assert inside[fill.name()] >= 20  # the chip is FLAG's colour …
    assert inside[glyph.name()] >= 4  # … with FLAG's glyph written on it
    # The top tile's glyph stays whole: it moved right of the chip and count column.
    alone = renderer.tile(Stamp(OBJECT, "ROCK"), 32).toImage()
    _, rock_text = renderer.label_colors(Stamp(OBJECT, "ROCK"))
    column = QRect(0, 0, int(chip.right()) + 1, 32)
    right = QRect(column.right() + 1, 0, 32 - column.width(), 32)
    assert colours_in(image, right)[rock_text.name()] >= 10
    assert colours_in(alone, QRect(0, 0, 32, 32))[rock_text.name()] >= 10


def test_chip_and_count_keep_clear_of_each_other_and_of_the_corner_marks() -> None:
    """The top-right corner (a FRAIL crack, a carrier's tag: 0.42 of the cell) stays free."""
    for size in (28, 32, 48, 64, 96, 128):
        chip, count = chip_rect(size), badge_rect(size, 99)
        corner = QRectF(size * 0.58, 0, size * 0.42, size * 0.42)
        assert chip is not None
        assert not chip.intersects(count)
        assert not chip.intersects(corner)
        assert not count.intersects(corner)
    assert chip_rect(24) is None  # small cells: the count alone


def test_the_property_overlay_leaves_the_stack_count_visible(make_window, qtbot) -> None:
    window = make_window()
    level = window.level
    assert level is not None
    for x, token in enumerate(["BABA", "IS", "YOU"]):
        level.add_on_top([Pos(x, 1)], Stamp(WORD, token))
    for stamp in (Stamp(OBJECT, "ROCK"), Stamp(OBJECT, "BABA")):
        level.add_on_top([Pos(2, 3)], stamp)  # BABA on ROCK: a stack of two
    qtbot.waitUntil(lambda: window.analysis.up_to_date, timeout=3000)
    canvas = window.canvas
    canvas.set_cell_size(32, QPoint(0, 0))
    cell = canvas.cell_rect(Pos(2, 3))
    count = badge_rect(32, 2).toRect().translated(cell.topLeft()).adjusted(1, 1, -1, -1)
    before = canvas.grab(count).toImage()
    trigger(window, "actionPropertyOverlay")
    qtbot.waitUntil(
        lambda: window.rules_panel.property_overlay.badges_at(Pos(2, 3)) == ("YOU",),
        timeout=3000,
    )
    strip = QRect(cell.left(), cell.bottom() - 6, cell.width(), 6)
    with_overlay = canvas.grab(strip).toImage()
    assert colours_in(with_overlay, with_overlay.rect())[PROPERTY_COLORS["YOU"]] > 20  # drawn
    assert canvas.grab(count).toImage() == before  # and the count badge is not covered


# ------------------------------------------------------------ the ghost caption


def test_the_ghost_caption_names_places_in_words_not_pointers() -> None:
    level = copy.deepcopy(KNOWN_LEVEL)
    level["automata"][0]["pattern"].append({"action": "move", "dx": 2, "dy": 0})
    paths, problem = preview(level, 4)
    assert paths == ()
    assert problem is not None
    assert "/automata" not in problem
    assert "automaton “clock”, step 6 of its pattern (dx)" in problem
    assert place_in_words(level, "/entities/4") == "the TICK word at (2, 4)"
    assert place_in_words(level, "/entities/0/noun") == "the MOUSE object at (1, 1)"
    assert place_in_words(level, "/automata/0/property") == "automaton “clock”, its property word"
    assert place_in_words(level, "/width") == "the level's width"
    assert place_in_words(level, "/entities/99") == ""  # nothing there: no invented place


def test_the_ghost_caption_stays_off_the_board_and_off_levels_without_automata(
    make_window, qtbot, tmp_path
) -> None:
    plain = {**copy.deepcopy(KNOWN_LEVEL), "id": "plain"}
    del plain["automata"]  # and its TICK word, which would read as an unknown noun
    plain["entities"] = [e for e in plain["entities"] if e.get("text") != "TICK"]
    window = make_window(_pack_file(tmp_path, KNOWN_LEVEL, plain))
    panel = automata_panel(window)
    trigger(window, "actionGhostPreview")
    wait_for_facts(qtbot, window)
    window.canvas.fit()
    window.canvas.grab()  # paints: the caption finds its place
    ghost = panel.ghost
    assert ghost.caption().startswith("Ghost preview: the next 8 beats")
    assert not ghost.caption_rect.isEmpty()
    assert not ghost.caption_rect.intersects(window.canvas.board_rect())
    window.session.set_level(window.pack.levels[1])  # a level with no automaton
    wait_for_facts(qtbot, window)
    window.canvas.grab()
    assert ghost.caption() == ""
    assert ghost.caption_rect.isEmpty()
