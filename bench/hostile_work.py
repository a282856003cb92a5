"""Generators of issue 39's hostile inputs: valid levels whose turns cost too much.

Shared by bench/bench_hostile.py (which times each case in a child process) and
the tests of issue 39 (which count the work instead of timing it). Every builder
returns plain JSON documents (a level, a pack or payload text), all valid: the
break was never a refused input but an accepted one that ran for minutes.

* B1: :func:`swarm_level` (64 automata over thousands of carriers) as a share
  payload with a short replay (:func:`swarm_payload`), re-sealed by hand as an
  attacker would, so no encoder ran it first.
* B3: :func:`crowd_level` (thousands of BABA, all YOU) with a long intended
  solution: ``rulegrid validate --lint`` replays it.
* B4: the swarm level played move by move, and :func:`walk_moves`, a move string
  of a million moves on a small level (:func:`small_level`).
* A push bomb found while counting: :func:`blocked_chain_level`, thousands of YOU
  movers stacked in front of a stack of thousands of PUSH words, blocked by a wall:
  movers times stack cells every turn, while nothing moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

Doc = dict[str, Any]


def _entity(entities: list[Doc], kind: str, token: str, x: int, y: int) -> None:
    key = "noun" if kind == "object" else "text"
    entities.append({"id": len(entities) + 1, "kind": kind, key: token, "x": x, "y": y})


def _sentence(entities: list[Doc], y: int, *words: str) -> None:
    for x, word in enumerate(words):
        _entity(entities, "word", word, x, y)


def swarm_level(carriers: int = 19_000, automata: int = 64, *, size: int = 128) -> Doc:
    """``ROCK IS TICK`` with ``carriers`` rocks and ``automata`` automata of TICK.

    Every automaton moves every rock each turn (they walk right, then left), so a
    turn costs automata x carriers: 1.2 million carrier steps at the defaults, and
    state entries as many, while the level is about 1 MB of JSON (40 KB as a
    payload).
    """
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "ROCK", "IS", "TICK")
    _entity(entities, "object", "BABA", 0, 3)
    cells = [(x, y) for y in range(4, size) for x in range(2, size - 2)]
    for n in range(carriers):
        x, y = cells[n % len(cells)]
        _entity(entities, "object", "ROCK", x, y)
    pattern = [{"action": "move", "dx": 1, "dy": 0}, {"action": "move", "dx": -1, "dy": 0}]
    return {
        "id": "swarm",
        "width": size,
        "height": size,
        "entities": entities,
        "automata": [
            {"id": f"a{n}", "property": "TICK", "pattern": pattern} for n in range(automata)
        ],
    }


def crowd_level(count: int = 19_906, *, moves: int = 1_000, size: int = 128) -> Doc:
    """``count`` BABA objects, all YOU, with an intended solution of ``moves`` moves.

    The crowd walks right and left in a free band, so every move of the solution
    moves every BABA (about 20,000 entity moves a turn at the defaults, 598 KB of
    JSON); the solution does not win, so the lint plays it to the end.
    """
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "FLAG", "IS", "WIN")
    _entity(entities, "object", "FLAG", size - 1, 0)
    cells = [(x, y) for y in range(3, size) for x in range(1, size - 1)]
    for n in range(count):
        x, y = cells[n % len(cells)]
        _entity(entities, "object", "BABA", x, y)
    return {
        "id": "crowd",
        "width": size,
        "height": size,
        "entities": entities,
        "solution": ("RL" * (moves // 2 + 1))[:moves],
    }


def blocked_chain_level(movers: int = 10_000, pushed: int = 9_990) -> Doc:
    """``movers`` BABA (YOU) in one cell, ``pushed`` ROCK words stacked in the next,
    a WALL (STOP) behind them: every mover walks the whole stack and is blocked, so
    a turn that moves nothing costs movers x pushed (10^8 at the defaults)."""
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "WALL", "IS", "STOP")
    for _ in range(movers):
        _entity(entities, "object", "BABA", 0, 3)
    for _ in range(pushed):
        _entity(entities, "word", "ROCK", 1, 3)
    _entity(entities, "object", "WALL", 2, 3)
    return {"id": "chain", "width": 4, "height": 4, "entities": entities}


def small_level() -> Doc:
    """A 1 KB level: BABA walks a free row, FLAG IS WIN out of reach."""
    entities: list[Doc] = []
    _sentence(entities, 0, "BABA", "IS", "YOU")
    _sentence(entities, 1, "FLAG", "IS", "WIN")
    _entity(entities, "object", "BABA", 0, 3)
    _entity(entities, "object", "FLAG", 7, 0)
    return {"id": "walk", "width": 8, "height": 4, "entities": entities}


def walk_moves(count: int) -> str:
    """``count`` moves that walk to and fro along the row (every move is accepted)."""
    return ("R" * 7 + "L" * 7) * (count // 14) + "R" * (count % 14)


def pack(*levels: Doc, pack_id: str = "hostile") -> Doc:
    """A pack around ``levels`` with the nouns they use."""
    nouns: set[str] = set()
    for level in levels:
        for e in level["entities"]:
            if e["kind"] == "object":
                nouns.add(e["noun"])
            elif e["text"] not in ("IS", "YOU", "WIN", "STOP", "PUSH", "TICK", "AND"):
                nouns.add(e["text"])
    return {
        "format": "rulegrid-pack",
        "version": 1,
        "id": pack_id,
        "title": pack_id,
        "nouns": {noun: {"color": "#808080"} for noun in sorted(nouns)},
        "levels": list(levels),
    }


def swarm_payload(carriers: int = 19_000, automata: int = 64, moves: str = "RLRLRL") -> str:
    """B1: a level payload of :func:`swarm_level` with one replay, sealed by hand.

    The replay's digests are made up (an importer must run the moves to compare
    them); the payload is sealed as the codec seals one, so it passes every check
    before the replay.
    """
    from engine.share.codec import seal, to_text

    level = swarm_level(carriers, automata)
    record = {"level": level["id"], "moves": moves, "events": "0" * 64, "final": "0" * 64}
    nouns = {noun: {"color": "#808080"} for noun in ("BABA", "ROCK")}
    return to_text(seal({"level": level, "nouns": nouns, "replays": [record]}))


# --------------------------------------------------------------- the bench's cases
# bench/bench_hostile.py runs each case in a child process (``--child KIND PATH``):
# the timed kinds run a command line or the editor's open on a file made here, the
# checked kinds (B7, B8, B10) answer "ok" when the break is mended, else BROKEN.

#: Issue 39's goal for an input under 1 MB: CPU seconds and megabytes of growth.
GOAL_39 = (15.0, 600)

#: Compact JSON: the issue's sizes are of files as small as the content allows.
_COMPACT = (",", ":")


def _compact(doc: Doc) -> bytes:
    import json

    return json.dumps(doc, separators=_COMPACT).encode("utf-8")


def _pack_bytes(level: Doc) -> bytes:
    return _compact(pack(level))


def chain_payload() -> str:
    """A payload whose count before replaying passes (1,200 entities, 90 moves) while
    every turn walks 600 movers through a stack of 590 words: the live budget stops it."""
    from engine.share.codec import seal, to_text

    level = blocked_chain_level(600, 590)
    record = {"level": level["id"], "moves": "R" * 90, "events": "0" * 64, "final": "0" * 64}
    nouns = {noun: {"color": "#808080"} for noun in ("BABA", "ROCK", "WALL")}
    return to_text(seal({"level": level, "nouns": nouns, "replays": [record]}))


#: name, what the child does, builder of its input (bytes). Kinds: "payload" (the
#: existing ``share.decode`` child), "cli:ARGS" (``rulegrid ARGS`` with ``{}`` for the
#: file; ``<`` + a builder's second part as standard input), "open" (the editor's
#: open), and the checked kinds "recovery", "two-windows", "trusted-helper".
TIMED: list[tuple[str, str, Any]] = [
    ("B1: payload, 64 automata x 19,000 carriers", "payload", lambda: swarm_payload().encode()),
    ("B1: payload, 600 movers x 590 stacked words", "payload", lambda: chain_payload().encode()),
    (
        "B1: share import of the 64-automata payload",
        "cli:share import -",
        lambda: (b"", swarm_payload().encode()),
    ),
    (
        "B3: validate --lint, 17,000 YOU x 1,000 moves",
        "cli:validate --lint {}",
        lambda: _pack_bytes(crowd_level(17_000)),
    ),
    ("B3: editor open, 17,000 YOU x 1,000 moves", "open", lambda: _pack_bytes(crowd_level(17_000))),
    (
        "B4: play, 64 automata x 16,000 carriers",
        "cli:play {} swarm RLRLRLRLRLRL",
        lambda: _pack_bytes(swarm_level(16_000)),
    ),
    (
        "B4: play, 1,000,000 moves on a 1 KB level",
        "cli:play {} walk -",
        lambda: (_pack_bytes(small_level()), walk_moves(1_000_000).encode()),
    ),
    (
        "B4: play, 100,000 moves on a 1 KB level",
        "cli:play {} walk -",
        lambda: (_pack_bytes(small_level()), walk_moves(100_000).encode()),
    ),
    (
        "B4: play, 8,000 movers x 7,990 stacked words",
        "cli:play {} chain RRRR",
        lambda: _pack_bytes(blocked_chain_level(8_000, 7_990)),
    ),
]

CHECKED: list[tuple[str, str]] = [
    ("B7: recovery file of a reused / live PID", "recovery"),
    ("B8: two windows save one file", "two-windows"),
    ("B10: trusted pack.py runs a changed helper", "trusted-helper"),
]


def child(kind: str, path: str) -> dict[str, Any]:
    """Answer one case in this (child) process; the parent times it."""
    if kind.startswith("cli:"):
        return _cli(kind[4:], path)
    if kind == "open":
        return _open_in_editor(path)
    checks = {"recovery": _recovery, "two-windows": _two_windows, "trusted-helper": _trusted}
    folder = Path(path).with_suffix("")  # a folder of its own beside the (empty) input
    folder.mkdir(exist_ok=True)
    return {"outcome": checks[kind](str(folder))}


def _cli(command: str, path: str) -> dict[str, Any]:
    import contextlib
    import io
    import os
    import sys

    from engine.cli import main

    args = [path if part == "{}" else part for part in command.split()]
    stdin = Path(path + ".stdin")
    sys.stdin = stdin.open(encoding="ascii") if stdin.exists() else io.StringIO("")
    err = io.StringIO()
    with (
        open(os.devnull, "w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = main(args)
    last = (err.getvalue().strip().splitlines() or [""])[-1]
    return {"outcome": f"exit {code}: {last[:160]}"}


def _open_in_editor(path: str) -> dict[str, Any]:
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    import engine
    from editor.main_window import MainWindow
    from editor.settings import EditorSettings
    from tests.editor.scripted_dialogs import ScriptedDialogs

    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp())
    settings = EditorSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    settings.data_folder = folder / "data"
    window = MainWindow(path, settings=settings, dialogs=ScriptedDialogs())
    validator = window.validation_panel.validator
    while validator.is_busy() or not validator.is_current():  # the Problems list is the answer
        app.processEvents()
    warnings = (
        [r for r in validator.result.rows if r.severity == "warning"] if validator.result else []
    )
    codes = sorted({str(r.record["code"]) for r in warnings})
    levels = window.pack.level_count()
    window.verifier.shutdown()
    window.solver_panel.shutdown()
    return {"outcome": f"{engine.counted(levels, 'level')}, warnings: {', '.join(codes) or 'none'}"}


def _recovery(folder: str) -> str:
    import os

    from editor.io.recovery import RecoveryStore

    store = RecoveryStore(Path(folder))
    live = Path(folder) / f"{os.getpid()}-0123456789ab.json"  # the editor's PID came again
    store.write(live, {"id": "lost", "title": "Lost", "levels": []}, None)
    offered = [r.file for r in store.orphans()]
    return "ok: offered" if offered == [live] else f"BROKEN: offered {len(offered)} of 1"


def _two_windows(folder: str) -> str:
    import os
    import shutil

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from editor.main_window import MainWindow
    from editor.settings import EditorSettings
    from editor.values import OBJECT, Pos, Stamp
    from tests.editor.scripted_dialogs import ScriptedDialogs
    from tests.support import PACKS_DIR

    app = QApplication.instance() or QApplication([])
    root = Path(folder)
    file = root / "pack.json"
    shutil.copy(PACKS_DIR / "tutorial.json", file)
    settings = EditorSettings(QSettings(str(root / "s.ini"), QSettings.Format.IniFormat))
    settings.data_folder = root / "data"
    dialogs = ScriptedDialogs()
    first = MainWindow(file, settings=settings, dialogs=dialogs)
    second = MainWindow(file, settings=settings, dialogs=dialogs)
    first.level.add_on_top([Pos(1, 1)], Stamp(OBJECT, "BABA"))
    first.files.save()
    kept = file.read_bytes()
    second.level.add_on_top([Pos(2, 2)], Stamp(OBJECT, "FLAG"))
    dialogs.changed_answer = "cancel"
    second.files.save()
    app.processEvents()
    for window in (first, second):
        window.verifier.shutdown()
        window.solver_panel.shutdown()
    if getattr(dialogs, "changed_asked", None) and file.read_bytes() == kept:
        return "ok: the second save asked; the first one's edit is on disk"
    return "BROKEN: the second window overwrote the first one's save without asking"


def _trusted(folder: str) -> str:
    import json

    import engine

    root = Path(folder) / "generated"
    root.mkdir()
    doc = pack(small_level())
    (root / "pack.py").write_text(  # the classic way: its folder on sys.path
        "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\nimport helper\n\n"
        "def build():\n    return helper.DOC\n"
    )
    (root / "helper.py").write_text(f"DOC = {json.dumps(doc)}\n")
    digest = engine.module_digest(root)
    engine.load_pack(root, trust=digest)
    (root / "helper.py").write_text(
        f"DOC = {json.dumps(doc)}\nopen(__file__ + '.ran', 'w').close()\n"
    )
    try:
        engine.load_pack(root, trust=digest)
    except engine.ValidationError as exc:
        if exc.errors[0].code == "untrusted-module" and not Path(f"{root}/helper.py.ran").exists():
            return "ok: a changed helper asks again"
    return "BROKEN: the changed helper ran under the old trust"
