"""Writing packs: the canonical text (docs/validation.md, "Writing packs") and the atomic writer."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import dump_pack, save_pack, write_atomic
from engine.share.install import install_pack
from tests.engine.strategies import levels
from tests.support import PACKS_DIR, pack_document

NOUN_KEYS = ("BABA", "ROCK", "FLAG", "WATER", "DRIFT", "SAND", "KEKE", "MOUSE")


def pack_of(*level_docs: dict[str, Any]) -> dict[str, Any]:
    return pack_document(*level_docs, pack_id="saved", nouns=list(NOUN_KEYS))


def shuffled(value: Any, rng: random.Random, *, data_map: bool = False) -> Any:
    """The same document with every record's fields in another order.

    Maps whose keys are data (``nouns``, ``leaves``) keep their order: it is content.
    """
    if isinstance(value, dict):
        keys = list(value)
        if not data_map:
            rng.shuffle(keys)
        return {k: shuffled(value[k], rng, data_map=k in ("nouns", "leaves")) for k in keys}
    if isinstance(value, list):
        return [shuffled(v, rng) for v in value]
    return value


# ----------------------------------------------------------------- canonical text

EXPECTED = """{
  "format": "rulegrid-pack",
  "version": 1,
  "id": "tiny",
  "title": "Tiny",
  "nouns": {
    "ROCK": {"color": "#c29e46", "glyph": "R"},
    "BABA": {"color": "#d9396a"}
  },
  "levels": [
    {
      "id": "one",
      "width": 3,
      "height": 1,
      "entities": [
        {"id": 1, "kind": "object", "noun": "BABA", "x": 0, "y": 0},
        {"id": 2, "kind": "word", "text": "ROCK", "x": 2, "y": 0}
      ],
      "automata": [
        {
          "id": "c",
          "property": "TICK",
          "pattern": [
            {"action": "move", "dx": 1, "dy": 0, "cue": "step"},
            {"action": "wait"}
          ]
        }
      ],
      "mechanics": [
        {
          "id": "frail",
          "type": "frail",
          "version": 1,
          "state": "derived",
          "leaves": {"ROCK": "BABA"}
        }
      ],
      "solution": "RR",
      "colour": "red",
      "zz": []
    }
  ]
}
"""


def test_fields_follow_the_format_order_and_data_maps_keep_theirs() -> None:
    level = {
        "zz": [],
        "solution": "RR",
        "mechanics": [
            {
                "leaves": {"ROCK": "BABA"},
                "state": "derived",
                "version": 1,
                "type": "frail",
                "id": "frail",
            }
        ],
        "automata": [
            {
                "pattern": [
                    {"cue": "step", "dy": 0, "dx": 1, "action": "move"},
                    {"action": "wait"},
                ],
                "property": "TICK",
                "id": "c",
            }
        ],
        "entities": [
            {"y": 0, "x": 0, "noun": "BABA", "kind": "object", "id": 1},
            {"text": "ROCK", "y": 0, "x": 2, "kind": "word", "id": 2},
        ],
        "colour": "red",
        "height": 1,
        "width": 3,
        "id": "one",
    }
    pack = {
        "levels": [level],
        "nouns": {"ROCK": {"glyph": "R", "color": "#c29e46"}, "BABA": {"color": "#d9396a"}},
        "title": "Tiny",
        "id": "tiny",
        "version": 1,
        "format": "rulegrid-pack",
    }
    assert dump_pack(pack) == EXPECTED


def test_the_text_holds_exactly_what_it_was_given() -> None:
    # hand-written: no automata, no phase, a float and an unknown field; nothing added or dropped
    level = {"id": "a", "width": 2.0, "height": 1, "entities": [], "note": {"b": 1, "a": 2}}
    doc = {
        "format": "rulegrid-pack",
        "version": 1,
        "id": "p",
        "title": "P",
        "nouns": {},
        "levels": [level],
    }
    text = dump_pack(doc)
    assert json.loads(text) == doc
    assert '"width": 2.0' in text
    assert '"note": {"b": 1, "a": 2}' in text  # not a record of the format: kept as given
    assert "automata" not in text
    assert "phase" not in text


def test_a_pack_model_is_written_in_its_normalized_form() -> None:
    level = {
        "id": "a",
        "width": 2,
        "height": 1,
        "entities": [],
        "automata": [{"id": "c", "property": "TICK", "pattern": [{"action": "wait"}]}],
    }
    pack = engine.load_pack(pack_of(level))
    text = dump_pack(pack)
    assert json.loads(text) == pack.to_data()
    assert '"phase": 0' in text  # the normalized form fills in the default


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(levels(), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_dump_load_dump_is_identical_whatever_the_key_order(
    level_docs: list[dict[str, Any]], rng: random.Random
) -> None:
    docs = [{**d, "id": f"level-{n}"} for n, d in enumerate(level_docs)]
    doc = pack_of(*docs)
    text = dump_pack(doc)
    assert dump_pack(json.loads(text)) == text
    assert dump_pack(shuffled(doc, rng)) == text
    assert json.loads(text) == doc
    assert engine.load_pack(json.loads(text)) == engine.load_pack(doc)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_values_json_cannot_hold_are_refused_before_anything_is_written(
    tmp_path: Path, bad: float
) -> None:
    target = tmp_path / "p.json"
    with pytest.raises(ValueError, match="JSON"):
        save_pack({**pack_of(), "title": bad}, target)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ atomic writer


def test_a_new_file_is_written_whole_with_no_temporary_left(tmp_path: Path) -> None:
    target = tmp_path / "deeper" / "p.json"
    assert write_atomic(target, "é\n") == target
    assert target.read_bytes() == "é\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["p.json"]


def test_replacing_keeps_the_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "p.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o600)
    write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("failing", ["fsync", "replace", "chmod"])
def test_a_failure_mid_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "p.json"
    target.write_text("old", encoding="utf-8")

    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, fail)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, "new" * 1000)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


def test_an_interrupt_mid_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "p.json"
    target.write_text("old", encoding="utf-8")

    def interrupt(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "new")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


@pytest.mark.parametrize("links", [True, False])
def test_without_replace_an_existing_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, links: bool
) -> None:
    if not links:

        def no_links(*_args: object) -> None:
            raise PermissionError("no hard links here")

        monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "p.json"
    target.write_text("theirs", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_atomic(target, "mine", replace=False)
    assert target.read_text(encoding="utf-8") == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]
    fresh = tmp_path / "q.json"
    write_atomic(fresh, "mine", replace=False)
    assert fresh.read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json", "q.json"]


# ------------------------------------------------------------- one writer for all


def test_share_install_and_save_pack_write_the_same_bytes(tmp_path: Path) -> None:
    level = {"id": "a", "width": 2, "height": 1, "entities": []}
    pack = engine.load_pack(pack_of(level))
    installed = install_pack(pack, tmp_path / "installed.json", replace=False)
    saved = save_pack(pack, tmp_path / "saved.json")
    assert installed.read_bytes() == saved.read_bytes() == dump_pack(pack).encode("utf-8")
    assert engine.load_pack(installed) == pack


# ------------------------------------------------- the text a level at a time
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(levels(), min_size=0, max_size=3),
    st.randoms(use_true_random=False),
    st.dictionaries(st.sampled_from(["zz", "aa", "extra"]), st.integers() | st.lists(st.text())),
)
def test_the_pieces_join_to_exactly_the_text(
    level_docs: list[dict[str, Any]], rng: random.Random, unknown: dict[str, Any]
) -> None:
    docs = [{**d, "id": f"level-{n}"} for n, d in enumerate(level_docs)]
    doc = shuffled({**pack_of(*docs), **unknown}, rng)
    pieces = list(engine.dump_pack_chunks(doc))
    assert "".join(pieces) == dump_pack(doc)
    assert len(pieces) == (len(docs) + 2 if docs else 1)  # head, each level, tail


def test_the_bundled_packs_are_written_the_same_a_level_at_a_time(tmp_path: Path) -> None:
    for name in ("tutorial.json", "keke-classics.json"):
        doc = json.loads((PACKS_DIR / name).read_text(encoding="utf-8"))
        whole = write_atomic(tmp_path / f"whole-{name}", dump_pack(doc)).read_bytes()
        pieces = [piece.encode() for piece in engine.dump_pack_chunks(doc)]
        assert write_atomic(tmp_path / name, pieces).read_bytes() == whole


def test_a_value_json_cannot_hold_fails_its_piece(tmp_path: Path) -> None:
    doc = pack_of({"id": "a", "width": 1, "height": 1, "entities": [], "x": float("nan")})
    pieces = engine.dump_pack_chunks(doc)
    assert next(pieces).startswith("{")  # the shell is fine
    with pytest.raises(ValueError, match="not JSON compliant"):
        list(pieces)
