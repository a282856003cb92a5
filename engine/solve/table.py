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

A table may be given a budget of bytes: what it holds (keys, offsets, index) plus
``extra`` bytes a position that its search keeps beside it (the tree's arrays, a
queue). It counts them as it goes (lengths it knows, no measuring), and an ``add``
or a growth of the index that would pass the budget raises :class:`TableFullError`
instead, before anything is allocated for it: a search stops cleanly at its memory
budget, never with a ``MemoryError`` or a swapping machine.
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


class TableFullError(Exception):
    """Adding a key, or growing the index, would pass the table's byte budget."""

    def __init__(self, needed: int, budget: int) -> None:
        super().__init__(f"the positions would need {needed:,} bytes of a budget of {budget:,}")
        self.needed = needed
        self.budget = budget


class PositionTable:
    """A set of non-negative int keys that numbers them in order of insertion."""

    __slots__ = (
        "_bits",
        "_budget",
        "_cap",
        "_extra",
        "_index",
        "_mask",
        "_next",
        "_offsets",
        "_pause",
        "_store",
    )

    def __init__(
        self, pause: Callable[[], None] | None = None, *, budget: int | None = None, extra: int = 0
    ) -> None:
        """``pause`` is called now and then while the index grows; it may raise to
        abandon the table (which is then unusable). ``budget`` bounds :meth:`nbytes`
        (``None``: only the 4 GiB of 32-bit offsets), counting ``extra`` bytes a position."""
        self._pause = pause
        self._budget = budget
        self._extra = extra
        self._bits = _FIRST_BITS
        self._mask = (1 << _FIRST_BITS) - 1
        self._index = _zeros(1 << _FIRST_BITS)  # position number + 1; 0 is empty
        self._store = bytearray()
        self._offsets = array("I", [0])
        self._cap = self._next = 0  # the keys' bytes and the count at which to look again
        self._plan(0)

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def add(self, key: int) -> int:
        """The number of a new ``key``; -1 when the table already has it.

        Raises:
            TableFullError: the key would pass the budget (the table is unchanged).
        """
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
        if len(store) > self._cap:  # the keys passed what the budget leaves them: look closer
            self._make_room(len(raw), count)
        offsets.append(len(store))
        index[slot] = count
        if count >= self._next:  # the index must grow, or the budget be looked at again
            self._checkpoint(count)
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

    def nbytes(self) -> int:
        """The bytes counted against the budget: keys, offsets, index and ``extra`` each."""
        return self._held(len(self._offsets) - 1)

    def _held(self, count: int) -> int:
        """:meth:`nbytes` with ``count`` positions and the keys stored now."""
        slots = self._mask + 1
        return len(self._store) + (4 + self._extra) * count + 4 * (1 + slots)

    def _plan(self, count: int) -> None:
        """Where the next look is due, with ``count`` positions kept.

        Until then the keys may grow to ``_cap`` bytes: the positions in between
        are counted at their most, so the budget holds with one comparison an add.
        The step is an eighth of the positions (a reserve of an eighth of their
        bytes), less when little is left, so the budget is used nearly whole.
        """
        grow_at = (self._mask >> 1) + 1
        if self._budget is None:
            self._cap, self._next = _MAX_STORE, grow_at
            return
        per = 4 + self._extra
        free = self._budget - self._held(count)
        step = max(1, min((count >> 3) + 64, free // (2 * per)))
        self._next = min(grow_at, count + step)
        cap = len(self._store) + free - per * (self._next - count)
        self._cap = max(0, min(_MAX_STORE, cap))

    def _make_room(self, size: int, count: int) -> None:
        """The key of ``size`` bytes just stored is the ``count``-th position: keep it or refuse it."""
        needed = self._held(count)
        budget = _MAX_STORE if self._budget is None else self._budget
        if len(self._store) > _MAX_STORE or needed > budget:
            del self._store[-size:]  # 32-bit offsets end at 4 GiB of keys, whatever the budget
            raise TableFullError(needed, min(budget, _MAX_STORE))
        self._plan(count)

    def _checkpoint(self, count: int) -> None:
        try:
            if count >= (self._mask >> 1) + 1:
                self._grow()
            if self._budget is not None and self._held(count) > self._budget:
                raise TableFullError(self._held(count), self._budget)  # a budget below the index
        except TableFullError:
            self._drop_last()  # refused whole: the table is as before the add
            raise
        self._plan(count)

    def _drop_last(self) -> None:
        """Forget the key added last (its slot ends no other key's probe: it came last)."""
        offsets, mask = self._offsets, self._mask
        number = len(offsets) - 1
        raw = bytes(self._store[offsets[number - 1] : offsets[number]])
        slot = hash(raw) & mask
        while self._index[slot] != number:
            slot = (slot + 1) & mask
        self._index[slot] = 0
        del self._store[offsets[number - 1] :]
        offsets.pop()

    def key(self, number: int) -> int:
        """The key numbered ``number``."""
        offsets = self._offsets
        return int.from_bytes(self._store[offsets[number] : offsets[number + 1]], "little")

    def _grow(self) -> None:
        bits = self._bits + (2 if self._bits < _QUICK_BITS else 1)
        if self._budget is not None:
            needed = self.nbytes() + (4 << bits)  # the old index and the new, for a while
            if needed > self._budget:
                raise TableFullError(needed, self._budget)  # kept: the index still works
        self._bits = bits
        self._mask = mask = (1 << bits) - 1
        index = _zeros(1 << bits)
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


def _zeros(slots: int) -> array[int]:
    """An index of empty slots, allocated once (``array(bytes(n))`` holds n bytes twice)."""
    return array("i", [0]) * slots
