from __future__ import annotations

import json

import engine
from editor.values import OBJECT, WORD, NounSpec, Pos, Stamp
from tests.editor.window_driver import click, tokens, trigger, use
from tests.support import pack_document

BABA, ROCK, YOU = Stamp(OBJECT, "BABA"), Stamp(OBJECT, "ROCK"), Stamp(WORD, "YOU")


def test_the_palette_offers_nouns_words_operators_properties_and_mechanics(make_window) -> None:
    window = make_window()
    stamps = set(window.palette_panel.stamps())
    nouns = set(window.pack.nouns)
    assert {Stamp(OBJECT, n) for n in nouns} | {Stamp(WORD, n) for n in nouns} <= stamps
    assert {Stamp(WORD, "IS"), Stamp(WORD, "AND"), Stamp(WORD, engine.FRAIL)} <= stamps
    assert {Stamp(WORD, p) for p in engine.BASE_PROPERTIES} <= stamps


def test_the_palette_lists_the_levels_automaton_properties(make_window, tmp_path) -> None:
    pack = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "p",
        "title": "P",
        "nouns": {"MOUSE": {"color": "#aaaaaa"}},
        "levels": [
            {
                "id": "a",
                "width": 3,
                "height": 3,
                "entities": [],
                "automata": [{"id": "c", "property": "TICK", "pattern": [{"action": "wait"}]}],
            }
        ],
    }
    path = tmp_path / "p.json"
    path.write_text(__import__("json").dumps(pack), encoding="utf-8")
    window = make_window(path)
    assert Stamp(WORD, "TICK") in window.palette_panel.stamps()
    assert window.renderer.role(Stamp(WORD, "TICK")).value == "mechanic"


def _pack_with_automata(tmp_path, *properties_per_level: tuple[str, ...]):
    """A pack file with one empty level per entry, each with automata of these properties."""
    wait = [{"action": "wait"}]
    levels = [
        {
            "id": f"level-{n}",
            "width": 3,
            "height": 3,
            "entities": [],
            "automata": [{"id": p.lower(), "property": p, "pattern": wait} for p in properties],
        }
        for n, properties in enumerate(properties_per_level)
    ]
    doc = {"format": "rulegrid-pack", "version": 1, "id": "p", "title": "P"}
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps({**doc, "nouns": {"MOUSE": {"color": "#aaaaaa"}}, "levels": levels}),
        encoding="utf-8",
    )
    return path


def test_the_palette_and_the_word_colours_follow_the_engine_vocabulary(
    make_window, tmp_path
) -> None:
    window = make_window(_pack_with_automata(tmp_path, ("TOCK", "TICK")))
    vocabulary = engine.Vocabulary.for_level(frail=False, automaton_properties=["TICK", "TOCK"])
    words = [s for s in window.palette_panel.stamps() if s.kind == WORD and s.token != "MOUSE"]
    assert [s.token for s in words] == [
        *vocabulary.words(engine.WordRole.OPERATOR),
        *vocabulary.words(engine.WordRole.PROPERTY),
        *vocabulary.words(engine.WordRole.MECHANIC),
    ]
    assert vocabulary.words(engine.WordRole.MECHANIC) == ("FRAIL", "TICK", "TOCK")
    for stamp in words:
        assert window.renderer.role(stamp) is vocabulary.role(stamp.token), stamp
    assert window.renderer.role(Stamp(WORD, "MOUSE")) is engine.WordRole.NOUN


def test_add_noun_is_given_the_whole_packs_vocabulary(make_window, dialogs, tmp_path) -> None:
    window = make_window(_pack_with_automata(tmp_path, (), ("TICK",)))
    assert window.session.level is not None
    assert window.session.level.level_id == "level-0"  # TICK is a word of another level
    dialogs.noun = None
    trigger(window, "actionAddNoun")
    assert dialogs.noun_vocabulary is not None
    assert dialogs.noun_vocabulary.role("TICK") is engine.WordRole.MECHANIC
    assert dialogs.noun_vocabulary.role("FRAIL") is engine.WordRole.MECHANIC
    assert dialogs.noun_vocabulary.role("MOUSE") is engine.WordRole.NOUN


def test_search_filters_the_palette(make_window) -> None:
    window = make_window()
    window.palette_panel.search.setText("ro")
    visible = window.palette_panel.stamps(visible_only=True)
    assert set(visible) == {Stamp(OBJECT, "ROCK"), Stamp(WORD, "ROCK")}
    window.palette_panel.search.setText("properties")  # a section name shows its section
    assert set(window.palette_panel.stamps(visible_only=True)) == {
        Stamp(WORD, p) for p in engine.BASE_PROPERTIES
    }


def test_adding_a_noun_puts_it_in_the_palette_and_is_undoable(make_window, dialogs) -> None:
    window = make_window()
    dialogs.noun = ("KEY", NounSpec("#ffcc00", "k"))
    trigger(window, "actionAddNoun")
    assert window.pack.nouns["KEY"] == NounSpec("#ffcc00", "k")
    assert {Stamp(OBJECT, "KEY"), Stamp(WORD, "KEY")} <= set(window.palette_panel.stamps())
    assert dialogs.asked[-1][1] >= {"BABA", "ROCK"}  # the dialog knew which names are taken
    trigger(window, "actionUndo")
    assert "KEY" not in window.pack.nouns
    assert Stamp(OBJECT, "KEY") not in window.palette_panel.stamps()


def test_the_picker_selects_the_palette_entry(make_window) -> None:
    window = make_window()
    use(window, "actionToolBrush", YOU)
    click(window, Pos(3, 3))
    use(window, "actionToolBrush", ROCK)
    use(window, "actionToolPicker")
    click(window, Pos(3, 3))
    item = window.palette_panel.tree.currentItem()
    assert item is not None
    assert item.text(0) == "YOU"


def test_the_inspector_lists_a_stack_top_first_and_reorders_and_removes(make_window) -> None:
    window = make_window()
    for stamp in (BABA, ROCK, YOU):
        use(window, "actionToolBrush", stamp)
        click(window, Pos(2, 2))
    inspector = window.inspector
    assert [p.token for p in inspector.pieces()] == ["YOU", "ROCK", "BABA"]
    assert inspector.list.count() == 3
    assert "Cell (2, 2): 3 entities" in inspector.title.text()
    inspector.select_row(2)  # BABA, at the bottom
    inspector.raise_button.click()
    assert tokens(window, Pos(2, 2)) == ["ROCK", "BABA", "YOU"]
    assert inspector.list.currentRow() == 1  # the selection follows the moved entity
    inspector.select_row(0)
    inspector.remove_button.click()
    assert tokens(window, Pos(2, 2)) == ["ROCK", "BABA"]
    trigger(window, "actionUndo")
    trigger(window, "actionUndo")
    assert tokens(window, Pos(2, 2)) == ["BABA", "ROCK", "YOU"]


def test_opening_another_pack_shows_its_nouns_in_the_palette_a_moment_later(
    make_window, tmp_path, qtbot
) -> None:
    """The entries are drawn again just after the pack is adopted (not in that turn),
    and anything that reads the palette meanwhile gets the new pack's entries."""
    empty = {"id": "a", "width": 3, "height": 3, "entities": []}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack_document(empty, pack_id="p", nouns=["MOUSE"])), "utf-8")
    window = make_window()  # the untitled pack: BABA and friends
    palette = window.palette_panel
    window.files.open_path(path, ask_first=False)
    tree = palette.tree
    objects = tree.topLevelItem(0)
    shown = [objects.child(i).text(0) for i in range(objects.childCount())]
    assert "mouse" not in shown  # still the previous pack's entries: drawn again soon
    qtbot.waitUntil(
        lambda: (
            [
                tree.topLevelItem(0).child(i).text(0)
                for i in range(tree.topLevelItem(0).childCount())
            ]
            == ["mouse"]
        ),
        timeout=2_000,
    )
    assert Stamp(OBJECT, "MOUSE") in palette.stamps()
    window.files.open_path(tmp_path / "p.json", ask_first=False)  # the same look again
    palette.choose(Stamp(WORD, "MOUSE"))  # a read draws what is due first
    assert window.session.stamp == Stamp(WORD, "MOUSE")
