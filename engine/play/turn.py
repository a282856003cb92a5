"""Turn resolution for the public engine, as named phases (api.md §5).

An accepted step runs, in this order:

1. player movement: every YOU object takes the intent, front-first along it,
   ties by ascending id, each with the atomic push rules;
2. parse + transform (one noun link per object per turn);
3. automaton movement, automata in authored order, their carriers front-first;
4. parse + transform;
5. the FRAIL checkpoint;
6. SINK, then DEFEAT, then WIN;
7. the rules are read again if a contact destroyed a word.

A step whose player movement moves nothing, or whose board would exceed the parse
budget, is rejected and changes nothing. The settle (game start and reset) is the
same without movement and without FRAIL. Contacts are resolved cell by cell
(:func:`cell_contacts`), which an incremental reader of the settle reuses. (Over
400 lines: the phases share their helpers and read best in one place.) Every collection is iterated in id or
row-major order, so results never depend on hash order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.context import LevelContext, Piece
from engine.errors import RuleComplexityError
from engine.model import Automaton, MoveStep
from engine.play.board import Board, Direction, Frame
from engine.play.events import Json, TurnEvent
from engine.rules import Rule, RuleTable, parse_rules
from engine.tokens import DEFEAT, FRAIL, PUSH, SINK, STOP, WIN, YOU, Vocabulary

Cell = tuple[int, int]


def table_for(ctx: LevelContext, rules: tuple[Rule, ...]) -> RuleTable:
    return RuleTable.build(rules, ctx.vocabulary)


def read_rules(ctx: LevelContext, words: list[tuple[int, str, int, int]]) -> tuple[Rule, ...]:
    return parse_rules(words, ctx.vocabulary)


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
    transformed = _transform(board, table, set())
    # Transformations change objects, never words, so the second read is the first.
    destroyed, won = _contacts(board, table)
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
            if _carries(table, automaton.subject, automaton.property, name):
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


def _carries(table: RuleTable, subject: str | None, prop: str, noun: str) -> bool:
    return (subject is None or noun == subject) and table.has(noun, prop)


class _RejectedTurnError(Exception):
    def __init__(self, blocked: list[Json]) -> None:
        self.blocked = blocked


@dataclass(slots=True)
class _Turn:
    """The working state of one step while its phases run."""

    ctx: LevelContext
    board: Board
    direction: Direction
    moved: list[Json] = field(default_factory=list)
    transformed: list[Json] = field(default_factory=list)
    automated: list[Json] = field(default_factory=list)
    done: set[int] = field(default_factory=set)  # objects that used their link this turn

    def parse(self, first_mover: int) -> tuple[Rule, ...]:
        try:
            return read_rules(self.ctx, self.board.words())
        except RuleComplexityError:
            raise _RejectedTurnError(
                [_block(first_mover, self.direction.label, None, "rule-complexity")]
            ) from None


def resolve_step(ctx: LevelContext, frame: Frame, intent: object) -> tuple[Frame | None, TurnEvent]:
    """Resolve one player intent; the frame is ``None`` when the step is rejected."""
    direction = Direction.parse(intent)
    if direction is None or frame.won:
        return None, _rejected(ctx, frame, direction, [])
    table0 = table_for(ctx, frame.rules)
    board = Board(frame.pieces)
    movers = [i for i in board.objects() if table0.has(board.name[i], YOU)]
    if not movers:
        return None, _rejected(ctx, frame, direction, [])
    turn = _Turn(ctx, board, direction)
    start = {i: (board.pos[i], board.name[i]) for i in board.pos}
    outcomes = _move_group(ctx, board, table0, movers, direction.dx, direction.dy, turn.moved)
    blocked = [
        _block(i, direction.label, blocker, reason)
        for i, _, _, blocker, reason in outcomes
        if reason is not None
    ]
    first_mover = next((i for i, _, _, _, reason in outcomes if reason is None), None)
    if first_mover is None:
        return None, _rejected(ctx, frame, direction, blocked)
    try:
        phases, table = _after_player(turn, first_mover, frame.phases)
    except _RejectedTurnError as reject:
        return None, _rejected(ctx, frame, direction, reject.blocked)
    crumbled = _frail_checkpoint(ctx, board, table0, table, start)
    destroyed, won = _contacts(board, table)
    rules = table.rules
    if any("text" in d for d in destroyed):
        try:
            rules = read_rules(ctx, board.words())
        except RuleComplexityError:
            return None, _rejected(
                ctx,
                frame,
                direction,
                [_block(first_mover, direction.label, None, "rule-complexity")],
            )
    after = Frame(board.freeze(), phases, frame.moves + 1, won, rules)
    event = TurnEvent(
        kind="step",
        accepted=True,
        direction=direction.label,
        moved=turn.moved,
        blocked=blocked,
        transformed=turn.transformed,
        destroyed=destroyed,
        crumbled=crumbled,
        automated=turn.automated,
    )
    finish_event(ctx, event, frame, after)
    return after, event


def _after_player(
    turn: _Turn, first_mover: int, phases: tuple[int, ...]
) -> tuple[tuple[int, ...], RuleTable]:
    """Phases 2-4: parse and transform, automaton beats, parse and transform again."""
    ctx, board = turn.ctx, turn.board
    table = table_for(ctx, turn.parse(first_mover))
    turn.transformed += _transform(board, table, turn.done)
    carriers = [
        [i for i in board.objects() if _carries(table, a.subject, a.property, board.name[i])]
        for a in ctx.automata
    ]
    new_phases = list(phases)
    words_before = board.words()
    for index, (automaton, ids) in enumerate(zip(ctx.automata, carriers, strict=True)):
        if not ids:
            continue  # no carrier after the player phase: the automaton pauses
        step = automaton.pattern[phases[index]]
        extra = {"cue": step.cue, "sound": step.sound}
        if isinstance(step, MoveStep):
            outcomes = _move_group(ctx, board, table, ids, step.dx, step.dy, turn.moved)
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
    if board.words() != words_before:
        table = table_for(ctx, turn.parse(first_mover))
    turn.transformed += _transform(board, table, turn.done)
    return tuple(new_phases), table


Outcome = tuple[int, list[int] | None, list[int] | None, int | None, str | None]


def _move_group(
    ctx: LevelContext,
    board: Board,
    table: RuleTable,
    movers: list[int],
    dx: int,
    dy: int,
    moved: list[Json],
) -> list[Outcome]:
    """Move ``movers`` one cell each, front-first along ``(dx, dy)``, ties by id.

    Returns ``(id, from, to, blockerId, reason)`` per mover in resolution order;
    ``reason`` is ``None`` for a mover that moved. Every entity that moved is appended
    to ``moved``: the mover, then each pushed cell outward, ids ascending within a
    cell; ``pushedBy`` names the lowest id of the cell behind.
    """

    def is_push(i: int) -> bool:
        return board.kind[i] == "word" or table.has(board.name[i], PUSH)

    def is_stop(i: int) -> bool:
        return board.kind[i] == "object" and table.has(board.name[i], STOP)

    order = sorted(movers, key=lambda i: (-(board.pos[i][0] * dx + board.pos[i][1] * dy), i))
    outcomes: list[Outcome] = []
    for mover in order:
        origin = board.pos[mover]
        chain = [[mover]]
        x, y = origin[0] + dx, origin[1] + dy
        blocker: int | None = None
        reason: str | None = None
        while True:
            if not ctx.in_bounds(x, y):
                reason = "bounds"
                break
            here = board.at((x, y))
            stops = [i for i in here if is_stop(i) and not is_push(i)]
            if stops:
                blocker, reason = stops[0], "stop"
                break
            pushed = [i for i in here if is_push(i)]
            if not pushed:
                break
            chain.append(pushed)
            x, y = x + dx, y + dy
        if reason is not None:
            outcomes.append((mover, None, None, blocker, reason))
            continue
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


def _block(i: int, direction: str | None, blocker: int | None, reason: str) -> Json:
    return {"id": i, "dir": direction, "blockerId": blocker, "reason": reason}


def transform_entry(i: int, noun: str, table: RuleTable) -> Json | None:
    """The transformation record of object ``i`` of ``noun`` under ``table``, if it has a link."""
    link = table.transforms.get(noun)
    if link is None:
        return None
    target, rule = link
    return {"id": i, "from": noun, "to": target, "rule": rule.to_dict()}


def _transform(board: Board, table: RuleTable, done: set[int]) -> list[Json]:
    """Apply at most one noun link to each object not yet transformed this turn."""
    out: list[Json] = []
    for i in list(board.objects()):
        if i in done:
            continue
        entry = transform_entry(i, board.name[i], table)
        if entry is None:
            continue
        out.append(entry)
        board.name[i] = entry["to"]
        done.add(i)
    return out


def _frail_checkpoint(
    ctx: LevelContext,
    board: Board,
    table_start: RuleTable,
    table_now: RuleTable,
    start: dict[int, tuple[Cell, str]],
) -> list[Json]:
    """Crumble every FRAIL object that a distinct occupant left alone (spec 04).

    An object crumbles when it was FRAIL at the start of the turn (start noun, start
    rules) and still is now, has not moved, some other entity that shared its cell at
    the start has left, and nothing else is in the cell now. ``start`` maps every id
    to its cell and noun before the turn.
    """
    if ctx.leaves is None:
        return []
    start_count = Counter(cell for cell, _ in start.values())
    crumbling: list[int] = []
    for i in list(board.objects()):
        cell, start_noun = start[i]
        if board.pos[i] != cell or board.at(cell) != [i]:
            continue
        if not (table_now.has(board.name[i], FRAIL) and table_start.has(start_noun, FRAIL)):
            continue
        if start_count[cell] > 1:  # someone else was here and, the cell being ours now, left
            crumbling.append(i)
    out: list[Json] = []
    for i in crumbling:
        before = board.name[i]
        after = ctx.leaves.get(before)
        out.append({"id": i, "from": before, "to": after})
        if after is None:
            board.remove(i)
        else:
            board.name[i] = after
    return out


Occupant = tuple[int, str, str]  # (id, kind, noun-or-text), one entity of a cell


def cell_contacts(
    cell: Cell, occupants: list[Occupant], table: RuleTable
) -> tuple[list[Json], list[Json]]:
    """SINK, then DEFEAT, in one cell whose ``occupants`` are in ascending id.

    Contacts never reach past their cell, so a board's contacts are this, cell by
    cell: the settle, a turn and an incremental reader (engine.play.analysis) all
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


def _contacts(board: Board, table: RuleTable) -> tuple[list[Json], bool]:
    """SINK, then DEFEAT, then WIN; cells in row-major order, ids ascending.

    Only cells holding an object whose noun has SINK or DEFEAT can see a contact
    (and only cells with a YOU object a win), so only those are visited: a board of
    thousands of objects settles in the time its few contact cells take.
    """

    def occupants(cell: Cell) -> list[Occupant]:
        return [(i, board.kind[i], board.name[i]) for i in board.at(cell)]

    def cells_with(*props: str) -> list[Cell]:
        nouns = {n for n, have in table.properties.items() if any(p in have for p in props)}
        found = {
            board.pos[i]
            for i, name in board.name.items()
            if name in nouns and board.kind[i] == "object"
        }
        return sorted(found, key=lambda c: (c[1], c[0]))

    sunk: list[Json] = []
    defeated: list[Json] = []
    for cell in cells_with(SINK, DEFEAT):
        gone_sunk, gone_defeated = cell_contacts(cell, occupants(cell), table)
        for entry in gone_sunk + gone_defeated:
            board.remove(entry["id"])
        sunk += gone_sunk
        defeated += gone_defeated
    won = any(cell_won(occupants(c), table) for c in cells_with(YOU))
    return sunk + defeated, won


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
