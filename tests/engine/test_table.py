"""The solver's position table: a set of int keys numbered in insertion order."""

from __future__ import annotations

import random

import pytest

from engine.solve.table import PositionTable, TableFullError


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


@pytest.mark.parametrize("extra", [0, 5, 129])
def test_a_budget_of_bytes_is_never_passed(extra: int) -> None:
    """Issue 36: the table counts what it holds and refuses a key or a growth past its budget."""
    rng = random.Random(extra)
    budget = 300_000
    table = PositionTable(budget=budget, extra=extra)
    added: list[int] = []

    def fill() -> None:
        while True:
            key = rng.getrandbits(rng.randrange(8, 400))
            if table.add(key) >= 0:
                added.append(key)
            assert table.nbytes() <= budget

    with pytest.raises(TableFullError) as full:
        fill()
    assert full.value.budget == budget
    assert full.value.needed > budget
    assert len(table) == len(added)  # a refused key is not half kept
    assert all(key in table for key in added)
    assert all(table.key(n) == key for n, key in enumerate(added))
    assert table.nbytes() > budget // 3  # the budget is used, not refused early


def test_the_count_is_the_arrays_own_lengths() -> None:
    table = PositionTable(extra=5)
    for key in range(1, 3000):
        table.add(key << 40)
    keys = sum((key << 40).bit_length() + 7 >> 3 for key in range(1, 3000))
    slots = len(table._index)
    assert table.nbytes() == keys + 4 * (3000 + slots) + 5 * 2999


def test_an_empty_budget_refuses_the_first_key() -> None:
    with pytest.raises(TableFullError):
        PositionTable(budget=0).add(12345)


def test_a_growth_past_the_budget_leaves_the_table_as_it_was() -> None:
    # keys of one byte: the index, not the keys, is what a growth cannot afford
    table = PositionTable(budget=4 * (1 << 12) + 9 * 2100)

    def fill() -> None:
        for key in range(1, 100_000):
            table.add(key)

    with pytest.raises(TableFullError):
        fill()
    kept = len(table)
    # the add that would fill half of the first index's 4,096 slots needs the growth
    assert kept == (1 << 11) - 1
    assert (kept + 1) not in table
    assert table.add(kept) == -1
    assert all(table.key(n) == n + 1 for n in range(kept))
