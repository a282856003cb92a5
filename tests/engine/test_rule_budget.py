"""The parse budget bounds the whole work of reading rules (issue 20, finding 1).

A unit is one word placed in a candidate path, a sentence or a rule record, so
the budget bounds the search *and* the rule list it returns. Realistic boards pass
with a wide margin (docs/decisions.md); the issue's bombs are refused before a
single rule is built, when validated, when pushed into, in a pack, in a payload
and on the solver's compact path.
"""

from __future__ import annotations

import pytest

from engine import (
    PARSE_BUDGET,
    Game,
    RuleComplexityError,
    ValidationError,
    load_level,
    load_pack,
    share,
)
from engine.context import LevelContext
from engine.errors import WorkLimitError
from engine.limits import PACK_PARSE_BUDGET
from engine.rules import Meter, metered, parse_rules, parse_units
from engine.solve.level import CompactLevel
from engine.tokens import Vocabulary
from tests.hostile import (
    issue_bomb,
    lattice_level,
    pack_of,
    row_level,
    spaced_sentences_level,
    stacked_bomb,
    word_tiles,
)
from tests.support import PACKS_DIR, grid_level, keke_corpus, keke_level

VOCAB = Vocabulary.builtin()


def units_of(level: object) -> int:
    loaded = load_level(level) if isinstance(level, dict) else level
    ctx = LevelContext.of(loaded)  # type: ignore[arg-type]
    words = [(i, name, x, y) for i, kind, name, x, y in ctx.authored_pieces() if kind == "word"]
    return parse_units(words, ctx.vocabulary, budget=None)


# ----------------------------------------------------------------- what a unit is


@pytest.mark.parametrize(
    ("row", "units"),
    [
        # BABA (1) + YOU (1) + the sentence (3 words) + its one rule (3 words)
        (["BABA IS YOU"], 8),
        # left: FLAG (1), FLAG AND (2), FLAG AND ROCK (3); right: WIN (1);
        # the sentence (5 words) and its two rules (5 words each)
        (["ROCK AND FLAG IS WIN"], 6 + 1 + 5 + 2 * 5),
        # a repeated subject makes one rule, not two: 6 + 1 + 5 + 5
        (["ROCK AND ROCK IS WIN"], 17),
    ],
)
def test_a_unit_is_a_word_in_a_path_a_sentence_or_a_rule(row: list[str], units: int) -> None:
    assert parse_units(word_tiles(grid_level(row)), VOCAB, budget=None) == units


def test_the_issue_bomb_is_refused_before_any_rule_is_built() -> None:
    """Before the fix this 69-word board validated and held 5.9 million rules."""
    bomb = issue_bomb()
    assert len(bomb["entities"]) == 69
    with pytest.raises(RuleComplexityError) as caught:
        parse_rules(word_tiles(bomb), VOCAB)
    assert caught.value.budget == PARSE_BUDGET
    assert caught.value.units > PARSE_BUDGET
    with pytest.raises(ValidationError) as invalid:
        load_level(bomb)
    [problem] = invalid.value.errors
    assert (problem.code, problem.pointer, problem.level) == (
        "rule-complexity",
        "/entities",
        "bomb",
    )
    assert f"{PARSE_BUDGET:,}" in problem.message


def test_a_small_bomb_of_many_records_is_refused() -> None:
    """2**5 x 2**5 sentences of 27 words and 121 rules each: few paths, many records.

    The old budget counted 1,088 paths and let its 123,904 rules through.
    """
    bomb = issue_bomb(5, 5, 12)
    assert units_of_words(bomb) > PARSE_BUDGET
    with pytest.raises(ValidationError) as invalid:
        load_level(bomb)
    assert [p.code for p in invalid.value.errors] == ["rule-complexity"]


def units_of_words(level: dict[str, object]) -> int:
    return parse_units(word_tiles(level), VOCAB, budget=None)  # type: ignore[arg-type]


def test_a_push_that_completes_a_bomb_is_rejected_atomically() -> None:
    """The IS word waits below a gap in the bomb's row; pushing it up completes it."""
    row: list[list[str]] = []
    for i in range(6):
        row += [[f"S{i}"], ["AND"]]
    for i in range(5):
        row += [[f"A{i}", f"B{i}"], ["AND"]]
    gap = len(row) - 1
    row[gap] = []  # the IS cell, empty for now
    for i in range(5):
        row += [[f"C{i}", f"D{i}"], ["AND"]]
    row.pop()
    level = row_level(row, height=5)
    level["entities"].pop()  # the default BABA
    extra = [
        ("word", "IS", gap, 1),
        ("object", "BABA", gap, 2),
        ("word", "BABA", 0, 4),
        ("word", "IS", 1, 4),
        ("word", "YOU", 2, 4),
    ]
    for kind, name, x, y in extra:
        key = "noun" if kind == "object" else "text"
        level["entities"].append(
            {"id": len(level["entities"]) + 1, "kind": kind, key: name, "x": x, "y": y}
        )
    game = Game(load_level(level))
    before = game.snapshot()
    event = game.step("up").to_dict()
    baba = next(e["id"] for e in level["entities"] if e["kind"] == "object")
    assert event["accepted"] is False
    assert event["blocked"] == [
        {"id": baba, "dir": "up", "blockerId": None, "reason": "rule-complexity"}
    ]
    assert game.snapshot() == before


# -------------------------------------------------------- realistic boards pass


def test_every_keke_level_and_bundled_pack_level_needs_a_tiny_part_of_the_budget() -> None:
    worst = max(units_of(keke_level(r)) for r in keke_corpus()["levels"])
    for name in ("tutorial.json", "keke-classics.json"):
        pack = load_pack(PACKS_DIR / name)
        worst = max(worst, *(units_of(level) for level in pack.levels))
    assert worst * 1000 < PARSE_BUDGET  # 48 when docs/decisions.md was written


@pytest.mark.parametrize(
    ("level", "units", "margin"),
    [
        (spaced_sentences_level(), 8_192, 30),  # BABA IS YOU . ROCK IS PUSH . … in rows
        (lattice_level("NIV"), 21_210, 11),  # three-word sentences across and down
        (lattice_level("NANIV"), 34_416, 7),  # ROCK AND WALL IS STOP across and down
        (lattice_level("NANIVAV"), 49_410, 5),  # seven-word sentences across and down
    ],
)
def test_a_64x64_board_full_of_ordinary_sentences_passes_with_a_wide_margin(
    level: dict[str, object], units: int, margin: int
) -> None:
    assert units_of_words(level) == units  # docs/benchmarks.md quotes these
    assert units * margin < PARSE_BUDGET
    assert Game(level).rules  # validates and settles


# ------------------------------------------------------ many boards, one total


def test_a_pack_of_boards_each_under_the_budget_is_bounded_in_total() -> None:
    """Twenty-one boards of 240,400 units each: the twenty-first passes the pack's total."""
    board = stacked_bomb(200)
    assert units_of_words(board) == 240_400 < PARSE_BUDGET
    count = PACK_PARSE_BUDGET // 240_400 + 1
    with pytest.raises(ValidationError) as caught:
        load_pack(pack_of(*[board] * count))
    [problem] = caught.value.errors
    assert (problem.code, problem.pointer) == ("too-much-work", f"/levels/{count - 1}/entities")
    assert problem.level == f"bomb-{count - 1}"
    assert f"{PACK_PARSE_BUDGET:,}" in problem.message


def test_a_meter_charges_every_parse_and_stops_the_one_that_passes_it() -> None:
    words = word_tiles(grid_level(["BABA IS YOU"]))
    meter = Meter(20, "these boards")
    with metered(meter):
        parse_rules(words, VOCAB)
        parse_units(words, VOCAB)
        assert meter.units == 16
        with pytest.raises(WorkLimitError) as caught:
            parse_rules(words, VOCAB)
    assert (caught.value.units, caught.value.limit) == (24, 20)
    assert "these boards" in str(caught.value)
    parse_rules(words, VOCAB)  # outside the context nothing is charged
    assert meter.units == 24


def test_the_issue_bomb_as_a_payload_is_refused_by_validation() -> None:
    """Before the fix this payload took 155 s and 9.5 GB to preview and was valid."""
    text = payload_of(pack_of(issue_bomb()))
    preview = share.decode(text)
    assert [(p.code, p.pointer) for p in preview.problems] == [
        ("rule-complexity", "/levels/0/entities")
    ]


def payload_of(pack: dict[str, object]) -> str:
    """A sealed payload around a pack document, written without validating it."""
    from engine.share.codec import seal, to_text

    return to_text(seal({"pack": pack}))


def test_the_rule_reading_of_a_payloads_replays_is_bounded_in_total(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import engine.share.preview as preview_module

    level = load_level(grid_level(["baba . . .", "BABA IS YOU ."], "walk"))
    nouns = {"BABA": {"color": "#ffffff"}}
    text = share.encode(level, replays=["RRL", "RLR", "RRR"], nouns=nouns)
    assert share.decode(text).ok
    # each position of BABA IS YOU costs 8 units: the settle, then one read per move
    monkeypatch.setattr(preview_module, "MAX_PAYLOAD_PLAY_UNITS", 8 * 4 * 2 + 1)
    preview = share.decode(text)
    assert [(p.code, p.pointer) for p in preview.problems] == [("too-much-work", "/replays/2")]
    assert [c.index for c in preview.replays] == [0, 1]


# --------------------------------------------------------- the compact path agrees


def test_the_compact_path_refuses_a_position_whose_rules_pass_the_budget() -> None:
    """Two 128-word sentences of 32 subjects and 32 values: each row fits, both do not.

    The IS word of the second row starts a row lower; the position that puts it
    back must be over the budget on the compact path exactly as on the public one.
    """
    row: list[str] = []
    for i in range(32):
        row += [f"N{i}", "AND"]
    row[-1] = "IS"
    for i in range(32):
        row += [f"V{i}", "AND"]
    row.pop()
    second = [*row]
    second[row.index("IS")] = "."
    under = [". "] * len(row)
    under[row.index("IS")] = "IS "
    level = grid_level([" ".join(row), " ".join(second), "".join(under), "baba"])
    one_row = parse_units(word_tiles(grid_level([" ".join(row)])), VOCAB, budget=None)
    assert one_row <= PARSE_BUDGET < 2 * one_row
    compact = CompactLevel(level)
    p = compact.codec.decode(compact.start_key)
    assert compact.meanings.of(p) is not None
    lonely_is = max(e["id"] for e in level["entities"] if e.get("text") == "IS")
    slot = compact.codec.slot_of[lonely_is]
    p[slot] -= compact.codec.width  # one row up: the second sentence is whole
    assert compact.meanings.direct(p) is None
    assert compact.meanings.of(p) is None
