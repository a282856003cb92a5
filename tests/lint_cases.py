"""One minimal pack per lint code, each raising that warning and no other.

Shared by the engine's lint tests and the editor's Problems panel tests, so both
prove the same thing: every lint fires on the smallest level that shows it.
"""

from __future__ import annotations

from typing import Any

from tests.support import grid_level, pack_document

WINNABLE = ["baba . flag", "BABA IS YOU", "FLAG IS WIN"]
FRAIL = {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": {}}
CLOCK = {"id": "clock", "property": "TICK", "pattern": [{"action": "wait"}]}


def _pack(*levels: dict[str, Any], nouns: list[str] | None = None) -> dict[str, Any]:
    return pack_document(*levels, pack_id="minimal", nouns=nouns)


def lint_case(code: str) -> tuple[dict[str, Any], str]:
    """A pack that raises the lint ``code`` once, and the pointer it is raised at."""
    if code == "empty-level":  # beside a real level: a pack of empty levels is just starting
        empty = {"id": "b", "width": 3, "height": 3, "entities": []}
        return _pack(grid_level(WINNABLE, "a"), empty), "/levels/1"
    if code == "no-you-at-start":
        return _pack(grid_level(["baba . flag", "BABA IS PUSH", "FLAG IS WIN"], "a")), "/levels/0"
    if code == "won-at-start":
        return _pack(grid_level(["baba+flag . .", "BABA IS YOU", "FLAG IS WIN"], "a")), "/levels/0"
    if code == "win-impossible":
        return _pack(grid_level(["baba . flag", "BABA IS YOU", "FLAG IS STOP"], "a")), "/levels/0"
    if code == "frail-unused":
        return _pack(grid_level(WINNABLE, "a", mechanics=[FRAIL])), "/levels/0/mechanics/0"
    if code == "automaton-never-active":
        level = grid_level(WINNABLE, "a", automata=[CLOCK])
        return _pack(level), "/levels/0/automata/0/property"
    if code == "solution-fails":
        level = grid_level(["baba wall flag", "BABA IS YOU", "FLAG IS WIN", "WALL IS STOP"], "a")
        return _pack({**level, "solution": "RR"}), "/levels/0/solution"
    if code == "solution-wins-early":
        return _pack({**grid_level(WINNABLE, "a"), "solution": "RRD"}), "/levels/0/solution"
    if code == "solution-unchecked":  # a walk to and fro costing more than the lint budget
        level = grid_level([". baba . flag", "BABA IS YOU .", "FLAG IS WIN ."], "a")
        return _pack({**level, "solution": "RL" * 25_000}), "/levels/0/solution"
    if code in ("frail-self-map", "frail-cycle"):
        leaves = {"ROCK": "ROCK"} if code == "frail-self-map" else {"ROCK": "FLAG", "FLAG": "ROCK"}
        rows = [*WINNABLE, "ROCK IS FRAIL"]
        level = grid_level(rows, "a", mechanics=[{**FRAIL, "leaves": leaves}])
        return _pack(level), "/levels/0/mechanics/0/leaves/ROCK"
    if code == "unused-noun":
        return _pack(grid_level(WINNABLE, "a"), nouns=["BABA", "FLAG", "GHOST"]), "/nouns/GHOST"
    if code == "duplicate-board":
        return _pack(grid_level(WINNABLE, "a"), grid_level(WINNABLE, "b")), "/levels/1"
    raise KeyError(code)
