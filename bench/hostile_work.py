"""Generators of issue 39's hostile inputs: valid levels whose turns cost too much.

Shared by bench/bench_hostile.py (which times each case in a child process) and
the tests of issue 39 (which count the work instead of timing it). Every builder
returns plain JSON documents (a level, a pack or payload text), all valid: the
break was never a refused input but an accepted one that ran for minutes.

* B1: :func:`swarm_level` (64 automata over thousands of carriers) as a share
  payload with a short replay (:func:`swarm_payload`), re-sealed by hand as an
  attacker would, so no encoder ran it first.
* B3: :func:`crowd_level` (thousands of BABA, all YOU) with a long intended
  solution: ``rulegrid validate --lint`` replays it.
* B4: the swarm level played move by move, and :func:`walk_moves`, a move string
  of a million moves on a small level (:func:`small_level`).
* A push bomb found while counting: :func:`blocked_chain_level`, thousands of YOU
  movers stacked in front of a stack of thousands of PUSH words, blocked by a wall:
  movers times stack cells every turn, while nothing moves.
"""

from __future__ import annotations

from typing import Any

Doc = dict[str, Any]


def _entity(entities: list[Doc], kind: str, token: str, x: int, y: int) -> None:
    key = "noun" if kind == "object" else "text"
    entities.append({"id": len(entities) + 1, "kind": kind, key: token, "x": x, "y": y})


def _sentence(entities: list[Doc], y: int, *words: str) -> None:
    for x, word in enumerate(words):
        _entity(entities, "word", word, x, y)


def swarm_level(carriers: int = 19_000, automata: int = 64, *, size: int = 128) -> Doc:
    """``ROCK IS TICK`` with ``carriers`` rocks and ``automata`` automata of TICK.

    Every automaton moves every rock each turn (they walk right, then left), so a
    turn costs automata x carriers: 1.2 million carrier steps at the defaults, and
    state entries as many, while the level is about 1 MB of JSON (40 KB as a
    payload).
    """
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "ROCK", "IS", "TICK")
    _entity(entities, "object", "BABA", 0, 3)
    cells = [(x, y) for y in range(4, size) for x in range(2, size - 2)]
    for n in range(carriers):
        x, y = cells[n % len(cells)]
        _entity(entities, "object", "ROCK", x, y)
    pattern = [{"action": "move", "dx": 1, "dy": 0}, {"action": "move", "dx": -1, "dy": 0}]
    return {
        "id": "swarm",
        "width": size,
        "height": size,
        "entities": entities,
        "automata": [
            {"id": f"a{n}", "property": "TICK", "pattern": pattern} for n in range(automata)
        ],
    }


def crowd_level(count: int = 19_906, *, moves: int = 1_000, size: int = 128) -> Doc:
    """``count`` BABA objects, all YOU, with an intended solution of ``moves`` moves.

    The crowd walks right and left in a free band, so every move of the solution
    moves every BABA (about 20,000 entity moves a turn at the defaults, 598 KB of
    JSON); the solution does not win, so the lint plays it to the end.
    """
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "FLAG", "IS", "WIN")
    _entity(entities, "object", "FLAG", size - 1, 0)
    cells = [(x, y) for y in range(3, size) for x in range(1, size - 1)]
    for n in range(count):
        x, y = cells[n % len(cells)]
        _entity(entities, "object", "BABA", x, y)
    return {
        "id": "crowd",
        "width": size,
        "height": size,
        "entities": entities,
        "solution": ("RL" * (moves // 2 + 1))[:moves],
    }


def blocked_chain_level(movers: int = 10_000, pushed: int = 9_990) -> Doc:
    """``movers`` BABA (YOU) in one cell, ``pushed`` ROCK words stacked in the next,
    a WALL (STOP) behind them: every mover walks the whole stack and is blocked, so
    a turn that moves nothing costs movers x pushed (10^8 at the defaults)."""
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "WALL", "IS", "STOP")
    for _ in range(movers):
        _entity(entities, "object", "BABA", 0, 3)
    for _ in range(pushed):
        _entity(entities, "word", "ROCK", 1, 3)
    _entity(entities, "object", "WALL", 2, 3)
    return {"id": "chain", "width": 4, "height": 4, "entities": entities}


def small_level() -> Doc:
    """A 1 KB level: BABA walks a free row, FLAG IS WIN out of reach."""
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "FLAG", "IS", "WIN")
    _entity(entities, "object", "BABA", 0, 3)
    _entity(entities, "object", "FLAG", 7, 0)
    return {"id": "walk", "width": 8, "height": 4, "entities": entities}


def walk_moves(count: int) -> str:
    """``count`` moves that walk to and fro along the row (every move is accepted)."""
    return ("R" * 7 + "L" * 7) * (count // 14) + "R" * (count % 14)


def pack(*levels: Doc, pack_id: str = "hostile") -> Doc:
    """A pack around ``levels`` with the nouns they use."""
    nouns: set[str] = set()
    for level in levels:
        for e in level["entities"]:
            if e["kind"] == "object":
                nouns.add(e["noun"])
            elif e["text"] not in ("IS", "YOU", "WIN", "STOP", "PUSH", "TICK", "AND"):
                nouns.add(e["text"])
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": pack_id,
        "title": pack_id,
        "nouns": {noun: {"color": "#808080"} for noun in sorted(nouns)},
        "levels": list(levels),
    }


def swarm_payload(carriers: int = 19_000, automata: int = 64, moves: str = "RLRLRL") -> str:
    """B1: a level payload of :func:`swarm_level` with one replay, sealed by hand.

    The replay's digests are made up (an importer must run the moves to compare
    them); the payload is sealed as the codec seals one, so it passes every check
    before the replay.
    """
    from engine.share.codec import seal, to_text

    level = swarm_level(carriers, automata)
    record = {"level": level["id"], "moves": moves, "events": "0" * 64, "final": "0" * 64}
    nouns = {noun: {"color": "#808080"} for noun in ("BABA", "ROCK")}
    return to_text(seal({"level": level, "nouns": nouns, "replays": [record]}))
