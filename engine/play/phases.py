"""The phases of a turn, and the parts of them that do not depend on a board's storage.

:func:`engine.play.turn.resolve_step` (and ``advance``) call these phases in the
order :data:`STEP_PHASES` names them (a step), the settle those of
:data:`SETTLE_PHASES` (game start and reset); both orders are declared with the
mechanics (:data:`engine.mechanics.base.STEP_ORDER`), which say which phase each
acts in, and the compact path has a method of each name:

1. :func:`player_movement`: every object that plays the mover role takes the
   intent, front-first along it, ties by ascending id (:func:`front_first`), each
   with the atomic push rules of the pushed and blocking roles (:func:`move_group`);
   a step that moves nothing is rejected;
2. :func:`parse_and_transform`: read the rules, then apply at most one noun link per
   object per turn; a board over the parse budget rejects the step;
3. :func:`automaton_movement`: automata in authored order, one beat each
   (:func:`automaton_beats`), their carriers front-first;
4. :func:`parse_and_transform` again;
5. :func:`frail_checkpoint` (engine.mechanics.frail);
6. :func:`~engine.play.contacts.contacts`: the declared contacts, destroying ones
   first (engine.mechanics.Contact);
7. :func:`reread_rules`, when a contact destroyed a word.

The compact path (:class:`engine.solve.turn.TurnResolver`) has a method of each
phase's name that does the same on int vectors, and takes :func:`front_first` and
:func:`automaton_beats` from here. Every collection here is iterated in id or
row-major order, so results and event entries never depend on hash order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from engine.context import LevelContext
from engine.errors import RuleComplexityError
from engine.mechanics import Role, frail
from engine.mechanics.base import SETTLE_ORDER, STEP_ORDER
from engine.model import Automaton, MoveStep
from engine.play.board import Board, Direction
from engine.play.contacts import Occupant, cell_contacts, cell_won, contacts
from engine.play.events import Json
from engine.play.work import MOVE_UNITS, open_budgets, spend, spend_on
from engine.rules import Rule, RuleTable, parse_counted, parse_rules

Cell = tuple[int, int]
Mover = TypeVar("Mover")

__all__ = [
    "SETTLE_PHASES",
    "STEP_PHASES",
    "Occupant",
    "RejectedTurnError",
    "TurnWork",
    "automaton_beats",
    "automaton_movement",
    "block",
    "carries",
    "cell_contacts",
    "cell_won",
    "contacts",
    "frail_checkpoint",
    "front_first",
    "move_group",
    "parse_and_transform",
    "player_movement",
    "read_board",
    "read_rules",
    "reread_rules",
    "table_for",
    "transform",
    "transform_entry",
]

#: The names of the phases of an accepted step, in the order engine.play.turn calls
#: them (a function of each name here, a method of each on the compact path's
#: TurnResolver; tests/engine/test_compact.py checks both exist, and
#: tests/engine/test_mechanics.py that a step calls them in this order).
STEP_PHASES = tuple(phase.value for phase in STEP_ORDER)
#: The phases of the settle (game start and reset): no movement, no checkpoint.
SETTLE_PHASES = tuple(phase.value for phase in SETTLE_ORDER)


def table_for(ctx: LevelContext, rules: tuple[Rule, ...]) -> RuleTable:
    return RuleTable.build(rules, ctx.vocabulary)


def read_rules(ctx: LevelContext, words: list[tuple[int, str, int, int]]) -> tuple[Rule, ...]:
    return parse_rules(words, ctx.vocabulary)


def read_board(ctx: LevelContext, board: Board) -> tuple[Rule, ...]:
    """The rules of ``board``'s words; the board keeps what the reading cost (:attr:`Board.units`)."""
    rules, board.units = parse_counted(board.words(), ctx.vocabulary)
    spend(board.units)
    return rules


def carries(table: RuleTable, subject: str | None, prop: str, noun: str) -> bool:
    """Whether objects of ``noun`` carry the automaton of ``subject`` and ``prop``."""
    return (subject is None or noun == subject) and table.has(noun, prop)


def front_first(
    movers: Sequence[Mover], progress: Sequence[int], ids: Sequence[int]
) -> list[Mover]:
    """Movers in resolution order: furthest along the direction first, ties by ascending id.

    ``progress[k]`` is how far along the direction ``movers[k]`` stands
    (``x * dx + y * dy``) and ``ids[k]`` its entity id. Player movement and every
    automaton beat use this order.
    """
    order = sorted(zip([-p for p in progress], ids, range(len(movers)), strict=True))
    return [movers[k] for _, _, k in order]


def automaton_beats(automaton: Automaton) -> tuple[Direction | None, ...]:
    """An automaton's pattern as beats: the direction of each move step, ``None`` to wait."""
    return tuple(
        Direction.parse((step.dx, step.dy)) if isinstance(step, MoveStep) else None
        for step in automaton.pattern
    )


class RejectedTurnError(Exception):
    """A phase found the step impossible: it changes nothing; ``blocked`` says why."""

    def __init__(self, blocked: list[Json]) -> None:
        self.blocked = blocked


@dataclass(slots=True)
class TurnWork:
    """The working state of one step while its phases run."""

    ctx: LevelContext
    board: Board
    direction: Direction
    moved: list[Json] = field(default_factory=list)
    blocked: list[Json] = field(default_factory=list)
    transformed: list[Json] = field(default_factory=list)
    automated: list[Json] = field(default_factory=list)
    done: set[int] = field(default_factory=set)  # objects that used their link this turn
    first_mover: int | None = None  # the first mover that moved: blocks name it

    def reject_complex(self) -> RejectedTurnError:
        return RejectedTurnError(
            [block(self.first_mover, self.direction.label, None, "rule-complexity")]
        )


# -- the phases, in order ---------------------------------------------------------


def player_movement(turn: TurnWork, table: RuleTable) -> None:
    """Phase 1: every mover takes the intent; rejects the step if none moved."""
    board, direction = turn.board, turn.direction
    movers = board.objects_of(table.nouns_playing(Role.MOVER))
    outcomes = move_group(turn.ctx, board, table, movers, direction, turn.moved)
    turn.blocked = [
        block(i, direction.label, blocker, reason)
        for i, _, _, blocker, reason in outcomes
        if reason is not None
    ]
    turn.first_mover = next((i for i, _, _, _, reason in outcomes if reason is None), None)
    if turn.first_mover is None:
        raise RejectedTurnError(turn.blocked)


def parse_and_transform(turn: TurnWork, table: RuleTable | None = None) -> RuleTable:
    """Phases 2 and 4: read the rules (unless ``table`` is still current), then transform.

    Raises:
        RejectedTurnError: the board exceeds the parse budget.
    """
    if table is None:
        try:
            table = table_for(turn.ctx, read_board(turn.ctx, turn.board))
        except RuleComplexityError:
            raise turn.reject_complex() from None
    turn.transformed += transform(turn.board, table, turn.done)
    return table


def automaton_movement(
    turn: TurnWork, table: RuleTable, phases: tuple[int, ...]
) -> tuple[tuple[int, ...], bool]:
    """Phase 3: one beat of each automaton, in authored order; (new phases, words moved).

    Carriers are chosen once, from the rules after the player phase; an automaton
    without a carrier pauses. Each automaton's carriers are charged to the open work
    budgets as they are found, before any of them moves (automata times carriers is
    what makes a turn costly: :mod:`engine.play.work`).
    """
    ctx, board = turn.ctx, turn.board
    budgets = open_budgets()
    carriers: list[list[int]] = []
    for a in ctx.automata:
        carriers.append(
            board.objects_of(n for n in table.nouns_with(a.property) if a.subject in (None, n))
        )
        if budgets:
            spend_on(budgets, 1 + len(carriers[-1]))
    new_phases = list(phases)
    words_before = board.word_moves
    for index, (automaton, ids) in enumerate(zip(ctx.automata, carriers, strict=True)):
        if not ids:
            continue  # no carrier after the player phase: the automaton pauses
        step = automaton.pattern[phases[index]]
        beat = automaton_beats(automaton)[phases[index]]
        extra = {"cue": step.cue, "sound": step.sound}
        if beat is not None:
            outcomes = move_group(ctx, board, table, ids, beat, turn.moved)
            for i, frm, to, blocker, reason in outcomes:
                turn.automated.append(
                    {
                        "automaton": automaton.id,
                        "action": "move",
                        "id": i,
                        "from": frm,
                        "to": to,
                        "blocked": None
                        if reason is None
                        else {"blockerId": blocker, "reason": reason},
                        **extra,
                    }
                )
        else:
            for i in ids:
                turn.automated.append(
                    {
                        "automaton": automaton.id,
                        "action": "wait",
                        "id": i,
                        "from": None,
                        "to": None,
                        "blocked": None,
                        **extra,
                    }
                )
        new_phases[index] = (phases[index] + 1) % len(automaton.pattern)
    return tuple(new_phases), board.word_moves != words_before


def frail_checkpoint(
    ctx: LevelContext, board: Board, table_start: RuleTable, table_now: RuleTable
) -> list[Json]:
    """Phase 5: the frail mechanic's checkpoint (:func:`engine.mechanics.frail.checkpoint`): what crumbled."""
    return frail.checkpoint(board, ctx.leaves, table_start, table_now)


def reread_rules(turn: TurnWork) -> tuple[Rule, ...]:
    """Phase 7, when a contact destroyed a word: the settled rules (no transformation).

    Raises:
        RejectedTurnError: the board exceeds the parse budget.
    """
    try:
        return read_board(turn.ctx, turn.board)
    except RuleComplexityError:
        raise turn.reject_complex() from None


# -- the parts both phases of movement share --------------------------------------

Outcome = tuple[int, list[int] | None, list[int] | None, int | None, str | None]


def move_group(
    ctx: LevelContext,
    board: Board,
    table: RuleTable,
    movers: list[int],
    direction: Direction,
    moved: list[Json],
) -> list[Outcome]:
    """Move ``movers`` one cell each along ``direction`` in :func:`front_first` order.

    Returns ``(id, from, to, blockerId, reason)`` per mover in resolution order;
    ``reason`` is ``None`` for a mover that moved. Every entity that moved is appended
    to ``moved``: the mover, then each pushed cell outward, ids ascending within a
    cell; ``pushedBy`` names the lowest id of the cell behind. Each mover charges the
    open work budgets for itself and every entity its push chain looked at, as soon as
    it is resolved: many movers in front of a long chain cost movers times chain.
    """
    dx, dy = direction.dx, direction.dy
    budgets = open_budgets()
    pushed_nouns, blocking, passing, words_pushed, words_block = table.movement()

    def is_push(i: int) -> bool:
        return board.name[i] in pushed_nouns if board.kind[i] == "object" else words_pushed

    def is_stop(i: int) -> bool:
        return board.name[i] in blocking if board.kind[i] == "object" else words_block

    progress = [board.pos[i][0] * dx + board.pos[i][1] * dy for i in movers]
    outcomes: list[Outcome] = []
    for mover in front_first(movers, progress, movers):
        origin = board.pos[mover]
        chain = [[mover]]
        x, y = origin[0] + dx, origin[1] + dy
        blocker: int | None = None
        reason: str | None = None
        looked = 1
        while True:
            if not ctx.in_bounds(x, y):
                reason = "bounds"
                break
            here = board.at((x, y))
            looked += len(here)
            stops = [i for i in here if is_stop(i)]
            # nothing stops a group each of which plays the passing role
            if stops and not (
                passing
                and all(board.kind[i] == "object" and board.name[i] in passing for i in chain[-1])
            ):
                blocker, reason = stops[0], "stop"
                break
            pushed = [i for i in here if is_push(i)]
            if not pushed:
                break
            chain.append(pushed)
            x, y = x + dx, y + dy
        if reason is not None:
            if budgets:
                spend_on(budgets, looked)
            outcomes.append((mover, None, None, blocker, reason))
            continue
        if budgets:
            spend_on(budgets, looked + MOVE_UNITS * sum(map(len, chain)))
        for depth, group in enumerate(chain):
            pusher = None if depth == 0 else chain[depth - 1][0]
            for i in group:
                fx, fy = board.pos[i]
                moved.append(
                    {"id": i, "from": [fx, fy], "to": [fx + dx, fy + dy], "pushedBy": pusher}
                )
        for group in reversed(chain):
            for i in group:
                fx, fy = board.pos[i]
                board.move(i, (fx + dx, fy + dy))
        outcomes.append((mover, list(origin), [origin[0] + dx, origin[1] + dy], None, None))
    return outcomes


def block(i: int | None, direction: str | None, blocker: int | None, reason: str) -> Json:
    return {"id": i, "dir": direction, "blockerId": blocker, "reason": reason}


def transform_entry(i: int, noun: str, table: RuleTable) -> Json | None:
    """The transformation record of object ``i`` of ``noun`` under ``table``, if it has a link."""
    link = table.transforms.get(noun)
    if link is None:
        return None
    target, rule = link
    return {"id": i, "from": noun, "to": target, "rule": rule.to_dict()}


def transform(board: Board, table: RuleTable, done: set[int]) -> list[Json]:
    """Apply at most one noun link to each object not in ``done`` (and add it there)."""
    out: list[Json] = []
    if not table.transforms:
        return out
    linked = board.objects_of(table.transforms)
    spend(len(linked))
    for i in linked:
        if i in done:
            continue
        entry = transform_entry(i, board.name[i], table)
        if entry is None:
            continue
        out.append(entry)
        board.rename(i, entry["to"])
        done.add(i)
    return out
