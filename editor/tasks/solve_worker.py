"""What a solver worker process runs: a loop over jobs from its pipe. No Qt here.

The solver is pure Python and holds the GIL, so the editor runs it in spawned
processes (never forked: a Qt process must not be copied). This module is the
child's side and imports only ``engine``; ``editor.tasks.solve`` is the
editor's side.

Protocol, over one duplex pipe per worker:

* the editor sends ``(kind, job_id, payload)``: ``("solve", id, (level, strategy,
  max_states[, seconds, memory]))`` or ``("verify", id, (level, settings))``; ``None``
  asks the worker to exit (so does a closed pipe);
* the worker answers ``("progress", id, SolveProgress)`` at most ten times a
  second while solving, ``("check", id, SolutionCheck)`` as soon as a verify job's
  intended solution has been replayed (before the long search), then exactly one
  of ``("done", id, SolveResult | LevelVerdict)``, ``("invalid", id, message)``
  or ``("error", id, traceback)``.

Cancelling needs no message: the editor writes a job id into a shared integer,
and the running job stops (within one expansion) once that number reaches its
own id. Job ids only grow, so a late cancel can never stop a later job.
"""

from __future__ import annotations

import contextlib
import json
import os
import traceback
from multiprocessing.connection import Connection
from typing import Any, Protocol

import engine

PROGRESS_INTERVAL = 0.1  # seconds between progress messages
#: The background pack check's priority: the lowest, so it only uses what the editor
#: leaves. At 5 a save still waited 25-30 ms at a time for a core on a two-core machine.
NICENESS = 19
#: A solve the author asked for runs at the editor's own priority: at 19 beside the
#: pack check, the same 0.42 s of solver CPU took 2 s to 122 s of wall time (issue 36).
FOREGROUND = 0
#: A level the worker solves once as it starts, so the first real solve finds the
#: solver's modules and the vocabulary loaded (0.14 s of a cold first solve, 0.02 warm).
_WORDS = (("BABA", 0, 0), ("IS", 1, 0), ("YOU", 2, 0), ("FLAG", 0, 1), ("IS", 1, 1))
_WARM_UP = {
    "id": "warm-up",
    "width": 3,
    "height": 3,
    "entities": [
        *(
            {"id": n, "kind": "word", "text": text, "x": x, "y": y}
            for n, (text, x, y) in enumerate((*_WORDS, ("WIN", 2, 1)), start=1)
        ),
        {"id": 7, "kind": "object", "noun": "BABA", "x": 0, "y": 2},
        {"id": 8, "kind": "object", "noun": "FLAG", "x": 2, "y": 2},
    ],
}


class SharedInt(Protocol):
    """A ``multiprocessing`` shared integer (``RawValue("q")``)."""

    value: int


def serve(conn: Connection, cancel_up_to: SharedInt, niceness: int = NICENESS) -> None:
    """Run jobs from ``conn`` until told to stop or the editor goes away.

    ``niceness`` is added to the editor's (a worker never runs above it).
    """
    if niceness:
        with contextlib.suppress(AttributeError, OSError):  # os.nice is POSIX only
            os.nice(niceness)
    with contextlib.suppress(Exception):  # warming is an optimisation only
        engine.solve(_WARM_UP, max_states=100)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        kind, job_id, payload = job
        try:
            conn.send(_run(conn, kind, job_id, payload, cancel_up_to))
        except (BrokenPipeError, OSError):
            return


def _run(
    conn: Connection, kind: str, job_id: int, payload: Any, cancel_up_to: SharedInt
) -> tuple[str, int, Any]:
    def cancelled() -> bool:
        return cancel_up_to.value >= job_id

    def report(progress: engine.SolveProgress) -> None:
        conn.send(("progress", job_id, progress))

    try:
        if kind == "solve":
            level, strategy, max_states, *budget = payload
            seconds, memory = budget if budget else (None, None)
            result = engine.solve(
                level,
                max_states=max_states,
                timeout=seconds,
                memory=memory,
                strategy=strategy,
                progress=report,
                cancel=cancelled,
                progress_interval=PROGRESS_INTERVAL,
            )
            return "done", job_id, result
        if kind == "verify":
            level, settings = payload
            if isinstance(level, str):  # queued as JSON text (PackVerifier: not as dicts)
                level = json.loads(level)
            try:
                loaded = engine.load_level(level)
            except engine.ValidationError:  # an "invalid" verdict, cached like any other
                return "done", job_id, engine.verify_level(level, settings)
            if loaded.solution is not None:
                # The replay is quick: say at once whether the intended solution still wins.
                conn.send(("check", job_id, engine.check_solution(loaded, loaded.solution)))
            return "done", job_id, engine.verify_level(loaded, settings, cancel=cancelled)
        return "error", job_id, f"unknown job kind {kind!r}"
    except engine.ValidationError as exc:
        first = exc.errors[0].message if exc.errors else str(exc)
        return "invalid", job_id, f"invalid level: {first}"
    except Exception:  # report it: a worker must never die silently
        return "error", job_id, traceback.format_exc()
