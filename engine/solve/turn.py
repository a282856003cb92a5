"""The general turn of the compact path: the phases of :mod:`engine.play.phases` on vectors.

:class:`TurnResolver` resolves one intent from an :class:`Expansion` (a settled
position unpacked once for its four turns) with a method for each phase of the
public turn, under the same name and in the same order —
``player_movement``, ``parse_and_transform``, ``automaton_movement``,
``parse_and_transform``, ``frail_checkpoint``, ``contacts``, ``reread_rules`` —
with the same rejections (no mover moved, parse budget exceeded) and without
event records. It takes the resolution order of movers
(:func:`~engine.play.phases.front_first`) and the automata's beats
(:func:`~engine.play.phases.automaton_beats`) from the public turn.

The mechanics' declarations are resolved once per level: the movement roles as
bit masks and the declared contacts as their compact rules (by
:class:`~engine.solve.rules.Meanings`), the frail mechanic's checkpoint as
:class:`engine.mechanics.frail.CompactCheckpoint`.

Where the public turn iterates in id order only to order event entries, this path
iterates in any order: contact, transformation and crumble outcomes do not
depend on it. When no word moved, no noun changed and the position had no pending
contact, contacts can only happen in cells that gained an entity, so only those
are looked at.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from engine.mechanics import frail
from engine.play.phases import automaton_beats, front_first
from engine.solve.grid import Grid
from engine.solve.position import Crumbles, Expansion, Occupancy
from engine.solve.rules import CARRY, Meaning, Meanings
from engine.solve.state_codec import Codec


class Moved(IntEnum):
    """What a movement phase did."""

    NOTHING = -1  # every mover was blocked
    OBJECTS = 0  # only objects moved: the rules stand
    WORDS = 1  # a word moved: the rules must be read again


class TurnResolver:
    """One level's general turn: its per-level tables and the phases."""

    def __init__(self, codec: Codec, meanings: Meanings, grid: Grid) -> None:
        self.codec = codec
        self.meanings = meanings
        self.grid = grid
        automata = codec.ctx.automata
        #: per automaton, the direction index of each beat, -1 for a wait
        self.beats: list[tuple[int, ...]] = [
            tuple(-1 if beat is None else grid.index[beat] for beat in automaton_beats(a))
            for a in automata
        ]
        #: the frail mechanic's checkpoint; None when the level has not opted in (nothing crumbles)
        self.checkpoint = frail.compact_checkpoint(
            meanings.bits,
            codec.ctx.leaves,
            codec.noun_index,
            codec.ids,
            codec.nouns,
            codec.noun_base,
        )
        #: the movement roles' bits, and the declared contacts (engine.mechanics)
        self.movers, self.pushes = meanings.movers, meanings.pushes
        self.blocks, self.passes = meanings.blocks, meanings.passes
        self.destroys, self.wins = meanings.destroys, meanings.wins
        #: the settled start's occupancy; a position's is this, corrected for what moved
        self.start_occupancy: Occupancy = {}
        for slot in range(codec.n):
            cell = codec.start[slot]
            if cell != codec.gone:
                self.start_occupancy[cell] = (*self.start_occupancy.get(cell, ()), slot)

    def turn(
        self, expansion: Expansion, direction: int, crumbled: Crumbles | None = None
    ) -> tuple[list[int], bool, bool] | None:
        """Resolve one intent: the settled vector, won and control; ``None`` if rejected.

        ``crumbled`` collects ``(id, from, to)`` per crumbled object, ascending id.
        """
        if not expansion.movers:
            return None
        vector = list(expansion.vector)
        occupancy = self.occupancy(expansion).copy()
        left: list[int] = []  # cells an entity moved out of
        arrived: list[int] = []  # cells an entity moved into
        moved = self.player_movement(expansion, vector, occupancy, direction, left, arrived)
        if moved == Moved.NOTHING:
            return None
        done: set[int] = set()  # objects that used their noun link this turn
        read = self.parse_and_transform(
            vector, expansion.meaning, moved == Moved.WORDS, done, expansion.links
        )
        if read is None:
            return None
        meaning, stale = read
        stale = stale or meaning is not expansion.meaning  # expansion.flags are out of date
        if self.beats and meaning.union >= CARRY:
            flags = self.slot_flags(vector, meaning) if stale else expansion.flags
            words = self.automaton_movement(vector, occupancy, flags, left, arrived)
            read = self.parse_and_transform(vector, meaning, words, done, False)
            if read is None:
                return None
            before, (meaning, changed) = meaning, read
            stale = stale or changed or meaning is not before
        checkpoint = self.checkpoint
        if checkpoint is not None and left and meaning.union & checkpoint.bit:
            stale = (
                self.frail_checkpoint(expansion, vector, occupancy, meaning, left, crumbled)
                or stale
            )
        flags = self.slot_flags(vector, meaning) if stale else expansion.flags
        cells = list(occupancy) if stale or expansion.pending else arrived
        won, removed, sank = self.contacts(vector, occupancy, flags, meaning.union, cells)
        if sank:
            found = self.reread_rules(vector)
            if found is None:
                return None
            meaning = found
        elif not (stale or removed):
            return vector, won, True  # the same movers, still movers
        return vector, won, self.has_control(vector, meaning)

    def occupancy(self, expansion: Expansion) -> Occupancy:
        """Which slots stand in each occupied cell of the expansion's position (cached).

        The start's occupancy, corrected for the slots whose position differs from
        the start's, so its cost follows what moved, not the board.
        """
        if expansion.occupancy is not None:
            return expansion.occupancy
        codec, vector = self.codec, expansion.vector
        gone, start = codec.gone, codec.start
        occupancy = self.start_occupancy.copy()
        for slot in codec.changed_slots(expansion.key):
            origin, cell = start[slot], vector[slot]
            if origin != gone:
                here = occupancy[origin]
                occupancy[origin] = () if len(here) == 1 else tuple([x for x in here if x != slot])
            if cell != gone:
                there = occupancy.get(cell)
                occupancy[cell] = (*there, slot) if there else (slot,)
        expansion.occupancy = occupancy
        return occupancy

    def slot_flags(self, vector: Sequence[int], meaning: Meaning) -> list[int]:
        """The property bits of every slot under ``meaning``."""
        noun_base = self.codec.noun_base
        return list(map(meaning.flags.__getitem__, vector[noun_base : noun_base + self.codec.n]))

    def has_control(self, vector: list[int], meaning: Meaning) -> bool:
        """Whether some present object is a mover under ``meaning``."""
        flags, noun_base, gone = meaning.flags, self.codec.noun_base, self.codec.gone
        movers = self.movers
        return any(
            flags[vector[noun_base + slot]] & movers and vector[slot] != gone
            for slot in self.codec.objects
        )

    # -- the phases, in order -----------------------------------------------------

    def player_movement(
        self,
        expansion: Expansion,
        vector: list[int],
        occupancy: Occupancy,
        direction: int,
        left: list[int],
        arrived: list[int],
    ) -> Moved:
        """Phase 1: every mover takes the intent, front-first; what moved."""
        movers = expansion.movers
        if len(movers) > 1:
            movers = self.front_first(movers, direction, vector)
        return self.move_group(vector, occupancy, expansion.flags, movers, direction, left, arrived)

    def parse_and_transform(
        self, vector: list[int], meaning: Meaning, words_moved: bool, done: set[int], links: bool
    ) -> tuple[Meaning, bool] | None:
        """Phases 2 and 4: the rules after the words moved, then one noun link per object.

        Returns the meaning and whether a noun changed; ``None`` when the words
        exceed the parse budget (the turn is rejected). ``links`` says that some
        object may have a link under ``meaning``; a new meaning always may.
        """
        if words_moved:
            found = self.meanings.of(vector)
            if found is None:
                return None
            links = links or found is not meaning
            meaning = found
        changed = bool(links and meaning.links and self.transform(vector, meaning, done))
        return meaning, changed

    def automaton_movement(
        self,
        vector: list[int],
        occupancy: Occupancy,
        flags: list[int],
        left: list[int],
        arrived: list[int],
    ) -> bool:
        """Phase 3: automaton beats in authored order; whether a word moved.

        Carriers are chosen once, from the rules after the player phase; a beat
        moves them front-first like the movers. An automaton without carriers pauses.
        """
        codec = self.codec
        gone, phase_base = codec.gone, codec.phase_base
        carriers = [
            [slot for slot in codec.objects if flags[slot] & (CARRY << a) and vector[slot] != gone]
            for a in range(len(self.beats))
        ]
        words = False
        for a, slots in enumerate(carriers):
            if not slots:
                continue  # no carrier after the player phase: the automaton pauses
            beats = self.beats[a]
            phase = vector[phase_base + a]
            beat = beats[phase]
            if beat >= 0:
                if len(slots) > 1:
                    slots = self.front_first(slots, beat, vector)
                moved = self.move_group(vector, occupancy, flags, slots, beat, left, arrived)
                words = moved == Moved.WORDS or words
            vector[phase_base + a] = (phase + 1) % len(beats)
        return words

    def frail_checkpoint(
        self,
        expansion: Expansion,
        vector: list[int],
        occupancy: Occupancy,
        meaning: Meaning,
        left: list[int],
        crumbled: Crumbles | None,
    ) -> bool:
        """Phase 5: the frail mechanic's checkpoint (:class:`engine.mechanics.frail.CompactCheckpoint`).

        Whether anything crumbled; ``left`` are the cells an entity moved out of.
        """
        assert self.checkpoint is not None
        return self.checkpoint.crumble(
            expansion.vector,
            self.occupancy(expansion),
            vector,
            occupancy,
            meaning.flags,
            expansion.meaning.flags,
            left,
            crumbled,
            self.remove,
        )

    def contacts(
        self,
        vector: list[int],
        occupancy: Occupancy,
        flags: list[int],
        union: int,
        cells: list[int],
    ) -> tuple[bool, bool, bool]:
        """Phase 6: the declared contacts in ``cells``: (won, removed any, a word was removed).

        The destroying contacts act in rank order, each on what the earlier ones
        left, then the winning ones; a contact whose bits no noun has is skipped.
        """
        removed = words = False
        word_lo, word_hi = self.codec.word_lo, self.codec.word_hi
        for need, rule in self.destroys:
            if union & need == need:
                gone = rule(cells, occupancy, flags)
                if gone:
                    removed = True
                    for slot in gone:
                        words = words or word_lo <= slot < word_hi
                        self.remove(vector, occupancy, slot)
        for need, rule in self.wins:
            if union & need == need and rule(cells, occupancy, flags):
                return True, removed, words
        return False, removed, words

    def reread_rules(self, vector: list[int]) -> Meaning | None:
        """Phase 7, when a word was destroyed: the settled meaning (``None`` over budget)."""
        return self.meanings.of(vector)

    # -- the parts the phases share -----------------------------------------------

    def front_first(self, movers: list[int], direction: int, vector: list[int]) -> list[int]:
        """:func:`engine.play.phases.front_first` on slots: the order movers resolve in."""
        progress, ids = self.grid.progress[direction], self.codec.ids
        return front_first(
            movers, [progress[vector[slot]] for slot in movers], [ids[slot] for slot in movers]
        )

    def move_group(
        self,
        vector: list[int],
        occupancy: Occupancy,
        flags: list[int],
        movers: list[int],
        direction: int,
        left: list[int],
        arrived: list[int],
    ) -> Moved:
        """Move ``movers`` (in resolution order) one cell along ``direction`` with atomic pushes.

        Returns what moved.
        """
        step = self.grid.step[direction]
        word_lo, word_hi = self.codec.word_lo, self.codec.word_hi
        blocks, pushes, passes = self.blocks, self.pushes, self.passes
        result = Moved.NOTHING
        for mover in movers:
            chain = [mover]
            cell = step[vector[mover]]
            while cell >= 0:
                here = occupancy.get(cell)
                if not here:
                    break
                if len(here) == 1:
                    bits = flags[here[0]]
                    if bits & blocks and not (passes and self.passing(chain, vector, flags)):
                        cell = -1
                        break
                    if not bits & pushes:
                        break
                    chain.append(here[0])
                else:
                    if any(flags[slot] & blocks for slot in here) and not (
                        passes and self.passing(chain, vector, flags)
                    ):
                        cell = -1
                        break
                    pushed = [slot for slot in here if flags[slot] & pushes]
                    if not pushed:
                        break
                    chain += pushed
                cell = step[cell]
            if cell < 0:
                continue  # the edge or a blocking object: nothing in the chain moves
            if result == Moved.NOTHING:
                result = Moved.OBJECTS
            for slot in chain:
                origin = vector[slot]
                target = step[origin]
                here = occupancy[origin]
                occupancy[origin] = () if len(here) == 1 else tuple([x for x in here if x != slot])
                there = occupancy.get(target)
                occupancy[target] = (*there, slot) if there else (slot,)
                vector[slot] = target
                left.append(origin)
                arrived.append(target)
                if word_lo <= slot < word_hi:
                    result = Moved.WORDS
        return result

    def passing(self, chain: list[int], vector: list[int], flags: list[int]) -> bool:
        """Whether nothing stops the chain's front (the slots in the cell of its last one)."""
        front, passes = vector[chain[-1]], self.passes
        return all(flags[slot] & passes for slot in chain if vector[slot] == front)

    def transform(self, vector: list[int], meaning: Meaning, done: set[int]) -> bool:
        """At most one noun link per object per turn; whether any object changed."""
        links, noun_base, gone = meaning.links, self.codec.noun_base, self.codec.gone
        changed = False
        for slot in self.codec.objects:
            if vector[slot] != gone and slot not in done:
                target = links.get(vector[noun_base + slot])
                if target is not None:
                    vector[noun_base + slot] = target
                    done.add(slot)
                    changed = True
        return changed

    def remove(self, vector: list[int], occupancy: Occupancy, slot: int) -> None:
        """Take ``slot`` off the board; its noun field returns to the authored noun."""
        cell = vector[slot]
        occupancy[cell] = tuple([x for x in occupancy[cell] if x != slot])
        vector[slot] = self.codec.gone
        vector[self.codec.noun_base + slot] = self.codec.rest[slot]  # one key per absence
