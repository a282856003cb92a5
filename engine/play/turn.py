"""Turn resolution for the public engine: a step as named phases (docs/contract.md §5).

:func:`resolve_step` calls the phases of :mod:`engine.play.phases` one after the
other, in the order :data:`~engine.play.phases.STEP_PHASES` names them, on a
mutable :class:`Board` copied from the frame — player movement, parse +
transform, automaton movement, parse + transform, the checkpoint
(engine.mechanics.frail), the contacts, and a second read of the rules if a
contact destroyed a word — and freezes the result into the next frame.
:func:`advance` is the same turn on a board kept up to date from turn to turn
(``Game.step``): it pays for what the turn changes, not for the size of the board.
A step whose player movement moves nothing, or whose board would exceed the parse
budget, is rejected and changes nothing. :func:`settle` (game start and reset) is the same
without movement and without the checkpoint; :func:`settle_board` also reports what it did,
for the lenient reading of engine.play.analysis. The rest of this module fills the fields every
record carries: rule deltas, automata entries and control.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.context import LevelContext, Piece
from engine.mechanics import Role
from engine.model import Automaton
from engine.play.board import Board, Direction, Frame
from engine.play.contacts import (
    Occupant,
    cell_contacts,
    cell_won,
    contact_cells,
    contact_signature,
    contacts,
)
from engine.play.events import Json, TurnEvent
from engine.play.phases import (
    RejectedTurnError,
    TurnWork,
    automaton_movement,
    carries,
    frail_checkpoint,
    parse_and_transform,
    player_movement,
    read_rules,
    reread_rules,
    table_for,
    transform,
    transform_entry,
)
from engine.play.work import spend, turn_begins
from engine.rules import RuleTable, charge, parse_counted
from engine.tokens import Vocabulary

__all__ = [
    "Occupant",
    "Settled",
    "advance",
    "automata_entries",
    "automaton_records",
    "cell_contacts",
    "cell_won",
    "finish_event",
    "has_control",
    "read_rules",
    "resolve_step",
    "settle",
    "settle_board",
    "table_for",
    "transform_entry",
]


def resolve_step(ctx: LevelContext, frame: Frame, intent: object) -> tuple[Frame | None, TurnEvent]:
    """Resolve one intent; the frame is ``None`` when the step is rejected.

    The plain turn: the frame is copied into a fresh board, the rules are read
    again after the player phase, every cell that can see a contact is visited and
    the next frame is frozen whole. :func:`advance` is the same turn, kept
    incremental; the two agree on every event and frame (tests/engine/test_turns.py).
    """
    direction = Direction.parse(intent)
    if direction is None or frame.won:
        return None, _rejected(ctx, frame, direction, [], None)
    board = Board(frame.pieces)
    board.rules, board.table = frame.rules, table_for(ctx, frame.rules)
    return _resolve(ctx, frame, board, direction, live=False)


def advance(
    ctx: LevelContext, frame: Frame, board: Board, intent: object
) -> tuple[Frame | None, TurnEvent]:
    """:func:`resolve_step` on a live ``board`` that stands for ``frame``, kept in step.

    After an accepted step the board stands for the returned frame; after a
    rejected one it is put back. The work is what the turn changes: movers,
    carriers and linked objects come from the board's indexes, the rules are read
    again only when a word moved or was destroyed, contacts are looked for only in
    cells that changed (unless the rules changed a property a contact reads, or
    the frame's contacts are unknown) and the next frame keeps only the
    changed pieces (:meth:`Frame.after`). ``board.rules`` and ``board.table`` must
    be ``frame``'s rules and their table.
    """
    direction = Direction.parse(intent)
    if direction is None or frame.won:
        return None, _rejected(ctx, frame, direction, [], board)
    return _resolve(ctx, frame, board, direction, live=True)


def _resolve(
    ctx: LevelContext, frame: Frame, board: Board, direction: Direction, *, live: bool
) -> tuple[Frame | None, TurnEvent]:
    start_table = board.table
    assert start_table is not None
    assert board.rules is frame.rules
    turn_begins()  # the open work budgets count this turn from here (engine.play.work)
    board.mark()
    turn = TurnWork(ctx, board, direction)
    words_at_start = board.word_moves
    try:
        player_movement(turn, start_table)
        # The frame's rules are its words' reading: unless a word moved, they stand
        # (and cost what reading them again would, so every meter counts as before).
        unread = live and board.word_moves == words_at_start and board.units is not None
        if unread:
            assert board.units is not None
            charge(board.units)
            spend(board.units)
        table = parse_and_transform(turn, start_table if unread else None)
        phases, words_moved = automaton_movement(turn, table, frame.phases)
        table = parse_and_transform(turn, None if words_moved else table)
        crumbled = frail_checkpoint(ctx, board, start_table, table)
        quiet = contact_signature(table)
        changed = None
        if live and frame.quiet is not None:
            changed = (
                board.entered
                if quiet == frame.quiet
                else contact_cells(board, frame.quiet, quiet, table.mechanics)
            )
        destroyed, won = contacts(board, table, changed)
        rules = reread_rules(turn) if any("text" in d for d in destroyed) else table.rules
    except RejectedTurnError as reject:
        board.rollback()
        return None, _rejected(ctx, frame, direction, reject.blocked, board if live else None)
    if rules is frame.rules or rules == frame.rules:
        rules, table = frame.rules, start_table
    elif rules is not table.rules:
        table = table_for(ctx, rules)
    board.rules, board.table = rules, table
    moves = frame.moves + 1
    if live:
        after = Frame.after(frame, board.changes(), phases, moves, won, rules, quiet)
    else:
        after = Frame(board.freeze(), phases, moves, won, rules, quiet=quiet)
    event = TurnEvent(
        kind="step",
        accepted=True,
        direction=direction.label,
        moved=turn.moved,
        blocked=turn.blocked,
        transformed=turn.transformed,
        destroyed=destroyed,
        crumbled=crumbled,
        automated=turn.automated,
    )
    finish_event(ctx, event, frame, after, board if live else None)
    return after, event


def settle(ctx: LevelContext, pieces: tuple[Piece, ...], phases: tuple[int, ...]) -> Frame:
    """Settle an authored board the way a turn ends, without movement (docs/contract.md §5).

    Raises:
        RuleComplexityError: the board exceeds the parse budget.
    """
    return settle_board(ctx.vocabulary, pieces, phases).frame


@dataclass(frozen=True, slots=True)
class Settled:
    """A settled board and what the settle did to the authored one (event entry form)."""

    frame: Frame
    transformed: list[Json]
    destroyed: list[Json]
    board: Board  # the settled board, standing for ``frame`` (a game plays on from it)


def settle_board(
    vocabulary: Vocabulary, pieces: tuple[Piece, ...], phases: tuple[int, ...]
) -> Settled:
    """:func:`settle`, reading words with ``vocabulary`` and reporting its effects.

    Only the vocabulary of a level matters to the settle, so a lenient reading of a
    level that fails validation (engine.play.analysis) settles exactly as a game does.

    Raises:
        RuleComplexityError: the board exceeds the parse budget.
    """
    turn_begins()  # a settle counts as a turn of its own (engine.play.work)
    board = Board(pieces)
    spend(len(pieces))
    rules, board.units = parse_counted(board.words(), vocabulary)
    spend(board.units)
    table = RuleTable.build(rules, vocabulary)
    transformed = transform(board, table, set())
    # Transformations change objects, never words, so the second read is the first.
    destroyed, won = contacts(board, table)
    quiet = contact_signature(table)
    if any(d.get("text") is not None for d in destroyed):
        rules, board.units = parse_counted(board.words(), vocabulary)
        table = RuleTable.build(rules, vocabulary)
    board.mark()
    board.rules, board.table = rules, table
    frame = Frame(board.freeze(), phases, 0, won, rules, quiet=quiet)
    return Settled(frame, transformed, destroyed, board)


def has_control(
    ctx: LevelContext, frame: Frame, table: RuleTable | None = None, board: Board | None = None
) -> bool:
    """Whether some object of the frame is a mover (engine.mechanics.Role) under its settled rules.

    ``board``, when given, stands for ``frame`` and answers from its noun index.
    """
    table = table or table_for(ctx, frame.rules)
    movers = table.nouns_playing(Role.MOVER)
    if board is not None:
        return any(board.nouns.get(noun) for noun in movers)
    return any(kind == "object" and name in movers for _, kind, name, _, _ in frame.pieces)


def automata_entries(
    ctx: LevelContext, frame: Frame, table: RuleTable | None = None, board: Board | None = None
) -> list[Json]:
    """The automata entries of the state record: authored fields plus derived carriers.

    ``board``, when given, stands for ``frame``: only objects whose noun has an
    automaton's property are looked at.
    """
    if not ctx.automata:
        return []
    table = table or table_for(ctx, frame.rules)
    if board is not None:
        props = {a.property for a in ctx.automata}
        ids = board.objects_of(
            n for n, have in table.properties.items() if not props.isdisjoint(have)
        )
        objects: Iterable[tuple[int, str]] = [(i, board.name[i]) for i in ids]
    else:
        objects = ((i, name) for i, kind, name, _, _ in frame.pieces if kind == "object")
    return automaton_records(ctx.automata, frame.phases, objects, table)


def automaton_records(
    automata: tuple[Automaton, ...],
    phases: tuple[int, ...],
    objects: Iterable[tuple[int, str]],
    table: RuleTable,
) -> list[Json]:
    """The entries of ``automata`` at ``phases`` for ``objects`` ((id, noun), ascending id).

    Each automaton looks at every object: that product is charged to the open work
    budgets before any entry is made (engine.play.work).
    """
    objects = list(objects)
    spend(len(automata) * len(objects))
    entries: list[Json] = []
    for automaton, phase in zip(automata, phases, strict=True):
        groups: dict[str, list[int]] = {}
        for i, name in objects:
            if carries(table, automaton.subject, automaton.property, name):
                groups.setdefault(name, []).append(i)
        pattern = [step.to_data() for step in automaton.pattern]
        entries.append(
            {
                "id": automaton.id,
                "subject": automaton.subject,
                "property": automaton.property,
                "pattern": pattern,
                "phase": phase,
                "active": bool(groups),
                "carriers": [{"noun": n, "instanceIds": groups[n]} for n in sorted(groups)],
                "instanceIds": sorted(i for ids in groups.values() for i in ids),
                "next": pattern[phase],
            }
        )
    return entries


def _rejected(
    ctx: LevelContext,
    frame: Frame,
    direction: Direction | None,
    blocked: list[Json],
    board: Board | None,
) -> TurnEvent:
    event = TurnEvent(
        kind="step",
        accepted=False,
        direction=None if direction is None else direction.label,
        blocked=blocked,
    )
    finish_event(ctx, event, frame, frame, board)
    return event


def finish_event(
    ctx: LevelContext, event: TurnEvent, before: Frame, after: Frame, board: Board | None = None
) -> None:
    """Fill the fields every record carries: rule deltas and the settled summary.

    ``board``, when given, stands for ``after`` with its rules' table.
    """
    if after.rules is not before.rules:
        old, new = set(before.rules), set(after.rules)
        event.rules_added = [r.to_dict() for r in after.rules if r not in old]
        event.rules_removed = [r.to_dict() for r in before.rules if r not in new]
    table = board.table if board is not None else None
    if table is None:
        table = table_for(ctx, after.rules)
    event.automata = automata_entries(ctx, after, table, board)
    event.control_lost = not has_control(ctx, after, table, board)
    event.won = after.won
    event.moves = after.moves
