"""The checks of one level a schema cannot express, run on whatever of it is sound.

:func:`build_level` turns a schema-valid level document into its model (a
refusal becomes located problems). :func:`level_problems` checks unique ids,
positions inside the grid, which tokens are nouns in this level, the pack's noun
vocabulary, automata and the frail mechanic's map, and the parse budget of the initial board.
Pointers are relative to the level.

The checks read the level document itself, and take a :class:`~engine.packs.records.Breaks`
saying which of its values the schema refused: a check that reads a refused value
is skipped for that record only (an entity at ``x = -1`` is not called outside
the grid, and its noun is still checked), so one pass finds every problem. Each
mistake is one problem however often it repeats (:mod:`engine.packs.repeats`):
a missing noun used forty times is one problem that counts the other uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError as PydanticError

from engine.errors import Problem, RuleComplexityError, escape_pointer_token, pointer
from engine.model import Level
from engine.packs.compiled import is_integer
from engine.packs.jsontext import bad_text
from engine.packs.records import _SOUND as _SOUND
from engine.packs.records import SOUND, Breaks
from engine.packs.repeats import Repeats
from engine.rules import WordTile, parse_units
from engine.tokens import Vocabulary, WordRole

_ROLE_TEXT = {
    WordRole.NOUN: "a noun",
    WordRole.OPERATOR: "an operator",
    WordRole.PROPERTY: "a property",
    WordRole.MECHANIC: "a mechanic's property word",
}


def build_level(doc: Any, prefix: str = "") -> tuple[Level | None, list[Problem]]:
    """The level model of a schema-valid document, or the model's refusal as problems."""
    try:
        return Level.model_validate(doc), []
    except PydanticError as exc:  # the schema lets nothing through that fails here; stay located
        return None, model_problems(exc, doc, prefix)


def model_problems(exc: PydanticError, doc: Any, prefix: str = "") -> list[Problem]:
    """A pydantic error as located problems (the schema should have caught it first).

    The schema cannot see one fault the models refuse: text holding a lone
    surrogate, which is ``bad-text`` here as when it is read from a file. An
    optional field is a union, so one fault can come back once per branch; it is
    listed once.
    """
    found: dict[tuple[str, str], Problem] = {}
    for e in exc.errors(include_url=False, include_input=False):
        where = prefix + pointer(*_document_path(doc, e["loc"]))
        if e["type"] == "string_unicode":
            problem = bad_text(())
            problem = Problem(where, problem.code, problem.message)
        elif e["type"].endswith("_type"):
            problem = Problem(where, "wrong-type", e["msg"])
        else:
            problem = Problem(where, "invalid-value", e["msg"])
        found.setdefault((where, problem.code), problem)
    bad = {where for where, code in found if code == "bad-text"}
    return [p for (where, code), p in found.items() if code == "bad-text" or where not in bad]


def _document_path(doc: Any, loc: tuple[Any, ...]) -> list[Any]:
    """The parts of a pydantic location that exist in the document.

    Pydantic adds the tag of a discriminated union (``object``, ``move``) and
    ``[key]`` to its locations; neither is a place in the document.
    """
    path: list[Any] = []
    current = doc
    for index, part in enumerate(loc):
        in_map = isinstance(current, Mapping) and part in current
        in_list = isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        if in_map or in_list:
            current = current[part]
        elif index < len(loc) - 1 or part == "[key]" or not isinstance(current, Mapping):
            continue  # a tag, a key marker, or a union branch below a value
        path.append(part)
    return path


def level_problems(
    level: Level | Mapping[str, Any],
    nouns: frozenset[str] | None = None,
    *,
    breaks: Breaks = SOUND,
    read_rules: bool = True,
) -> list[Problem]:
    """The semantic problems of one level, pointers relative to it, each mistake once.

    ``nouns`` is the pack's noun vocabulary; without it nouns are not checked
    against a pack (a level loaded on its own). ``breaks`` says which values the
    schema refused (none: the level passed it). ``read_rules=False`` skips the
    parse budget (a pack whose total has run out reports that once). The parse
    budget is read only from a level that passed the schema and has no other
    problem than nouns missing from the pack: it reads every word of the board,
    and a word with a refused field could be anywhere.

    Raises:
        WorkLimitError: an open :func:`~engine.rules.metered` total ran out here.
    """
    doc = level.to_data() if isinstance(level, Level) else level
    if not isinstance(doc, Mapping):
        return []
    read = _Reader(doc, breaks)
    found = Repeats()
    words = _entity_problems(read, found)
    _automata_problems(read, found)
    _mechanic_problems(read, found)
    if nouns is not None:
        _unknown_nouns(read, nouns, found)
    problems = found.problems()
    # Nouns missing from the pack change no word's role: the board reads the same.
    readable = all(p.code == "unknown-noun" for p in problems)
    if readable and read_rules and not breaks.any and words is not None:
        problems += rule_problems(words, read.vocabulary)
    return problems


def rule_problems(words: list[WordTile], vocabulary: Vocabulary) -> list[Problem]:
    """The parse budget of a level's authored ``words`` (ascending id), as problems.

    The settle reads the authored words first; destroying words can only shrink
    the parse, so the authored words bound its work. Counting is enough: no rule
    is built.

    Raises:
        WorkLimitError: an open :func:`~engine.rules.metered` total ran out here.
    """
    try:
        parse_units(words, vocabulary)
    except RuleComplexityError as exc:
        return [Problem("/entities", "rule-complexity", str(exc))]
    return []


class _Reader:
    """A level document's values, each only where the schema accepted it."""

    def __init__(self, doc: Mapping[str, Any], breaks: Breaks) -> None:
        self.doc = doc
        self.breaks = breaks
        self.width = self.number("width")
        self.height = self.number("height")
        self.entities = self.records("entities")
        self.automata = self.records("automata")
        self.mechanics = self.records("mechanics")
        # A mechanic's word (engine.mechanics.frail) is opted into by a level mechanic of its type; a
        # mechanic whose type is refused might be one, so then nothing is said about
        # the opt-in.
        types = [self.value(f"/mechanics/{i}/type", m, "type") for i, m in self.mechanics]
        self.opted_known = self.sound("/mechanics") and all(isinstance(t, str) for t in types)
        self.opted = frozenset(t for t in types if isinstance(t, str))
        # An automaton's property word is a word of this level wherever it is well
        # formed: a refused property is never a token, so no token's role is in doubt.
        properties = tuple(
            prop
            for i, a in self.automata
            if isinstance(prop := self.value(f"/automata/{i}/property", a, "property"), str)
        )
        self.vocabulary = Vocabulary.for_level(
            frail=False, opted=self.opted, automaton_properties=properties
        )

    def sound(self, ptr: str) -> bool:
        return self.breaks.sound(ptr)

    def number(self, key: str) -> int | None:
        value = self.doc.get(key)
        if not self.sound(f"/{key}") or not is_integer(value):
            return None
        return int(value)

    def records(self, key: str) -> list[tuple[int, Mapping[str, Any]]]:
        """The list's records that are objects, with their indexes (none if it is refused)."""
        items = self.doc.get(key)
        if not isinstance(items, list) or not self.sound(f"/{key}"):
            return []
        return [(i, item) for i, item in enumerate(items) if isinstance(item, Mapping)]

    def value(self, ptr: str, record: Mapping[str, Any], key: str) -> Any:
        """``record[key]`` where the schema accepted it (``ptr`` is its pointer), else ``None``."""
        if key not in record or not self.sound(ptr):
            return None
        return record[key]

    def field(self, name: str, index: int, record: Mapping[str, Any], key: str) -> Any:
        """:meth:`value` of a record's own field (``record`` is ``self.<name>``'s item
        ``index``, its list sound): no pointer is made unless a problem needs one."""
        if key not in record:
            return None
        found = self.breaks.records.get((name, index), _SOUND)
        if found is None or (found and not self.breaks.sound(f"/{name}/{index}/{key}")):
            return None
        return record[key]

    def container(self, ptr: str, record: Mapping[str, Any], key: str) -> Any:
        """``record[key]``, a list or map the schema accepted as one (some of its items
        may be refused), else ``None``."""
        if key not in record or not self.breaks.holds(ptr):
            return None
        return record[key]


def _token(read: _Reader, index: int, entity: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """``(kind, field, token)`` of an entity whose kind and token are sound."""
    kind = read.field("entities", index, entity, "kind")
    if kind not in ("object", "word"):
        return None
    name = "noun" if kind == "object" else "text"
    token = read.field("entities", index, entity, name)
    return (kind, name, token) if isinstance(token, str) else None


def _entity_problems(read: _Reader, found: Repeats) -> list[WordTile] | None:
    """The entities' problems; returns the board's words when every word is sound."""
    vocabulary = read.vocabulary
    first_use: dict[int, int] = {}
    width, height = read.width, read.height
    words: list[WordTile] | None = []
    field = read.field
    for index, entity in read.entities:
        raw_id = field("entities", index, entity, "id")
        entity_id = int(raw_id) if is_integer(raw_id) else None
        if entity_id is not None:
            if entity_id in first_use:
                found.add(
                    "duplicate-entity-id",
                    Problem(
                        f"/entities/{index}/id",
                        "duplicate-entity-id",
                        f"entity id {entity_id} is already used by /entities/{first_use[entity_id]}",
                    ),
                    ("entity reuses an id", "entities reuse an id"),
                )
            else:
                first_use[entity_id] = index
        x, y = field("entities", index, entity, "x"), field("entities", index, entity, "y")
        outside = []
        if width is not None and is_integer(x) and x >= width:
            outside.append(("x", int(x)))
        if height is not None and is_integer(y) and y >= height:
            outside.append(("y", int(y)))
        if outside:
            where = ", ".join(f"{axis}={value}" for axis, value in outside)
            verb = "is" if len(outside) == 1 else "are"
            found.add(
                "out-of-bounds",
                Problem(
                    f"/entities/{index}/{outside[0][0]}",
                    "out-of-bounds",
                    f"{where} {verb} outside the {width}x{height} grid",
                ),
                ("entity outside it", "entities outside it"),
            )
        read_token = _token(read, index, entity)
        if read_token is None:
            if field("entities", index, entity, "kind") != "object":
                words = None  # a word, maybe, that cannot be read
            continue
        base = f"/entities/{index}"
        kind, name, token = read_token
        if kind == "word":
            if words is not None and entity_id is not None and is_integer(x) and is_integer(y):
                words.append((entity_id, token, int(x), int(y)))
            else:
                words = None
        mechanic = vocabulary.mechanics.by_word.get(token)
        if mechanic is not None and mechanic.opt_in and mechanic.opt_in not in read.opted:
            if read.opted_known:
                code = f"{mechanic.opt_in}-not-declared"
                found.add(
                    code,
                    Problem(f"{base}/{name}", code, mechanic.not_declared),
                    ("entity", "entities"),
                )
        elif kind == "object" and not vocabulary.is_noun(token):
            found.add(
                ("invalid-noun", token),
                Problem(
                    f"{base}/noun",
                    "invalid-noun",
                    f"{token} is {_what(vocabulary, token)} in this level, "
                    "not a noun an object can carry",
                ),
                ("object", "objects"),
            )
    if words is not None:
        words.sort()
    return words


def _what(vocabulary: Vocabulary, token: str) -> str:
    """What a token is in a level, as a problem says it ("an operator", "a property")."""
    return _ROLE_TEXT[vocabulary.role(token)]


def _automata_problems(read: _Reader, found: Repeats) -> None:
    seen: dict[str, int] = {}
    vocabulary = read.vocabulary
    for index, automaton in read.automata:
        base = f"/automata/{index}"
        automaton_id = read.value(base + "/id", automaton, "id")
        if isinstance(automaton_id, str):
            if automaton_id in seen:
                found.add(
                    ("duplicate-automaton-id", automaton_id),
                    Problem(
                        base + "/id",
                        "duplicate-automaton-id",
                        f"automaton id {automaton_id!r} is already used by "
                        f"/automata/{seen[automaton_id]}",
                    ),
                    ("automaton", "automata"),
                )
            else:
                seen[automaton_id] = index
        prop = read.value(base + "/property", automaton, "property")
        if isinstance(prop, str):
            builtin = Vocabulary.builtin().role(prop)
            if builtin is not WordRole.NOUN:
                what = "an operator" if builtin is WordRole.OPERATOR else "a built-in property"
                found.add(
                    ("invalid-property", prop),
                    Problem(
                        base + "/property",
                        "invalid-property",
                        f"{prop} cannot be an automaton property: it is {what}",
                    ),
                    ("automaton", "automata"),
                )
        subject = read.value(base + "/subject", automaton, "subject")
        if isinstance(subject, str) and not vocabulary.is_noun(subject):
            found.add(
                ("invalid-subject", subject),
                Problem(
                    base + "/subject",
                    "invalid-subject",
                    f"subject {subject} is {_what(vocabulary, subject)} in this level, not a noun",
                ),
                ("automaton", "automata"),
            )
        pattern = read.container(base + "/pattern", automaton, "pattern")
        if not isinstance(pattern, list):
            continue
        for j, step in enumerate(pattern):
            where = f"{base}/pattern/{j}"
            if (
                not isinstance(step, Mapping)
                or read.value(where + "/action", step, "action") != "move"
            ):
                continue
            dx, dy = (read.value(f"{where}/{k}", step, k) for k in ("dx", "dy"))
            if is_integer(dx) and is_integer(dy) and abs(dx) + abs(dy) != 1:
                dx, dy = int(dx), int(dy)
                what = "has no direction" if dx == dy == 0 else "is diagonal"
                message = f"move (dx={dx}, dy={dy}) {what}; use one of (1,0), (-1,0), (0,1), (0,-1)"
                found.add(
                    ("non-cardinal-move", message),
                    Problem(where + "/dx", "non-cardinal-move", message),
                    ("step", "steps"),
                )
        phase = read.value(base + "/phase", automaton, "phase") if "phase" in automaton else 0
        if is_integer(phase) and phase >= len(pattern):
            message = f"phase {int(phase)} is past the end of a {len(pattern)}-step pattern"
            found.add(
                ("phase-out-of-range", message),
                Problem(base + "/phase", "phase-out-of-range", message),
                ("automaton", "automata"),
            )


def _frail_mechanics(read: _Reader) -> list[tuple[int, Mapping[str, Any]]]:
    """The mechanics whose type is (soundly) frail."""
    return [
        (i, m)
        for i, m in read.mechanics
        if read.value(f"/mechanics/{i}/type", m, "type") == "frail"
    ]


def sound_leaves(read: _Reader, index: int, mechanic: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The entries of a frail mechanic's ``leaves`` map that the schema accepted."""
    base = f"/mechanics/{index}/leaves"
    leaves = read.container(base, mechanic, "leaves")
    if not isinstance(leaves, Mapping):
        return []
    return [
        (key, value)
        for key, value in leaves.items()
        if isinstance(value, str) and read.sound(f"{base}/{escape_pointer_token(key)}")
    ]


def frail_leaves(doc: Mapping[str, Any], breaks: Breaks = SOUND) -> dict[int, dict[str, str]]:
    """Each frail mechanic's sound ``leaves`` entries, by the mechanic's index."""
    read = _Reader(doc, breaks)
    return {i: dict(sound_leaves(read, i, m)) for i, m in _frail_mechanics(read)}


def _mechanic_problems(read: _Reader, found: Repeats) -> None:
    vocabulary = read.vocabulary
    frails = _frail_mechanics(read)
    for index, _mechanic in frails[1:]:
        found.add(
            "duplicate-mechanic",
            Problem(
                f"/mechanics/{index}",
                "duplicate-mechanic",
                f"a level declares the frail mechanic once; /mechanics/{frails[0][0]} already does",
            ),
            ("mechanic", "mechanics"),
        )
    for index, mechanic in frails:
        for key, value in sound_leaves(read, index, mechanic):
            for token, what in ((key, "key"), (value, "value")):
                if not vocabulary.is_noun(token):
                    found.add(
                        ("invalid-noun", token),
                        Problem(
                            pointer("mechanics", index, "leaves", key),
                            "invalid-noun",
                            f"leaves {what} {token} is {_what(vocabulary, token)}, not a noun",
                        ),
                        ("use", "uses"),
                    )


def _unknown_nouns(read: _Reader, declared: frozenset[str], found: Repeats) -> None:
    vocabulary = read.vocabulary

    def check(token: str, where: str, what: str) -> None:
        if token not in declared and vocabulary.is_noun(token):
            found.add(
                ("unknown-noun", token),
                Problem(where, "unknown-noun", f"{what} {token} is not in the pack's nouns"),
                ("use", "uses"),
            )

    for index, entity in read.entities:
        read_token = _token(read, index, entity)
        if read_token is not None:
            kind, name, token = read_token
            what = "object noun" if kind == "object" else "noun word"
            check(token, f"/entities/{index}/{name}", what)
    for index, automaton in read.automata:
        subject = read.value(f"/automata/{index}/subject", automaton, "subject")
        if isinstance(subject, str):
            check(subject, f"/automata/{index}/subject", "subject")
    for index, mechanic in _frail_mechanics(read):
        for key, value in sound_leaves(read, index, mechanic):
            where = pointer("mechanics", index, "leaves", key)
            check(key, where, "FRAIL map noun")
            check(value, where, "FRAIL leftover noun")
