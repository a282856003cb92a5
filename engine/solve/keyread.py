"""Functions that read the cells of given slots straight from a key, made once per role set.

Best-first's incremental estimate reads a child's movers' cells, and a new layout's
goal, hazard, wall and pushed cells, from the key alone. With one byte a field the
key's bytes are the fields, so one ``itemgetter`` over ``to_bytes`` reads them all
in C; with two bytes a field each is shifted out.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from engine.solve.state_codec import Codec


def cells_reader(codec: Codec, slots: list[int]) -> Callable[[int], list[int]]:
    """A function from a key to the cells of the entities in ``slots`` that are present."""
    base, gone, nbytes = codec.base, codec.gone, codec.nbytes
    if not slots:
        return lambda key: []
    if codec.itemsize == 1:  # the fields are the key's bytes
        get = itemgetter(*slots)
        if len(slots) == 1:
            return lambda key: (
                [] if (c := get((key ^ base).to_bytes(nbytes, "little"))) == gone else [c]
            )

        def read(key: int) -> list[int]:
            cells: tuple[int, ...] = get((key ^ base).to_bytes(nbytes, "little"))
            return [c for c in cells if c != gone] if gone in cells else list(cells)

        return read
    field, shifts = (1 << (8 * codec.itemsize)) - 1, [codec.shift(slot) for slot in slots]
    return lambda key: [c for c in ((key ^ base) >> s & field for s in shifts) if c != gone]


def groups_reader(codec: Codec, groups: list[list[int]]) -> Callable[[int], list[list[int]]]:
    """A function from a key to the present cells of each group of slots, read at once."""
    slots = [slot for group in groups for slot in group]
    ends, end = [], 0
    for group in groups:
        ends.append((end, end + len(group)))
        end += len(group)
    base, gone, nbytes = codec.base, codec.gone, codec.nbytes
    if codec.itemsize == 1 and len(slots) > 1:
        get = itemgetter(*slots)

        def values(key: int) -> tuple[int, ...]:
            found: tuple[int, ...] = get((key ^ base).to_bytes(nbytes, "little"))
            return found

    else:
        field, shifts = (1 << (8 * codec.itemsize)) - 1, [codec.shift(slot) for slot in slots]

        def values(key: int) -> tuple[int, ...]:
            value = key ^ base
            return tuple([value >> s & field for s in shifts])

    def read(key: int) -> list[list[int]]:
        cells = values(key)
        return [[c for c in cells[lo:hi] if c != gone] for lo, hi in ends]

    return read
