"""The registered mechanics, and what the engine derives from them once per registration.

:func:`register` adds a mechanic (the built-ins are registered when
:mod:`engine.mechanics` is imported; a plugin or a test registers its own before
it builds levels); :func:`registered` is the set as it stands, a
:class:`Mechanics` that every reader takes once and keeps: a vocabulary built now
(engine.tokens), and through it a level's context, a rule table and a compact
level, read the mechanics of this moment, so nothing looks a mechanic up on a
hot path. Registering while levels are being played is not supported: what was
built before keeps the mechanics it was built with.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import replace

from engine.mechanics.base import Contact, Lint, Mechanic, Role

#: Bits of a noun's flags the compact path gives properties (one each); the bits
#: above them carry automata (engine.solve.rules.CARRY).
PROPERTY_BITS = 16


class Mechanics:
    """The mechanics registered at one moment, and the views of them the engine reads."""

    __slots__ = (
        "all",
        "base_words",
        "bits",
        "by_name",
        "by_type",
        "by_word",
        "contact_reads",
        "destroy_at",
        "destroy_rules",
        "destroys",
        "lint_codes",
        "lints",
        "no_walk",
        "opt_in_words",
        "properties",
        "revision",
        "revisits",
        "role_bits",
        "role_words",
        "roles_by_word",
        "unless",
        "win_at",
        "win_rules",
        "wins",
        "word_bits",
        "word_roles",
        "words",
    )

    def __init__(self, mechanics: tuple[Mechanic, ...], revision: int) -> None:
        self.all = mechanics
        self.revision = revision
        self.by_name = {m.name: m for m in mechanics}
        self.properties = tuple(m for m in mechanics if m.word is not None)
        self.by_word: dict[str, Mechanic] = {m.word: m for m in self.properties if m.word}
        self.words = frozenset(self.by_word)
        #: the property words of every level, in palette order
        self.base_words = tuple(m.word for m in self.properties if m.word and m.opt_in is None)
        #: the words a level opts into, in palette order
        self.opt_in_words = tuple(m.word for m in self.properties if m.word and m.opt_in)
        self.by_type = {m.opt_in: m for m in self.properties if m.opt_in}
        self.bits = {m.word: m.bit for m in self.properties if m.word}
        self.role_words: dict[Role, frozenset[str]] = {
            role: frozenset(m.word for m in self.properties if m.word and role in m.roles)
            for role in Role
        }
        self.role_bits = {role: _mask(self.bits, words) for role, words in self.role_words.items()}
        self.unless = {m.word: m.unless for m in self.properties if m.word and m.unless}
        #: each property word's roles (for engine.rules.RuleTable.nouns_playing)
        self.roles_by_word = {m.word: tuple(m.roles) for m in self.properties if m.word and m.roles}
        #: the roles every word tile plays, and their bits
        self.word_roles = frozenset(r for m in self.properties if m.words for r in m.roles)
        self.word_bits = _mask(self.bits, [m.word for m in self.properties if m.word and m.words])
        contacts = [(m.word, m.contact) for m in self.properties if m.word and m.contact]
        #: the destroying contacts, then the winning ones, each in rank order
        self.destroys = tuple(sorted((c for c in contacts if c[1].destroys), key=_rank))
        self.wins = tuple(sorted((c for c in contacts if not c[1].destroys), key=_rank))
        #: the properties whose objects' cells the public turn visits for each kind
        self.destroy_at = frozenset(c.at for _, c in self.destroys)
        self.win_at = frozenset(c.at for _, c in self.wins)
        #: the public rules, as the contacts phase calls them: (rule, cause) and rule
        self.destroy_rules = tuple((c.cell, c.cause) for _, c in self.destroys)
        self.win_rules = tuple(c.cell for _, c in self.wins)
        self.contact_reads = frozenset(w for _, c in contacts for w in c.reads)
        #: (property, whose cells) of every contact: engine.play.contacts.contact_cells
        self.revisits = tuple(dict.fromkeys(p for _, c in contacts for p in c.revisit.items()))
        #: the bits of the properties the walk shortcut cannot resolve
        self.no_walk = _mask(self.bits, [m.word for m in self.properties if m.word and not m.walks])
        self.lints: tuple[Lint, ...] = tuple(lint for m in mechanics for lint in m.lints)
        self.lint_codes = tuple(code for m in mechanics for code in m.lint_codes)

    def __repr__(self) -> str:
        return f"Mechanics({', '.join(m.name for m in self.all)})"

    def plays(self, props: Iterable[str], role: Role) -> bool:
        """Whether an object with the properties ``props`` plays ``role`` (``unless`` applied)."""
        have = frozenset(props)
        return any(
            word in self.role_words[role] and not self.unless.get(word, frozenset()) & have
            for word in have
        )

    def need_bits(self, contact: Contact) -> int:
        """The bits a cell must hold, all of them, for ``contact`` to act."""
        return _mask(self.bits, contact.needs)


def _mask(bits: dict[str, int], words: Iterable[str]) -> int:
    out = 0
    for word in words:
        out |= bits[word]
    return out


def _rank(entry: tuple[str, Contact]) -> int:
    return entry[1].rank


_lock = threading.Lock()
_mechanics: list[Mechanic] = []
_current: Mechanics | None = None
_revision = 0


def register(mechanic: Mechanic) -> Mechanic:
    """Add ``mechanic``; returns it as registered, with its compact bit.

    Raises:
        ValueError: its name or word is taken, a word it names is not registered,
            or every property bit is in use.
    """
    global _current, _revision
    with _lock:
        names = {m.name for m in _mechanics}
        words = {m.word for m in _mechanics if m.word}
        if mechanic.name in names:
            raise ValueError(f"a mechanic named {mechanic.name!r} is registered already")
        bit = 0
        if mechanic.word is not None:
            if mechanic.word in words:
                raise ValueError(f"{mechanic.word} is the word of a registered mechanic")
            used = {m.bit for m in _mechanics}
            free = [1 << k for k in range(PROPERTY_BITS) if 1 << k not in used]
            if not free:
                raise ValueError(f"every one of the {PROPERTY_BITS} property bits is in use")
            bit = free[0]
            named = set(mechanic.unless)
            if mechanic.contact is not None:
                contact = mechanic.contact
                named |= {contact.at, *contact.needs, *contact.revisit}
                named |= {w for w in contact.revisit.values() if w is not None}
                movers = {m.word for m in _mechanics if m.word and Role.MOVER in m.roles}
                if (
                    not contact.needs
                    - movers
                    - ({mechanic.word} if Role.MOVER in mechanic.roles else set())
                ):
                    raise ValueError(
                        f"{mechanic.word}'s contact needs only movers: objects that only take "
                        "the intent must never act on each other"
                    )
            unknown = named - words - {mechanic.word}
            if unknown:
                raise ValueError(f"{mechanic.name} names words no mechanic has: {sorted(unknown)}")
        registered_one = replace(mechanic, bit=bit)
        _mechanics.append(registered_one)
        _revision += 1
        _current = None
        return registered_one


def unregister(name: str) -> None:
    """Remove the mechanic called ``name`` (a test's toy, once the test is done).

    Raises:
        KeyError: no mechanic of that name is registered.
    """
    global _current, _revision
    with _lock:
        found = [m for m in _mechanics if m.name == name]
        if not found:
            raise KeyError(name)
        _mechanics.remove(found[0])
        _revision += 1
        _current = None


def registered() -> Mechanics:
    """The mechanics as they stand: one object while nothing is registered or removed."""
    global _current
    current = _current
    if current is None:
        with _lock:
            if _current is None:
                _current = Mechanics(tuple(_mechanics), _revision)
            current = _current
    return current
