"""Fuzzing the validators with hypothesis.

Random JSON-like documents, random edits of the bundled tutorial pack, and
corrupted pack files go to ``load_pack``: it only ever returns a ``Pack`` or
raises ``ValidationError``. Random edits also prove that the compiled schema
check, jsonschema and the pydantic models agree on every document. A timeout
guards each fuzz test against a hang (speed itself is measured in bench/).
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError as PydanticError

from engine import Pack, ValidationError, load_pack
from engine.model import Level
from engine.packs.compiled import compile_schema
from engine.packs.schema import checked_in, schema_problems, validator
from tests.support import PACKS_DIR

TUTORIAL: dict[str, Any] = json.loads((PACKS_DIR / "tutorial.json").read_text(encoding="utf-8"))
TUTORIAL_TEXT = (PACKS_DIR / "tutorial.json").read_bytes()
CLOCKWORK = next(lv for lv in TUTORIAL["levels"] if lv.get("automata"))
FRAIL_LEVEL = next(lv for lv in TUTORIAL["levels"] if lv.get("mechanics"))
SMALL_PACK = {**TUTORIAL, "levels": [CLOCKWORK, FRAIL_LEVEL]}

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 300),
    st.sampled_from([2**31, -(2**31), 10**20, 1.0, 2.0, 0.5, -0.0, 1e300]),
    st.text(max_size=6),
    st.sampled_from(
        [
            "object",
            "word",
            "move",
            "wait",
            "frail",
            "derived",
            "rulegrid-pack",
            "BABA",
            "ROCK",
            "TICK",
            "FRAIL",
            "IS",
            "YOU",
            "baba",
            "BABA\n",
            "#a0b0c0",
            "#ABC",
            "RUDL",
            "step",
            "",
            "x" * 65,
        ]
    ),
)
KEYS = st.sampled_from(
    [
        "id",
        "kind",
        "noun",
        "text",
        "x",
        "y",
        "dx",
        "dy",
        "action",
        "leaves",
        "subject",
        "property",
        "pattern",
        "phase",
        "BABA",
        "z",
    ]
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=6,
)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*path, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, original: dict[str, Any]) -> dict[str, Any]:
    """``original`` with one to three random replacements, deletions or insertions."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(doc)))
        if not path:
            continue
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(KEYS | st.sampled_from(["extra", "glyph", "title", "solution"]))] = draw(
                VALUES
            )
        else:
            parent.insert(path[-1], draw(VALUES))
    return doc


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def model_accepts(model: type[Level] | type[Pack], doc: Any) -> bool:
    try:
        model.model_validate(doc)
    except PydanticError:
        return False
    return True


@FUZZ
@given(st.one_of(mutated(CLOCKWORK), mutated(FRAIL_LEVEL)))
def test_compiled_check_jsonschema_and_model_agree_on_levels(doc: dict[str, Any]) -> None:
    by_jsonschema = not any(validator("level").iter_errors(doc))
    assert compile_schema(checked_in("level")).check(doc) == by_jsonschema
    assert (schema_problems("level", doc) == []) == by_jsonschema
    assert model_accepts(Level, doc) == by_jsonschema


@FUZZ
@given(mutated(SMALL_PACK))
def test_compiled_check_jsonschema_and_model_agree_on_packs(doc: dict[str, Any]) -> None:
    by_jsonschema = not any(validator("pack").iter_errors(doc))
    assert compile_schema(checked_in("pack")).check(doc) == by_jsonschema
    assert (schema_problems("pack", doc) == []) == by_jsonschema
    assert model_accepts(Pack, doc) == by_jsonschema


def only_pack_or_validation_error(source: Any) -> None:
    """Anything but a Pack or a ValidationError escapes and fails the test."""
    try:
        result: Pack | ValidationError = load_pack(source)
    except ValidationError as exc:
        result = exc
    if isinstance(result, ValidationError):
        assert result.errors
        for problem in result.errors:
            assert problem.pointer == "" or problem.pointer.startswith("/")
            assert problem.code
            assert "\n" not in str(problem)
    else:
        assert isinstance(result, Pack)


@pytest.mark.timeout(300)
@FUZZ
@given(st.one_of(VALUES, st.dictionaries(st.sampled_from(list(TUTORIAL)), VALUES, max_size=7)))
def test_random_json_like_documents(doc: Any) -> None:
    if isinstance(doc, dict):
        only_pack_or_validation_error(doc)
    else:
        with pytest.raises(ValidationError):
            load_pack({"levels": doc})


@pytest.mark.timeout(300)
@FUZZ
@given(mutated(TUTORIAL))
def test_random_edits_of_a_valid_pack(doc: dict[str, Any]) -> None:
    only_pack_or_validation_error(doc)


@pytest.mark.timeout(300)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_corrupted_pack_files(data: st.DataObject) -> None:
    raw = bytearray(TUTORIAL_TEXT)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        edit = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if edit == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif edit == "cut":
            del raw[at : at + data.draw(st.integers(1, 200))]
        else:
            raw[at:at] = data.draw(
                st.binary(max_size=8) | st.sampled_from([b"[", b"{", b'"', b",", b"1e999", b"NaN"])
            )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.json"
        path.write_bytes(bytes(raw))
        only_pack_or_validation_error(path)
