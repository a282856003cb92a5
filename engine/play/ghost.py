"""Where automaton carriers would go next, against the board as it stands.

An editor's ghost preview: for each carrier of each automaton in a settled
position, the next beats of its pattern, each checked with the turn's own atomic
push rules (:func:`engine.play.turn` moves the carrier and what it pushes). It is
a preview against the *static* board: the rules stay those of the position, the
player does not move, and each carrier walks alone (what it pushed moves with it
in its own walk, and is put back before the next carrier). A real turn differs
once a rule forms or breaks, the player pushes something, or carriers meet; the
preview says so in its label, not by simulating them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.context import LevelContext
from engine.limits import MAX_PREVIEW_BEATS, MAX_PREVIEW_CARRIERS
from engine.model import MoveStep
from engine.play.board import Board, Direction, Frame
from engine.play.events import Json
from engine.play.phases import carries, move_group, table_for

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PathStep:
    """One beat of a carrier's preview.

    ``beat`` counts from 1 (the next accepted turn); ``index`` is the pattern step
    used. ``cell`` is where the carrier stands after the beat: its old cell when
    the step waits or is blocked. A blocked move names the cell it tried to enter
    (``target``), the ``reason`` (``"stop"`` or ``"bounds"``) and the blocking
    entity (``None`` at the board's edge).
    """

    beat: int
    index: int
    action: str
    cell: Cell
    target: Cell | None = None
    reason: str | None = None
    blocker_id: int | None = None

    @property
    def blocked(self) -> bool:
        return self.reason is not None


@dataclass(frozen=True, slots=True)
class AutomatonPath:
    """The preview of one carrier of one automaton: where it starts and its next beats."""

    automaton: str
    carrier: int
    start: Cell
    steps: tuple[PathStep, ...]


def preview_paths(ctx: LevelContext, frame: Frame, beats: int) -> tuple[AutomatonPath, ...]:
    """The next ``beats`` beats of every carrier in ``frame``, automata in authored order.

    At most :data:`MAX_PREVIEW_BEATS` beats and :data:`MAX_PREVIEW_CARRIERS`
    carriers in all (carriers in ascending id), so a preview costs bounded time on
    any board.

    Raises:
        ValueError: ``beats`` is below 0.
    """
    if beats < 0:
        raise ValueError("a preview covers 0 or more beats")
    beats = min(beats, MAX_PREVIEW_BEATS)
    if not ctx.automata or beats == 0:
        return ()
    table = table_for(ctx, frame.rules)
    board = Board(frame.pieces)
    paths: list[AutomatonPath] = []
    budget = MAX_PREVIEW_CARRIERS
    for automaton, phase in zip(ctx.automata, frame.phases, strict=True):
        carriers = [
            i
            for i in board.objects()
            if carries(table, automaton.subject, automaton.property, board.name[i])
        ][:budget]
        budget -= len(carriers)
        for carrier in carriers:
            start = board.pos[carrier]
            moved: list[Json] = []
            steps: list[PathStep] = []
            for beat in range(beats):
                index = (phase + beat) % len(automaton.pattern)
                step = automaton.pattern[index]
                here = board.pos[carrier]
                if not isinstance(step, MoveStep):
                    steps.append(PathStep(beat + 1, index, "wait", here))
                    continue
                ((_, _, _, blocker, reason),) = move_group(
                    ctx, board, table, [carrier], Direction((step.dx, step.dy)), moved
                )
                target = (here[0] + step.dx, here[1] + step.dy) if reason is not None else None
                steps.append(
                    PathStep(beat + 1, index, "move", board.pos[carrier], target, reason, blocker)
                )
            for record in reversed(moved):  # put the board back for the next carrier
                fx, fy = record["from"]
                board.move(record["id"], (fx, fy))
            paths.append(AutomatonPath(automaton.id, carrier, start, tuple(steps)))
        if budget <= 0:
            break
    return tuple(paths)
