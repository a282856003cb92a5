"""The quick way through a valid level: its entity list checked and built in one pass.

A level is small but for its entities: a 64x64 level holds thousands of them and
the full path walks each one three times (the compiled schema, the pydantic
models, the semantic checks), about 30 ms in all. Nearly every level an author
loads is valid, so :func:`quick_level` checks the rest of the document on the full
path (with an empty entity list, which the schema and the models check the same
way) and then takes each entity in one loop that accepts only the plainly valid
form: a dict of exactly ``id, kind, noun|text, x, y`` with whole ``int``
coordinates and id (never ``1.0`` or ``true``), a well-formed token, a unique id,
inside the grid, an object's noun a noun of this level, a mechanic's word only where the level
opts in; then the parse budget of the authored words.

Anything else gives ``None`` and the caller takes the full path, which finds and
explains every problem (or accepts the rare valid oddity such as ``"x": 1.0``). So
the quick way can only say yes where the full path says yes, with an equal model
(tests/engine/test_quick_level.py compares both on the corpora and on random
documents). The entity models are made as pydantic makes them, without running
its validator again on what this loop has just checked.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from engine.limits import MAX_ENTITY_ID, TOKEN_MAX_LENGTH
from engine.model import Level, ObjectEntity, WordEntity
from engine.packs.schema import check_document, pack_level_problems
from engine.packs.semantic import build_level, level_problems, rule_problems
from engine.rules import WordTile
from engine.tokens import Vocabulary

_TOKEN = re.compile(r"[A-Z][A-Z0-9_]*\Z").match  # TOKEN_PATTERN, $ as the end of the text
# The slots every pydantic model instance fills (BaseModel.__slots__), set directly.
_SLOTS = BaseModel.__dict__
_SET_DICT = _SLOTS["__dict__"].__set__
_SET_FIELDS = _SLOTS["__pydantic_fields_set__"].__set__
_SET_EXTRA = _SLOTS["__pydantic_extra__"].__set__
_SET_PRIVATE = _SLOTS["__pydantic_private__"].__set__
_OBJECT_FIELDS = {"id", "kind", "noun", "x", "y"}
_WORD_FIELDS = {"id", "kind", "text", "x", "y"}


def quick_level(doc: object) -> Level | None:
    """The model of ``doc`` if it is plainly valid; ``None``: take the full path.

    ``doc`` has passed the size checks (:mod:`engine.packs.sizes`).
    """
    parts = quick_parts(doc)
    if parts is None:
        return None
    level, words, vocabulary = parts
    return None if rule_problems(words, vocabulary) else level


def quick_parts(
    doc: object, nouns: frozenset[str] | None = None, *, in_pack: bool = False
) -> tuple[Level, list[WordTile], Vocabulary] | None:
    """:func:`quick_level` but for the parse budget: the model, its words and vocabulary.

    ``nouns`` is the pack's noun vocabulary and ``in_pack`` says ``doc`` is one of
    a pack's levels (its schema is the pack's); a pack reads the rules of its
    levels against its own total (:class:`~engine.packs.parts.PackBudget`).
    """
    if type(doc) is not dict:
        return None
    entities = doc.get("entities")
    if type(entities) is not list:
        return None
    shell = {**doc, "entities": []}
    if in_pack:
        schema = pack_level_problems(shell, explain=False)
        if schema.problems or schema.cut or not schema.checked:
            return None
    elif check_document("level", shell, limit=1).problems:
        return None
    level, found = build_level(shell)
    if level is None or found or level_problems(shell, nouns, read_rules=False):
        return None
    vocabulary = Vocabulary.for_level(
        frail=False,
        opted=[m.type for m in level.mechanics],
        automaton_properties=tuple(a.property for a in level.automata),
    )
    built = _entities(entities, level.width, level.height, vocabulary, nouns)
    if built is None:
        return None
    models, words = built
    words.sort()
    return level.model_copy(update={"entities": models}), words, vocabulary


def _entities(
    items: list[Any],
    width: int,
    height: int,
    vocabulary: Vocabulary,
    nouns: frozenset[str] | None,
) -> tuple[list[ObjectEntity | WordEntity], list[WordTile]] | None:
    """The entity models and the words of ``items``, or ``None`` at the first doubt."""
    # token -> (fit for an object, fit for a word); each distinct token is judged once
    judged: dict[object, tuple[bool, bool]] = {}
    # the words of mechanics a level opts into: allowed as words where it did (in properties)
    opt_in = vocabulary.mechanics.opt_in_words
    ids: set[int] = set()
    models: list[ObjectEntity | WordEntity] = []
    words: list[WordTile] = []
    new = object.__new__
    object_fields, word_fields = _OBJECT_FIELDS, _WORD_FIELDS
    token: Any
    for item in items:
        if type(item) is not dict or len(item) != 5:
            return None
        try:
            i, kind, x, y = item["id"], item["kind"], item["x"], item["y"]
            if kind == "object":
                token = item["noun"]
                model: ObjectEntity | WordEntity = new(ObjectEntity)
                fields = object_fields.copy()
                data: dict[str, Any] = {"id": i, "kind": "object", "noun": token, "x": x, "y": y}
                fit = judged.get(token)
                if fit is None:
                    fit = judged[token] = _judge(token, vocabulary, opt_in, nouns)
                if not fit[0]:
                    return None
            elif kind == "word":
                token = item["text"]
                model = new(WordEntity)
                fields = word_fields.copy()
                data = {"id": i, "kind": "word", "text": token, "x": x, "y": y}
                fit = judged.get(token)
                if fit is None:
                    fit = judged[token] = _judge(token, vocabulary, opt_in, nouns)
                if not fit[1]:
                    return None
                words.append((i, token, x, y))
            else:
                return None
        except (KeyError, TypeError):  # a missing key, or an unhashable token
            return None
        if type(i) is not int or type(x) is not int or type(y) is not int:
            return None
        if not (0 < i <= MAX_ENTITY_ID and 0 <= x < width and 0 <= y < height):
            return None
        ids.add(i)
        _SET_DICT(model, data)
        _SET_FIELDS(model, fields)
        _SET_EXTRA(model, None)
        _SET_PRIVATE(model, None)
        models.append(model)
    if len(ids) != len(models):
        return None  # a duplicate id
    return models, words


def _judge(
    token: object, vocabulary: Vocabulary, opt_in: tuple[str, ...], nouns: frozenset[str] | None
) -> tuple[bool, bool]:
    """Whether ``token`` may be an object's noun, and a word's text, in this level.

    With the pack's ``nouns``, a noun (of an object or a word) must be one of them.
    """
    if type(token) is not str or len(token) > TOKEN_MAX_LENGTH or _TOKEN(token) is None:
        return False, False
    if token in opt_in:
        return False, token in vocabulary.properties
    if not vocabulary.is_noun(token):
        return False, True
    declared = nouns is None or token in nouns
    return declared, declared
