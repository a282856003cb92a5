"""The best-first solver's estimate ``h`` of how far a position is from a win.

The estimate reads objects by the roles their properties' mechanics declare
(engine.mechanics.Role): **movers** take the intent, **goals** win where a mover
reaches them, **hazards** may destroy a mover entering their cell, **walls** stop
it, **pushed** things are pushed (every word is). Two ways to win are estimated
and the cheaper one counts:

* **Walk**: the cost of walking a mover to a goal over a cost map of the board: a
  step costs 1, entering a cell with a pushed entity 2, with a hazard ``HAZARD``
  (someone must first sink something into it or change a rule) and with a wall
  ``WALL``. The map is computed from the goals outwards and cached per layout of
  goal, hazard, wall and pushed cells, which few turns change.
* **Rewrite**: the cost of forming ``N IS G`` for a goal word ``G`` (and a noun
  ``N`` that has objects) in a line through one of its words already on the
  board: for each placement, the Manhattan distances the two other words must
  travel, plus the walk from a mover to the nearest ``N`` object unless ``N``'s
  objects are movers themselves. Cached per word layout.

``h`` is a guide, not a bound: pushing a word can change every rule at once and
walls are not always walls, so it can overestimate, and best-first solutions are
not always shortest (breadth-first ones are).

A little over 400 lines: besides ``h`` as best-first's baseline computes it per
position, it holds the helpers the incremental estimate
(:mod:`engine.solve.estimate`) shares, so both price the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.mechanics import Role
from engine.solve.level import CompactLevel
from engine.solve.rules import Meaning
from engine.tokens import IS

HAZARD = 6
WALL = 12
_LIMIT = 1 << 16
# board cells held by the cached cost maps and distance fields (a list per cell each):
# a count alone would let a 128x128 board's 65,536 maps reach gigabytes
_CELLS = 1 << 24


Plan = tuple[int, list[int] | None, list[int] | None]  # words to move, their fields, the noun's


def rewritten(plans: list[Plan], you: list[int], best: int) -> int:
    """``best``, or less when forming a sentence of ``plans`` (cheapest first) costs less.

    ``you`` are the movers' cells. A plan costs its words' moves, the walk of a
    mover to the nearest word to move (or to the noun's nearest object, whichever
    is further), and the last step.
    """
    for words, movers, there in plans:
        if words + 1 >= best:
            break
        reach = min(map(movers.__getitem__, you)) if movers is not None else 0
        if there is None:
            best = min(best, words + reach + 1)
        else:
            best = min(best, words + max(min(map(there.__getitem__, you)), reach) + 1)
    return best


@dataclass(slots=True)
class _View:
    """The slots of each role under one meaning and one set of nouns."""

    movers: list[int]
    goals: list[int]
    hazards: list[int]
    walls: list[int]
    pushed: list[int]  # pushed objects, then every word
    mover_nouns: set[int]
    by_noun: dict[int, list[int]]
    # the key bits of the movers' positions, when nothing else in ``h`` depends on
    # them (no mover is also a goal, a hazard, a wall or pushed); else None
    movers_mask: int | None = None


@dataclass(slots=True)
class _Context:
    """One position's part of ``h`` that does not depend on where its movers stand."""

    view: _View
    movers: list[int]  # the cells of its movers
    costs: list[int] | None  # the walk cost map to its goals, if any
    hazards: frozenset[int]  # cells of hazards (when there are goals)
    pushed: list[int]  # cells of pushed things (idem)
    plans: list[Plan]  # rewrites: words, fields


class Heuristic:
    """``h`` for the positions of one level."""

    def __init__(self, compact: CompactLevel) -> None:
        self.compact = compact
        codec = compact.codec
        self.codec = codec
        self.grid = compact.grid
        self.width = codec.width
        self.xy = [self.grid.xy(cell) for cell in range(codec.cells)]
        self.far = 2 * (codec.width + codec.height) + WALL
        self._maps: dict[tuple[object, ...], list[int]] = {}
        self._held = max(64, min(_LIMIT, _CELLS // codec.cells))  # maps, and fields
        self._plans: dict[bytes, list[tuple[int, int, tuple[int, ...]]]] = {}
        self._can: dict[int, int] = {}
        self._fields: dict[tuple[int, ...], list[int]] = {}
        self._views: dict[tuple[Meaning, bytes | tuple[int, ...]], _View] = {}
        self._neighbours = [self.grid.neighbours(cell) for cell in range(codec.cells)]
        steps = self.grid.step  # U D L R, as DIRECTIONS
        self._back = [steps[1], steps[0], steps[3], steps[2]]
        self._nouns = {
            text: codec.noun_index[text] for text in codec.texts if text in codec.noun_index
        }
        meanings = compact.meanings
        roles = meanings.mechanics.role_bits
        self._movers, self._goals = roles[Role.MOVER], roles[Role.GOAL]
        self._hazards, self._walls = roles[Role.HAZARD], meanings.blocks
        self._pushed = meanings.pushes
        #: the goal words: a rewrite forms ``N IS G`` with one of them
        self.goals = tuple(sorted(meanings.mechanics.role_words[Role.GOAL]))

    def of(self, key: int) -> int:
        """``h`` of the position ``key``."""
        context = self.context(key)
        return self.far if context is None else self.walked(context, context.movers)

    def context(self, key: int) -> _Context | None:
        """Everything ``h`` needs of a position but where its movers stand.

        A search computes it once per expanded position and then prices each
        child that differs only in the movers' positions with :meth:`walked`,
        which is most of them: that is the incremental part of the estimate.
        """
        codec = self.codec
        vector = codec.decode(key)
        meaning = self.compact.meanings.of(vector)
        if meaning is None:
            return None
        nouns = vector[codec.noun_base : codec.noun_base + codec.n]
        view = self._views.get((meaning, bytes(nouns) if codec.itemsize == 1 else tuple(nouns)))
        if view is None:
            view = self._view(meaning, nouns)
        at = vector.__getitem__
        gone = codec.gone
        movers = [cell for cell in map(at, view.movers) if cell != gone]
        costs = None
        hazards: frozenset[int] = frozenset()
        pushed: list[int] = []
        goals = tuple(map(at, view.goals))
        if any(cell != gone for cell in goals):
            layout = (
                goals,
                tuple(map(at, view.hazards)),
                tuple(map(at, view.walls)),
                tuple(map(at, view.pushed)),
            )
            costs = self._maps.get(layout)
            if costs is None:
                costs = self._map(*([cell for cell in group if cell != gone] for group in layout))
                if len(self._maps) >= self._held:
                    self._maps.clear()
                self._maps[layout] = costs
            if view.hazards:
                hazards = frozenset(layout[1]) - {gone}
                pushed = [cell for cell in layout[3] if cell != gone]
        plans = []
        for words, noun, shifted in self._rewrites(vector):
            if not words:
                continue  # the sentence stands: its goals are in the walk
            there = None
            if noun not in view.mover_nouns:
                cells = tuple(cell for cell in map(at, view.by_noun.get(noun, ())) if cell != gone)
                if not cells:
                    continue  # no object to become a goal
                there = self._distances(cells)
            plans.append((words, self._distances(shifted) if shifted else None, there))
        return _Context(view, movers, costs, hazards, pushed, plans)

    def walked(self, context: _Context, you: list[int]) -> int:
        """``h`` of the context's position with its movers in the cells ``you``."""
        if not you:
            return self.far
        best = self.far
        costs = context.costs
        if costs is not None:
            start = min(you, key=costs.__getitem__)
            best = costs[start]
            if context.hazards and best < self.far:
                best += self._deliveries(context, costs, start)
        return rewritten(context.plans, you, best)

    def _distances(self, cells: tuple[int, ...]) -> list[int]:
        """The Manhattan distance from every cell to the nearest of ``cells`` (cached)."""
        found = self._fields.get(cells)
        if found is None:
            # two sweeps of the board (a distance transform) give the exact Manhattan
            # distance; a minimum over every target per cell cost cells x targets
            width, size = self.width, self.codec.cells
            found = [_LIMIT] * size
            for cell in cells:
                found[cell] = 0
            for cell in range(size):
                here = found[cell]
                if cell % width and found[cell - 1] + 1 < here:
                    here = found[cell - 1] + 1
                if cell >= width and found[cell - width] + 1 < here:
                    here = found[cell - width] + 1
                found[cell] = here
            for cell in range(size - 1, -1, -1):
                here = found[cell]
                if (cell + 1) % width and found[cell + 1] + 1 < here:
                    here = found[cell + 1] + 1
                if cell + width < size and found[cell + width] + 1 < here:
                    here = found[cell + width] + 1
                found[cell] = here
            if len(self._fields) >= self._held:
                self._fields.clear()
            self._fields[cells] = found
        return found

    def _view(self, meaning: Meaning, nouns: list[int]) -> _View:
        """Which slots play which role, for one meaning and one set of nouns."""
        codec = self.codec
        flags = meaning.flags
        movers, goals, hazards = self._movers, self._goals, self._hazards
        walls, pushed = self._walls, self._pushed
        view = _View([], [], [], [], list(range(codec.word_lo, codec.word_hi)), set(), {})
        for slot in codec.objects:
            noun = nouns[slot]
            bits = flags[noun]
            view.by_noun.setdefault(noun, []).append(slot)
            if bits & movers:
                view.movers.append(slot)
                view.mover_nouns.add(noun)
            if bits & goals:
                view.goals.append(slot)
            if bits & hazards:
                view.hazards.append(slot)
            if bits & walls:
                view.walls.append(slot)
            elif bits & pushed:
                view.pushed.append(slot)
        if not set(view.movers) & {*view.goals, *view.hazards, *view.walls, *view.pushed}:
            field = (1 << (8 * codec.itemsize)) - 1
            view.movers_mask = 0
            for slot in view.movers:
                view.movers_mask |= field << codec.shift(slot)
        if len(self._views) >= _LIMIT:
            self._views.clear()
        self._views[(meaning, bytes(nouns) if codec.itemsize == 1 else tuple(nouns))] = view
        return view

    def _deliveries(self, context: _Context, costs: list[int], cell: int) -> int:
        """How far pushed things are from the hazards on the cheapest walk from ``cell``.

        Following the cost map downhill gives one cheapest walk; each hazard on it
        must be cleared by sinking something into it, so the distance from the
        nearest pushed thing to it is work still to do.
        """
        hazards, pushed = context.hazards, context.pushed
        extra = 0
        neighbours = self._neighbours
        while costs[cell] > 0:
            cell = min(neighbours[cell], key=costs.__getitem__)
            if cell in hazards and pushed:
                extra += min(self._manhattan(cell, other) for other in pushed) - 1
        return extra

    def _manhattan(self, a: int, b: int) -> int:
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        return abs(ax - bx) + abs(ay - by)

    def _map(
        self, win: list[int], hazards: list[int], walls: list[int], pushed: list[int]
    ) -> list[int]:
        """Cheapest cost from every cell to a goal in ``win`` (Dijkstra over small weights)."""
        enter = [1] * self.codec.cells
        for cell in pushed:
            enter[cell] = 2
        for cell in hazards:
            enter[cell] = HAZARD
        for cell in walls:
            enter[cell] = WALL
        costs = [self.far] * self.codec.cells
        buckets: list[list[int]] = [[] for _ in range(self.far + WALL + 1)]
        for cell in win:
            costs[cell] = 0
            buckets[0].append(cell)
        for cost, bucket in enumerate(buckets):
            for cell in bucket:
                if costs[cell] != cost:
                    continue
                # moving from a neighbour into ``cell`` costs what entering ``cell`` costs
                step = cost + enter[cell] if cost else cost + 1
                if step > self.far:
                    continue
                for n in self._neighbours[cell]:
                    if step < costs[n]:
                        costs[n] = step
                        buckets[step].append(n)
        return costs

    def _rewrites(self, vector: list[int]) -> list[tuple[int, int, tuple[int, ...]]]:
        """(distance the words must travel, noun, cells of the words to move), cheapest first.

        One entry per noun: its cheapest ``N IS G`` over the goal words ``G``.
        """
        codec = self.codec
        words = vector[codec.word_lo : codec.word_hi]
        key = (
            bytes(words)
            if codec.itemsize == 1
            else b"".join(v.to_bytes(2, "little") for v in words)
        )
        plans = self._plans.get(key)
        if plans is not None:
            return plans
        by_text: dict[str, list[int]] = {}
        for slot in range(codec.word_lo, codec.word_hi):
            if vector[slot] != codec.gone:
                text = codec.texts[slot]
                assert text is not None
                by_text.setdefault(text, []).append(vector[slot])
        found: dict[int, tuple[int, tuple[int, ...]]] = {}
        self._can = self._pushable_ways(vector)
        for goal in self.goals:
            if IS not in by_text or goal not in by_text:
                continue
            for text, cells in by_text.items():
                noun = self._nouns.get(text)
                if noun is None:
                    continue
                roles = (cells, by_text[IS], by_text[goal])
                for cost, movers in self._placements(roles):
                    if cost < found.get(noun, (self.far, ()))[0]:
                        found[noun] = (cost, movers)
        plans = sorted((cost, noun, movers) for noun, (cost, movers) in found.items())
        if len(self._plans) >= _LIMIT:
            self._plans.clear()
        self._plans[key] = plans
        return plans

    def _placements(
        self, roles: tuple[list[int], list[int], list[int]]
    ) -> list[tuple[int, tuple[int, ...]]]:
        """(cost, cells of the words to move) of the sentence laid through each word.

        For each other role the nearest word that may reach its target cell moves
        there (the first such word in slot order on a tie).
        """
        width, height, xy, can = self.width, self.codec.height, self.xy, self._can
        words = [[(o, *xy[o], can.get(o, 0)) for o in cells] for cells in roles]
        out = []
        for anchor, cells in enumerate(roles):
            for cell in cells:
                x, y = xy[cell]
                for dx, dy in ((1, 0), (0, 1)):
                    x0, y0 = x - anchor * dx, y - anchor * dy
                    if x0 < 0 or y0 < 0 or x0 + 2 * dx >= width or y0 + 2 * dy >= height:
                        continue
                    cost = 0
                    movers = []
                    for role in range(3):
                        if role == anchor:
                            continue
                        tx, ty = x0 + role * dx, y0 + role * dy
                        near, far = -1, _LIMIT
                        for o, ox, oy, ways in words[role]:
                            # may the word at (ox, oy) be pushed towards (tx, ty)?
                            if (
                                (tx <= ox or ways & 8)
                                and (tx >= ox or ways & 4)
                                and (ty <= oy or ways & 2)
                                and (ty >= oy or ways & 1)
                            ):
                                d = abs(ox - tx) + abs(oy - ty)
                                if d < far:
                                    near, far = o, d
                        if near < 0:
                            break
                        if far:
                            cost += far
                            movers.append(near)
                    else:
                        out.append((cost, tuple(movers)))
        return out

    def _pushable_ways(self, vector: list[int]) -> dict[int, int]:
        """For each word cell, the directions its words could ever be pushed (bits U1 D2 L4 R8).

        A greatest fixpoint: a push needs the pusher's cell on the board and not
        held by a word that can never move, and the cell ahead on the board with
        whatever words it holds able to move the same way. Objects are ignored
        (rules can change what they do), so this only rules out the impossible.
        """
        codec, gone = self.codec, self.codec.gone
        steps, back = self.grid.step, self._back
        cells = {
            cell
            for cell in map(vector.__getitem__, range(codec.word_lo, codec.word_hi))
            if cell != gone
        }
        # Without the frozen-pusher condition a word may be pushed along a direction
        # when the cell behind it is on the board and the run of words ahead ends
        # before the edge. That is an upper bound of the fixpoint, and the fixpoint
        # itself when no word comes out frozen (no way at all): usually one pass.
        ways = {}
        frozen = []
        for cell in cells:
            bits = 0
            for d in range(4):
                if back[d][cell] >= 0:
                    ahead = steps[d][cell]
                    while ahead in cells:
                        ahead = steps[d][ahead]
                    if ahead >= 0:
                        bits |= 1 << d
            ways[cell] = bits
            if not bits:
                frozen.append(cell)
        # A frozen word takes a way from each word it would push; what those lose, the
        # words pushing into them lose in turn. Only they are looked at again.
        work = [n for cell in frozen for n in (step[cell] for step in steps) if n in cells]
        waiting = set(work)
        while work:
            cell = work.pop()
            waiting.discard(cell)
            bits = ways[cell]
            new = bits
            for d in range(4):
                bit = 1 << d
                if new & bit:
                    ahead = steps[d][cell]
                    if ways.get(back[d][cell], 15) == 0 or (
                        ahead in ways and not ways[ahead] & bit
                    ):
                        new &= ~bit
            if new != bits:
                ways[cell] = new
                for d in range(4):
                    for n in (back[d][cell], -1 if new else steps[d][cell]):
                        if n in cells and n not in waiting:
                            waiting.add(n)
                            work.append(n)
        return ways
