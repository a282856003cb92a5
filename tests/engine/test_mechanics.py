"""Issue 38 (B2): one place for each mechanic, read by the turn, the compact path, lint and the palette.

The toy mechanic of docs/adding-a-mechanic.md lives in tests/engine/hollow.py; here
it is registered, played through the public turn and the solver, and taken away.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from engine.context import LevelContext
from engine.lint.level import LEVEL_LINT_CODES
from engine.mechanics import BUILTIN, Role, registered
from engine.play.phases import STEP_PHASES
from engine.solve.level import DIRECTIONS, CompactLevel
from tests.engine import hollow
from tests.support import grid_level

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_WORDS = ("YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "FRAIL")


@pytest.fixture
def with_hollow() -> Iterator[engine.Mechanic]:
    mechanic = engine.register_mechanic(hollow.MECHANIC)
    try:
        yield mechanic
    finally:
        engine.unregister_mechanic(mechanic.name)


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


# ----------------------------------------------------------------- the registry


def test_each_builtin_property_is_declared_once_with_its_bit_in_palette_order() -> None:
    mechanics = registered()
    assert tuple(m.word for m in BUILTIN if m.word) == BUILTIN_WORDS
    assert [mechanics.bits[w] for w in BUILTIN_WORDS] == [1, 2, 4, 8, 16, 32, 64]
    assert mechanics.base_words == engine.BASE_PROPERTIES == BUILTIN_WORDS[:6]
    assert mechanics.opt_in_words == (engine.FRAIL,)
    assert [w for w, _ in mechanics.destroys] == ["SINK", "DEFEAT"]
    assert [w for w, _ in mechanics.wins] == ["WIN"]
    phases = {phase.value for m in mechanics.all for phase in m.phases}
    assert phases <= set(STEP_PHASES)


#: Where FRAIL is named outside its module: the public name, the published schema's
#: words and the messages about its map that authors read (docs/decisions.md, issue
#: 38: they stay as they are, since changing them changes what authors read).
FRAIL_DATA = {
    "__init__.py",
    "packs/explain.py",
    "packs/schema.py",
    "packs/semantic.py",
    "packs/sizes.py",
    "play/records.py",
}


def modules_naming(words: tuple[str, ...]) -> dict[str, set[str]]:
    """Each word's engine modules (outside its own mechanic) that name it in code.

    A module names it with an identifier holding the word in capitals (``DEFEAT``,
    ``DEFEATS``, ``_DEFEAT_BIT``) or a string, other than a docstring, holding it
    as a word; comments and docstrings say what code means and do not count.
    """
    engine_dir = ROOT / "engine"
    found: dict[str, set[str]] = {word: set() for word in words}
    for path in engine_dir.rglob("*.py"):
        name = path.relative_to(engine_dir).as_posix()
        source = path.read_text(encoding="utf-8")
        docstrings = {
            node.lineno
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        named: set[str] = set()
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:  # DEFEAT, DEFEATS, PUSHES, _DEFEAT_BIT
                for part in token.string.split("_"):
                    named.update((part, part.removesuffix("S"), part.removesuffix("ES")))
            elif token.type == tokenize.STRING and token.start[0] not in docstrings:
                named.update(re.findall(r"\b[A-Z]+\b", token.string))
        for word in words:
            if word in named and name != f"mechanics/{word.lower()}.py":
                found[word].add(name)
    return found


def test_each_builtin_property_is_named_in_at_most_four_engine_modules() -> None:
    """Issue 38's goal: a property's meaning is its module, and few others name it.

    (Before issue 38, DEFEAT was named so in 8 modules, YOU in 15, FRAIL in 18.)
    """
    naming = modules_naming(BUILTIN_WORDS)
    for word, modules in naming.items():
        outside = modules - (FRAIL_DATA if word == engine.FRAIL else set())
        assert len(outside) <= 4, (word, sorted(outside))
    assert naming[engine.FRAIL] >= FRAIL_DATA  # each still names it: no stale entry


def test_every_builtin_word_has_a_palette_entry_and_the_lints_are_the_mechanics() -> None:
    words = engine.Vocabulary.for_level(frail=True, automaton_properties=("TICK",))
    for word in (*BUILTIN_WORDS, "TICK"):
        entry = words.entry(word)
        assert entry is not None, word
        assert entry.color.startswith("#"), word
        assert entry.tip, word
    assert words.entry("BABA") is None
    assert words.entry("IS") is None
    assert LEVEL_LINT_CODES[: len(registered().lint_codes) + 1] == (
        "empty-level",
        *registered().lint_codes,
    )
    assert set(registered().lint_codes) <= engine.LINT_CODES


def test_the_registry_refuses_what_it_cannot_tell_apart() -> None:
    toy = hollow.MECHANIC
    with pytest.raises(ValueError, match="word of a registered mechanic"):
        engine.register_mechanic(replace(toy, name="X", word="YOU"))
    with pytest.raises(ValueError, match="is registered already"):
        engine.register_mechanic(replace(toy, name="YOU", word="X"))
    with pytest.raises(ValueError, match="token"):
        engine.register_mechanic(replace(toy, word="hollow"))
    with pytest.raises(ValueError, match="names words no mechanic has"):
        engine.register_mechanic(replace(toy, unless=frozenset({"NOPE"})))
    assert "HOLLOW" not in registered().words


# --------------------------------------------------------- a registered toy property


WALLED = [
    "BABA IS YOU . . . .",
    "WALL IS STOP . . . .",
    "FLAG IS WIN . . . .",
    ". . . . . . .",
    ". baba . wall . flag .",
    ". . . . . . .",
]


def test_hollow_is_one_module_the_vocabulary_and_the_turn_read(
    with_hollow: engine.Mechanic,
) -> None:
    assert with_hollow.bit == 1 << 7  # the first bit after the built-ins'
    words = engine.Vocabulary.for_level(frail=False)
    assert words.role("HOLLOW") is engine.WordRole.PROPERTY
    assert words.words(engine.WordRole.PROPERTY)[-1] == "HOLLOW"
    level = engine.load_level(grid_level([*WALLED, "BABA IS HOLLOW . . . ."]))
    game = agree(level, "RRRR")
    assert game.won
    # without HOLLOW the wall stops baba: the same level is lost at the wall
    plain = engine.load_level(grid_level(WALLED))
    assert not agree(plain, "RRRR").won


def test_hollow_passes_only_when_every_entity_entering_the_wall_is_hollow(
    with_hollow: engine.Mechanic,
) -> None:
    rows = [
        "BABA IS YOU . . . .",
        "WALL IS STOP . . . .",
        "BABA IS HOLLOW . . . .",
        "ROCK IS PUSH . . . .",
        ". . . . . . .",
        ". baba rock wall . . .",
    ]
    level = engine.load_level(grid_level(rows))
    game = agree(level, "RR")
    assert not game.state()["moves"]  # the rock is not hollow: the push chain stops
    hollow_rock = engine.load_level(
        grid_level([*rows[:3], "ROCK IS PUSH AND HOLLOW . .", *rows[4:]])
    )
    game = agree(hollow_rock, "RR")
    assert game.state()["moves"] == 2


def test_the_solver_plays_hollow_and_its_solution_replays(with_hollow: engine.Mechanic) -> None:
    level = engine.load_level(grid_level([*WALLED, "BABA IS HOLLOW . . . ."]))
    result = engine.solve(level, max_states=10_000)
    assert result.status == engine.SolveStatus.SOLVED
    assert result.moves == "RRRR"
    assert engine.replay(level, result.moves)[-1].won
    assert engine.check_solution(level, result.moves).wins


def test_hollow_is_gone_once_unregistered() -> None:
    assert "HOLLOW" not in registered().words
    assert engine.Vocabulary.for_level(frail=False).role("HOLLOW") is engine.WordRole.NOUN


def test_a_toy_registered_in_a_fresh_interpreter_plays_there_too() -> None:
    """A plugin registers at start, before any level is built: the whole engine reads it."""
    code = (
        "import engine; from tests.engine import hollow; engine.register_mechanic(hollow.MECHANIC); "
        "from tests.support import grid_level; "
        f"rows = {[*WALLED, 'BABA IS HOLLOW . . . .']!r}; "
        "level = engine.load_level(grid_level(rows)); "
        "print(engine.solve(level).moves, engine.Game(level).state()['rules'][-1]['predicate'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.split() == ["RRRR", "HOLLOW"]


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
    assert len(DIRECTIONS) == 4


def test_the_movers_the_compact_path_reads_are_the_declared_ones() -> None:
    level = engine.load_level(grid_level(WALLED))
    compact = CompactLevel(level)
    assert compact.meanings.movers == registered().role_bits[Role.MOVER] == 1
    assert compact.meanings.wild == registered().bits["SINK"]


def test_the_public_turn_calls_its_phases_in_the_order_step_phases_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """STEP_PHASES orders the turn (issue 38, item 5): engine.play.turn calls them so.

    BABA pushes the word FLAG onto a ROCK that is SINK, so the word is destroyed and
    the rules are read again: every phase of a step runs, the last one included.
    """
    from engine.play import turn

    called: list[str] = []
    for name in set(STEP_PHASES):
        phase = getattr(turn, name)

        def record(*args: object, _name: str = name, _phase: object = phase) -> object:
            called.append(_name)
            return _phase(*args)  # type: ignore[operator]

        monkeypatch.setattr(turn, name, record)
    rows = ["BABA IS YOU .", "ROCK IS SINK .", ". baba FLAG rock"]
    game = engine.Game(engine.load_level(grid_level(rows)))
    called.clear()  # the settle at the start runs phases of its own
    assert game.step("R").accepted
    assert tuple(called) == STEP_PHASES
    ctx = LevelContext.of(engine.load_level(grid_level(rows)))
    start = turn.settle(ctx, ctx.authored_pieces(), ctx.authored_phases())
    called.clear()
    assert turn.resolve_step(ctx, start, "R")[0] is not None
    assert tuple(called) == STEP_PHASES
