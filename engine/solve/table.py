"""The positions a search has seen, in about 30 bytes each instead of about 90.

A Python ``set`` of int keys costs an int object (32 to 48 bytes) plus a hash slot
(16 bytes at a load between 30 and 60 %) per position, so a search that keeps
millions of positions spends most of its memory on object headers. A
:class:`PositionTable` keeps each key's bytes (little-endian, as short as the key)
in one ``bytearray``, the end offset of each in an ``array`` of 32-bit ints, and an
open-addressing index of 32-bit position numbers; nothing per position is a
Python object. Position numbers count from 0 in the order keys were added, so a
breadth-first search needs no separate queue: it expands numbers in order.

The cost is a probe loop in Python, a little slower per lookup than a ``set``
(``bench/bench_solver.py`` measures both ends of the trade), and a growth of the
index that visits every position (seconds past a few million): it calls ``pause``
every 65,536 positions, so that a search can still honour a cancel or a timeout.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

_FIRST_BITS = 12
# The index grows when half full: four times over while it is under 2**20 slots (4 MiB:
# fewer rehashes and shorter probes where memory does not matter), then twice (a
# quarter to half full: 8 to 16 bytes a position, where it does)
_QUICK_BITS = 20
_MAX_STORE = (1 << 32) - 1  # offsets are 32-bit
_PAUSE_EVERY = 1 << 16  # positions rehashed between two calls of ``pause``
_CHUNK = 1 << 12  # positions rehashed from one copy of their keys (a few hundred KiB)


class PositionTable:
    """A set of non-negative int keys that numbers them in order of insertion."""

    __slots__ = ("_bits", "_index", "_mask", "_offsets", "_pause", "_store")

    def __init__(self, pause: Callable[[], None] | None = None) -> None:
        """``pause`` is called now and then while the index grows; it may raise to
        abandon the table (which is then unusable)."""
        self._pause = pause
        self._bits = _FIRST_BITS
        self._mask = (1 << _FIRST_BITS) - 1
        self._index = array("i", bytes(4 << _FIRST_BITS))  # position number + 1; 0 is empty
        self._store = bytearray()
        self._offsets = array("I", [0])

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def add(self, key: int) -> int:
        """The number of a new ``key``; -1 when the table already has it."""
        raw = key.to_bytes((key.bit_length() + 7) >> 3, "little")
        index, store, offsets, mask = self._index, self._store, self._offsets, self._mask
        slot = hash(raw) & mask
        number = index[slot]
        while number:
            if store[offsets[number - 1] : offsets[number]] == raw:
                return -1
            slot = (slot + 1) & mask
            number = index[slot]
        count = len(offsets)
        store += raw
        if len(store) > _MAX_STORE:
            raise MemoryError("the search has stored more than 4 GiB of positions")
        offsets.append(len(store))
        index[slot] = count
        if count << 1 > mask:
            self._grow()
        return count - 1

    def __contains__(self, key: int) -> bool:
        raw = key.to_bytes((key.bit_length() + 7) >> 3, "little")
        index, store, offsets, mask = self._index, self._store, self._offsets, self._mask
        slot = hash(raw) & mask
        number = index[slot]
        while number:
            if store[offsets[number - 1] : offsets[number]] == raw:
                return True
            slot = (slot + 1) & mask
            number = index[slot]
        return False

    def key(self, number: int) -> int:
        """The key numbered ``number``."""
        offsets = self._offsets
        return int.from_bytes(self._store[offsets[number] : offsets[number + 1]], "little")

    def _grow(self) -> None:
        self._bits += 2 if self._bits < _QUICK_BITS else 1
        self._mask = mask = (1 << self._bits) - 1
        index = array("i", bytes(4 << self._bits))
        store, offsets = self._store, self._offsets
        pause, count = self._pause, len(offsets) - 1
        with memoryview(store) as view:
            for first in range(0, count, _CHUNK):
                if pause is not None and first and not first % _PAUSE_EVERY:
                    pause()
                last = min(first + _CHUNK, count)
                base = offsets[first]
                chunk = bytes(view[base : offsets[last]])  # one small copy, sliced without more
                start = 0
                for number in range(first + 1, last + 1):
                    end = offsets[number] - base
                    slot = hash(chunk[start:end]) & mask
                    start = end
                    while index[slot]:
                        slot = (slot + 1) & mask
                    index[slot] = number
        self._index = index
