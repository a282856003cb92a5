"""The one token classification (docs/contract.md section 1): ``engine.Vocabulary`` and its roles."""

from __future__ import annotations

import pytest

import engine
from engine import Vocabulary, WordRole
from engine.tokens import WordClass
from tests.support import grid_level

TICKING = Vocabulary.for_level(frail=True, automaton_properties=("TICK",))


@pytest.mark.parametrize(
    ("token", "role"),
    [
        ("IS", WordRole.OPERATOR),
        ("AND", WordRole.OPERATOR),
        *((p, WordRole.PROPERTY) for p in engine.BASE_PROPERTIES),
        ("FRAIL", WordRole.MECHANIC),
        ("TICK", WordRole.MECHANIC),
        ("BABA", WordRole.NOUN),
        ("TEXT", WordRole.NOUN),
        ("TOCK", WordRole.NOUN),  # an automaton property of another level only
    ],
)
def test_every_token_has_one_role(token: str, role: WordRole) -> None:
    assert TICKING.role(token) is role
    assert TICKING.is_noun(token) is (role is WordRole.NOUN)


def test_frail_is_a_mechanic_word_to_authors_even_where_the_parser_reads_no_property() -> None:
    plain = Vocabulary.for_level(frail=False)
    assert plain.role("FRAIL") is WordRole.MECHANIC
    assert not plain.is_noun("FRAIL")
    assert plain.classify("FRAIL") is WordClass.NOUN  # never a property without the mechanic
    assert TICKING.classify("FRAIL") is WordClass.PROPERTY


def test_the_closed_roles_list_their_words_in_palette_order() -> None:
    assert TICKING.words(WordRole.OPERATOR) == ("IS", "AND")
    assert TICKING.words(WordRole.PROPERTY) == engine.BASE_PROPERTIES
    many = Vocabulary.for_level(frail=False, automaton_properties=["TOCK", "TICK"])
    assert many.words(WordRole.MECHANIC) == ("FRAIL", "TICK", "TOCK")
    assert many.automaton_properties == frozenset({"TICK", "TOCK"})
    with pytest.raises(ValueError, match="nouns"):
        many.words(WordRole.NOUN)


def test_builtin_words_are_those_no_level_changes() -> None:
    builtin = Vocabulary.builtin()
    assert {t for t in ("IS", "YOU", "FRAIL", "TICK", "BABA") if not builtin.is_noun(t)} == {
        "IS",
        "YOU",
        "FRAIL",
    }
    assert builtin.automaton_properties == frozenset()


def test_validation_reads_words_with_the_same_vocabulary() -> None:
    automata = [{"id": "c", "property": "TICK", "pattern": [{"action": "wait"}]}]
    for noun, role in (("tick", WordRole.MECHANIC), ("is", WordRole.OPERATOR)):
        level = grid_level([f"{noun} baba"], automata=automata)
        with pytest.raises(engine.ValidationError) as caught:
            engine.load_level(level)
        [problem] = caught.value.errors
        assert (problem.pointer, problem.code) == ("/entities/0/noun", "invalid-noun")
        assert TICKING.role(noun.upper()) is role
    bad = grid_level(["baba"], automata=[{**automata[0], "property": "FRAIL"}])
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_level(bad)
    assert [p.code for p in caught.value.errors] == ["invalid-property"]
