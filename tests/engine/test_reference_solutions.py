"""Reference solutions (``references``): known solutions kept beside the intended one.

The format keeps them (parsed like a solution, capped before they are walked,
written in the canonical order), the lint replays them like the intended
solution under the same work budget, a share payload carries them only with
the solutions, and they change neither play nor a verdict (docs/decisions.md,
"Reference solutions").
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import engine
from engine import check_pack, verify_level
from engine.limits import MAX_REFERENCES
from engine.solve.verify import verdict_key
from tests.support import ROOT, grid_level, pack_document

#: Baba at (0, 1) under an open row: "RR" wins, and so do "URRD" and "UD" * n + "RR".
WINNABLE = [". . .", "baba . flag", "BABA IS YOU", "FLAG IS WIN"]


def level_with(*references: dict[str, Any], solution: str = "RR") -> dict[str, Any]:
    level = grid_level(WINNABLE, "a")
    level["solution"] = solution
    level["references"] = list(references)
    return level


def warnings_of(level: dict[str, Any], **options: Any) -> list[tuple[str, str, str]]:
    report = check_pack(pack_document(level, pack_id="p"), **options)
    assert report.errors == ()
    return [(p.pointer, p.code, p.message) for p in report.warnings]


# ------------------------------------------------------------------------ format
def test_a_reference_solution_loads_and_is_written_back_as_given() -> None:
    level = engine.load_level(level_with({"moves": "URRD", "source": "a playtester"}))
    assert [(r.moves, r.source) for r in level.references] == [("URRD", "a playtester")]
    assert level.to_data()["references"] == [{"moves": "URRD", "source": "a playtester"}]


def test_a_level_without_references_writes_none() -> None:
    level = engine.load_level(level_with())
    assert level.references == []
    assert "references" not in level.to_data()


@pytest.mark.parametrize(
    ("record", "where", "code"),
    [
        ({"moves": "RX", "source": "s"}, "/levels/0/references/0/moves", "bad-format"),
        ({"moves": "", "source": "s"}, "/levels/0/references/0/moves", "bad-size"),
        ({"moves": "RR", "source": ""}, "/levels/0/references/0/source", "bad-size"),
        ({"moves": "RR"}, "/levels/0/references/0/source", "missing-field"),
        ({"moves": "RR", "source": "s", "note": "x"}, "/levels/0/references/0/note", None),
    ],
)
def test_a_malformed_reference_is_refused_where_it_is(
    record: dict[str, Any], where: str, code: str | None
) -> None:
    with pytest.raises(engine.ValidationError) as refused:
        engine.load_pack(pack_document(level_with(record), pack_id="p"))
    [problem] = refused.value.errors
    assert problem.pointer == where
    assert code is None or problem.code == code


def test_too_many_references_are_one_problem_found_before_any_is_walked() -> None:
    level = level_with(*[{"moves": "RR", "source": "s"}] * (MAX_REFERENCES + 1))
    with pytest.raises(engine.ValidationError) as refused:
        engine.load_pack(pack_document(level, pack_id="p"))
    assert [(p.pointer, p.code) for p in refused.value.errors] == [
        ("/levels/0/references", "bad-size")
    ]
    junk = level_with(*[{"moves": 7}] * 200_000)  # junk a walk would report 200,000 times
    started = time.process_time()
    [problem] = engine.check_pack_sizes(pack_document(junk, pack_id="p"))
    assert problem.pointer == "/levels/0/references"
    assert time.process_time() - started < 5  # a sanity bound, not a speed target


def test_the_canonical_text_lists_a_reference_as_moves_then_source() -> None:
    level = level_with({"source": "a playtester", "moves": "URRD"})
    text = engine.dump_pack(pack_document(level, pack_id="p"))
    assert '{"moves": "URRD", "source": "a playtester"}' in text
    assert text.index('"solution"') < text.index('"references"')


def test_the_checked_in_schema_describes_references() -> None:
    schema = json.loads((ROOT / "schemas" / "level.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["references"]["maxItems"] == MAX_REFERENCES
    record = schema["$defs"]["ReferenceSolution"]
    assert record["required"] == ["moves", "source"]
    assert record["additionalProperties"] is False


# -------------------------------------------------------------------------- lint
def test_a_winning_reference_raises_no_warning() -> None:
    assert warnings_of(level_with({"moves": "URRD", "source": "a playtester"})) == []


def test_a_reference_that_no_longer_wins_is_said_like_the_intended_one() -> None:
    level = level_with({"moves": "R", "source": "old"}, {"moves": "UU", "source": "a playtester"})
    # the first ends short of the win; the second runs into the top edge at its second move
    assert warnings_of(level) == [
        (
            "/levels/0/references/0/moves",
            "solution-fails",
            "reference solution 1 (old) no longer wins: the level is not won after 1 moves",
        ),
        (
            "/levels/0/references/1/moves",
            "solution-fails",
            "reference solution 2 (a playtester) no longer wins: move 2 (U) is blocked; "
            "the level is not won after 2 moves",
        ),
    ]


def test_a_reference_that_wins_before_its_end() -> None:
    [(where, code, message)] = warnings_of(level_with({"moves": "RRD", "source": "s"}))
    assert (where, code) == ("/levels/0/references/0/moves", "solution-wins-early")
    assert message == (
        "reference solution 1 (s) wins before its end: the level is won after 2 of 3 moves"
    )


def test_references_are_replayed_under_the_lint_budget_with_the_intended_one() -> None:
    """The intended solution and the references share one budget; past it, one warning."""
    wander = "UD" * 400 + "RR"
    level = level_with({"moves": wander, "source": "s"}, {"moves": wander, "source": "t"})
    assert warnings_of(level) == []
    warned = warnings_of(level, lint_budget=2_000)
    assert [(w[0], w[1]) for w in warned] == [
        ("/levels/0/references/0/moves", "solution-unchecked")
    ]
    assert warned[0][2].startswith(
        "reference solution 1 (s) was not replayed to its end: it needs more than 2,000 units"
    )


# ----------------------------------------------------------- sharing and verdicts
def test_a_payload_carries_references_only_with_the_solutions() -> None:
    doc = pack_document(level_with({"moves": "URRD", "source": "s"}), pack_id="p")
    without = engine.share.decode(engine.share.export(doc))
    assert "references" not in without.pack.levels[0].to_data()
    assert without.pack.levels[0].solution is None
    shared = engine.share.decode(engine.share.export(doc, with_solutions=True))
    [level] = shared.pack.levels
    assert level.to_data()["references"] == [{"moves": "URRD", "source": "s"}]
    assert [check.record.moves for check in shared.replays] == ["RR"]  # the intended one's
    one = engine.share.decode(engine.share.export(doc, level="a"))
    assert one.level is not None
    assert one.level.references == []


def test_references_change_neither_the_verdict_nor_its_key() -> None:
    """A reference, even a shorter one, is not what the release check judges."""
    plain = engine.load_level(level_with(solution="URRD"))
    kept = engine.load_level(level_with({"moves": "RR", "source": "s"}, solution="URRD"))
    settings = engine.VerifySettings()
    assert verdict_key(plain, settings) == verdict_key(kept, settings)
    verdicts = [verify_level(level) for level in (plain, kept)]
    assert [(v.status, v.message) for v in verdicts] == [
        ("shortcut", "shortcut: 2 moves vs. intended 4")
    ] * 2
