"""The solver's position table: a set of int keys numbered in insertion order."""

from __future__ import annotations

import random

import pytest

from engine.solve.table import PositionTable


def test_keys_are_numbered_in_order_and_kept_once() -> None:
    rng = random.Random(7)
    keys = [
        0,
        1,
        255,
        256,
        1 << 200,
        *(rng.getrandbits(rng.randrange(1, 300)) for _ in range(5000)),
    ]
    table = PositionTable()
    numbers: dict[int, int] = {}
    for key in keys:
        number = table.add(key)
        if key in numbers:
            assert number == -1
        else:
            assert number == len(numbers)
            numbers[key] = number
    assert len(table) == len(numbers)
    assert all(table.key(number) == key for key, number in numbers.items())
    assert all(key in table for key in keys)
    assert (1 << 301) not in table
    assert all(table.add(key) == -1 for key in keys)  # still there after every growth


def test_a_long_growth_pauses_and_may_be_abandoned() -> None:
    pauses: list[int] = []
    table = PositionTable(lambda: pauses.append(len(table)))
    for key in range(140_000):  # the index grows past 131,072 positions once
        table.add(key * 7919)
    assert pauses  # called while 131,072 positions were rehashed
    assert all(table.key(n) == n * 7919 for n in range(0, 140_000, 997))
    assert all(table.add(n * 7919) == -1 for n in range(0, 140_000, 13))  # rehashed in chunks

    def stop() -> None:
        raise KeyboardInterrupt

    stopping = PositionTable(stop)

    def fill() -> None:
        for key in range(140_000):
            stopping.add(key)

    with pytest.raises(KeyboardInterrupt):
        fill()
