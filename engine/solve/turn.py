"""The general turn of the compact path: every phase of engine/play/turn.py on vectors.

:class:`TurnResolver` resolves one intent from an :class:`Expansion` (a settled
position unpacked once for its four turns) in the public engine's order — player
movement, parse + transform, automata, parse + transform, FRAIL checkpoint, SINK,
DEFEAT, WIN, re-read if a word was destroyed — with the same rejections (no mover
moved, parse budget exceeded), and without event records.

Where the public engine iterates in id order only to order event entries, this
path iterates in any order: SINK, DEFEAT, transformation and crumble outcomes do
not depend on it. Movers are still sorted front-first, ties by id. When no word
moved, no noun changed and the position had no pending contact, contacts can only
happen in cells that gained an entity, so only those are looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.context import LevelContext
from engine.model import MoveStep
from engine.play.board import Direction
from engine.solve.rules import (
    BLOCKS,
    CARRY,
    DEFEATS,
    FRAILS,
    PUSHES,
    SINKS,
    WINS,
    YOUS,
    Meaning,
    Meanings,
)
from engine.solve.state_codec import Codec

#: Directions in search order; a direction's index is its position here.
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

Occupancy = dict[int, tuple[int, ...]]  # cell -> slots; tuples, so copies can share them
Crumbles = list[tuple[int, str, str | None]]  # (id, from, to) per crumbled object


@dataclass(slots=True)
class Expansion:
    """One settled position unpacked for its four turns (shared, never changed)."""

    key: int
    p: list[int]
    occ: Occupancy
    meaning: Meaning
    bits: list[int]  # property bits of every slot under ``meaning``
    movers: list[int]  # YOU objects
    pending: bool  # a contact its own rules would resolve: only a restored, unsettled position
    links: bool  # some object's noun has a transformation link under ``meaning``
    simple: bool  # YOU, and no link, carrier, FRAIL or pending contact: walks are arithmetic


class TurnResolver:
    """The per-level tables of turn resolution, and the turn itself."""

    def __init__(self, ctx: LevelContext, codec: Codec, meanings: Meanings) -> None:
        self.codec = codec
        self.meanings = meanings
        w, h = ctx.width, ctx.height
        self._next = [
            [
                c + d.dx + d.dy * w if 0 <= c % w + d.dx < w and 0 <= c // w + d.dy < h else -1
                for c in range(w * h)
            ]
            for d in DIRECTIONS
        ]
        self._ahead = [[(c % w) * d.dx + (c // w) * d.dy for c in range(w * h)] for d in DIRECTIONS]
        index_of = {(d.dx, d.dy): k for k, d in enumerate(DIRECTIONS)}
        self._beats = [
            tuple(index_of[(s.dx, s.dy)] if isinstance(s, MoveStep) else -1 for s in a.pattern)
            for a in ctx.automata
        ]
        self._leaves: dict[int, int | None] | None = None
        if ctx.leaves is not None:
            index = codec.noun_index
            self._leaves = {
                k: (index[ctx.leaves[n]] if n in ctx.leaves else None) for n, k in index.items()
            }
        self._n, self._nb, self._gone = codec.n, codec.noun_base, codec.gone
        self._lo, self._hi = codec.word_lo, codec.word_hi

    def turn(
        self, ex: Expansion, d: int, crumbled: Crumbles | None = None
    ) -> tuple[list[int], bool, bool] | None:
        """Resolve one intent: the settled vector, won and control; ``None`` if rejected."""
        movers = ex.movers
        if not movers:
            return None
        p = ex.p.copy()
        occ = ex.occ.copy()
        left: list[int] = []  # cells an entity moved out of
        arrived: list[int] = []  # cells an entity moved into
        if len(movers) > 1:
            ahead, ids = self._ahead[d], self.codec.ids
            movers = sorted(movers, key=lambda s: (-ahead[p[s]], ids[s]))
        moved = self._move(p, occ, ex.bits, movers, d, left, arrived)
        if moved < 0:
            return None
        first = meaning = ex.meaning
        if moved:
            found = self.meanings.of(p)
            if found is None:
                return None
            meaning = found
        stale = meaning is not first  # ex.bits no longer describe the slots
        done: set[int] = set()  # objects that used their noun link this turn
        if (ex.links or stale) and meaning.links and self._transform(p, meaning, done):
            stale = True
        if self._beats and meaning.union >= CARRY:
            bits = self._bits(p, meaning) if stale else ex.bits
            found = self._automata(p, occ, meaning, bits, d, left, arrived)
            if found is None:
                return None
            if found is not meaning:
                meaning, stale = found, True
                if meaning.links:
                    self._transform(p, meaning, done)
        if self._leaves is not None and left and meaning.union & FRAILS:
            stale = self._crumble(ex, p, occ, meaning, left, crumbled) or stale
        bits = self._bits(p, meaning) if stale else ex.bits
        cells = list(occ) if stale or ex.pending else arrived
        won, removed, sank = self._contacts(p, occ, bits, meaning.union, cells)
        if sank:  # a word was destroyed: the settled rules are read again
            found = self.meanings.of(p)
            if found is None:
                return None
            meaning = found
        elif not (stale or removed):
            return p, won, True  # the same YOU objects, still YOU
        flags, nb, gone = meaning.flags, self._nb, self._gone
        control = any(flags[p[nb + s]] & YOUS and p[s] != gone for s in self.codec.objects)
        return p, won, control

    # -- phases -----------------------------------------------------------------

    def _bits(self, p: list[int], meaning: Meaning) -> list[int]:
        nb = self._nb
        return list(map(meaning.flags.__getitem__, p[nb : nb + self._n]))

    def _move(
        self,
        p: list[int],
        occ: Occupancy,
        bits: list[int],
        movers: list[int],
        d: int,
        left: list[int],
        arrived: list[int],
    ) -> int:
        """Move ``movers`` (in resolution order) one cell along ``d`` with atomic pushes.

        Returns -1 when no mover moved, 1 when a word moved, else 0.
        """
        nxt, lo, hi = self._next[d], self._lo, self._hi
        result = -1
        for m in movers:
            chain = [m]
            cell = nxt[p[m]]
            while cell >= 0:
                here = occ.get(cell)
                if not here:
                    break
                if len(here) == 1:
                    f = bits[here[0]]
                    if f & BLOCKS:
                        cell = -1
                        break
                    if not f & PUSHES:
                        break
                    chain.append(here[0])
                else:
                    if any(bits[s] & BLOCKS for s in here):
                        cell = -1
                        break
                    pushed = [s for s in here if bits[s] & PUSHES]
                    if not pushed:
                        break
                    chain += pushed
                cell = nxt[cell]
            if cell < 0:
                continue  # the edge or a STOP: nothing in the chain moves
            if result < 0:
                result = 0
            for s in chain:
                a = p[s]
                b = nxt[a]
                here = occ[a]
                occ[a] = () if len(here) == 1 else tuple([x for x in here if x != s])
                there = occ.get(b)
                occ[b] = (*there, s) if there else (s,)
                p[s] = b
                left.append(a)
                arrived.append(b)
                if lo <= s < hi:
                    result = 1
        return result

    def _transform(self, p: list[int], meaning: Meaning, done: set[int]) -> bool:
        """At most one noun link per object per turn; whether any object changed."""
        links, nb, gone = meaning.links, self._nb, self._gone
        changed = False
        for s in self.codec.objects:
            if p[s] != gone and s not in done:
                target = links.get(p[nb + s])
                if target is not None:
                    p[nb + s] = target
                    done.add(s)
                    changed = True
        return changed

    def _automata(
        self,
        p: list[int],
        occ: Occupancy,
        meaning: Meaning,
        bits: list[int],
        d: int,
        left: list[int],
        arrived: list[int],
    ) -> Meaning | None:
        """Automaton beats in authored order; the meaning to use after them.

        Carriers are chosen once, from the rules after the player phase; a beat
        moves them front-first like YOU. Returns ``None`` when the words the
        beats moved exceed the parse budget.
        """
        gone, pb = self._gone, self.codec.phase_base
        carriers = [
            [s for s in self.codec.objects if bits[s] & (CARRY << a) and p[s] != gone]
            for a in range(len(self._beats))
        ]
        words = False
        for a, ids in enumerate(carriers):
            if not ids:
                continue  # no carrier after the player phase: the automaton pauses
            beats = self._beats[a]
            phase = p[pb + a]
            beat = beats[phase]
            if beat >= 0:
                if len(ids) > 1:
                    ahead, order = self._ahead[beat], self.codec.ids
                    ids = sorted(ids, key=lambda s: (-ahead[p[s]], order[s]))
                words = self._move(p, occ, bits, ids, beat, left, arrived) > 0 or words
            p[pb + a] = (phase + 1) % len(beats)
        return self.meanings.of(p) if words else meaning

    def _crumble(
        self,
        ex: Expansion,
        p: list[int],
        occ: Occupancy,
        meaning: Meaning,
        left: list[int],
        crumbled: Crumbles | None,
    ) -> bool:
        """The FRAIL checkpoint; whether any object crumbled.

        An object crumbles when it was FRAIL at the start and still is, did not
        move, shared its cell at the start and is alone there now. Only a cell an
        entity moved out of can be such a cell.
        """
        c, nb, p0, occ0 = self.codec, self._nb, ex.p, ex.occ
        leaves, flags, start_flags = self._leaves, meaning.flags, ex.meaning.flags
        assert leaves is not None
        crumbling = []
        for cell in set(left):
            here = occ.get(cell)
            if here and len(here) == 1 and len(occ0.get(cell, ())) > 1:
                s = here[0]
                if p0[s] == cell and flags[p[nb + s]] & FRAILS and start_flags[p0[nb + s]] & FRAILS:
                    crumbling.append(s)
        crumbling.sort(key=c.ids.__getitem__)
        for s in crumbling:
            before = p[nb + s]
            after = leaves[before]
            if crumbled is not None:
                crumbled.append(
                    (c.ids[s], c.nouns[before], None if after is None else c.nouns[after])
                )
            if after is None:
                self._remove(p, occ, s)
            else:
                p[nb + s] = after
        return bool(crumbling)

    def _remove(self, p: list[int], occ: Occupancy, s: int) -> None:
        cell = p[s]
        occ[cell] = tuple([x for x in occ[cell] if x != s])
        p[s] = self._gone
        p[self._nb + s] = self.codec.rest[s]  # one key per absence, whatever the noun was

    def _contacts(
        self, p: list[int], occ: Occupancy, bits: list[int], union: int, cells: Any
    ) -> tuple[bool, bool, bool]:
        """SINK, then DEFEAT, then WIN in ``cells``: (won, removed any, a word sank)."""
        removed = sank = False
        if union & SINKS:
            sinking = [
                cell
                for cell in cells
                if len(occ[cell]) > 1 and any(bits[s] & SINKS for s in occ[cell])
            ]
            for cell in set(sinking):
                for s in occ[cell]:
                    sank = sank or self._lo <= s < self._hi
                    self._remove(p, occ, s)
                removed = True
        if union & DEFEATS and union & YOUS:
            for cell in list(cells):
                here = occ[cell]
                if any(bits[s] & DEFEATS for s in here):
                    for s in here:
                        if bits[s] & YOUS:
                            self._remove(p, occ, s)
                            removed = True
        won = False
        if union & WINS and union & YOUS:
            for cell in cells:
                here = occ[cell]
                if any(bits[s] & YOUS for s in here) and any(bits[s] & WINS for s in here):
                    won = True
                    break
        return won, removed, sank
