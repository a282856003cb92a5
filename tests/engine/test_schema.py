"""The checked-in JSON Schemas: in sync with the models, readable, and the codes they yield.

The engine answers "valid?" with a compiled form of the checked-in schema and asks
jsonschema to explain failures; test_validation_fuzz.py proves the compiled check,
jsonschema and the pydantic models never disagree on a document.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import engine.packs.schema as schema_module
from engine import ValidationError, load_level, load_pack
from engine.cli import main
from engine.packs.compiled import UnsupportedSchemaError, compile_schema
from engine.packs.schema import (
    SCHEMA_FILES,
    checked_in,
    level_json_schema,
    pack_json_schema,
    schema_problems,
    stale_schemas,
    write_schemas,
)
from engine.packs.shipped import schema_folder
from tests.support import ROOT, grid_level, pack_document

LEVEL = grid_level(
    ["baba . rock", "BABA IS YOU", "ROCK IS TICK"],
    "sample",
    title="Sample",
    solution="RR",
    automata=[
        {
            "id": "clock",
            "subject": "ROCK",
            "property": "TICK",
            "phase": 1,
            "pattern": [
                {"action": "move", "dx": 1, "dy": 0, "cue": "step", "sound": "tick"},
                {"action": "wait"},
            ],
        }
    ],
    mechanics=[
        {
            "id": "frail",
            "type": "frail",
            "version": 1,
            "state": "derived",
            "leaves": {"ROCK": "BABA"},
        }
    ],
)
PACK = {**pack_document(LEVEL, pack_id="sample"), "author": "Tests", "description": "A sample."}
PACK["nouns"]["BABA"]["glyph"] = "B"


def test_checked_in_schemas_equal_the_generated_ones() -> None:
    # In a checkout the shipped schemas are the files of schemas/ (the editable mapping).
    assert schema_folder().resolve() == (ROOT / "schemas").resolve()
    for name, generate in (("pack", pack_json_schema), ("level", level_json_schema)):
        on_disk = json.loads((ROOT / "schemas" / SCHEMA_FILES[name]).read_text(encoding="utf-8"))
        assert on_disk == generate(), "run: rulegrid schema --write"
    assert stale_schemas() == []


def test_schema_check_command_passes_and_catches_drift(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schema", "--check"]) == 0
    write_schemas(tmp_path)
    assert stale_schemas(tmp_path) == []
    drifted = json.loads((tmp_path / "level.schema.json").read_text(encoding="utf-8"))
    drifted["properties"]["width"]["maximum"] = 256
    (tmp_path / "level.schema.json").write_text(json.dumps(drifted), encoding="utf-8")
    assert stale_schemas(tmp_path) == ["level"]
    monkeypatch.setattr("engine.packs.schema.schema_folder", lambda: tmp_path)
    assert main(["schema", "--check"]) == 1
    assert "level.schema.json is out of date" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["pack", "level"])
def test_schemas_are_draft_2020_12_with_readable_definitions(name: str) -> None:
    schema = checked_in(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(SCHEMA_FILES[name])
    assert schema["title"]
    assert schema["description"]
    for definition, body in schema["$defs"].items():
        assert body.get("title"), definition
        assert body.get("description"), definition


def test_sample_documents_are_valid_for_schema_and_models() -> None:
    assert schema_problems("level", LEVEL) == []
    assert schema_problems("pack", PACK) == []
    assert load_level(LEVEL).to_data() == LEVEL
    assert load_pack(PACK).to_data() == PACK


def problems(doc: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as caught:
        load_pack(doc)
    return [(p.pointer, p.code) for p in caught.value.errors]


def edited(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(PACK)
    change(doc)
    return doc


ENTITY = "/levels/0/entities/0"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("format"), ("/format", "missing-field")),
        (lambda d: d["levels"][0]["entities"][0].pop("x"), (f"{ENTITY}/x", "missing-field")),
        (lambda d: d["levels"][0]["entities"][0].pop("kind"), (f"{ENTITY}/kind", "missing-field")),
        (lambda d: d.update(colour="red"), ("/colour", "unknown-field")),
        (
            lambda d: d["levels"][0]["automata"][0]["pattern"][1].update(dx=1),
            ("/levels/0/automata/0/pattern/1/dx", "unknown-field"),
        ),
        (lambda d: d["levels"][0].update(width="9"), ("/levels/0/width", "wrong-type")),
        (lambda d: d.update(levels={}), ("/levels", "wrong-type")),
        (lambda d: d["levels"][0]["entities"].__setitem__(0, 7), (ENTITY, "wrong-type")),
        (lambda d: d["levels"][0]["entities"][0].update(x=-1), (f"{ENTITY}/x", "out-of-range")),
        (
            lambda d: d["levels"][0]["automata"][0]["pattern"][0].update(dy=2),
            ("/levels/0/automata/0/pattern/0/dy", "out-of-range"),
        ),
        (
            lambda d: d["levels"][0]["automata"][0].update(phase=256),
            ("/levels/0/automata/0/phase", "out-of-range"),
        ),
        (
            lambda d: d["levels"][0]["entities"][0].update(noun="baba"),
            (f"{ENTITY}/noun", "bad-format"),
        ),
        (lambda d: d["nouns"]["BABA"].update(color="pink"), ("/nouns/BABA/color", "bad-format")),
        (lambda d: d["nouns"].update(rock={"color": "#000000"}), ("/nouns/rock", "bad-format")),
        (lambda d: d.update(id="my pack"), ("/id", "bad-format")),
        (
            lambda d: d["levels"][0]["automata"][0]["pattern"][0].update(cue="Big Bang"),
            ("/levels/0/automata/0/pattern/0/cue", "bad-format"),
        ),
        (lambda d: d["levels"][0].update(solution="RRX"), ("/levels/0/solution", "bad-format")),
        (lambda d: d.update(title="t" * 201), ("/title", "bad-size")),
        (
            lambda d: d["levels"][0]["automata"][0].update(pattern=[]),
            ("/levels/0/automata/0/pattern", "bad-size"),
        ),
        (lambda d: d.update(version=2), ("/version", "bad-value")),
        (
            lambda d: d["levels"][0]["mechanics"][0].update(state="stored"),
            ("/levels/0/mechanics/0/state", "bad-value"),
        ),
        (
            lambda d: d["levels"][0]["entities"][0].update(kind="thing"),
            (f"{ENTITY}/kind", "unknown-kind"),
        ),
        (
            lambda d: d["levels"][0]["automata"][0]["pattern"][0].update(action="jump"),
            ("/levels/0/automata/0/pattern/0/action", "unknown-action"),
        ),
        (
            lambda d: d["levels"][0]["mechanics"].append({"id": "g", "type": "gravity"}),
            ("/levels/0/mechanics/1/type", "unknown-mechanic"),
        ),
        (
            lambda d: d["levels"][0]["entities"][0].update(leaves="WATER"),
            (f"{ENTITY}/leaves", "per-object-leaves"),
        ),
    ],
)
def test_schema_problems_have_codes_and_pointers(change: Any, expected: tuple[str, str]) -> None:
    assert problems(edited(change)) == [expected]


def test_a_wrong_kind_reports_only_the_branch_it_asked_for() -> None:
    doc = edited(lambda d: d["levels"][0]["entities"][0].update(kind="word"))
    assert problems(doc) == [
        (f"{ENTITY}/noun", "unknown-field"),
        (f"{ENTITY}/text", "missing-field"),
    ]


def test_every_schema_problem_of_a_document_is_reported_in_path_order() -> None:
    def many(d: dict[str, Any]) -> None:
        d["levels"][0]["entities"][2].update(x="far", y=-4)
        d["levels"][0]["entities"][0].pop("id")
        d.update(version=3)

    assert problems(edited(many)) == [
        ("/levels/0/entities/0/id", "missing-field"),
        ("/levels/0/entities/2/x", "wrong-type"),
        ("/levels/0/entities/2/y", "out-of-range"),
        ("/version", "bad-value"),
    ]


def test_jsonschema_alone_reports_the_same_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(d: dict[str, Any]) -> None:
        d["levels"].append(copy.deepcopy(d["levels"][0]))
        d["levels"][1]["entities"][1].update(kind="thing")
        d["levels"][0]["automata"][0].update(phase="1")
        d.update(title=5)

    doc = edited(broken)
    with_compiled = schema_problems("pack", doc)
    monkeypatch.setattr(schema_module, "_compiled", lambda name: None)
    assert schema_problems("pack", doc) == with_compiled
    assert [p.pointer for p in with_compiled] == [
        "/levels/0/automata/0/phase",
        "/levels/1/entities/1/kind",
        "/title",
    ]


def test_keywords_outside_the_compiled_subset_are_refused() -> None:
    with pytest.raises(UnsupportedSchemaError):
        compile_schema({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}})
    with pytest.raises(UnsupportedSchemaError):
        compile_schema({"$ref": "https://example.com/other.json"})
    assert compile_schema(checked_in("pack")).check(PACK)
