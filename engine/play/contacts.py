"""Phase 6 of a turn, contacts: SINK, then DEFEAT, then WIN, cell by cell.

Contacts never reach past their cell, so the settle, a turn and the rules panel's
incremental reader (engine.play.reader) all resolve them with :func:`cell_contacts`
and :func:`cell_won`. A settled position is quiet: no cell holds a contact under
the rules it was settled with. So the incremental turn looks only at the cells
that changed, and at those whose occupants the new rules read differently
(:func:`contact_cells`, from the :func:`contact_signature` of both tables).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.play.board import Board, Signature
from engine.play.events import Json
from engine.play.work import CELL_UNITS, spend
from engine.rules import RuleTable
from engine.tokens import DEFEAT, SINK, WIN, YOU

Cell = tuple[int, int]
Occupant = tuple[int, str, str]  # (id, kind, noun-or-text), one entity of a cell


def cell_contacts(
    cell: Cell, occupants: list[Occupant], table: RuleTable
) -> tuple[list[Json], list[Json]]:
    """SINK, then DEFEAT, in one cell whose ``occupants`` are in ascending id.

    Contacts never reach past their cell, so a board's contacts are this, cell by
    cell: the settle, a turn and an incremental reader (engine.play.reader) all
    resolve them here. Returns the sunk and the defeated entries (event form).
    """

    def has(o: Occupant, prop: str) -> bool:
        return o[1] == "object" and table.has(o[2], prop)

    def entry(o: Occupant, cause: str) -> Json:
        key = "noun" if o[1] == "object" else "text"
        return {"id": o[0], key: o[2], "at": [cell[0], cell[1]], "cause": cause}

    if len(occupants) >= 2 and any(has(o, SINK) for o in occupants):
        return [entry(o, "sink") for o in occupants], []
    if any(has(o, DEFEAT) for o in occupants):
        return [], [entry(o, "defeat") for o in occupants if has(o, YOU)]
    return [], []


def cell_won(occupants: Iterable[Occupant], table: RuleTable) -> bool:
    """WIN in one cell: a YOU object and a WIN object share it (or are the same)."""
    objects = [o for o in occupants if o[1] == "object"]
    return any(table.has(o[2], YOU) for o in objects) and any(table.has(o[2], WIN) for o in objects)


def contacts(
    board: Board, table: RuleTable, changed: Iterable[Cell] | None = None
) -> tuple[list[Json], bool]:
    """Phase 6: SINK, then DEFEAT, then WIN; cells in row-major order, ids ascending.

    Only cells holding an object whose noun has SINK or DEFEAT can see a contact
    (and only cells with a YOU object a win), so only those are visited: a board of
    thousands of objects settles in the time its few contact cells take. With
    ``changed``, only those cells are visited: the caller knows every other cell
    was quiet under a table of the same
    :func:`contact_signature`. The cells and occupants looked at are charged to the
    open work budgets (engine.play.work) once the phase is done: never more than
    the board holds.
    """
    looked = 0

    def occupants(cell: Cell) -> list[Occupant]:
        nonlocal looked
        here = board.at(cell)
        looked += CELL_UNITS + len(here)
        return [(i, board.kind[i], board.name[i]) for i in here]

    def cells_with(*props: str) -> list[Cell]:
        if changed is not None:
            return sorted(changed, key=lambda c: (c[1], c[0]))
        ids = board.objects_of({n for p in props for n in table.nouns_with(p)})
        return sorted({board.pos[i] for i in ids}, key=lambda c: (c[1], c[0]))

    sunk: list[Json] = []
    defeated: list[Json] = []
    for cell in cells_with(SINK, DEFEAT):
        gone_sunk, gone_defeated = cell_contacts(cell, occupants(cell), table)
        for entry in gone_sunk + gone_defeated:
            board.remove(entry["id"])
        sunk += gone_sunk
        defeated += gone_defeated
    won = any(cell_won(occupants(c), table) for c in cells_with(YOU))
    spend(looked)
    return sunk + defeated, won


_CONTACT_PROPERTIES = frozenset((SINK, DEFEAT, YOU, WIN))


def contact_signature(table: RuleTable) -> Signature:
    """The parts of ``table`` a contact depends on: equal signatures, equal contacts."""
    out: Signature = {}
    for noun, have in table.properties.items():
        relevant = have & _CONTACT_PROPERTIES
        if relevant:
            out[noun] = relevant
    return out


def contact_cells(board: Board, quiet: Signature, now: Signature) -> set[Cell]:
    """The cells that can hold a contact under ``now``, when every cell was quiet under ``quiet``.

    Those the turn changed (:attr:`Board.entered`), and those whose occupants read
    differently: SINK needs a SINK object, DEFEAT and WIN a YOU object in the cell,
    so a noun whose SINK or YOU changed brings its objects' cells, and a noun whose
    DEFEAT or WIN changed brings the cells of YOU objects.
    """
    cells = set(board.entered)
    empty: frozenset[str] = frozenset()
    sink_or_you: list[str] = []
    beside_you = False
    for noun in quiet.keys() | now.keys():
        changed = quiet.get(noun, empty) ^ now.get(noun, empty)
        if SINK in changed or YOU in changed:
            sink_or_you.append(noun)
        if DEFEAT in changed or WIN in changed:
            beside_you = True
    if beside_you:
        sink_or_you += [n for n, have in now.items() if YOU in have]
    pos = board.pos
    for i in board.objects_of(set(sink_or_you)):
        cells.add(pos[i])
    return cells
