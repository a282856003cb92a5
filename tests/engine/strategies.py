"""Hypothesis strategies: small random levels with stacked words, automata and FRAIL.

Levels are built to be valid (FRAIL words only when the level opts in, automaton
property words only when an automaton declares them) so every example exercises
play rather than validation. ``BABA IS YOU`` is usually present so the player can
act; the rest of the board is random, stacks included.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

NOUNS = ("BABA", "ROCK", "FLAG", "WATER", "DRIFT", "SAND", "KEKE")
BASE = ("YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT")
DIRECTIONS = ("up", "down", "left", "right")


@st.composite
def levels(draw: st.DrawFn, *, automata: bool = True, frail: bool = True) -> dict[str, Any]:
    width = draw(st.integers(3, 7))
    height = draw(st.integers(4, 7))
    uses_frail = frail and draw(st.booleans())
    clocks = draw(st.integers(0, 2)) if automata else 0
    ticks = ["TICK", "TOCK"][:clocks]
    vocabulary = [*NOUNS, "IS", "IS", "AND", *BASE, *ticks, *(["FRAIL"] if uses_frail else [])]
    entities: list[dict[str, Any]] = []

    def cell() -> tuple[int, int]:
        return draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))

    def place(x: int, y: int, text: str) -> None:
        if 0 <= x < width and 0 <= y < height:
            entities.append({"kind": "word", "text": text, "x": x, "y": y})

    values = [*NOUNS, *BASE, *ticks, *(["FRAIL"] if uses_frail else [])]
    sentences = [["BABA", "IS", "YOU"]] if draw(st.integers(0, 9)) < 8 else []
    # Bias towards the mechanics under test: carriers, FRAIL nouns and sinks.
    under = draw(st.sampled_from(NOUNS))  # what may lie under the player
    for prop in [*ticks, *(["FRAIL"] if uses_frail else []), "SINK"]:
        if draw(st.integers(0, 9)) < 7:
            noun = draw(st.sampled_from(NOUNS[1:]))
            sentences.append([noun, "IS", prop])
            if prop == "FRAIL":
                under = noun
    for _ in range(draw(st.integers(0, 3))):  # random sentences, some with AND
        sentence = [draw(st.sampled_from(NOUNS)), "IS", draw(st.sampled_from(values))]
        if draw(st.integers(0, 4)) == 0:
            sentence += ["AND", draw(st.sampled_from(values))]
        sentences.append(sentence)
    for index, sentence in enumerate(sentences):
        # BABA IS YOU (when present) owns row 0; the rest share the rows below it
        first = index == 0 and sentence == ["BABA", "IS", "YOU"]
        horizontal = first or draw(st.booleans())
        span = len(sentence) - 1
        top = 0 if first else 1
        x = draw(st.integers(0, max(0, width - 1 - span * horizontal)))
        y = 0 if first else draw(st.integers(top, max(top, height - 1 - span * (not horizontal))))
        for offset, text in enumerate(sentence):
            place(x + offset * horizontal, y + offset * (not horizontal), text)
    for _ in range(draw(st.integers(0, 5))):  # loose and stacked words
        x, y = cell()
        place(x, y, draw(st.sampled_from(vocabulary)))
    for _ in range(draw(st.integers(1, 8))):
        x, y = cell()
        entities.append({"kind": "object", "noun": draw(st.sampled_from(NOUNS)), "x": x, "y": y})
    x, y = cell()
    entities.append({"kind": "object", "noun": "BABA", "x": x, "y": y})
    if draw(st.booleans()):  # something under the player: a plank to leave, or water
        entities.append({"kind": "object", "noun": under, "x": x, "y": y})
    for index, entity in enumerate(entities, start=1):
        entity["id"] = index
    level: dict[str, Any] = {"id": "random", "width": width, "height": height, "entities": entities}
    if ticks:
        level["automata"] = [
            draw(_automaton(name, tick)) for name, tick in zip(("a", "b"), ticks, strict=False)
        ]
    if uses_frail:
        leaves = draw(st.dictionaries(st.sampled_from(NOUNS), st.sampled_from(NOUNS), max_size=4))
        level["mechanics"] = [
            {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}
        ]
    return level


@st.composite
def _automaton(draw: st.DrawFn, name: str, tick: str) -> dict[str, Any]:
    moves = [
        {"action": "move", "dx": dx, "dy": dy} for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]
    steps = st.sampled_from([*moves, {"action": "wait"}, {"action": "wait", "cue": "beat"}])
    pattern = draw(st.lists(steps, min_size=1, max_size=4))
    data: dict[str, Any] = {"id": name, "property": tick, "pattern": pattern}
    data["phase"] = draw(st.integers(0, len(pattern) - 1))
    if draw(st.booleans()):
        data["subject"] = draw(st.sampled_from(NOUNS))
    return data


intents = st.lists(st.sampled_from(DIRECTIONS), min_size=1, max_size=16)


@st.composite
def carrier_levels(draw: st.DrawFn) -> dict[str, Any]:
    """A player, TICK carriers standing on FRAIL planks and loose planks (spec 04 with 03)."""
    width = draw(st.integers(5, 7))
    height = draw(st.integers(6, 8))
    entities: list[dict[str, Any]] = []
    for y, sentence in enumerate(
        (("BABA", "IS", "YOU"), ("DRIFT", "IS", "FRAIL"), ("MOUSE", "IS", "TICK"))
    ):
        for x, text in enumerate(sentence):
            entities.append({"kind": "word", "text": text, "x": x, "y": y})

    def floor_cell() -> tuple[int, int]:
        return draw(st.integers(0, width - 1)), draw(st.integers(3, height - 1))

    x, y = floor_cell()
    entities.append({"kind": "object", "noun": "BABA", "x": x, "y": y})
    for _ in range(draw(st.integers(1, 3))):
        x, y = floor_cell()
        entities.append({"kind": "object", "noun": "MOUSE", "x": x, "y": y})
        entities.append({"kind": "object", "noun": "DRIFT", "x": x, "y": y})
    for _ in range(draw(st.integers(0, 3))):
        x, y = floor_cell()
        entities.append({"kind": "object", "noun": "DRIFT", "x": x, "y": y})
    for index, entity in enumerate(entities, start=1):
        entity["id"] = index
    leaves = draw(st.sampled_from([{"DRIFT": "WATER"}, {}, {"DRIFT": "SAND", "SAND": "WATER"}]))
    return {
        "id": "carriers",
        "width": width,
        "height": height,
        "entities": entities,
        "automata": [draw(_automaton("tick", "TICK"))],
        "mechanics": [
            {"id": "frail", "type": "frail", "version": 1, "state": "derived", "leaves": leaves}
        ],
    }


any_level = st.one_of(levels(), carrier_levels())
