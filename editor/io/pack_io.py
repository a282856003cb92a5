"""Packs on disk: opening through the engine's validation, atomic saving.

Opening always goes through ``engine.load_pack`` so the editor accepts exactly
what the game accepts. When that refuses a pack, :func:`read_for_repair` tries to
read the raw JSON anyway so the author can open it to fix the problems.

Saving goes through ``engine.save_pack``, the writer share install uses too: the
engine's canonical pack text (so a diff shows only real edits), written to a
temporary file next to the target and renamed over it, so a crash or a full disk
mid-save leaves the old file intact, never a half-written pack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from editor.documents.pack import PackDocument, PackPlan, read_pack_plan
from editor.io.backups import BackupStore

PACK_FILE = "pack.json"
PACK_MODULE = "pack.py"


class RepairImpossibleError(ValueError):
    """The pack's structure is too broken for the editor to hold it."""


@dataclass(slots=True)
class OpenResult:
    """A pack ready to edit, or the problems that kept it from loading."""

    document: PackDocument | None
    problems: list[engine.Problem] = field(default_factory=list)


def is_folder_pack(path: Path) -> bool:
    return path.is_dir()


def is_generated_pack(path: Path) -> bool:
    """A folder whose levels come from a ``pack.py`` program rather than from data."""
    return path.is_dir() and (path / PACK_MODULE).is_file()


@dataclass(slots=True)
class PlannedOpen:
    """:class:`OpenResult` with the pack read but not yet made a document (any thread)."""

    plan: PackPlan | None
    problems: list[engine.Problem] = field(default_factory=list)


def open_pack(path: Path, *, trust: bool | str = False) -> OpenResult:
    """Validate the whole pack with the engine; every problem comes back located.

    A pack built by a trusted ``pack.py`` opens without a file of its own: saving it
    writes a new data pack, because the folder's program would win over the data
    on the next open.
    """
    planned = plan_open(path, trust=trust)
    plan = planned.plan
    return OpenResult(None if plan is None else PackDocument.from_plan(plan), planned.problems)


def plan_open(path: Path, *, trust: bool | str = False) -> PlannedOpen:
    """:func:`open_pack`'s reading, with no QObject made: safe on a worker thread."""
    try:
        pack, written = engine.load_pack_document(path, trust=trust)
    except engine.ValidationError as exc:
        return PlannedOpen(None, list(exc.errors))
    if is_generated_pack(path):
        return PlannedOpen(read_pack_plan(pack.to_data()))
    # The document as written, not the model's dump: saving it untouched changes nothing.
    return PlannedOpen(read_pack_plan(written, path=path, folder=path.is_dir()))


def read_for_repair(path: Path) -> tuple[PackDocument, list[engine.Problem]]:
    """Read a pack the engine refused, keeping everything the author wrote.

    What the board cannot show is kept as written; what the editor had to change
    is a note (``editor.documents.reading``). Notes point into the pack document.

    Raises:
        RepairImpossibleError: not JSON the engine reads (too large, not UTF-8,
            nested too deep, a number too large...), holding what no tool can hold,
            or without the nouns map and the list of level objects every pack needs.
    """
    return _made(*plan_read_for_repair(path))


def plan_read_for_repair(path: Path) -> tuple[PackPlan, list[engine.Problem]]:
    """:func:`read_for_repair` with no QObject made: safe on a worker thread."""
    file = path / PACK_FILE if path.is_dir() else path
    try:  # the pack reader's own: bounded, and a hostile file is a located problem
        data = engine.read_json_file(file)
    except engine.ValidationError as exc:
        raise RepairImpossibleError(f"cannot read {file.name}: {problem_text(exc)}") from None
    return plan_repair(data, path)


def repair_document(data: object, path: Path) -> tuple[PackDocument, list[engine.Problem]]:
    """:func:`read_for_repair` of a document already read from ``path``.

    Raises:
        RepairImpossibleError: as :func:`read_for_repair`.
    """
    return _made(*plan_repair(data, path))


def plan_repair(data: object, path: Path) -> tuple[PackPlan, list[engine.Problem]]:
    """:func:`repair_document` with no QObject made: safe on a worker thread."""
    if not isinstance(data, dict):
        raise RepairImpossibleError(f"{path} holds {type(data).__name__}, not a pack object")
    notes: list[engine.Problem] = []
    try:
        plan = read_pack_plan(data, path=path, folder=path.is_dir(), notes=notes)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RepairImpossibleError(f"the pack's structure is broken: {exc}") from None
    return plan, notes


def _made(plan: PackPlan, notes: list[engine.Problem]) -> tuple[PackDocument, list[engine.Problem]]:
    return PackDocument.from_plan(plan), notes


def problem_text(error: engine.ValidationError) -> str:
    """The first problem of a refusal on one line: where, then what (and how many more)."""
    first = error.errors[0]
    more = len(error.errors) - 1
    return f"{first.pointer or '/'}: {first.message}" + (f" (and {more} more)" if more else "")


def save_pack(
    document: PackDocument,
    path: Path,
    *,
    folder: bool,
    problems: list[engine.Problem] | None = None,
    backups: BackupStore | None = None,
    keep: int = 0,
) -> list[engine.Problem]:
    """Write the pack atomically; return the problems the engine finds in what was written.

    The pack is written even when it has problems: an author's work is never
    refused at save time. The caller reports the problems (``problems``: the ones
    it already found in ``document.to_data()``, so they are not looked for twice).
    With ``backups``, the file being replaced is kept first (the newest ``keep``
    versions stay).

    Raises:
        OSError: the file could not be written (the old one is untouched).
        ValueError: the document holds what no JSON file can (NaN, a lone
            surrogate: ``UnicodeEncodeError`` is a ``ValueError``); nothing written.
        TypeError: the document holds a value JSON has no type for; nothing written.
    """
    data = document.to_data()
    target = path / PACK_FILE if folder else path
    # Fails (a value JSON cannot hold, a lone surrogate UTF-8 cannot) before anything
    # moves: no backup is kept and no file is touched.
    raw = engine.dump_pack(data).encode("utf-8")
    if backups is not None:
        backups.keep(target, keep)
    engine.write_atomic(target, raw)
    document.mark_saved(path, folder=folder)
    return validate(data) if problems is None else problems


def validate(data: dict[str, Any]) -> list[engine.Problem]:
    try:
        engine.load_pack(data)
    except engine.ValidationError as exc:
        return list(exc.errors)
    return []
