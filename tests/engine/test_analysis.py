"""engine.analyze_level: the level at move 0, read leniently, with hints for near-sentences."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine import PARSE_BUDGET, Game, analyze_level, check_level, load_level, load_pack
from engine.play import hints as hint_limits
from tests.support import PACKS_DIR, grid_level, ids_of, keke_corpus, keke_level


def rules_of(rows: list[str], **extra: Any) -> list[str]:
    return [str(r) for r in analyze_level(grid_level(rows, **extra)).rules]


def hints_of(rows: list[str]) -> list[tuple[str, str, list[list[int]]]]:
    found = analyze_level(grid_level(rows)).hints
    return [(h.code, h.message, [list(c) for c in h.cells]) for h in found]


def frail(**leaves: str) -> list[dict[str, Any]]:
    return [{"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}]


# ----------------------------------------------------------- parity with Game


def _same_as_game(level: engine.Level) -> None:
    analysis = analyze_level(level)
    state = Game(level).state()
    assert [r.to_dict() for r in analysis.rules] == state["rules"]
    objects = {e["id"]: e["noun"] for e in state["entities"] if e["kind"] == "object"}
    assert dict(analysis.nouns) == objects
    assert [dict(a) for a in analysis.automata] == state["automata"]
    assert (analysis.won, analysis.control_lost) == (state["won"], state["controlLost"])
    assert analysis.problems == ()


def test_a_valid_level_reads_exactly_as_a_game_starts_tutorial_pack() -> None:
    pack = load_pack(PACKS_DIR / "tutorial.json")
    for level in pack.levels:
        _same_as_game(level)


def test_a_valid_level_reads_exactly_as_a_game_starts_keke_corpus() -> None:
    for record in keke_corpus()["levels"]:
        _same_as_game(load_level(keke_level(record)))


# ------------------------------------------------------------- settle effects


def test_the_settle_reports_a_transformation_at_move_0() -> None:
    level = grid_level(["rock rock baba", "BABA IS YOU", "ROCK IS FLAG"])
    analysis = analyze_level(level)
    rock_is_flag = {
        "subject": "ROCK",
        "predicate": "FLAG",
        "sourceIds": [7, 8, 9],
        "axis": "horizontal",
    }
    assert [dict(t) for t in analysis.transformed] == [
        {"id": 1, "from": "ROCK", "to": "FLAG", "rule": rock_is_flag},
        {"id": 2, "from": "ROCK", "to": "FLAG", "rule": rock_is_flag},
    ]
    assert analysis.nouns[1] == "FLAG"
    [you, flag] = analysis.effects
    assert (you.kind, you.object_ids, you.status) == ("property", (3,), "active")
    assert (flag.kind, flag.object_ids, flag.status, flag.by) == (
        "transform",
        (1, 2),
        "active",
        None,
    )


def test_the_settle_reports_sink_and_defeat_at_move_0() -> None:
    level = grid_level(
        ["baba+water keke+skull", "BABA IS YOU", "WATER IS SINK", "KEKE IS YOU", "SKULL IS DEFEAT"]
    )
    analysis = analyze_level(level)
    assert [dict(d) for d in analysis.destroyed] == [
        {"id": 1, "noun": "BABA", "at": [0, 0], "cause": "sink"},
        {"id": 2, "noun": "WATER", "at": [0, 0], "cause": "sink"},
        {"id": 3, "noun": "KEKE", "at": [1, 0], "cause": "defeat"},
    ]
    assert analysis.control_lost is True
    assert set(analysis.nouns) == {4}


def test_x_is_x_suppresses_a_transformation_and_says_which_rule_does() -> None:
    level = grid_level(["rock . .", "ROCK IS FLAG", "ROCK IS ROCK"])
    analysis = analyze_level(level)
    flag, keep = analysis.effects
    assert (flag.kind, flag.status, flag.object_ids) == ("transform", "suppressed", ())
    assert flag.by == keep.rule
    assert (keep.kind, keep.object_ids) == ("self", (1,))
    assert analysis.transformed == ()
    assert analysis.nouns[1] == "ROCK"


def test_an_earlier_transformation_overrides_a_later_one() -> None:
    level = grid_level(["rock . .", "ROCK IS FLAG", "ROCK IS KEKE"])
    first, second = analyze_level(level).effects
    assert (first.status, first.object_ids) == ("active", (1,))
    assert (second.status, second.object_ids, second.by) == ("overridden", (), first.rule)


def test_a_word_sunk_at_move_0_leaves_the_rules() -> None:
    level = grid_level(["BABA IS YOU+water", "WATER IS SINK ."])
    analysis = analyze_level(level)
    assert [str(r) for r in analysis.rules] == ["WATER IS SINK"]
    assert [d["id"] for d in analysis.destroyed] == [3, 4]  # the YOU word and the water


def test_properties_and_frail_objects_at_move_0() -> None:
    rows = ["baba drift rock", "BABA IS YOU .", "DRIFT IS FRAIL .", "ROCK IS PUSH AND STOP"]
    analysis = analyze_level(grid_level(rows, mechanics=frail(DRIFT="WATER")))
    assert dict(analysis.properties) == {
        1: frozenset({"YOU"}),
        2: frozenset({"FRAIL"}),
        3: frozenset({"PUSH", "STOP"}),
    }
    assert analysis.frail_ids == (2,)


# ------------------------------------------------------------- lenient reading


def test_unknown_nouns_still_give_rules_and_a_problem() -> None:
    level = grid_level(["miau . .", "MIAU IS YOU"])
    analysis = analyze_level(level, nouns=["BABA"])
    assert [str(r) for r in analysis.rules] == ["MIAU IS YOU"]
    assert analysis.effects[0].object_ids == (1,)
    # one mistake (MIAU is missing from the pack), one problem counting its uses
    assert [(p.code, p.pointer, p.message) for p in analysis.problems] == [
        (
            "unknown-noun",
            "/entities/0/noun",
            "object noun MIAU is not in the pack's nouns (and 1 more use)",
        ),
    ]


def test_a_frail_word_before_opting_in_reads_as_a_property() -> None:
    analysis = analyze_level(grid_level(["drift . .", "DRIFT IS FRAIL"]))
    assert [str(r) for r in analysis.rules] == ["DRIFT IS FRAIL"]
    assert analysis.effects[0].kind == "property"
    assert analysis.frail_ids == (1,)
    assert [p.code for p in analysis.problems] == ["frail-not-declared"]


def test_a_half_written_automaton_keeps_its_word_and_is_left_out_of_the_entries() -> None:
    automata = [{"id": "clock", "property": "TICK", "pattern": []}]
    analysis = analyze_level(grid_level(["mouse . .", "MOUSE IS TICK"], automata=automata))
    assert [str(r) for r in analysis.rules] == ["MOUSE IS TICK"]
    assert analysis.effects[0].kind == "property"
    assert analysis.automata == ()
    assert [p.pointer for p in analysis.problems] == ["/automata/0/pattern"]


def test_automata_entries_say_which_objects_carry_them() -> None:
    automata = [{"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}]
    analysis = analyze_level(grid_level(["mouse mouse .", "MOUSE IS TICK"], automata=automata))
    [entry] = analysis.automata
    assert (entry["active"], entry["instanceIds"]) == (True, [1, 2])
    assert entry["carriers"] == [{"noun": "MOUSE", "instanceIds": [1, 2]}]


def test_malformed_entities_are_skipped_not_fatal() -> None:
    level = grid_level(["BABA IS YOU"])
    level["entities"] += [{"id": "x"}, "junk", {"id": 9, "kind": "word", "text": 3, "x": 0, "y": 0}]
    analysis = analyze_level(level)
    assert [str(r) for r in analysis.rules] == ["BABA IS YOU"]
    assert analysis.problems  # validation names each bad entry
    assert all(p.pointer.startswith("/entities/") for p in analysis.problems)


def test_validation_can_be_left_out() -> None:
    analysis = analyze_level(grid_level(["drift . .", "DRIFT IS FRAIL"]), validate=False)
    assert analysis.problems == ()


def test_check_level_reports_what_load_level_reports() -> None:
    duplicate = grid_level(["BABA IS YOU"])
    duplicate["entities"][2]["id"] = 1
    outside = grid_level(["BABA IS YOU"])
    outside["entities"][0]["x"] = 9
    cases = [
        duplicate,
        outside,
        dict(grid_level(["baba"]), extra=1),
        grid_level(["FRAIL . ."]),
        grid_level(
            ["baba . ."], automata=[{"id": "a", "property": "YOU", "pattern": [{"action": "wait"}]}]
        ),
        dict(grid_level(["baba"]), width=0),
    ]
    for level in cases:
        with pytest.raises(engine.ValidationError) as caught:
            load_level(copy.deepcopy(level))
        expected = {(p.code, p.pointer) for p in caught.value.errors}
        assert {(p.code, p.pointer) for p in check_level(level)} == expected


# ------------------------------------------------------------------- hints


def test_baba_is_with_nothing_after_it_gets_a_hint() -> None:
    assert hints_of(["BABA IS . ."]) == [
        ("missing-value", "BABA IS: nothing after IS: add a noun or a property", [[0, 0], [1, 0]])
    ]


def test_is_you_without_a_subject_gets_a_hint() -> None:
    assert hints_of([". IS YOU"]) == [
        ("missing-subject", "IS YOU: no subject: put a noun before IS", [[1, 0], [2, 0]])
    ]


def test_rock_and_is_win_gets_a_hint() -> None:
    [(code, message, cells)] = hints_of(["ROCK AND IS WIN"])
    assert code == "dangling-and"
    assert message == "ROCK AND IS WIN: the AND before IS has no noun after it"
    assert cells == [[0, 0], [1, 0], [2, 0], [3, 0]]


def test_a_property_where_a_noun_must_stand_gets_a_hint() -> None:
    [(code, message, _cells)] = hints_of(["YOU IS BABA"])
    assert code == "property-subject"
    assert message == "YOU IS BABA: YOU is a property: only a noun can stand before IS"


def test_a_trailing_and_gets_a_hint_beside_its_rule() -> None:
    analysis = analyze_level(grid_level(["BABA IS YOU AND"]))
    assert [str(r) for r in analysis.rules] == ["BABA IS YOU"]
    [hint] = analysis.hints
    assert (hint.code, hint.word_ids, hint.axis) == ("dangling-and", (1, 2, 3, 4), "horizontal")


def test_a_vertical_near_sentence_gets_a_vertical_hint() -> None:
    [hint] = analyze_level(grid_level(["ROCK", "IS", "."])).hints
    assert (hint.code, hint.axis, hint.cells) == ("missing-value", "vertical", ((0, 0), (0, 1)))


def test_words_that_only_touch_between_parallel_sentences_get_no_hint() -> None:
    assert hints_of(["BABA IS YOU", "FLAG IS WIN"]) == []
    assert hints_of(["BABA IS YOU . .", ". . ROCK IS PUSH"]) == []
    assert hints_of(["BABA IS YOU . .", ". ROCK IS PUSH ."]) == []


def test_a_stacked_hint_names_the_stack() -> None:
    [(_code, message, _cells)] = hints_of(["ROCK+FLAG IS ."])
    assert message.startswith("[ROCK+FLAG] IS: ")


def test_hints_stop_at_their_cap() -> None:
    rows = ["BABA IS . " * 40] * 4
    found = analyze_level(grid_level(rows)).hints
    assert len(found) == hint_limits.MAX_HINTS


def test_a_huge_stack_costs_linear_time_in_hints() -> None:
    level = grid_level(["BABA IS " + "+".join(["AND"] * 5000)])
    analysis = analyze_level(level)
    [hint] = analysis.hints
    assert hint.code == "dangling-and"
    assert len(hint.word_ids) <= 2 + hint_limits.MAX_STACK_NAMES


# ---------------------------------------------------------- stacked choices


def test_stacked_alternatives_say_which_word_each_rule_uses() -> None:
    level = grid_level(["ROCK+FLAG IS PUSH+AND"])
    analysis = analyze_level(level)
    rock, flag = analysis.rules
    assert (str(rock), str(flag)) == ("ROCK IS PUSH", "FLAG IS PUSH")
    subject, value = analysis.stacks
    assert (subject.cell, subject.texts, subject.word_ids) == ((0, 0), ("ROCK", "FLAG"), (1, 2))
    assert subject.uses == ((rock, 1), (flag, 2))
    assert (subject.word_for(rock), subject.word_for(flag), subject.unused) == (1, 2, ())
    assert (value.cell, value.texts, value.unused) == ((2, 0), ("PUSH", "AND"), (5,))


# ------------------------------------------------------------- parse budget


def _dense(alternatives: int) -> list[str]:
    cells = " AND ".join(["ROCK+FLAG"] * alternatives)
    return [". " * (2 * alternatives + 1), f"{cells} IS YOU"]


def test_a_board_over_the_budget_gives_one_hint_naming_the_crowded_region() -> None:
    analysis = analyze_level(grid_level(_dense(17)))
    assert analysis.rules == ()
    assert analysis.effects == ()
    [hint] = analysis.hints
    assert hint is analysis.complexity
    assert hint.code == "rule-complexity"
    assert hint.message == (
        "Too many ways to read the words in (0, 1)–(34, 1): more than "
        f"{PARSE_BUDGET:,} units of rule reading. Remove some stacked words there."
    )
    assert hint.cells[0] == (0, 1)
    assert all(y == 1 for _, y in hint.cells)
    assert [p.code for p in analysis.problems] == ["rule-complexity"]


def test_the_crowded_region_is_the_stacked_line_not_the_whole_board() -> None:
    rows = [*_dense(17), "BABA IS YOU . . ."]
    analysis = analyze_level(grid_level(rows))
    assert analysis.complexity is not None
    assert {y for _, y in analysis.complexity.cells} == {1}


def test_a_board_just_under_the_budget_reads_every_rule() -> None:
    analysis = analyze_level(grid_level(_dense(6)))
    assert analysis.complexity is None
    assert len(analysis.rules) == 2 + (2**6 - 2) * 2
    assert len(analysis.stacks) == 6


def test_ids_of_helper_agrees_with_the_analysis() -> None:
    level = grid_level(["baba BABA IS YOU"])
    assert analyze_level(level).effects[0].object_ids == tuple(ids_of(level, "baba"))


# ---------------------------------------------------------- incremental reader


def _stacks(level: dict[str, Any]) -> dict[tuple[int, int], list[tuple[int, str, str]]]:
    cells: dict[tuple[int, int], list[tuple[int, str, str]]] = {}
    for e in level["entities"]:
        name = e["noun"] if e["kind"] == "object" else e["text"]
        cells.setdefault((e["x"], e["y"]), []).append((e["id"], e["kind"], name))
    return cells


def test_a_reader_edited_cell_by_cell_reads_what_a_fresh_analysis_reads() -> None:
    import random

    rng = random.Random(3)
    rows = [
        "baba rock . water flag . .",
        "BABA IS YOU . ROCK IS PUSH",
        ". . . . . . .",
        "WATER IS SINK . FLAG IS WIN",
        "rock . rock+water . skull . .",
        "SKULL IS DEFEAT . . . .",
    ]
    level = grid_level(rows)
    reader = engine.LevelReader.from_document(level)
    assert reader is not None
    tokens = ["BABA", "ROCK", "IS", "AND", "YOU", "WIN", "SINK", "FLAG", "rock", "baba", "water"]
    next_id = 100
    for _ in range(120):
        cells = _stacks(level)
        cell = (rng.randrange(7), rng.randrange(6))
        stack = list(cells.get(cell, []))
        if stack and rng.random() < 0.4:
            stack.pop()
        else:
            token = rng.choice(tokens)
            kind = "object" if token.islower() else "word"
            stack.append((next_id, kind, token.upper()))
            next_id += 1
        level["entities"] = [e for e in level["entities"] if (e["x"], e["y"]) != cell]
        for i, kind, name in stack:
            key = "noun" if kind == "object" else "text"
            level["entities"].append({"id": i, "kind": kind, key: name, "x": cell[0], "y": cell[1]})
        reader.edit({cell: stack})
        assert reader.analyze().to_dict() == analyze_level(level, validate=False).to_dict()
        try:
            state = Game(load_level(copy.deepcopy(level))).state()
        except engine.EngineError:
            continue  # over the parse budget: nothing to compare with
        read = reader.analyze()
        assert [r.to_dict() for r in read.rules] == state["rules"]
        assert (read.won, read.control_lost) == (state["won"], state["controlLost"])
        objects = {e["id"]: e["noun"] for e in state["entities"] if e["kind"] == "object"}
        assert dict(read.nouns) == objects
