"""One notion of work: what running the rules costs, counted the same way on every path.

A **work unit** is one entity handled by one phase of a turn: a mover or a carrier
taking its step, each entity in each cell a push chain looks at, each automaton
times each object its state entries look at, each object a transformation or a
contact check looks at, each word the rule reader places (a parse unit, see
:mod:`engine.rules`), plus :data:`~engine.limits.TURN_WORK_BASE` for what every
turn does whatever its size (the event, the next frame, control). An entity that
moves weighs :data:`MOVE_UNITS` and a cell a contact check visits
:data:`CELL_UNITS`, so that a unit costs about the same time whatever the board
(0.1 to 0.9 µs on every board measured, docs/benchmarks.md): a number of units is
a number of seconds on any level. Entity moves alone were not: 64 automata over
19,000 carriers took 16 s a turn while the count of entity moves said 19,000.

An operation that runs the rules for a stranger or for a check (a payload's
replays, a lint's replay of an intended solution, ``rulegrid play``) opens a
:class:`WorkBudget` with :func:`budgeted`: a total for the whole operation and a
cap on any one turn. The turn charges the open budgets as it goes, and the phase
whose work can grow past the size of the board (push chains of many movers,
automata times carriers, the state's automata entries) charges *before* doing it,
so a turn that cannot be afforded stops before its costly part: past a budget,
:class:`WorkBudgetError` is raised at once, mid-turn (``Game.step`` drops its live
board and the game stays at the position before the turn). The caller turns it
into one located line naming the budget and how to raise it.

Without an open budget, counting is one context-variable read per charge point
(a handful per turn), so ``Game.step`` in an ordinary game pays nothing measurable
(bench/bench_turn.py) and the solver's compact turn (:mod:`engine.solve`) is not
counted at all. Budgets are per thread (and per asyncio task), like
:func:`engine.rules.metered`'s meters, and they nest: a charge goes to each.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from engine.errors import WorkLimitError
from engine.limits import TURN_WORK_BASE, TURN_WORK_CAP

__all__ = [
    "CELL_UNITS",
    "MOVE_UNITS",
    "WorkBudget",
    "WorkBudgetError",
    "budgeted",
    "one_turn",
    "open_budgets",
    "spend",
    "spend_on",
    "turn_begins",
]


#: Units an entity that moves costs (its event entry, its board indexes, its change
#: record), against 1 for an entity a push chain only looks at.
MOVE_UNITS = 8
#: Units a cell a contact check visits costs, besides 1 for each entity in it.
CELL_UNITS = 4


@dataclass(slots=True)
class WorkBudget:
    """The work one operation may do: ``limit`` units in all, ``turn_cap`` in any one turn.

    ``what`` names the budget in its refusal ("the lint budget"); ``raise_with``
    says how to raise it ("raise it with --budget"), or why it cannot be raised.
    ``units`` is what was spent so far, ``turn`` what the turn under way spent.
    Made with :meth:`of`, the cap of a turn grows with a raised total.
    """

    limit: int
    what: str
    raise_with: str = ""
    turn_cap: int = TURN_WORK_CAP
    units: int = 0
    turn: int = 0

    @classmethod
    def of(cls, limit: int, what: str, raise_with: str = "") -> WorkBudget:
        """A budget of ``limit`` units whose turn cap is :data:`~engine.limits.TURN_WORK_CAP`,
        or a quarter of ``limit`` when that is more: an author who raises a budget
        to replay a costly level raises what its turns may cost too."""
        return cls(limit, what, raise_with, max(TURN_WORK_CAP, limit // 4))


class WorkBudgetError(WorkLimitError):
    """An operation passed its work budget (its total, or the cap of one turn).

    A :class:`~engine.errors.WorkLimitError`, so every check that already stops on
    a document's total of rule reading stops on this too. ``per_turn`` tells which
    bound was passed and ``move`` (1-based, when the caller knows it) the move
    whose turn passed it. The message is one line without a location or a subject
    ("needs more than ..."): the caller says what needs it and where.
    """

    def __init__(self, budget: WorkBudget, *, per_turn: bool, move: int | None = None) -> None:
        self.budget = budget
        self.per_turn = per_turn
        self.move = move
        limit = budget.turn_cap if per_turn else budget.limit
        super().__init__(budget.turn if per_turn else budget.units, limit, budget.what)
        at = "" if move is None else f", stopped at move {move:,}"
        if per_turn:
            text = f"needs more than {limit:,} units of work in one turn (the cap of a turn{at})"
        else:
            text = f"needs more than {limit:,} units of work ({budget.what}{at})"
        self.message = text + (f"; {budget.raise_with}" if budget.raise_with else "")
        self.args = (self.message,)

    def at_move(self, move: int) -> WorkBudgetError:
        """The same refusal, saying at which move of a move string it stopped."""
        return WorkBudgetError(self.budget, per_turn=self.per_turn, move=move)

    def __str__(self) -> str:
        return self.message


_OPEN: ContextVar[tuple[WorkBudget, ...]] = ContextVar("rulegrid_work_budgets", default=())


@contextmanager
def budgeted(budget: WorkBudget) -> Iterator[WorkBudget]:
    """Charge every turn played in this context (this thread, this task) to ``budget``.

    Budgets nest; a charge goes to each open one. A budget can be entered again to
    go on counting (one total over several replays).
    """
    token = _OPEN.set((*_OPEN.get(), budget))
    try:
        yield budget
    finally:
        _OPEN.reset(token)


def one_turn(what: str) -> WorkBudget:
    """A budget for one turn an author plays by hand (the editor's play view): the cap
    of a turn, which no setting raises. Open it with :func:`budgeted` around the step."""
    return WorkBudget(TURN_WORK_CAP, what, "no setting raises it", TURN_WORK_CAP)


def open_budgets() -> tuple[WorkBudget, ...]:
    """The budgets open here: a loop that charges many times reads them once."""
    return _OPEN.get()


def spend(units: int) -> None:
    """Charge the open budgets ``units`` (nothing happens when none is open).

    Raises:
        WorkBudgetError: a budget's total or its turn cap was passed.
    """
    budgets = _OPEN.get()
    if budgets:
        spend_on(budgets, units)


def spend_on(budgets: tuple[WorkBudget, ...], units: int) -> None:
    """:func:`spend` on budgets already read with :func:`open_budgets`."""
    for budget in budgets:
        budget.units += units
        budget.turn += units
        if budget.turn > budget.turn_cap:
            raise WorkBudgetError(budget, per_turn=True)
        if budget.units > budget.limit:
            raise WorkBudgetError(budget, per_turn=False)


def turn_begins() -> None:
    """A turn starts: its own count starts at :data:`~engine.limits.TURN_WORK_BASE`."""
    budgets = _OPEN.get()
    if budgets:
        for budget in budgets:
            budget.turn = 0
        spend_on(budgets, TURN_WORK_BASE)
