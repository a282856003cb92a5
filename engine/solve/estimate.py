"""Best-first's estimate, kept up to date from parent to child instead of recomputed.

:class:`~engine.solve.heuristic.Heuristic` defines ``h``; computing it afresh for a
position decodes the key, looks up its rules and roles, builds tuples of cells as
cache keys and walks the cost map. Most of that is the same for a parent and its
children: a turn changes a few fields of the key, and which ones is one XOR away.
:class:`Estimate` therefore keeps, per *configuration* (everything ``h`` reads but
where the movers stand), a :class:`_Node` holding the rest of ``h``:

* the roles of the slots (which are movers, goals, hazards, walls, pushed), keyed by
  the meaning and the noun fields as an int;
* the layout (the cost map, hazards and pushed cells, and the hazard deliveries
  already walked from each cell), keyed by the layout slots' bits of the key;
* the rewrite plans, keyed by the bits of the words and of the objects they name.

A child whose XOR with its parent touches only the movers' positions (a walk) shares the
parent's node; any other child reuses whichever of the three parts its XOR leaves
alone, and finds the rest in caches keyed by masked ints rather than tuples.
Nodes are cached by the key with the movers' positions and automaton phases masked
out (``h`` reads neither), so a position reached earlier as a child is not
recomputed when it is expanded. ``h`` is the same function: a test compares this
with :meth:`Heuristic.of` on every child of many positions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.solve.costmap import enters, repaired
from engine.solve.heuristic import HAZARD, WALL, Heuristic, Plan, _View, rewritten
from engine.solve.keyread import cells_reader, groups_reader
from engine.solve.sentences import Sentences

_LIMIT = 1 << 15  # nodes, layouts and plans remembered (each cache cleared when full)
_CELLS = 1 << 22  # board cells held in the cost maps and distance fields of kept layouts and plans
_REPAIRS = 12  # a cost map is repaired, not recomputed, when at most this many prices changed


@dataclass(slots=True, eq=False)
class _Roles:
    """One view (meaning and nouns) with the masks of the key bits each part reads."""

    view: _View
    keep: int  # the bits a node depends on: all but the movers' positions and phases
    layout_id: int  # the layout's slots, interned
    layout_bits: int  # the position bits of goal, hazard, wall and pushed slots
    plan_id: int  # the planned nouns' slots, interned
    plan_bits: int  # the position bits of the words and of the objects they name
    you: Callable[[int], list[int]]  # a key's movers' cells (present ones, in slot order)
    layout_cells: Callable[[int], list[list[int]]]  # its goal, hazard, wall and pushed cells


@dataclass(slots=True, eq=False)
class _Layout:
    """The walk part of ``h`` for one layout of goal, hazard, wall and pushed cells."""

    costs: list[int]
    hazards: frozenset[int]
    pushed: list[int]
    win: frozenset[int]
    enter: dict[int, int]  # the cells a step into costs more than 1, and what it costs
    extra: dict[int, int] = field(default_factory=dict)  # cell -> deliveries from it
    nearest: dict[int, int] = field(default_factory=dict)  # hazard -> nearest pushed thing
    spots: frozenset[int] | None = None  # the cells of pushed things, once asked for


@dataclass(slots=True, eq=False)
class _Node:
    """``h`` of a configuration, but for where its movers stand."""

    roles: _Roles | None  # None: the words exceed the parse budget (h is far)
    layout: _Layout | None
    plans: list[Plan]


class Estimate:
    """``h`` of a search's positions, each child's from its parent's :class:`_Node`."""

    def __init__(self, heuristic: Heuristic) -> None:
        self.heuristic = heuristic
        compact = heuristic.compact
        codec = self.codec = compact.codec
        self.meanings = compact.meanings
        self.far = heuristic.far
        size = codec.itemsize
        self.field = (1 << (8 * size)) - 1
        self.gone = codec.gone
        self.base = codec.base
        self.nbytes = codec.nbytes
        self.words_from, self.words_to = codec.word_lo * size, codec.word_hi * size
        self.nouns_from = 8 * codec.packed_from
        self.shift = [codec.shift(slot) for slot in range(codec.n)]
        everything = (1 << (8 * codec.nbytes)) - 1
        phases = ((1 << (8 * size * codec.automata)) - 1) << (8 * size * codec.phase_base)
        self.everything = everything
        self.unphased = everything ^ phases
        words = 0
        for slot in range(codec.word_lo, codec.word_hi):
            words |= self.field << self.shift[slot]
        self.words = words
        self.nouns = everything & ~((1 << self.nouns_from) - 1)
        self.named = set(heuristic._nouns.values())  # nouns some word on the board can name
        self._roles: dict[tuple[object, int], _Roles] = {}
        self._ids: dict[tuple[object, ...], int] = {}
        self._nodes: dict[int, dict[int, _Node]] = {}  # per keep mask: masked key -> node
        self._layouts: dict[tuple[int, int], _Layout | None] = {}
        self._plans: dict[tuple[int, int], list[Plan]] = {}
        self._rewritten: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}  # by words' bits
        self._sentences = Sentences(heuristic)
        self._keeps: list[int] = []  # the keep masks seen, most recent first
        self._far_node = _Node(None, None, [])
        # a layout holds a cost map and a plan distance fields, a list per cell each:
        # bound the cells they hold, not only their count (a 128x128 board's would be GBs)
        self._held = max(64, min(_LIMIT, _CELLS // codec.cells))
        # per hazard cell, every cell nearest first (at most about 2^18 cells kept)
        self._rings: dict[int, list[int]] = {}
        self._ring_limit = max(16, (1 << 18) // codec.cells)

    # -- the search's two calls -------------------------------------------------

    def node(self, key: int) -> _Node:
        """The node of a position about to be expanded (usually cached as a child's)."""
        keeps = self._keeps
        for n, keep in enumerate(keeps):
            found = self._nodes[keep].get(key & keep)
            if found is not None:
                if n:  # the masks last found first: few are in use at a time
                    keeps.insert(0, keeps.pop(n))
                return found
        return self._build(key, None, 0)

    def of(self, key: int) -> int:
        """``h`` of ``key`` (as :meth:`Heuristic.of`)."""
        return self.price(self.node(key), key)

    def after(self, node: _Node, key: int, child: int) -> int:
        """``h`` of ``child``, a successor of the position ``key`` whose node is given."""
        roles = node.roles
        if roles is None:
            return self.of(child)
        changed = child ^ key
        if changed & roles.keep:
            found = self._nodes[roles.keep].get(child & roles.keep)
            node = self._build(child, node, changed) if found is None else found
        return self.price(node, child)

    # -- h from a node ------------------------------------------------------------

    def price(self, node: _Node, key: int) -> int:
        """``h`` of the position ``key`` of ``node`` (as :meth:`Heuristic.walked`)."""
        roles = node.roles
        if roles is None:
            return self.far
        you = roles.you(key)
        far = self.far
        if not you:
            return far
        best = far
        layout = node.layout
        if layout is not None:
            costs = layout.costs
            best = min(map(costs.__getitem__, you))
            if layout.hazards and best < far:
                start = min(you, key=costs.__getitem__)  # the first of the cheapest, as in h
                extra = layout.extra.get(start)
                best += self._deliveries(layout, start) if extra is None else extra
        return rewritten(node.plans, you, best)

    def _deliveries(self, layout: _Layout, cell: int) -> int:
        """:meth:`Heuristic._deliveries`, remembering the answer for every cell on the walk.

        The downhill walk from a cell is fixed by the cost map, so the deliveries
        from a cell are its next cell's hazard cost plus the deliveries from there.
        """
        costs, hazards, pushed, extra = layout.costs, layout.hazards, layout.pushed, layout.extra
        neighbours = self.heuristic._neighbours
        path = []
        while costs[cell] > 0 and cell not in extra:
            path.append(cell)
            cell = min(neighbours[cell], key=costs.__getitem__)
        total = extra.get(cell, 0)
        for here in reversed(path):
            if cell in hazards and pushed:
                near = layout.nearest.get(cell)
                if near is None:
                    near = layout.nearest[cell] = self._nearest(cell, layout)
                total += near - 1
            extra[here] = total
            cell = here
        return total

    # -- nodes ----------------------------------------------------------------------

    def _build(self, key: int, parent: _Node | None, changed: int) -> _Node:
        """The node of ``key``, reusing the parts of ``parent`` that ``changed`` leaves alone."""
        roles = parent.roles if parent is not None else None
        base = parent.layout if parent is not None else None  # its map can be repaired
        vector = None
        if roles is None or changed & (self.words | self.nouns):
            vector = self.codec.decode(key)
            roles = self._roles_of(key, vector)
            if roles is None:
                return self._far_node
            found = self._nodes[roles.keep].get(key & roles.keep)
            if found is not None:
                return found
            parent = None  # another view: nothing of the parent's applies
        assert roles is not None
        if parent is not None and not changed & roles.layout_bits:
            layout = parent.layout
        else:
            layout = self._layout(roles, key, base)
        if parent is not None and not changed & roles.plan_bits:
            plans = parent.plans
        else:
            plans = self._plans_of(roles, key, vector)
        node = _Node(roles, layout, plans)
        nodes = self._nodes[roles.keep]
        if len(nodes) >= _LIMIT:
            nodes.clear()
        nodes[key & roles.keep] = node
        return node

    def _forget(self) -> None:
        """Drop the layouts and plans, and the nodes that would keep them alive."""
        self._layouts.clear()
        self._plans.clear()
        for nodes in self._nodes.values():
            nodes.clear()

    def _roles_of(self, key: int, vector: list[int]) -> _Roles | None:
        codec = self.codec
        raw = (key ^ self.base).to_bytes(self.nbytes, "little")
        meaning = self.meanings.of_words(raw[self.words_from : self.words_to], vector)
        if meaning is None:
            return None
        nouns = (key ^ self.base) >> self.nouns_from
        found = self._roles.get((meaning, nouns))
        if found is not None:
            return found
        heuristic = self.heuristic
        noun_fields = vector[codec.noun_base : codec.noun_base + codec.n]
        view = heuristic._views.get(
            (meaning, bytes(noun_fields) if codec.itemsize == 1 else tuple(noun_fields))
        )
        if view is None:
            view = heuristic._view(meaning, noun_fields)
        roles = self._make_roles(view, noun_fields)
        if len(self._roles) >= _LIMIT:
            self._roles.clear()
        self._roles[(meaning, nouns)] = roles
        return roles

    def _make_roles(self, view: _View, nouns: list[int]) -> _Roles:
        field, shift = self.field, self.shift

        def bits(slots: list[int]) -> int:
            out = 0
            for slot in slots:
                out |= field << shift[slot]
            return out

        keep = self.unphased
        if view.movers_mask is not None:
            keep &= ~view.movers_mask
        layout = (tuple(view.goals), tuple(view.hazards), tuple(view.walls), tuple(view.pushed))
        planned = tuple(
            sorted(
                (noun, tuple(slots))
                for noun, slots in view.by_noun.items()
                if noun in self.named and noun not in view.mover_nouns
            )
        )
        plan = (frozenset(view.mover_nouns & self.named), planned)
        keeps = self._keeps
        if keep not in self._nodes:
            self._nodes[keep] = {}
            keeps.append(keep)
        return _Roles(
            view,
            keep,
            self._intern(layout),
            bits([*view.goals, *view.hazards, *view.walls, *view.pushed]),
            self._intern(plan),
            self.words | bits([slot for _, slots in planned for slot in slots]),
            cells_reader(self.codec, view.movers),
            groups_reader(self.codec, [view.goals, view.hazards, view.walls, view.pushed]),
        )

    def _nearest(self, cell: int, layout: _Layout) -> int:
        """The Manhattan distance from ``cell`` to the nearest pushed thing of ``layout``.

        The board's cells in order of distance from ``cell`` (kept for a few cells)
        are searched for the first pushed one: a pushed thing is usually a step or
        two away, and a minimum over all of them cost as many steps as there are.
        """
        ring = self._rings.get(cell)
        if ring is None:
            xy = self.heuristic.xy
            x, y = xy[cell]
            ring = sorted(
                range(self.codec.cells), key=lambda c: abs(xy[c][0] - x) + abs(xy[c][1] - y)
            )
            if len(self._rings) >= self._ring_limit:
                self._rings.clear()
            self._rings[cell] = ring
        if layout.spots is None:
            layout.spots = frozenset(layout.pushed)
        spots = layout.spots
        for other in ring:
            if other in spots:
                return self.heuristic._manhattan(cell, other)
        raise AssertionError("a layout with hazards to clear has pushed things")

    def _intern(self, value: tuple[object, ...]) -> int:
        found = self._ids.get(value)
        if found is None:
            found = self._ids[value] = len(self._ids)
        return found

    def _layout(self, roles: _Roles, key: int, base: _Layout | None) -> _Layout | None:
        """The layout of ``key``; its cost map repaired from ``base``'s when only prices moved."""
        cache_key = (roles.layout_id, key & roles.layout_bits)
        try:
            return self._layouts[cache_key]
        except KeyError:
            pass
        view = roles.view
        win, hazards, walls, pushed = roles.layout_cells(key)
        layout = None
        if win:
            enter = enters(hazards, walls, pushed, HAZARD, WALL)
            won = frozenset(win)
            heuristic = self.heuristic
            costs = None
            if base is not None and base.win == won:
                prices = enter.items() ^ base.enter.items()
                if not prices:
                    costs = base.costs  # the same prices: the same map
                elif len(prices) <= _REPAIRS:
                    cells = {cell for cell, _ in prices}
                    costs = repaired(
                        base.costs, base.enter, enter, heuristic._neighbours, self.far, cells
                    )
            if costs is None:
                costs = heuristic._map(win, hazards, walls, pushed)
            if view.hazards:
                layout = _Layout(costs, frozenset(hazards), pushed, won, enter)
            else:
                layout = _Layout(costs, frozenset(), [], won, enter)
        if len(self._layouts) >= self._held:
            self._forget()
        self._layouts[cache_key] = layout
        return layout

    def _plans_of(self, roles: _Roles, key: int, vector: list[int] | None) -> list[Plan]:
        cache_key = (roles.plan_id, key & roles.plan_bits)
        found = self._plans.get(cache_key)
        if found is not None:
            return found
        if vector is None:
            vector = self.codec.decode(key)
        heuristic, view, gone = self.heuristic, roles.view, self.gone
        plans: list[Plan] = []
        rewrites = self._rewritten.get(key & self.words)
        if rewrites is None:
            rewrites = self._sentences(vector)
            if len(self._rewritten) >= _LIMIT:
                self._rewritten.clear()
            self._rewritten[key & self.words] = rewrites
        for words, noun, movers in rewrites:
            if not words:
                continue  # the sentence stands: its goals are in the walk
            there = None
            if noun not in view.mover_nouns:
                cells = tuple(
                    c for c in map(vector.__getitem__, view.by_noun.get(noun, ())) if c != gone
                )
                if not cells:
                    continue  # no object to become a goal
                there = heuristic._distances(cells)
            plans.append((words, heuristic._distances(movers) if movers else None, there))
        if len(self._plans) >= self._held:
            self._forget()
        self._plans[cache_key] = plans
        return plans
