"""Phase 6 of a turn, contacts: the declared contacts, cell by cell (engine.mechanics).

A contact is a mechanic's rule about the entities of one cell
(:class:`engine.mechanics.Contact`): the destroying ones act first, in their rank
order, each on what the earlier ones left, then the winning ones say whether the
level is won. Contacts never reach past their cell, so the settle, a turn and the
rules panel's incremental reader (engine.play.reader) all resolve them with
:func:`cell_contacts` and :func:`cell_won`. A settled position is quiet: no cell
holds a contact under the rules it was settled with. So the incremental turn
looks only at the cells that changed, and at those whose occupants the new rules
read differently (:func:`contact_cells`, from the :func:`contact_signature` of
both tables).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.mechanics import Mechanics
from engine.mechanics.base import Occupant as Occupant  # the type of a cell's entity, for callers
from engine.play.board import Board, Signature
from engine.play.events import Json
from engine.play.work import CELL_UNITS, spend
from engine.rules import RuleTable

Cell = tuple[int, int]


_NONE: frozenset[str] = frozenset()


def _here(occupants: Iterable[Occupant], table: RuleTable) -> list[tuple[Occupant, frozenset[str]]]:
    """The cell as the contacts' rules read it: each occupant with its properties."""
    props = table.properties
    return [(o, props.get(o[2], _NONE) if o[1] == "object" else _NONE) for o in occupants]


def cell_contacts(cell: Cell, occupants: list[Occupant], table: RuleTable) -> Sequence[list[Json]]:
    """The destroying contacts in one cell whose ``occupants`` are in ascending id.

    Contacts never reach past their cell, so a board's contacts are this, cell by
    cell: the settle, a turn and an incremental reader (engine.play.reader) all
    resolve them here. Returns, per destroying contact in rank order, the entries
    (event form) of what it destroyed; nothing (``()``) when none destroyed anything.
    """
    rules = table.mechanics.destroy_rules
    out: list[list[Json]] | None = None
    left = _here(occupants, table)
    for k, (rule, cause) in enumerate(rules):
        gone = rule(left) if left else ()
        if not gone:
            continue
        if out is None:
            out = [[] for _ in rules]
        out[k] = [
            {
                "id": o[0],
                ("noun" if o[1] == "object" else "text"): o[2],
                "at": [cell[0], cell[1]],
                "cause": cause,
            }
            for o in gone
        ]
        taken = {o[0] for o in gone}
        left = [entry for entry in left if entry[0][0] not in taken]
    return () if out is None else out


def cell_won(occupants: Iterable[Occupant], table: RuleTable) -> bool:
    """Whether a winning contact holds in one cell (engine.mechanics.win)."""
    here = _here(occupants, table)
    for rule in table.mechanics.win_rules:  # noqa: SIM110 (a loop: no generator a cell)
        if rule(here):
            return True
    return False


def contacts(
    board: Board, table: RuleTable, changed: Iterable[Cell] | None = None
) -> tuple[list[Json], bool]:
    """Phase 6: the destroying contacts, then the winning ones; cells row-major, ids ascending.

    Only cells holding an object with a contact's ``at`` property can see it, so
    only those are visited: a board of thousands of objects settles in the time
    its few contact cells take. With ``changed``, only those cells are visited:
    the caller knows every other cell was quiet under a table of the same
    :func:`contact_signature`. The cells and occupants looked at are charged to the
    open work budgets (engine.play.work) once the phase is done: never more than
    the board holds. Every destroying contact's entries come before the next's.
    """
    looked = 0
    mechanics = table.mechanics

    def occupants(cell: Cell) -> list[Occupant]:
        nonlocal looked
        here = board.at(cell)
        looked += CELL_UNITS + len(here)
        return [(i, board.kind[i], board.name[i]) for i in here]

    def cells_with(props: frozenset[str]) -> list[Cell]:
        if changed is not None:
            return sorted(changed, key=lambda c: (c[1], c[0]))
        ids = board.objects_of({n for p in props for n in table.nouns_with(p)})
        return sorted({board.pos[i] for i in ids}, key=lambda c: (c[1], c[0]))

    destroyed: list[list[Json]] | None = None
    for cell in cells_with(mechanics.destroy_at):
        parts = cell_contacts(cell, occupants(cell), table)
        if not parts:
            continue
        if destroyed is None:
            destroyed = [[] for _ in parts]
        for k, gone in enumerate(parts):
            for entry in gone:
                board.remove(entry["id"])
            destroyed[k] += gone
    won = False
    for cell in cells_with(mechanics.win_at):
        if cell_won(occupants(cell), table):
            won = True
            break
    spend(looked)
    return [] if destroyed is None else [entry for part in destroyed for entry in part], won


def contact_signature(table: RuleTable) -> Signature:
    """The parts of ``table`` a contact depends on: equal signatures, equal contacts."""
    out: Signature = {}
    reads = table.mechanics.contact_reads
    for noun, have in table.properties.items():
        relevant = have & reads
        if relevant:
            out[noun] = relevant
    return out


def contact_cells(
    board: Board, quiet: Signature, now: Signature, mechanics: Mechanics
) -> set[Cell]:
    """The cells that can hold a contact under ``now``, when every cell was quiet under ``quiet``.

    Those the turn changed (:attr:`Board.entered`), and those whose occupants read
    differently: each contact says, for each property it reads, which cells a
    change of it on a noun concerns (:attr:`engine.mechanics.Contact.revisit`):
    the cells of that noun's objects, or those of every object with a property
    (for a contact between a mover and what it meets, a noun that became what
    the mover meets brings every mover's cell).
    """
    cells = set(board.entered)
    empty: frozenset[str] = frozenset()
    own: list[str] = []
    beside: set[str] = set()
    revisits = mechanics.revisits
    for noun in quiet.keys() | now.keys():
        changed = quiet.get(noun, empty) ^ now.get(noun, empty)
        if not changed:
            continue
        for prop, whose in revisits:
            if prop in changed:
                if whose is None:
                    own.append(noun)
                else:
                    beside.add(whose)
    if beside:
        own += [n for n, have in now.items() if not beside.isdisjoint(have)]
    pos = board.pos
    for i in board.objects_of(set(own)):
        cells.add(pos[i])
    return cells
