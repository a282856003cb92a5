"""Verdicts on disk, keyed by ``engine.verdict_key``: reopening a pack solves nothing.

One SQLite file in the user cache folder (``platformdirs``; ``RULEGRID_CACHE_DIR``
overrides it, as tests do). A key already names the level's content, the solver
settings and the engine's source, so an entry never goes stale: it is only ever
missing. The cache is an optimisation: when the file cannot be used, verification
still runs, only without it (``problem`` says why). It holds at most
:data:`MAX_ENTRIES` verdicts, the oldest dropped first.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import platformdirs

import engine

MAX_ENTRIES = 20_000
PRUNE_EVERY = 200  # puts between two size checks
FILE_NAME = "verdicts.sqlite3"
ENV_FOLDER = "RULEGRID_CACHE_DIR"


def user_cache_folder() -> Path:
    override = os.environ.get(ENV_FOLDER)
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir("rulegrid", "Rulegrid"))


class VerdictCache:
    """Level verdicts by key. Reads and writes take well under a millisecond each."""

    def __init__(self, folder: Path | None) -> None:
        self.problem = ""
        self._db: sqlite3.Connection | None = None
        self._puts = 0
        if folder is None:
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(folder / FILE_NAME, timeout=1.0, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts "
                "(key TEXT PRIMARY KEY, record TEXT NOT NULL, stored REAL NOT NULL)"
            )
            self._db = db
        except (OSError, sqlite3.Error) as exc:
            self.problem = f"the solver cache is off ({folder}): {exc}"

    @classmethod
    def for_user(cls) -> VerdictCache:
        return cls(user_cache_folder())

    @property
    def enabled(self) -> bool:
        return self._db is not None

    def get(self, key: str) -> engine.LevelVerdict | None:
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT record FROM verdicts WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._off(exc)
            return None
        if row is None:
            return None
        try:
            return engine.LevelVerdict.from_dict(json.loads(row[0]))
        except (ValueError, KeyError, TypeError):  # written by another version: solve again
            return None

    def put(self, key: str, verdict: engine.LevelVerdict) -> None:
        if self._db is None:
            return
        record = json.dumps(verdict.to_dict(), ensure_ascii=False, separators=(",", ":"))
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO verdicts (key, record, stored) VALUES (?, ?, ?)",
                (key, record, time.time()),
            )
            self._puts += 1
            if self._puts % PRUNE_EVERY != 1:  # the first put of a session checks too
                return
            (count,) = self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()
            if count > MAX_ENTRIES:
                self._db.execute(
                    "DELETE FROM verdicts WHERE key IN "
                    "(SELECT key FROM verdicts ORDER BY stored LIMIT ?)",
                    (count - MAX_ENTRIES,),
                )
        except sqlite3.Error as exc:
            self._off(exc)

    def __len__(self) -> int:
        if self._db is None:
            return 0
        (count,) = self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()
        return int(count)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _off(self, exc: sqlite3.Error) -> None:
        self.problem = f"the solver cache is off: {exc}"
        self.close()
