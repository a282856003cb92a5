"""Issue 38 (B2): one place for each mechanic, read by the turn, the compact path, lint and the palette."""

from __future__ import annotations

import engine
from engine.solve.level import CompactLevel
from tests.support import grid_level


def agree(level: engine.Level, moves: str) -> engine.Game:
    """Play ``moves`` in a Game and on the compact path, position by position; the game."""
    game, compact = engine.Game(level), CompactLevel(level)
    key = compact.start_key
    for letter in moves:
        direction = "UDLR".index(letter)
        event = game.step(letter)
        child = compact.children(key)[direction]
        step = compact.step(key, direction)
        if not event.accepted:
            assert child is None, letter
            assert step is None, letter
            continue
        assert child is not None, letter
        assert step is not None, letter
        assert child == tuple(step)
        state = compact.describe(child[0])
        assert state["entities"] == game.state()["entities"], letter
        assert (child[1], child[2]) == (event.won, not event.control_lost), letter
        key = child[0]
    return game


# --------------------------------------------- the compact path and every automaton


def test_a_second_automatons_carriers_make_every_turn_a_full_one() -> None:
    """Every automaton's carrier bit stops the walk shortcut, not only the first's.

    The shortcut once asked ``union & CARRY``, automaton 0's bit alone: with only
    automaton 1 active, its beats were skipped and the solver's turns went wrong.
    """
    automata = [
        {"id": "a", "property": "TICK", "pattern": [{"action": "move", "dx": 1, "dy": 0}]},
        {
            "id": "b",
            "property": "TOCK",
            "pattern": [
                {"action": "move", "dx": 0, "dy": 1},
                {"action": "move", "dx": 0, "dy": -1},
            ],
        },
    ]
    rows = [
        "BABA IS YOU . . . .",
        "ROCK IS TOCK . . . .",
        ". . . . . . .",
        ". baba . . rock . .",
        ". . . . . . .",
    ]
    level = engine.load_level(grid_level(rows, automata=automata))
    agree(level, "RRLLR")
