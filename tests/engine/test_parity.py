"""The compact transition path agrees with the public engine (spec 04, "Public and
compact transitions agree"; spec 03, "Solver distinguishes phase states").

Every test plays the same intents through ``engine.Game`` and through
``CompactLevel.step`` and compares, after every intent: acceptance, the settled
objects and words (id, noun or text, position, existence), the rules with their
sources, ``won``, ``controlLost``, automaton phases and ``active``, and the
``crumbled`` records.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, load_level
from engine.solve.level import DIRECTIONS, CompactLevel
from tests.support import grid_level, ids_of

LETTERS = "UDLR"  # the order of engine.solve.level.DIRECTIONS


def public_view(game: Game) -> dict[str, Any]:
    state = game.state()
    return {
        "entities": state["entities"],
        "rules": state["rules"],
        "phases": [a["phase"] for a in state["automata"]],
        "active": [a["active"] for a in state["automata"]],
        "controlLost": state["controlLost"],
    }


def play_both(
    level: dict[str, Any], moves: str, snapshot: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Play ``moves`` both ways, asserting agreement at every step; the public events.

    With ``snapshot`` both start from that restored position instead of the start.
    A settled position's turns are also compared with the search's
    :meth:`CompactLevel.children` (its plain walks and walk shortcut).
    """
    loaded = load_level(level)
    compact = CompactLevel(loaded)
    if snapshot is None:
        game = Game(loaded)
        key = compact.start_key
        assert compact.start_won == game.won
    else:
        game = Game.from_snapshot(loaded, snapshot)
        key = compact.key_of(snapshot["current"])
    assert compact.describe(key) == public_view(game)
    events = []
    settled = snapshot is None  # a restored position may hold a contact; a search never has one
    for n, letter in enumerate(moves, start=1):
        if game.won:
            break
        d = LETTERS.index(letter)
        crumbled: list[tuple[int, str, str | None]] = []
        event = game.step(DIRECTIONS[d]).to_dict()
        out = compact.step(key, d, crumbled)
        where = f"move {n} ({letter}) of {moves!r}"
        assert (out is not None) == event["accepted"], where
        if settled:
            assert compact.children(key)[d] == (None if out is None else tuple(out)), where
        if out is None:
            continue
        key, settled = out.key, True
        assert compact.describe(key) == public_view(game), where
        assert key == compact.key_of(game.state()), where  # one key per position, however reached
        assert out.won == event["won"], where
        assert out.control == (not event["controlLost"]), where
        assert [{"id": i, "from": a, "to": b} for i, a, b in crumbled] == event["crumbled"], where
        events.append(event)
    return events


def frail(leaves: dict[str, str]) -> list[dict[str, Any]]:
    return [{"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}]


# -- fixtures: one per FRAIL departure kind (spec 04) ---------------------------


def test_public_and_compact_transitions_agree() -> None:
    """Spec 04: a handover, a pushed-word departure, an automaton departure and a
    two-link chain give the same objects, rules, contacts and ``crumbled`` on both
    paths (``play_both`` compares after every intent; the tests below check what
    each fixture is about)."""
    fixtures = [
        test_handover_keeps_the_plank_and_a_later_departure_crumbles_it,
        test_pushed_word_departure_crumbles,
        test_automaton_departure_crumbles_and_moving_frail_does_not,
        test_two_link_chain_and_water_leftover_sinks,
    ]
    for fixture in fixtures:
        fixture()


def test_handover_keeps_the_plank_and_a_later_departure_crumbles_it() -> None:
    level = grid_level(
        ["BABA IS YOU . .", "DRIFT IS FRAIL . .", "baba drift+ROCK . . .", ". . . . ."],
        mechanics=frail({"DRIFT": "WATER"}),
    )
    events = play_both(level, "RD")
    drift = ids_of(level, "drift")[0]
    assert events[0]["crumbled"] == []  # the word left, baba came: a handover
    assert events[1]["crumbled"] == [{"id": drift, "from": "DRIFT", "to": "WATER"}]


def test_pushed_word_departure_crumbles() -> None:
    # baba is YOU and TICK (move right): it pushes the word off the plank, then walks on
    level = grid_level(
        [
            "BABA IS YOU . . .",
            "DRIFT IS FRAIL . . .",
            "BABA IS TICK . . .",
            "baba drift+ROCK . . . .",
        ],
        mechanics=frail({"DRIFT": "WATER"}),
        automata=[
            {"id": "walk", "property": "TICK", "pattern": [{"action": "move", "dx": 1, "dy": 0}]}
        ],
    )
    events = play_both(level, "R")
    assert events[0]["crumbled"] == [
        {"id": ids_of(level, "drift")[0], "from": "DRIFT", "to": "WATER"}
    ]


def test_automaton_departure_crumbles_and_moving_frail_does_not() -> None:
    level = grid_level(
        [
            "BABA IS YOU . .",
            "DRIFT IS FRAIL . .",
            "MOUSE IS TICK . .",
            "mouse+drift drift . . baba",
            ". . . . .",
        ],
        mechanics=frail({}),
        automata=[
            {
                "id": "clock",
                "property": "TICK",
                "pattern": [{"action": "wait"}, {"action": "move", "dx": 0, "dy": 1}],
            }
        ],
    )
    events = play_both(level, "LDU")
    plank = ids_of(level, "drift")[0]
    assert events[0]["crumbled"] == []  # a wait beat: nobody left
    assert events[1]["crumbled"] == [{"id": plank, "from": "DRIFT", "to": None}]


def test_two_link_chain_and_water_leftover_sinks() -> None:
    level = grid_level(
        [
            "BABA IS YOU . .",
            "SAND IS FRAIL . .",
            "SHOAL IS FRAIL . .",
            "WATER IS SINK . .",
            ". baba+sand . . .",
        ],
        mechanics=frail({"SAND": "SHOAL", "SHOAL": "WATER"}),
    )
    events = play_both(level, "RLRLRL")
    sand = ids_of(level, "sand")[0]
    crumbles = [e["crumbled"] for e in events if e["crumbled"]]
    assert crumbles == [
        [{"id": sand, "from": "SAND", "to": "SHOAL"}],
        [{"id": sand, "from": "SHOAL", "to": "WATER"}],
    ]
    assert events[3]["destroyed"]  # baba walked back onto the water and sank with it
    assert events[3]["controlLost"] is True


def test_frail_counts_only_when_frail_at_the_start_and_at_the_checkpoint() -> None:
    # baba leaves its plank while pushing FRAIL into DRIFT IS FRAIL: not FRAIL at the start
    level = grid_level(
        ["DRIFT IS . .", "BABA . FRAIL .", "IS . baba+drift .", "YOU . . ."], mechanics=frail({})
    )
    events = play_both(level, "UDDR")
    drift = ids_of(level, "drift")[0]
    assert [e["crumbled"] for e in events[:3]] == [
        [],
        [],
        [{"id": drift, "from": "DRIFT", "to": None}],
    ]
    # ... and leaving while pushing FRAIL out of the sentence: not FRAIL at the checkpoint
    level = grid_level(
        [". . . ROCK", "DRIFT IS FRAIL IS", "BABA . baba+drift FRAIL", "IS . . .", "YOU . . ."],
        mechanics=frail({}),
    )
    events = play_both(level, "U")
    assert events[0]["crumbled"] == []


def test_walking_onto_win_wins() -> None:
    level = grid_level(["BABA IS YOU .", "FLAG IS WIN .", "baba . flag ."])
    events = play_both(level, "RR")
    assert [e["won"] for e in events] == [False, True]


def test_walking_onto_defeat_loses_control() -> None:
    level = grid_level(["BABA IS YOU .", "KEKE IS DEFEAT .", "baba keke . ."])
    events = play_both(level, "R")
    assert events[0]["controlLost"] is True


def test_a_sunk_word_rereads_the_rules() -> None:
    # YOU is pushed onto the water, where it completes BABA IS YOU before sinking
    level = grid_level(["BABA IS water", "BABA IS YOU", ". . baba", "WATER IS SINK"])
    events = play_both(level, "U")
    assert events[0]["controlLost"] is True


def test_a_pushed_word_that_makes_your_cell_defeat_removes_you() -> None:
    # baba pushes DEFEAT off a rock and steps onto the rock as ROCK IS DEFEAT forms:
    # the walk shortcut moves both, then the new rules' contacts remove baba
    level = grid_level(["BABA IS YOU", "ROCK IS . DEFEAT+rock baba"])
    events = play_both(level, "L")
    assert events[0]["controlLost"] is True


def test_a_pushed_word_that_makes_your_cell_sink_sinks_you_and_the_rock() -> None:
    level = grid_level(["BABA IS YOU", "ROCK IS . SINK+rock baba"])
    events = play_both(level, "L")
    assert events[0]["controlLost"] is True
    assert len(events[0]["destroyed"]) == 2


def test_a_pushed_word_that_breaks_sink_leaves_the_pushed_rock_on_the_water() -> None:
    # pushing SINK up pushes the rock onto the water: sinking is a contact of the
    # rules after the move, which no longer have WATER IS SINK
    rows = [". . water", ". . rock", "WATER IS SINK", ". . baba", "BABA IS YOU", "ROCK IS PUSH"]
    events = play_both(grid_level(rows), "U")
    assert events[0]["destroyed"] == []


def test_a_pushed_word_that_makes_you_win_where_you_stand_wins() -> None:
    # FLAG IS WIN forms as baba steps onto the flag (passive until then)
    level = grid_level(["BABA IS YOU", "FLAG IS . WIN+flag baba"])
    events = play_both(level, "L")
    assert events[0]["won"] is True


def test_absence_has_one_key_whatever_noun_the_object_had() -> None:
    level = grid_level(
        [
            "BABA IS YOU .",
            "ROCK IS KEKE .",
            "KEKE IS PUSH .",
            "WATER IS SINK .",
            "baba rock water .",
        ]
    )
    events = play_both(level, "R")
    assert events[0]["destroyed"]


def test_restored_position_resolves_its_pending_contacts_like_the_public_engine() -> None:
    level = grid_level(
        [
            "BABA IS YOU . .",
            "WATER IS SINK . .",
            "KEKE IS DEFEAT . .",
            ". baba water keke .",
            ". . . . .",
        ]
    )
    game = Game(load_level(level))
    snapshot = game.snapshot()
    baba = ids_of(level, "baba")[0]
    # restored, not settled: baba stands on the water, and another baba-free stack waits
    for entity in snapshot["current"]["entities"]:
        if entity["id"] == ids_of(level, "keke")[0]:
            entity["x"] = 2
    events = play_both(level, "D", snapshot)
    assert events[0]["destroyed"]  # the water sinks what the restore left on it
    assert baba in [e["id"] for e in game.state()["entities"]]


def test_restore_at_either_link_of_a_chain_derives_the_same_crumbles() -> None:
    level = grid_level(
        ["BABA IS YOU . .", "SAND IS FRAIL . .", "SHOAL IS FRAIL . .", ". baba+sand . . ."],
        mechanics=frail({"SAND": "SHOAL", "SHOAL": "WATER"}),
    )
    game = Game(load_level(level))
    for moves in ("", "RL"):  # restore at the first link, then at the second
        for letter in moves:
            game.step(letter)
        snapshot = game.snapshot()
        events = play_both(level, "R", snapshot)
        expected = "SAND" if not moves else "SHOAL"
        assert [c["from"] for c in events[0]["crumbled"]] == [expected]


def test_stacked_words_and_and_sentences_with_several_movers() -> None:
    level = grid_level(
        [
            "BABA+KEKE IS YOU+PUSH AND WIN",
            "ROCK AND+IS FLAG . .",
            "baba keke rock . flag",
            ". baba . rock .",
            "FLAG IS+AND STOP+SINK . .",
        ]
    )
    play_both(level, "RRDLURDDLLUR")


def test_transformation_chain_takes_one_link_per_turn() -> None:
    level = grid_level(
        [
            "BABA IS YOU . .",
            "ROCK IS FLAG . .",
            "FLAG IS KEKE . .",
            "KEKE IS WIN . .",
            "baba rock . . .",
        ]
    )
    play_both(level, "UDRL")


# -- random levels ----------------------------------------------------------------

NOUNS = ("BABA", "ROCK", "FLAG", "SAND", "WATER")
PROPERTIES = ("YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT")


@st.composite
def random_level(draw: st.DrawFn) -> dict[str, Any]:
    """A small valid level: stacks of words and objects, AND, automata and FRAIL."""
    width, height = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    uses_frail = draw(st.booleans())
    ticks = draw(st.booleans())
    props = [*PROPERTIES, *(["FRAIL"] if uses_frail else []), *(["TICK"] if ticks else [])]
    words = [*NOUNS, "IS", "IS", "AND", *props]
    entities: list[dict[str, Any]] = []
    # sentences that give control (most of the time) and a goal, somewhere on the board
    for sentence in (("BABA", "IS", "YOU"), ("FLAG", "IS", draw(st.sampled_from(props)))):
        if draw(st.integers(0, 4)) > 0:
            y = draw(st.integers(0, height - 1))
            x = draw(st.integers(0, width - 3))
            for k, text in enumerate(sentence):
                entities.append({"kind": "word", "text": text, "x": x + k, "y": y})
    cells = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    for x, y in draw(st.lists(cells, max_size=9)):
        entities.append({"kind": "word", "text": draw(st.sampled_from(words)), "x": x, "y": y})
    for x, y in draw(st.lists(cells, min_size=1, max_size=7)):
        entities.append({"kind": "object", "noun": draw(st.sampled_from(NOUNS)), "x": x, "y": y})
    for n, entity in enumerate(entities, start=1):
        entity["id"] = n
    level: dict[str, Any] = {"id": "random", "width": width, "height": height, "entities": entities}
    if uses_frail:
        leaves = draw(st.dictionaries(st.sampled_from(NOUNS), st.sampled_from(NOUNS), max_size=3))
        level["mechanics"] = frail(leaves)
    if ticks:
        step = st.one_of(
            st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]).map(
                lambda d: {"action": "move", "dx": d[0], "dy": d[1]}
            ),
            st.just({"action": "wait"}),
        )
        pattern = draw(st.lists(step, min_size=1, max_size=3))
        automaton: dict[str, Any] = {"id": "tick", "property": "TICK", "pattern": pattern}
        automaton["phase"] = draw(st.integers(0, len(pattern) - 1))
        if draw(st.booleans()):
            automaton["subject"] = draw(st.sampled_from(NOUNS))
        level["automata"] = [automaton]
    return level


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_level(), st.text(alphabet=LETTERS, min_size=1, max_size=25))
def test_random_levels_agree_at_every_step(level: dict[str, Any], moves: str) -> None:
    play_both(level, moves)
