"""Turn resolution for the public engine: a step as named phases (api.md §5).

:func:`resolve_step` runs the phases of :mod:`engine.play.phases` in the order of
:data:`~engine.play.phases.STEP_PHASES` on a mutable :class:`Board` copied from the
frame — player movement, parse + transform, automaton movement, parse + transform,
the FRAIL checkpoint, SINK, DEFEAT and WIN, and a second read of the rules if a
contact destroyed a word — and freezes the result into the next frame. A step whose
player movement moves nothing, or whose board would exceed the parse budget, is
rejected and changes nothing. :func:`settle` (game start and reset) is the same
without movement and without FRAIL; :func:`settle_board` also reports what it did,
for the lenient reading of engine.play.analysis. The rest of this module fills the fields every
record carries: rule deltas, automata entries and control.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.context import LevelContext, Piece
from engine.model import Automaton
from engine.play.board import Board, Direction, Frame
from engine.play.events import Json, TurnEvent
from engine.play.phases import (
    Occupant,
    RejectedTurnError,
    TurnWork,
    automaton_movement,
    carries,
    cell_contacts,
    cell_won,
    contacts,
    frail_checkpoint,
    parse_and_transform,
    player_movement,
    read_rules,
    reread_rules,
    table_for,
    transform,
    transform_entry,
)
from engine.rules import RuleTable, parse_rules
from engine.tokens import YOU, Vocabulary

__all__ = [
    "Occupant",
    "Settled",
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
    """Resolve one player intent; the frame is ``None`` when the step is rejected."""
    direction = Direction.parse(intent)
    if direction is None or frame.won:
        return None, _rejected(ctx, frame, direction, [])
    start_table = table_for(ctx, frame.rules)
    board = Board(frame.pieces)
    turn = TurnWork(ctx, board, direction)
    start = {i: (board.pos[i], board.name[i]) for i in board.pos}
    try:
        player_movement(turn, start_table)
        table = parse_and_transform(turn)
        phases, words_moved = automaton_movement(turn, table, frame.phases)
        table = parse_and_transform(turn, None if words_moved else table)
        crumbled = frail_checkpoint(ctx, board, start_table, table, start)
        destroyed, won = contacts(board, table)
        rules = reread_rules(turn) if any("text" in d for d in destroyed) else table.rules
    except RejectedTurnError as reject:
        return None, _rejected(ctx, frame, direction, reject.blocked)
    after = Frame(board.freeze(), phases, frame.moves + 1, won, rules)
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
    finish_event(ctx, event, frame, after)
    return after, event


def settle(ctx: LevelContext, pieces: tuple[Piece, ...], phases: tuple[int, ...]) -> Frame:
    """Settle an authored board the way a turn ends, without movement (api.md §5).

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


def settle_board(
    vocabulary: Vocabulary, pieces: tuple[Piece, ...], phases: tuple[int, ...]
) -> Settled:
    """:func:`settle`, reading words with ``vocabulary`` and reporting its effects.

    Only the vocabulary of a level matters to the settle, so a lenient reading of a
    level that fails validation (engine.play.analysis) settles exactly as a game does.

    Raises:
        RuleComplexityError: the board exceeds the parse budget.
    """
    board = Board(pieces)
    rules = parse_rules(board.words(), vocabulary)
    table = RuleTable.build(rules, vocabulary)
    transformed = transform(board, table, set())
    # Transformations change objects, never words, so the second read is the first.
    destroyed, won = contacts(board, table)
    if any(d.get("text") is not None for d in destroyed):
        rules = parse_rules(board.words(), vocabulary)
    return Settled(Frame(board.freeze(), phases, 0, won, rules), transformed, destroyed)


def has_control(ctx: LevelContext, frame: Frame, table: RuleTable | None = None) -> bool:
    """Whether some object of the frame is YOU under its settled rules."""
    table = table or table_for(ctx, frame.rules)
    return any(kind == "object" and table.has(name, YOU) for _, kind, name, _, _ in frame.pieces)


def automata_entries(ctx: LevelContext, frame: Frame, table: RuleTable | None = None) -> list[Json]:
    """The automata entries of the state record: authored fields plus derived carriers."""
    if not ctx.automata:
        return []
    objects = ((i, name) for i, kind, name, _, _ in frame.pieces if kind == "object")
    return automaton_records(
        ctx.automata, frame.phases, objects, table or table_for(ctx, frame.rules)
    )


def automaton_records(
    automata: tuple[Automaton, ...],
    phases: tuple[int, ...],
    objects: Iterable[tuple[int, str]],
    table: RuleTable,
) -> list[Json]:
    """The entries of ``automata`` at ``phases`` for ``objects`` ((id, noun), ascending id)."""
    objects = list(objects)
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
    ctx: LevelContext, frame: Frame, direction: Direction | None, blocked: list[Json]
) -> TurnEvent:
    event = TurnEvent(
        kind="step",
        accepted=False,
        direction=None if direction is None else direction.label,
        blocked=blocked,
    )
    finish_event(ctx, event, frame, frame)
    return event


def finish_event(ctx: LevelContext, event: TurnEvent, before: Frame, after: Frame) -> None:
    """Fill the fields every record carries: rule deltas and the settled summary."""
    old, new = set(before.rules), set(after.rules)
    event.rules_added = [r.to_dict() for r in after.rules if r not in old]
    event.rules_removed = [r.to_dict() for r in before.rules if r not in new]
    table = table_for(ctx, after.rules)
    event.automata = automata_entries(ctx, after, table)
    event.control_lost = not has_control(ctx, after, table)
    event.won = after.won
    event.moves = after.moves
