"""The level-bound codec and the cached rule meanings of the compact path (spec 04,
"Solver transitions include frail state" and "Hidden FRAIL state fails closed")."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, ValidationError, load_level
from engine.play import phases
from engine.play.phases import STEP_PHASES
from engine.solve import rules, walk
from engine.solve.level import DIRECTIONS, CompactLevel
from engine.solve.turn import TurnResolver
from engine.solve.walk import Shortcut
from tests.support import bomb_rows, grid_level, ids_of, keke_corpus, keke_level

FRAIL_MAP = [
    {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {"DRIFT": "WATER"}}
]


def test_frail_map_tokens_are_in_the_codec_even_when_no_object_has_them() -> None:
    level = grid_level(["BABA IS YOU", "DRIFT IS FRAIL", "baba . ."], mechanics=FRAIL_MAP)
    codec = CompactLevel(level).codec
    assert {"DRIFT", "WATER"} <= set(codec.nouns)
    assert "FRAIL" not in codec.nouns


def test_keys_round_trip_and_decode_to_the_public_pieces() -> None:
    for record in keke_corpus()["levels"][:20]:
        level = load_level(keke_level(record))
        compact, game = CompactLevel(level), Game(level)
        key = compact.start_key
        for letter in record["solution"]:
            game.step(letter)
            out = compact.step(key, "UDLR".index(letter))
            assert out is not None
            key = out.key
            p = compact.codec.decode(key)
            assert compact.codec.encode(p) == key
            assert compact.describe(key)["entities"] == game.state()["entities"]


def test_an_untouched_board_has_a_small_key() -> None:
    # keys are XOR deltas from the settled start, most-moved slots first
    rows = ["BABA IS YOU . . . . .", *[". . . . . . . ."] * 6, "wall " * 7 + "baba"]
    compact = CompactLevel(grid_level(rows))
    assert compact.start_key == 0
    out = compact.step(
        compact.start_key, DIRECTIONS.index(next(d for d in DIRECTIONS if d.label == "up"))
    )
    assert out is not None
    assert out.key.bit_length() <= 8  # only the first slot (baba's cell) differs


def test_phase_and_chain_stage_are_part_of_the_key() -> None:
    level = grid_level(
        ["BABA IS YOU .", "SAND IS FRAIL .", "ROCK IS TICK .", "sand rock . baba"],
        mechanics=[
            {
                "id": "frail",
                "type": "frail",
                "version": 1,
                "state": "derived",
                "leaves": {"SAND": "SHOAL"},
            }
        ],
        automata=[
            {"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}, {"action": "wait"}]}
        ],
    )
    compact = CompactLevel(level)
    state = Game(level).state()
    sand = ids_of(level, "sand")[0]
    keys = set()
    for phase in (0, 1):
        for noun in ("SAND", "SHOAL"):
            entities = [dict(e, noun=noun) if e["id"] == sand else e for e in state["entities"]]
            automata = [dict(state["automata"][0], phase=phase)]
            keys.add(compact.key_of({"entities": entities, "automata": automata}))
    assert len(keys) == 4


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        (lambda s: s["entities"][-1].update(leaves={"DRIFT": "WATER"}), "/entities/4/leaves"),
        (lambda s: s.update(crumbles=2), "/crumbles"),
        (lambda s: s["automata"].append({"id": "x", "phase": 0}), "/automata"),
        (lambda s: s["entities"][-1].update(noun="LAVA"), "/entities/4/noun"),
        (lambda s: s["entities"][-1].update(x=99), "/entities/4"),
    ],
)
def test_hidden_or_impossible_state_fails_closed(change: Any, pointer: str) -> None:
    level = grid_level(["BABA IS YOU", ". drift baba"], mechanics=FRAIL_MAP)
    compact = CompactLevel(level)
    state = Game(level).state()
    compact.key_of(state)  # the state itself is fine
    change(state)
    with pytest.raises(ValidationError) as caught:
        compact.key_of(state)
    assert [p.pointer for p in caught.value.errors] == [pointer]


def test_rule_complexity_rejects_the_turn_as_the_public_engine_does() -> None:
    # pushing IS into the gap completes a line of 17 stacked subjects: 2^17 readings
    rows = bomb_rows()
    level = load_level(grid_level(rows))
    game, compact = Game(level), CompactLevel(level)
    down = next(k for k, d in enumerate(DIRECTIONS) if d.label == "down")
    event = game.step(DIRECTIONS[down]).to_dict()
    assert event["accepted"] is False
    assert event["blocked"][0]["reason"] == "rule-complexity"
    assert compact.step(compact.start_key, down) is None
    # the same words one cell short of the gap are fine both ways
    left = next(k for k, d in enumerate(DIRECTIONS) if d.label == "left")
    assert game.step(DIRECTIONS[left]).accepted
    assert compact.step(compact.start_key, left) is not None


def rule_meaning_matches(level: dict[str, Any]) -> CompactLevel:
    compact = CompactLevel(level)
    p = compact.codec.decode(compact.start_key)
    assert compact.meanings.of(p) is compact.meanings.direct(p)
    return compact


def test_cached_lines_keep_the_public_order_of_transformations() -> None:
    # horizontal before vertical from one first word; an upper row before a lower one,
    # although the lower sentence's words have the lower ids
    level = grid_level([". . . .", ". . . .", "BABA IS KEKE .", "IS . . .", "ROCK . . ."])
    lower = level["entities"]
    upper = [
        {"kind": "word", "text": t, "x": x, "y": 0} for x, t in enumerate(("BABA", "IS", "FLAG"))
    ]
    baba = [
        {"kind": "object", "noun": "BABA", "x": 3, "y": 4},
        {"kind": "word", "text": "YOU", "x": 3, "y": 3},
    ]
    entities = [dict(e) for e in lower + upper + baba]
    for n, e in enumerate(entities, start=1):
        e["id"] = n
    level["entities"] = entities
    compact = rule_meaning_matches(level)
    assert compact.describe(compact.start_key)["entities"][-2]["noun"] == "FLAG"
    entities = [e for e in entities if e["y"] != 0]
    compact = rule_meaning_matches(
        {**level, "entities": entities}
    )  # horizontal KEKE before vertical ROCK
    assert [
        e["noun"] for e in compact.describe(compact.start_key)["entities"] if e["kind"] == "object"
    ] == ["KEKE"]


def test_a_line_whose_bound_exceeds_the_budget_goes_to_the_public_parser() -> None:
    head = ["BABA", "IS", "YOU", "ROCK", "IS", "PUSH", "FLAG", "IS", "WIN", "KEKE", "IS", "STOP"]
    row = head + ["ROCK"] * (128 - len(head))
    entities = [
        {"id": n, "kind": "word", "text": t, "x": n - 1, "y": 0} for n, t in enumerate(row, start=1)
    ]
    entities.append({"id": 200, "kind": "object", "noun": "BABA", "x": 0, "y": 1})
    compact = rule_meaning_matches({"id": "long", "width": 128, "height": 2, "entities": entities})
    assert compact.describe(compact.start_key)["controlLost"] is False


WORDS = ("BABA", "ROCK", "FLAG", "IS", "IS", "AND", "YOU", "PUSH", "STOP", "WIN", "SINK")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(WORDS), st.integers(0, 5), st.integers(0, 5)),
        min_size=1,
        max_size=24,
    )
)
def test_cached_line_meanings_equal_the_public_parser(words: list[tuple[str, int, int]]) -> None:
    """Rules read line by line from the cache mean what the public parser's rules mean."""
    entities = [{"kind": "word", "text": t, "x": x, "y": y} for t, x, y in words]
    entities.append({"kind": "object", "noun": "BABA", "x": 0, "y": 0})
    for n, e in enumerate(entities, start=1):
        e["id"] = n
    compact = CompactLevel({"id": "w", "width": 6, "height": 6, "entities": entities})
    p = compact.codec.decode(compact.start_key)
    assert compact.meanings.of(p) is compact.meanings.direct(p)
    # the same words in another order, from a warm cache
    p2 = list(p)
    lo, hi = compact.codec.word_lo, compact.codec.word_hi
    p2[lo:hi] = reversed(p[lo:hi])
    assert compact.meanings.of(p2) is compact.meanings.direct(p2)


@pytest.mark.parametrize(
    ("size", "as_text"),
    [(5, True), (16, True), (16, False)],
    ids=["one-byte", "two-byte-text", "two-byte-signatures"],
)
def test_every_single_word_move_through_one_cache_means_what_the_parser_reads(
    size: int, as_text: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a start of a row sentence and a column sentence, each word moved to each free
    cell in turn, all through one warm cache: a key that forgets the columns (or rows) of
    the IS words, or any word, gives an earlier configuration's meaning and fails. A 16x16
    board has two bytes a cell; past 55,296 cells it would read signatures line by line."""
    if not as_text:
        monkeypatch.setattr(rules, "_SURROGATES", 0)
    row = [("BABA", 0, 0), ("IS", 1, 0), ("YOU", 2, 0)]
    column = [("ROCK", 4, 1), ("IS", 4, 2), ("PUSH", 4, 3)]
    spare = [("FLAG", 0, 4), ("WIN", 2, 3)]
    entities: list[dict[str, Any]] = [
        {"kind": "word", "text": t, "x": x, "y": y} for t, x, y in row + column + spare
    ]
    entities.append({"kind": "object", "noun": "BABA", "x": 0, "y": 2})
    for n, e in enumerate(entities, start=1):
        e["id"] = n
    compact = CompactLevel({"id": "w", "width": size, "height": size, "entities": entities})
    codec, meanings = compact.codec, compact.meanings
    assert codec.itemsize == (1 if size == 5 else 2)
    start = list(codec.decode(compact.start_key))
    lo, hi = codec.word_lo, codec.word_hi
    meant = set()
    for slot in range(lo, hi):
        for cell in [*range(codec.cells), codec.gone]:
            if cell in start[lo:hi]:
                continue  # no stacks: those go to the public parser whole
            p = list(start)
            p[slot] = cell
            found = meanings.of(p)
            assert found is meanings.direct(p), (slot, cell)
            meant.add(found)
    assert len(meant) == 3  # both rules, and each sentence broken by a move


def test_the_compact_turn_runs_the_public_turns_phases_by_name() -> None:
    """Issue 11: the compact path is built from the public turn's phases, not a copy of it."""
    assert not issubclass(CompactLevel, TurnResolver)
    for name in STEP_PHASES:
        assert callable(getattr(phases, name)), name
        assert callable(getattr(TurnResolver, name)), name


def test_the_walk_shortcut_agrees_with_the_full_turn_wherever_it_answers() -> None:
    answered = 0
    for record in keke_corpus()["levels"][:30]:
        compact = CompactLevel(keke_level(record))
        key = compact.start_key
        for letter in record["solution"]:
            expansion = compact.expansion(key)
            walks = []
            if expansion.simple:
                walks = compact.walks.walks(
                    key,
                    expansion.raw,
                    expansion.vector,
                    expansion.flags,
                    expansion.movers,
                    expansion.meaning,
                )
            for direction, quick in enumerate(walks):
                full = compact.turns.turn(expansion, direction)
                expected = None if full is None else compact.codec.encode(full[0])
                if quick is Shortcut.FULL_TURN:
                    continue
                answered += 1
                if quick is Shortcut.REJECTED:
                    assert full is None
                else:
                    assert full is not None
                    assert quick == (expected, *full[1:])
            out = compact.step(key, "UDLR".index(letter))
            assert out is not None
            key = out.key
    assert answered > 500  # the comparison did run: the shortcut answers most turns


@pytest.mark.parametrize("width", [8, 20])  # one byte a cell, and two (20 x 14 > 255 cells)
def test_noun_fields_are_packed_and_a_transformed_board_round_trips(width: int) -> None:
    # ROCK IS WALL forms when baba pushes WALL left: every rock's noun field changes
    rows = [
        "BABA IS YOU" + " ." * (width - 3),
        "ROCK IS . WALL baba" + " ." * (width - 5),
        *[" ".join(["rock"] * (width // 2) + ["."] * (width - width // 2))] * 3,
        *[" ".join(["."] * width)] * 9,
    ]
    level = load_level(grid_level(rows))
    compact, game = CompactLevel(level), Game(level)
    codec = compact.codec
    assert codec.itemsize == (1 if width * len(rows) <= 255 else 2)
    assert codec.noun_bits == 2  # BABA, ROCK, WALL and the words' pseudo noun
    assert codec.nbytes == codec.noun_base * codec.itemsize + (codec.n * 2 + 7) // 8
    out = compact.step(compact.start_key, "UDLR".index("L"))
    game.step("L")
    assert out is not None
    state = compact.describe(out.key)
    assert state["entities"] == game.state()["entities"]
    assert {e["noun"] for e in state["entities"] if e["kind"] == "object"} == {"BABA", "WALL"}
    assert codec.encode(codec.decode(out.key)) == out.key
    assert out.key.bit_length() <= 8 * codec.nbytes


def walks_agree_with_full_turns(compact: CompactLevel, key: int) -> int:
    """Assert the walk shortcut equals the full turn wherever it answers; how many it did.

    The search's turns (:meth:`CompactLevel.children`: plain walks, then the
    walk shortcut, then full turns) must equal the full turns everywhere.
    """
    expansion = compact.expansion(key, settled=True)
    children = compact.children(key)
    for direction, child in enumerate(children):
        full = compact.turns.turn(expansion, direction)
        expected = None if full is None else (compact.codec.encode(full[0]), *full[1:])
        assert child == expected, direction
    if not expansion.simple:
        return 0
    answered = 0
    walks = compact.walks.walks(
        key, expansion.raw, expansion.vector, expansion.flags, expansion.movers, expansion.meaning
    )
    for direction, quick in enumerate(walks):
        if quick is Shortcut.FULL_TURN:
            continue
        answered += 1
        full = compact.turns.turn(expansion, direction)
        if quick is Shortcut.REJECTED:
            assert full is None, direction
        else:
            assert full is not None, direction
            assert quick == (compact.codec.encode(full[0]), *full[1:]), direction
    return answered


def test_plain_walks_answer_most_turns_of_three_movers_with_no_other_property() -> None:
    # biy-42's three BABA objects are only YOU: most of their turns are plain walks,
    # answered without the walk shortcut's search of the key (and equal to full turns)
    record = keke_corpus()["levels"][21]
    compact = CompactLevel(keke_level(record))
    key, plain = compact.start_key, 0
    for letter in record["solution"]:
        walks_agree_with_full_turns(compact, key)
        _, vector, _, _, movers, _, _, solid = compact._unpack(key)
        assert solid is not None
        assert len(movers) == 3
        answers = compact._plain_walks(key, vector, movers, set(solid(vector)))
        plain += sum(answer is not Shortcut.FULL_TURN for answer in answers)
        out = compact.step(key, "UDLR".index(letter))
        assert out is not None
        key = out.key
    assert plain >= 3 * len(record["solution"])  # 141 of 172 directions


@st.composite
def crowded_level(draw: st.DrawFn) -> dict[str, Any]:
    """Several YOU objects packed close, with pushable, stopping and contact objects."""
    width, height = draw(st.integers(3, 5)), draw(st.integers(3, 5))
    kinds = ["baba", "baba", "baba", "keke", "rock", "rock", "wall", "flag", ".", "baba+baba"]
    tokens = st.sampled_from([*kinds, "baba+flag", "rock+flag"])
    rows = [" ".join(draw(st.lists(tokens, min_size=width, max_size=width))) for _ in range(height)]
    nouns = st.sampled_from(["BABA", "KEKE", "ROCK", "WALL", "FLAG"])
    properties = st.sampled_from(["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"])
    sentences = st.tuples(nouns, properties).map(lambda r: f"{r[0]} IS {r[1]}")
    # BABA is YOU and often PUSH or STOP too: then the order of movers matters
    rules = ["BABA IS YOU", *draw(st.lists(sentences, min_size=1, max_size=4))]
    return grid_level([*rules, *rows], "crowded")


@settings(max_examples=300, deadline=None)
@given(crowded_level(), st.text(alphabet="UDLR", min_size=1, max_size=12))
def test_several_movers_walk_as_the_full_turn_moves_them(level: dict[str, Any], moves: str) -> None:
    compact = CompactLevel(level)
    if compact.start_won:
        return  # a search never expands a won position
    key = compact.start_key
    for letter in moves:
        walks_agree_with_full_turns(compact, key)
        out = compact.step(key, "UDLR".index(letter))
        if out is None:
            continue
        if out.won or not out.control:
            break
        key = out.key


def test_the_shortcut_answers_most_turns_of_three_movers() -> None:
    # biy-42 has three BABA objects: before the shortcut resolved several movers in
    # order, about 40% of its turns went to the full phase order
    record = keke_corpus()["levels"][21]
    compact = CompactLevel(keke_level(record))
    key, answered = compact.start_key, 0
    for letter in record["solution"]:
        answered += walks_agree_with_full_turns(compact, key)
        out = compact.step(key, "UDLR".index(letter))
        assert out is not None
        key = out.key
    assert answered >= 3 * len(record["solution"])


def test_two_byte_fields_are_searched_alike_as_text_and_as_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """biy-153 (324 cells) searches its fields as text; a board of more than 55,296 cells
    would search the bytes. Both must give the full turn's answer all along a solution."""
    record = keke_corpus()["levels"][75]
    as_text = CompactLevel(keke_level(record))
    monkeypatch.setattr(walk, "_SURROGATES", 0)
    as_bytes = CompactLevel(keke_level(record))
    assert as_text.codec.itemsize == 2
    assert as_text.walks.text
    assert not as_bytes.walks.text
    key, answered = as_text.start_key, 0
    for letter in record["solution"]:
        answered += walks_agree_with_full_turns(as_text, key)
        assert walks_agree_with_full_turns(as_bytes, key) == walks_agree_with_full_turns(
            as_text, key
        )
        out = as_text.step(key, "UDLR".index(letter))
        assert out is not None
        key = out.key
    assert answered >= 2 * len(record["solution"])


def test_cached_mover_orders_are_the_public_order_for_every_set_of_movers() -> None:
    """The walk shortcut keeps each direction's mover order per placement of the movers;
    other movers on the same cells, or the same movers elsewhere, get their own order."""
    compact = CompactLevel(grid_level(["BABA IS YOU", "baba baba baba baba", ". . . ."]))
    walks, codec = compact.walks, compact.codec
    babas = [slot for slot in codec.objects if codec.ids[slot] is not None]
    vector = list(codec.decode(compact.start_key))
    checked = 0
    for movers in itertools.chain(*(itertools.combinations(babas, k) for k in (2, 3))):
        for cells in itertools.permutations([4, 5, 9, 10], len(movers)):
            p = list(vector)
            for slot, cell in zip(movers, cells, strict=True):
                p[slot] = cell
            expected = [walks.front_first(list(movers), d, p) for d in range(4)]
            assert walks.orders(list(movers), p) == expected
            checked += 1
    assert checked == 6 * 12 + 4 * 24


@pytest.mark.parametrize(
    "rows",
    [
        ["BABA IS YOU", "BABA IS SINK", "baba rock+flag ."],  # a SINK mover onto inert objects
        ["BABA IS YOU", "ROCK IS PUSH", "ROCK IS SINK", "baba rock keke+flag"],  # pushed SINK
        ["BABA IS YOU", "BABA IS SINK", "ROCK IS PUSH", "baba rock+flag ."],  # following a push
        ["BABA IS YOU", "ROCK IS PUSH", "ROCK IS SINK", "baba rock rock+flag ."],  # within a line
    ],
)
def test_a_sink_entering_a_cell_of_inert_objects_sinks_them(rows: list[str]) -> None:
    compact = CompactLevel(grid_level(rows))
    walks_agree_with_full_turns(compact, compact.start_key)
    out = compact.step(compact.start_key, "UDLR".index("R"))
    assert out is not None
    game = Game(load_level(grid_level(rows)))
    game.step("R")
    assert compact.describe(out.key)["entities"] == game.state()["entities"]
    assert len(game.state()["entities"]) < len(load_level(grid_level(rows)).entities)


def test_two_byte_translate_tables_are_bounded_by_the_cells_they_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A two-byte board's table holds one entry per cell; the tables kept for the IS
    words' placements are bounded by cells, not only by count, and stay correct."""
    monkeypatch.setattr(rules, "_MASK_CELLS", 256 * 4)  # 16x16: at most 64 tables
    entities: list[dict[str, Any]] = [
        {"kind": "word", "text": t, "x": x, "y": 0} for t, x in (("BABA", 0), ("IS", 1), ("YOU", 2))
    ]
    entities.append({"kind": "object", "noun": "BABA", "x": 0, "y": 2})
    for n, e in enumerate(entities, start=1):
        e["id"] = n
    compact = CompactLevel({"id": "w", "width": 16, "height": 16, "entities": entities})
    codec, meanings = compact.codec, compact.meanings
    assert codec.itemsize == 2
    start = list(codec.decode(compact.start_key))
    is_slot = next(s for s in range(codec.word_lo, codec.word_hi) if codec.texts[s] == "IS")
    for cell in range(codec.cells):
        if cell in start[codec.word_lo : codec.word_hi]:
            continue
        p = list(start)
        p[is_slot] = cell
        assert meanings.of(p) is meanings.direct(p), cell
        assert len(meanings._masks) <= 64
