"""Lints (docs/validation.md, "Lints"): each fires on a minimal level, none on real packs.

Also: ``check_pack`` reports exactly ``load_pack``'s errors, and checking a pack
level by level (what the editor does after an edit) gives the same report as
checking it whole.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import LINT_CODES, check_pack, declared_nouns, report_level
from engine.errors import Problem
from engine.packs.parts import document_id, in_order
from engine.packs.records import RECORD_LISTS, Breaks
from engine.packs.repeats import Repeats
from engine.packs.schema import check_document, path_key
from engine.packs.semantic import build_level as _build_level
from engine.packs.semantic import level_problems
from engine.packs.sizes import pack_size_problems
from engine.packs.validate import _at, pack_levels, pack_name
from tests.engine.test_validation_fuzz import FUZZ, TUTORIAL, mutated
from tests.hostile import pack_of, stacked_bomb
from tests.lint_cases import lint_case
from tests.support import PACKS_DIR, grid_level, keke_corpus, keke_level, pack_document

WINNABLE = ["baba . flag", "BABA IS YOU", "FLAG IS WIN"]


def lint_records(*levels: dict[str, Any], nouns: list[str] | None = None) -> list[tuple]:
    report = check_pack(pack_document(*levels, pack_id="p", nouns=nouns))
    assert report.errors == ()
    return [(p.level, p.pointer, p.code, p.message) for p in report.warnings]


# ------------------------------------------------------------------ each lint fires
def test_an_empty_level_is_one_warning_and_nothing_else() -> None:
    empty = {"id": "blank", "width": 4, "height": 3, "entities": []}
    assert lint_records(grid_level(WINNABLE, "a"), empty) == [
        ("blank", "/levels/1", "empty-level", "the level is empty")
    ]


def test_a_new_pack_with_only_empty_levels_has_no_warnings() -> None:
    """A pack just started: its starter nouns and empty level are not news (no false alarm)."""
    empty = {"id": "level-1", "width": 12, "height": 9, "entities": []}
    assert lint_records(empty, nouns=["BABA", "ROCK", "FLAG"]) == []
    with_one = grid_level(["BABA IS YOU", "baba . ."], "a")
    codes = {r[2] for r in lint_records(with_one, empty, nouns=["BABA", "ROCK"])}
    assert codes == {"empty-level", "unused-noun", "win-impossible"}


def test_no_rule_makes_anything_you() -> None:
    level = grid_level(["baba . flag", "BABA IS PUSH", "FLAG IS WIN"], "a")
    assert lint_records(level) == [
        (
            "a",
            "/levels/0",
            "no-you-at-start",
            "no rule makes anything YOU at the start, so the player cannot move",
        )
    ]


def test_you_names_a_noun_that_is_not_on_the_board() -> None:
    level = grid_level(["rock . flag", "BABA IS YOU", "FLAG IS WIN"], "a")
    [(_level, _ptr, code, message)] = [r for r in lint_records(level) if r[2] != "unused-noun"]
    assert code == "no-you-at-start"
    assert message == (
        "nothing is YOU at the start: BABA IS YOU, but no BABA is on the board once it "
        "settles, so the player cannot move"
    )


def test_you_destroyed_by_the_settle_counts_as_no_you() -> None:
    level = grid_level(["baba+skull . flag", "BABA IS YOU", "FLAG IS WIN", "SKULL IS DEFEAT"])
    assert [r[2] for r in lint_records(level)] == ["no-you-at-start"]


def test_a_level_won_before_the_first_move() -> None:
    level = grid_level(["baba+flag . .", "BABA IS YOU", "FLAG IS WIN"], "a")
    assert lint_records(level) == [
        (
            "a",
            "/levels/0",
            "won-at-start",
            "the level is won at the start, before the player moves",
        )
    ]


def test_no_win_word_means_nothing_can_ever_be_win() -> None:
    level = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS STOP"], "a")
    assert lint_records(level) == [
        (
            "a",
            "/levels/0",
            "win-impossible",
            "there is no WIN word on the board, and words never appear during play, "
            "so nothing can ever be WIN",
        )
    ]


def test_a_win_word_with_no_noun_word_on_the_board_can_name_nothing() -> None:
    level = grid_level(["baba . .", "IS WIN ."], "a")
    codes = {r[2]: r[3] for r in lint_records(level, nouns=["BABA"])}
    assert codes["win-impossible"] == (
        "no sentence NOUN IS WIN can ever name an object: the board lacks noun words"
    )


def test_a_win_word_and_a_noun_word_that_could_still_meet_are_fine() -> None:
    level = grid_level(["baba . .", "BABA IS YOU", ". WIN ."], "a")
    assert lint_records(level) == []


def test_a_win_word_and_noun_words_but_no_object_at_all() -> None:
    level = grid_level([". . .", "BABA IS YOU", "FLAG IS WIN"], "a")
    codes = {r[2]: r[3] for r in lint_records(level)}
    assert codes["win-impossible"] == (
        "no sentence NOUN IS WIN can ever name an object: the board lacks objects"
    )


def test_a_frail_level_without_a_frail_word() -> None:
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}
    level = grid_level(WINNABLE, "a", mechanics=[frail])
    assert lint_records(level) == [
        (
            "a",
            "/levels/0/mechanics/0",
            "frail-unused",
            "the level opts into FRAIL but there is no FRAIL word on the board, "
            "so nothing can ever crumble",
        )
    ]


def test_a_frail_word_without_opting_in_is_already_an_error() -> None:
    level = grid_level([*WINNABLE, "BABA IS FRAIL"], "a")
    report = check_pack(pack_document(level, pack_id="p"))
    assert [(p.pointer, p.code) for p in report.errors] == [
        ("/levels/0/entities/10/text", "frail-not-declared")
    ]
    assert report.warnings == ()  # a level with errors gets no lints


def test_an_automaton_whose_property_no_word_gives() -> None:
    clock = {"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}
    level = grid_level(WINNABLE, "a", automata=[clock])
    assert lint_records(level) == [
        (
            "a",
            "/levels/0/automata/0/property",
            "automaton-never-active",
            "automaton 'clock' never acts: there is no TICK word on the board to give its property",
        )
    ]


def test_a_noun_no_level_uses() -> None:
    level = grid_level(WINNABLE, "a")
    assert lint_records(level, nouns=["BABA", "FLAG", "GHOST"]) == [
        (
            None,
            "/nouns/GHOST",
            "unused-noun",
            "GHOST is in the pack's nouns, but no level has a GHOST object or word",
        )
    ]


def test_two_levels_with_identical_boards() -> None:
    a, b = grid_level(WINNABLE, "a"), grid_level(WINNABLE, "b", title="Another title")
    assert lint_records(a, b) == [
        ("b", "/levels/1", "duplicate-board", "the board is the same as level 'a' (/levels/0)")
    ]


def test_boards_differing_only_in_stack_order_or_automata_are_not_duplicates() -> None:
    a = grid_level(["baba+rock . flag", "BABA IS YOU", "FLAG IS WIN"], "a")
    b = grid_level(["rock+baba . flag", "BABA IS YOU", "FLAG IS WIN"], "b")
    clock = {"id": "clock", "property": "WIN", "pattern": [{"action": "wait"}]}
    c = grid_level(WINNABLE, "c")
    d = {**grid_level([*WINNABLE, "FLAG IS TICK"], "d")}
    d2 = {**copy.deepcopy(d), "id": "d2", "automata": [{**clock, "property": "TICK"}]}
    records = lint_records(a, b, c, d, d2)
    assert [r for r in records if r[2] == "duplicate-board"] == []


def test_an_intended_solution_that_is_blocked_names_the_move() -> None:
    level = grid_level(["baba wall flag", "BABA IS YOU", "FLAG IS WIN", "WALL IS STOP"], "a")
    level["solution"] = "RR"
    assert lint_records(level) == [
        (
            "a",
            "/levels/0/solution",
            "solution-fails",
            "the intended solution no longer wins: move 1 (R) is blocked; "
            "the level is not won after 2 moves",
        )
    ]


def test_an_intended_solution_that_ends_short_of_the_win() -> None:
    level = grid_level(["baba . . flag", "BABA IS YOU", "FLAG IS WIN"], "a")
    level["solution"] = "RR"
    [record] = lint_records(level)
    assert record[2:] == (
        "solution-fails",
        "the intended solution no longer wins: the level is not won after 2 moves",
    )


def test_an_intended_solution_too_costly_to_replay_is_said_so_with_the_move() -> None:
    """Issue 39, B3: the replay runs under the lint budget and stops with one warning."""
    level = grid_level([". baba . flag", "BABA IS YOU .", "FLAG IS WIN ."], "a")
    level["solution"] = "RL" * 500
    report = check_pack(pack_document(level, pack_id="p"), lint_budget=10_000)
    [warning] = report.warnings
    assert (warning.pointer, warning.code) == ("/levels/0/solution", "solution-unchecked")
    assert warning.message.startswith(
        "the intended solution was not replayed to its end: it needs more than 10,000 units "
        "of work (the lint budget, stopped at move "
    )
    assert warning.message.endswith("or the editor's work/lint_budget setting")
    assert [p.code for p in check_pack(pack_document(level, pack_id="p")).warnings] == [
        "solution-fails"
    ]


def test_an_intended_solution_that_wins_before_its_end() -> None:
    level = grid_level(WINNABLE, "a")
    level["solution"] = "RRD"
    [record] = lint_records(level)
    assert record[1:] == (
        "/levels/0/solution",
        "solution-wins-early",
        "the intended solution wins before its end: the level is won after 2 of 3 moves",
    )


def test_frail_map_warnings_are_lints_made_by_the_frail_panels_function() -> None:
    """A FRAIL self-map and a cycle are warnings of ``validate --lint`` and the Problems
    panel, made by ``engine.leaves_problems`` (what the FRAIL panel flags), also in a
    level with errors elsewhere: the map is a record of its own (issue 34)."""
    frail = {"id": "frail", "type": "frail", "version": 1, "state": "derived"}
    leaves = {"ROCK": "ROCK", "BABA": "FLAG", "FLAG": "BABA"}
    level = grid_level([*WINNABLE, "ROCK IS FRAIL"], "a", mechanics=[{**frail, "leaves": leaves}])
    level["width"] = "wide"  # an error elsewhere in the level: the map is still read
    report = check_pack(pack_document(level, pack_id="p"))
    assert [p.code for p in report.errors] == ["wrong-type"]
    expected = sorted(
        ("/levels/0" + "/mechanics/0" + p.pointer, p.code, p.message)
        for p in engine.leaves_problems(leaves)
    )
    assert [(p.pointer, p.code, p.message) for p in report.warnings] == expected
    assert {p.code for p in report.warnings} == {"frail-self-map", "frail-cycle"}


def test_every_lint_code_has_a_test_and_a_documented_row() -> None:
    text = (PACKS_DIR.parent / "docs" / "validation.md").read_text(encoding="utf-8")
    lints = text[text.index("## Lints") :]
    for code in LINT_CODES:
        assert f"| `{code}` |" in lints, code
    source = Path(__file__).read_text(encoding="utf-8")
    for code in LINT_CODES:
        assert f'"{code}"' in source, code


# --------------------------------------------------------------- no false alarms
def test_the_tutorial_pack_has_no_warnings() -> None:
    report = check_pack(json.loads((PACKS_DIR / "tutorial.json").read_text(encoding="utf-8")))
    assert report == engine.PackReport((), ())


def test_the_keke_corpus_with_its_human_solutions_has_no_warnings() -> None:
    levels = []
    for record in keke_corpus()["levels"]:
        level = keke_level(record)
        level["solution"] = record["solution"]
        levels.append(level)
    report = check_pack(pack_document(*levels, pack_id="keke"))
    assert report == engine.PackReport((), ())


# ---------------------------------------------------- one source of truth, in parts
def test_check_pack_errors_are_load_pack_errors(tmp_path) -> None:
    doc = pack_document(grid_level(WINNABLE, "a"), grid_level(WINNABLE, "a"), pack_id="p")
    doc["levels"][0]["entities"][0]["x"] = 9
    doc["levels"][1]["entities"].append(
        {"id": 99, "kind": "object", "noun": "GHOST", "x": 0, "y": 0}
    )
    with pytest.raises(engine.ValidationError) as raised:
        engine.load_pack(doc)
    report = check_pack(doc)
    assert list(report.errors) == raised.value.errors
    assert {p.code for p in report.errors} == {
        "out-of-bounds",
        "duplicate-level-id",
        "unknown-noun",
    }


def test_a_level_with_only_unknown_nouns_is_still_linted() -> None:
    level = grid_level(["baba . flag", "BABA IS YOU", "FLAG IS STOP"], "a")
    report = check_pack(pack_document(level, pack_id="p", nouns=["FLAG"]))
    assert {p.code for p in report.errors} == {"unknown-noun"}
    assert [p.code for p in report.warnings] == ["win-impossible"]


def test_oversized_packs_report_only_their_size() -> None:
    doc = pack_document(grid_level(WINNABLE, "a"), pack_id="p")
    doc["levels"][0]["entities"] *= 3000  # 27,000 entities
    report = check_pack(doc)
    assert [(p.pointer, p.code) for p in report.errors] == [("/levels/0/entities", "bad-size")]
    assert report.warnings == ()


def test_sizes_first_are_load_packs_whole_answer_for_a_pack_checked_level_by_level() -> None:
    """``check_pack_sizes`` is what a tool asks before it walks the levels one by one."""
    doc = pack_document(grid_level(WINNABLE, "a"), grid_level(WINNABLE, "b"), pack_id="p")
    assert engine.check_pack_sizes(doc) == ()
    doc["levels"][1]["entities"] *= 3000
    with pytest.raises(engine.ValidationError) as refused:
        engine.load_pack(doc)
    sizes = engine.check_pack_sizes(doc)
    assert [(p.pack, p.level, p.pointer, p.code) for p in sizes] == [
        ("p", "b", "/levels/1/entities", "bad-size")
    ]
    assert list(sizes) == refused.value.errors
    doc["id"] = "not an id!"
    assert {p.pack for p in engine.check_pack_sizes(doc, name="file")} == {"file"}


def test_a_report_checked_against_other_nouns_is_refused() -> None:
    doc = pack_document(grid_level(WINNABLE, "a"), pack_id="p")
    stale = report_level(doc["levels"][0], nouns=frozenset({"BABA"}))
    with pytest.raises(ValueError, match="another noun vocabulary"):
        check_pack(doc, levels=[stale])


def reports_in_parts(doc: Any) -> engine.PackReport:
    nouns = declared_nouns(doc)
    levels = doc.get("levels") if isinstance(doc, dict) else None
    parts = [report_level(lv, nouns=nouns) for lv in levels] if isinstance(levels, list) else []
    return check_pack(doc, levels=parts)


def whole_document_problems(doc: Any, name: str) -> list[engine.Problem]:
    """What one pass must report, worked out another way: one jsonschema pass over
    the whole document (not record by record, as validation explains), each
    mistake grouped, then the semantic checks of everything the schema accepted."""
    levels = pack_levels(doc)
    too_big = pack_size_problems(doc)
    if too_big:
        return [p.located(pack=name, level=document_id(_at(levels, p.pointer))) for p in too_big]
    raw, checked, *_ = check_document("pack", doc)
    if not checked:
        return [p.located(pack=name, level=document_id(_at(levels, p.pointer))) for p in raw]
    shell = Repeats()
    shell.add_same(p for p in raw if not p.pointer.startswith("/levels/"))
    problems = [p.located(pack=name, level=None) for p in shell.problems()]
    declared = doc.get("nouns") if isinstance(doc, dict) else None
    nouns = frozenset(declared) if isinstance(declared, dict) else None
    first_index: dict[str, int] = {}
    for index, level_doc in enumerate(levels):
        prefix = f"/levels/{index}"
        level_id = document_id(level_doc)
        if level_id is not None:
            if level_id in first_index:
                message = (
                    f"level id {level_id!r} is already used by /levels/{first_index[level_id]}"
                )
                problems.append(
                    engine.Problem(prefix + "/id", "duplicate-level-id", message, name, level_id)
                )
            else:
                first_index[level_id] = index
        own = [
            Problem(p.pointer[len(prefix) :], p.code, p.message)
            for p in raw
            if p.pointer.startswith(prefix + "/") or p.pointer == prefix
        ]
        if own:
            grouped = Repeats()
            grouped.add_same(own)
            semantic = (
                level_problems(level_doc, nouns, breaks=breaks_of(own), read_rules=False)
                if isinstance(level_doc, dict)
                else []
            )
            found = in_order(grouped.problems(), semantic)
        else:
            level, found = _build_level(level_doc)
            if level is not None:
                found = level_problems(level_doc, nouns)
        problems += [p.located(pack=name, level=level_id, prefix=prefix) for p in found]
    return sorted(problems, key=lambda p: path_key(p.pointer))


def breaks_of(problems: list[Problem]) -> Breaks:
    """Where a level's schema problems (pointers relative to it) break it."""
    shell: set[str] = set()
    records: dict[tuple[str, int], set[str]] = {}
    for p in problems:
        parts = p.pointer.split("/", 3)
        if len(parts) >= 3 and parts[1] in RECORD_LISTS and parts[2].isdigit():
            rest = "/" + parts[3] if len(parts) > 3 else ""
            records.setdefault((parts[1], int(parts[2])), set()).add(rest)
        else:
            shell.add(p.pointer)
    return Breaks(frozenset(shell), {k: frozenset(v) for k, v in records.items()})


@pytest.mark.slow
@settings(FUZZ, max_examples=150)
@given(mutated(TUTORIAL))
def test_checking_level_by_level_equals_checking_whole(doc: dict[str, Any]) -> None:
    whole = check_pack(doc)
    assert reports_in_parts(doc) == whole
    try:
        engine.load_pack(doc)
        raised: list[engine.Problem] = []
    except engine.ValidationError as exc:
        raised = exc.errors
    assert list(whole.errors) == raised
    if whole.errors and whole.errors[0].code != "invalid-value":
        assert list(whole.errors) == whole_document_problems(doc, pack_name(doc))


@pytest.mark.parametrize("code", sorted(LINT_CODES))
def test_each_shared_minimal_case_raises_exactly_its_lint(code: str) -> None:
    doc, where = lint_case(code)
    report = check_pack(doc)
    assert report.errors == ()
    assert [(p.pointer, p.code) for p in report.warnings] == [(where, code)]


def _warnings_in_document_order(doc: dict[str, Any]) -> list[Problem]:
    """The pack's warnings as first written: all placed, then one stable sort by pointer."""
    from engine.lint.report import _duplicate_boards, _unused_nouns

    nouns = engine.declared_nouns(doc)
    reports = [engine.report_level(level, nouns=nouns) for level in doc["levels"]]
    starting = all(any(p.code == "empty-level" for p in r.warnings) for r in reports)
    found = [
        p.located(pack="t", level=r.level_id, prefix=f"/levels/{i}")
        for i, r in enumerate(reports)
        for p in r.warnings
        if not (starting and p.code == "empty-level")
    ]
    if not starting:
        found += [p.located(pack="t", level=None) for p in _unused_nouns(nouns, reports)]
    found += _duplicate_boards("t", reports)
    return sorted(found, key=lambda p: path_key(p.pointer))


def test_a_packs_warnings_come_in_document_order_levels_by_number() -> None:
    """Level 10's warnings after level 9's, a level's own warning before those inside
    it, a repeated board right after its level's, unused nouns last (the sort of a
    large pack's warnings takes its keys from a cache now)."""
    quiet = grid_level(WINNABLE, "quiet")
    loud = grid_level(["baba . flag", "BABA IS YOU", ". . ."], "loud", solution="RR")
    levels = [
        {**copy.deepcopy(quiet if n % 3 else loud), "id": f"l{n}", "width": 3 + n % 4}
        for n in range(14)
    ]
    levels.append({**copy.deepcopy(levels[0]), "id": "again"})
    levels.append({"id": "empty", "width": 3, "height": 3, "entities": []})
    doc = pack_document(*levels, pack_id="t")
    doc["nouns"]["GHOST"] = {"color": "#123456"}
    report = engine.check_pack(doc, name="t")
    assert list(report.warnings) == _warnings_in_document_order(doc)
    codes = {p.code for p in report.warnings}
    assert {"duplicate-board", "unused-noun", "empty-level"} <= codes
    assert [p.pointer for p in report.warnings][-1] == "/nouns/GHOST"


def _levels_with_warnings() -> dict[str, Any]:
    """A pack of 12 levels, most with warnings, one repeated board and an unused noun."""
    loud = grid_level(["baba . flag", "BABA IS YOU", ". . ."], "loud", solution="RR")
    quiet = grid_level(WINNABLE, "quiet")
    levels = [
        {**copy.deepcopy(quiet if n % 4 == 0 else loud), "id": f"l{n}", "width": 3 + n % 5}
        for n in range(11)
    ]
    levels.append({**copy.deepcopy(levels[1]), "id": "again"})
    doc = pack_document(*levels, pack_id="t")
    doc["nouns"]["GHOST"] = {"color": "#123456"}
    return doc


def _reports(doc: dict[str, Any]) -> list[engine.LevelReport]:
    nouns = engine.declared_nouns(doc)
    return [engine.report_level(level, nouns=nouns) for level in doc["levels"]]


def _same_answer(got: engine.PackReport, fresh: engine.PackReport) -> None:
    assert got == fresh
    assert got.pack_wide == fresh.pack_wide
    assert {i: p.warnings for i, p in got.placed.items()} == {
        i: p.warnings for i, p in fresh.placed.items()
    }
    placed = [p for level in got.placed.values() for p in level.warnings]
    assert sorted(map(id, got.warnings)) == sorted(map(id, [*placed, *got.pack_wide]))


def test_a_check_reuses_the_placed_warnings_of_the_levels_it_did_not_re_read() -> None:
    """An edit of one level of a large pack places only that level's warnings again."""
    doc = _levels_with_warnings()
    reports = _reports(doc)
    first = engine.check_pack(doc, name="t", levels=reports)
    assert set(first.placed) == {i for i, r in enumerate(reports) if r.warnings}
    assert {p.code for p in first.pack_wide} == {"duplicate-board", "unused-noun"}

    doc["levels"][2]["solution"] = "L"  # level 2 changed: a new report
    reports[2] = engine.report_level(doc["levels"][2], nouns=engine.declared_nouns(doc))
    again = engine.check_pack(doc, name="t", levels=reports, reuse=first)
    _same_answer(again, engine.check_pack(doc, name="t", levels=reports))
    assert again.placed[2] is not first.placed[2]
    assert all(again.placed[i] is first.placed[i] for i in again.placed if i != 2)


@pytest.mark.parametrize("change", ["moved", "renamed", "removed", "no longer starting"])
def test_placed_warnings_are_not_reused_once_their_place_or_pack_changed(change: str) -> None:
    doc = _levels_with_warnings()
    if change == "no longer starting":  # every level empty: emptiness is no news
        for level in doc["levels"]:
            level["entities"] = []
    reports = _reports(doc)
    first = engine.check_pack(doc, name="t", levels=reports)
    if change == "moved":
        doc["levels"][1], doc["levels"][3] = doc["levels"][3], doc["levels"][1]
        reports[1], reports[3] = reports[3], reports[1]
    elif change == "renamed":  # the pack's id names it in every problem
        doc["id"] = "renamed"
    elif change == "removed":
        del doc["levels"][0], reports[0]
    else:
        doc["levels"][0] = _levels_with_warnings()["levels"][1]
        reports[0] = _reports(doc)[0]
    again = engine.check_pack(doc, name="t", levels=reports, reuse=first)
    fresh = engine.check_pack(doc, name="t", levels=reports)
    _same_answer(again, fresh)
    if change == "no longer starting":
        assert any(p.code == "empty-level" for p in again.warnings)
    else:
        assert again.warnings != first.warnings


@settings(deadline=None, max_examples=40)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=14), st.sets(st.integers(0, 13)))
def test_a_check_with_reuse_answers_as_a_check_without(picks: list[int], edited: set[int]) -> None:
    """Any reordering, repetition or re-reading of the levels gives the fresh answer."""
    doc = _levels_with_warnings()
    reports = _reports(doc)
    first = engine.check_pack(doc, name="t", levels=reports)
    doc["levels"] = [doc["levels"][i] for i in picks]
    nouns = engine.declared_nouns(doc)
    now = [
        engine.report_level(doc["levels"][n], nouns=nouns) if n in edited else reports[i]
        for n, i in enumerate(picks)
    ]
    again = engine.check_pack(doc, name="t", levels=now, reuse=first)
    _same_answer(again, engine.check_pack(doc, name="t", levels=now))


def test_a_rule_bomb_whose_nouns_are_undeclared_is_found_not_played() -> None:
    """Before issue 34 a level whose only problems were undeclared nouns skipped its
    parse budget, so load_pack listed only the nouns, and the lints then played the
    bomb: ``check_pack`` (``validate --lint``, the Problems panel) raised
    RuleComplexityError."""
    doc = pack_of(stacked_bomb(400))
    doc["nouns"] = {"BABA": {"color": "#ffffff"}}
    report = check_pack(doc)
    assert {p.code for p in report.errors} == {"unknown-noun", "rule-complexity"}
    assert report.warnings == ()
    with pytest.raises(engine.ValidationError) as caught:
        engine.load_pack(doc)
    assert list(report.errors) == caught.value.errors
