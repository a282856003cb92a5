"""Runtime board values: directions, settled frames and the work board of a turn.

A :class:`Frame` is one settled position of a game: immutable, so the undo history
is simply a list of frames. A turn resolves its phases on a mutable :class:`Board`:
the plain turn copies the frame into a fresh board and freezes the result whole;
the incremental turn of a :class:`~engine.play.game.Game` keeps one board up to date
and makes the next frame from what changed (:meth:`Frame.after`).

Entities are always kept in ascending id ("stable entity id order", docs/contract.md §1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum

from engine.context import Piece
from engine.rules import Rule, RuleTable, WordTile


class Direction(Enum):
    """A cardinal direction; the value is the ``(dx, dy)`` offset (y grows downward)."""

    UP = (0, -1)
    DOWN = (0, 1)
    LEFT = (-1, 0)
    RIGHT = (1, 0)

    @property
    def label(self) -> str:
        """The name used in events and on the command line: ``"up"`` …"""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The letter used in move strings: ``U D L R``."""
        return self.name[0]

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]

    @classmethod
    def parse(cls, value: object) -> Direction | None:
        """The direction ``value`` names, or ``None`` when it is not a cardinal intent.

        Accepts a :class:`Direction`, a name (``"up"``), a move letter (``"U"``) or a
        ``(dx, dy)`` pair; anything else (a diagonal, ``(0, 0)``, an unknown name, a
        wrong type) is not an intent.
        """
        if isinstance(value, Direction):
            return value
        if isinstance(value, str):
            return _BY_NAME.get(value.strip().lower())
        if isinstance(value, tuple | list) and len(value) == 2:
            dx, dy = value
            if type(dx) is int and type(dy) is int:
                return _BY_DELTA.get((dx, dy))
        return None


_BY_NAME = {d.label: d for d in Direction} | {d.letter.lower(): d for d in Direction}
_BY_DELTA = {d.value: d for d in Direction}


Cell = tuple[int, int]
#: One change of a turn: the piece before it and after it (``None``: the entity is gone).
Change = tuple[Piece, Piece | None]


class Frame:
    """A settled position: the authoritative state plus its (derived) rules.

    A value: nothing changes a frame once made. A frame made by an incremental turn
    (:meth:`after`) keeps only what the turn changed and the frame it started from;
    its full piece tuple is built on first use (a state record or a snapshot) and
    kept, so a turn on a board of thousands of entities costs what it changed.

    ``quiet`` is what the contacts of the turn that made the frame were resolved
    under (:func:`~engine.play.contacts.contact_signature` of its table; ``None`` when unknown, as for a
    restored snapshot): while a later turn's table has the same signature, a cell
    the turn did not change cannot hold a contact.
    """

    __slots__ = ("_base", "_delta", "_pieces", "moves", "phases", "quiet", "rules", "won")

    def __init__(
        self,
        pieces: tuple[Piece, ...],
        phases: tuple[int, ...],
        moves: int,
        won: bool,
        rules: tuple[Rule, ...],
        *,
        quiet: Signature | None = None,
    ) -> None:
        self._pieces: tuple[Piece, ...] | None = pieces
        self._base: Frame | None = None
        self._delta: tuple[Change, ...] = ()
        self.phases = phases
        self.moves = moves
        self.won = won
        self.rules = rules
        self.quiet = quiet

    @classmethod
    def after(
        cls,
        base: Frame,
        delta: tuple[Change, ...],
        phases: tuple[int, ...],
        moves: int,
        won: bool,
        rules: tuple[Rule, ...],
        quiet: Signature | None,
    ) -> Frame:
        """The frame ``delta`` makes of ``base``, its pieces built only when asked for."""
        frame = cls((), phases, moves, won, rules, quiet=quiet)
        frame._pieces = None
        frame._base = base
        frame._delta = delta
        return frame

    @property
    def base(self) -> Frame | None:
        """The frame this one was made from by :meth:`after` (``None`` for a whole frame)."""
        return self._base

    @property
    def delta(self) -> tuple[Change, ...]:
        """What the turn from :attr:`base` changed, ascending id."""
        return self._delta

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every entity, ascending id."""
        if self._pieces is None:
            self._pieces = self._build()
        return self._pieces

    def _build(self) -> tuple[Piece, ...]:
        chain: list[Frame] = []
        frame: Frame = self
        while frame._pieces is None:  # iterative: a long unread history must not recurse
            chain.append(frame)
            assert frame._base is not None
            frame = frame._base
        changed: dict[int, Piece | None] = {}
        for link in reversed(chain):  # oldest first, so the latest change wins
            for old, new in link._delta:
                changed[old[0]] = new
        if not changed:
            return frame._pieces
        out = []
        for piece in frame._pieces:  # ids never appear, so the base order is the order
            now = changed.get(piece[0], piece)
            if now is not None:
                out.append(now)
        return tuple(out)

    def words(self) -> list[WordTile]:
        return [(i, name, x, y) for i, kind, name, x, y in self.pieces if kind == "word"]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return (self.phases, self.moves, self.won, self.rules, self.pieces) == (
            other.phases,
            other.moves,
            other.won,
            other.rules,
            other.pieces,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Frame(moves={self.moves}, won={self.won}, phases={self.phases}, "
            f"rules={len(self.rules)}, pieces={len(self.pieces)})"
        )


class Board:
    """A mutable board with live indexes, and what changed since :meth:`mark`.

    A plain turn copies a frame into a fresh board; the incremental turn of
    :class:`~engine.play.game.Game` keeps one board for the current frame and moves
    it along. Every change goes through :meth:`move`, :meth:`rename` or
    :meth:`remove`, so the indexes (cells, objects by noun, word ids) stay exact and
    the board knows each changed entity's piece at the mark (:attr:`before`), the
    cells something left and the cells that gained an entity or saw an object change
    noun (:attr:`entered`: the only cells where a contact can newly appear).
    """

    __slots__ = (
        "before",
        "cells",
        "entered",
        "kind",
        "left",
        "name",
        "nouns",
        "pos",
        "rules",
        "table",
        "units",
        "word_ids",
        "word_moves",
    )

    def __init__(self, pieces: tuple[Piece, ...]) -> None:
        self.kind: dict[int, str] = {}
        self.name: dict[int, str] = {}
        self.pos: dict[int, Cell] = {}
        self.cells: dict[Cell, set[int]] = {}
        self.nouns: dict[str, set[int]] = {}  # objects by noun
        self.word_ids: set[int] = set()
        for piece in pieces:
            self._put(piece)
        self.before: dict[int, Piece] = {}
        self.entered: set[Cell] = set()
        self.left: set[Cell] = set()
        self.word_moves = 0
        #: the rules of the frame the board stands for and their table
        self.rules: tuple[Rule, ...] | None = None
        self.table: RuleTable | None = None
        #: the parse units reading the board's words cost, ``None`` when not known
        self.units: int | None = None

    def _put(self, piece: Piece) -> None:
        i, kind, name, x, y = piece
        self.kind[i] = kind
        self.name[i] = name
        self.pos[i] = (x, y)
        cell = self.cells.get((x, y))
        if cell is None:
            self.cells[(x, y)] = {i}
        else:
            cell.add(i)
        if kind == "object":
            ids = self.nouns.get(name)
            if ids is None:
                self.nouns[name] = {i}
            else:
                ids.add(i)
        else:
            self.word_ids.add(i)

    def _take(self, i: int) -> None:
        self.cells[self.pos[i]].discard(i)
        if self.kind[i] == "object":
            self.nouns[self.name[i]].discard(i)
        else:
            self.word_ids.discard(i)
        del self.pos[i], self.kind[i], self.name[i]

    def piece(self, i: int) -> Piece | None:
        pos = self.pos.get(i)
        if pos is None:
            return None
        return (i, self.kind[i], self.name[i], pos[0], pos[1])

    def _touch(self, i: int) -> None:
        if i not in self.before:
            self.before[i] = (i, self.kind[i], self.name[i], *self.pos[i])

    # -- what a turn changes ------------------------------------------------------

    def mark(self) -> None:
        """Start recording changes afresh (the start of a turn)."""
        self.before = {}
        self.entered = set()
        self.left = set()

    def changes(self) -> tuple[Change, ...]:
        """Each entity changed since the mark: its piece then and now, ascending id."""
        return tuple((self.before[i], self.piece(i)) for i in sorted(self.before))

    def rollback(self) -> None:
        """Put back every change since the mark (a rejected turn changes nothing)."""
        self.revert(self.changes())
        self.mark()

    def revert(self, delta: tuple[Change, ...]) -> None:
        """Undo ``delta`` (changes made from this board's current position)."""
        for old, new in delta:
            if new is not None:
                self._take(old[0])
            self._put(old)

    # -- queries --------------------------------------------------------------------

    def objects(self) -> Iterator[int]:
        return (i for i in sorted(self.pos) if self.kind[i] == "object")

    def objects_of(self, nouns: Iterable[str]) -> list[int]:
        """The objects whose noun is one of ``nouns``, ascending id."""
        found: list[int] = []
        for noun in nouns:
            ids = self.nouns.get(noun)
            if ids:
                found += ids
        found.sort()
        return found

    def at(self, cell: Cell) -> list[int]:
        """The ids in ``cell``, ascending."""
        return sorted(self.cells.get(cell, ()))

    def occupied_cells(self) -> list[Cell]:
        """Every non-empty cell in row-major order (top row first, then left to right)."""
        return sorted((c for c, ids in self.cells.items() if ids), key=lambda c: (c[1], c[0]))

    def words(self) -> list[WordTile]:
        return [(i, self.name[i], *self.pos[i]) for i in sorted(self.word_ids)]

    def freeze(self) -> tuple[Piece, ...]:
        return tuple((i, self.kind[i], self.name[i], *self.pos[i]) for i in sorted(self.pos))

    # -- changes --------------------------------------------------------------------

    def move(self, i: int, to: Cell) -> None:
        self._touch(i)
        frm = self.pos[i]
        self.cells[frm].discard(i)
        self.left.add(frm)
        self.pos[i] = to
        cell = self.cells.get(to)
        if cell is None:
            self.cells[to] = {i}
        else:
            cell.add(i)
        self.entered.add(to)
        if self.kind[i] == "word":
            self.word_moves += 1

    def rename(self, i: int, noun: str) -> None:
        """Give object ``i`` another noun (a transformation or a crumble's leftover)."""
        self._touch(i)
        self.nouns[self.name[i]].discard(i)
        self.name[i] = noun
        ids = self.nouns.get(noun)
        if ids is None:
            self.nouns[noun] = {i}
        else:
            ids.add(i)
        self.entered.add(self.pos[i])

    def remove(self, i: int) -> None:
        self._touch(i)
        self.left.add(self.pos[i])
        self._take(i)


#: What contacts read from a rule table: per noun, which of the properties the declared
#: contacts read it has (:func:`engine.play.contacts.contact_signature`).
Signature = dict[str, frozenset[str]]
