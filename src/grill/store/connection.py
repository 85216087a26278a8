"""The open connection every part of the store shares, and how it is opened and used.

`connect(path, busy_timeout_ms, lock_wait)` creates the data folder, refuses a database that
was deleted or emptied while its backups remain, and opens the file. `Database` holds that
connection, the locks the store holds (`grill.store.lock`, released on close) and three ways
to use it: `_errors(doing)` (every sqlite3 and OS error becomes one StoreError, worded in
`grill.store.errors`), `_write(doing)` (a `BEGIN IMMEDIATE` transaction, kept only when COMMIT
succeeds) and `_retry_busy` (jittered back-off while another grill holds the lock, for up to
`lock_wait_seconds`). Not thread-safe: one per thread.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Self, TypeVar

from grill.errors import StoreError
from grill.store.backup import backups_dir, list_backups
from grill.store.errors import damaged_message, is_busy, missing_message, store_error
from grill.store.lock import Lock

__all__ = ["BUSY_TIMEOUT_MS", "LOCK_WAIT_SECONDS", "Database", "connect"]

BUSY_TIMEOUT_MS = 5000
"""How long one attempt at a write waits for another grill's transaction (SQLite's busy handler)."""

LOCK_WAIT_SECONDS = 30.0
"""How long a write keeps retrying, with back-off, before telling the user the database is busy."""

_jitter = random.Random()
_T = TypeVar("_T")


def connect(path: Path, busy_timeout_ms: int, lock_wait: float) -> sqlite3.Connection:
    """The database at `path` opened (the file and its folder created when missing), rows as
    sqlite3.Row; a StoreError when it cannot be, or must not be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _refuse_lost(path)
        conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
    except (OSError, sqlite3.Error) as exc:
        raise store_error(exc, path, "open the database", lock_wait=lock_wait) from exc
    conn.row_factory = sqlite3.Row
    return conn


def _refuse_lost(path: Path) -> None:
    """A database deleted, or emptied to 0 bytes, while its backups remain lost its history:
    starting afresh would hide it, and rotation would then take the backups holding it."""
    if path.exists() and not (path.is_file() and path.stat().st_size == 0):
        return
    found = list_backups(backups_dir(path))
    if not found:
        return
    if path.exists():
        raise StoreError(damaged_message(path, "the file is empty"))
    raise StoreError(missing_message(path, found[-1]))


class Database:
    """One open connection to the database at `path`, and the means to use it safely."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        now: datetime | None = None,
        *,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        lock_wait_seconds: float = LOCK_WAIT_SECONDS,
    ) -> None:
        self._conn = conn
        self.path = path
        self._now = now
        self.busy_timeout_ms = busy_timeout_ms
        self.lock_wait_seconds = lock_wait_seconds
        self._locks: dict[object, Lock] = {}
        """What this store holds (`grill.store.lock`): the database's lock, sessions' locks."""

    def close(self) -> None:
        """Close the connection and let go of every lock held (a session still open then
        counts as ended uncleanly)."""
        self._conn.close()
        for held in self._locks.values():
            held.release()
        self._locks.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _configure(self) -> None:
        with self._errors("open"):
            self._conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
            self._conn.execute("PRAGMA foreign_keys = ON")
            # switching a new file to WAL takes an exclusive lock another grill may hold
            mode = self._retry_busy(
                lambda: self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            )
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: cannot switch the database to WAL mode ({mode})")

    def _error(self, exc: sqlite3.Error | OSError, doing: str) -> StoreError:
        return store_error(exc, self.path, doing, lock_wait=self.lock_wait_seconds)

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn sqlite3 and OS errors into a StoreError (`grill.store.errors.store_error`)."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise self._error(exc, doing) from exc

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """A read-then-write transaction: BEGIN IMMEDIATE takes the write lock up front.

        Nothing of it is kept unless COMMIT succeeds: any failure (a full disk included) rolls
        the whole transaction back."""
        with self._errors(doing):
            self._retry_busy(lambda: self._conn.execute("BEGIN IMMEDIATE"))
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    with suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                raise

    def _retry_busy(self, attempt: Callable[[], _T]) -> _T:
        """Run `attempt`, retrying with jittered back-off while another grill holds the lock
        (each attempt already waits busy_timeout_ms), for up to lock_wait_seconds in all."""
        deadline = time.monotonic() + self.lock_wait_seconds
        pause = 0.02
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause * (0.5 + _jitter.random()))
            pause = min(pause * 2, 0.5)
