"""Every sqlite3 and OS error the store meets, worded for a person, in one place.

`store_error(exc, path, doing, lock_wait=)` turns one error into one StoreError that says what
happened and what to do: a busy database, a full disk, an I/O error, a damaged file (naming the
newest backup and `grill doctor --restore`, `damaged_message`), a read-only file, an unwritable
data folder. Nothing else in grill reads SQLite's result codes.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from grill.errors import StoreError
from grill.store.backup import Backup, backups_dir, list_backups

__all__ = ["damaged_message", "is_busy", "is_damage", "missing_message", "store_error"]

_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def damaged_message(path: Path, detail: str) -> str:
    """What to tell the user when the database file is damaged: where, the newest backup, how
    to restore it."""
    try:
        found = list_backups(backups_dir(path))
    except OSError:
        found = []
    if found:
        newest = found[-1]
        advice = (
            f"the newest backup is {newest.path} ({newest.taken:%Y-%m-%d %H:%M} UTC); "
            "run `grill doctor --restore` to restore it (the damaged file is kept)"
        )
    else:
        advice = f"there is no backup in {backups_dir(path)}; run `grill doctor` to check it"
    return f"the database {path} is damaged ({detail}); {advice}"


def missing_message(path: Path, newest: Backup) -> str:
    """What to tell the user when the database is gone but its backups are not."""
    return (
        f"the database {path} is missing, but its backups are not: the newest is {newest.path}"
        f" ({newest.taken:%Y-%m-%d %H:%M} UTC); run `grill doctor --restore` to restore it,"
        f" or move {newest.path.parent} away to start afresh"
    )


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code; 0 for an error the sqlite3 module raises itself (a
    ProgrammingError such as a closed database carries no code)."""
    return int(getattr(exc, "sqlite_errorcode", 0)) & 0xFF


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether another connection holds the lock `exc` was refused."""
    return _code(exc) in _BUSY or "locked" in str(exc)


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether `exc` says the file itself is damaged (or no database at all)."""
    return _code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def store_error(
    exc: sqlite3.Error | OSError, path: Path, doing: str, *, lock_wait: float
) -> StoreError:
    """The one place where a sqlite3 or OS error becomes a message for the user; `lock_wait`:
    the seconds a busy database was waited for."""
    if isinstance(exc, OSError):
        return _os_error(exc, path, doing)
    code = _code(exc)
    if is_busy(exc):
        return StoreError(
            f"cannot {doing}: {path} is busy (another grill kept it locked for more than"
            f" {lock_wait:g} s); nothing was saved, try again when it has finished"
        )
    if code == sqlite3.SQLITE_FULL:
        return StoreError(
            f"cannot {doing}: the disk holding {path} is full; nothing was saved."
            " Free some space and try again"
        )
    if code == sqlite3.SQLITE_IOERR:
        return StoreError(
            f"cannot {doing}: reading or writing {path} failed ({exc.sqlite_errorname}:"
            " is the disk full, failing or gone?); nothing was saved"
        )
    if is_damage(exc):
        return StoreError(damaged_message(path, str(exc)))
    if code == sqlite3.SQLITE_READONLY:
        return StoreError(
            f"cannot {doing}: {path} is read-only; make it writable or set GRILL_HOME"
            " to a folder you can write to"
        )
    if code == sqlite3.SQLITE_CANTOPEN:
        return StoreError(
            f"cannot open {path}: check that {path.parent} is a folder you can write to,"
            " or set GRILL_HOME to one"
        )
    return StoreError(f"{path}: cannot {doing}: {exc}")


def _os_error(exc: OSError, path: Path, doing: str) -> StoreError:
    where = exc.filename or path
    if exc.errno == errno.ENOSPC:
        return StoreError(f"cannot {doing}: the disk holding {where} is full; nothing was saved")
    reason = exc.strerror or str(exc)
    return StoreError(
        f"cannot {doing}: {where}: {reason}; grill keeps its data in {path.parent}"
        " (set GRILL_HOME to a folder you can write to)"
    )
