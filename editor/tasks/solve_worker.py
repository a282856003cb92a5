"""What a solver worker process runs: a loop over jobs from its pipe. No Qt here.

The solver is pure Python and holds the GIL, so the editor runs it in spawned
processes (never forked: a Qt process must not be copied). This module is the
child's side and imports only ``engine``; ``editor.tasks.solve`` is the
editor's side.

Protocol, over one duplex pipe per worker:

* the editor sends ``(kind, job_id, payload)``: ``("solve", id, (level, strategy,
  max_states))`` or ``("verify", id, (level, settings))``; ``None`` asks the
  worker to exit (so does a closed pipe);
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
#: The solver processes' priority: the lowest, so they only use what the editor leaves.
#: At 5 a save still waited 25-30 ms at a time for a core on a two-core machine.
NICENESS = 19


class SharedInt(Protocol):
    """A ``multiprocessing`` shared integer (``RawValue("q")``)."""

    value: int


def serve(conn: Connection, cancel_up_to: SharedInt) -> None:
    """Run jobs from ``conn`` until told to stop or the editor goes away."""
    with contextlib.suppress(AttributeError, OSError):  # os.nice is POSIX only
        os.nice(NICENESS)
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
            level, strategy, max_states = payload
            result = engine.solve(
                level,
                max_states=max_states,
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
