"""Backups of the database: taken with SQLite's online backup API, listed, rotated, restored.

A backup is a complete, self-contained SQLite file (rollback journal, no -wal beside it) in
`<data folder>/backups/`, named after the UTC moment it was taken and, when it was taken for a
reason other than the daily one, that reason:

    grill-20261202T090000Z.db                       the first use of a day
    grill-20261202T090000Z-before-0002_tags.db      just before a schema migration

It is written to a temporary name and renamed into place, so a crash or a full disk never leaves
a half-written backup under a backup's name (a temporary file a killed grill left behind is
removed after an hour); only the newest `KEEP` backups are kept, but never the one just written
nor the last one holding more history than the database (`rotate`). Restoring
moves the current database (and its -wal and -shm files) aside under a `.broken-<time>` name,
never deleting it, then copies the backup in.

These functions raise sqlite3.Error and OSError as they come: `grill.store.Store` turns them into
one StoreError with a helpful message, in one place.

    list_backups(folder) -> list[Backup]                      oldest first
    write_backup(conn, folder, now, reason="") -> Backup      then rotate(folder, ...)
    rotate(folder, keep=KEEP, fresh=, live=) -> list[Path]    the files removed
    reviews_in(path) -> int                                   the history a file holds
    check_file(path) -> list[str]                             integrity_check problems ([] = ok)
    restore(db, backup, now) -> tuple[Path, ...]              the files moved aside
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grill.clock import to_utc

__all__ = [
    "KEEP",
    "Backup",
    "backups_dir",
    "check_file",
    "list_backups",
    "restore",
    "reviews_in",
    "rotate",
    "stamp",
    "write_backup",
]

KEEP = 7
"""How many backups are kept; older ones are removed when a new one is written."""

_NAME = re.compile(r"^grill-(\d{8}T\d{6}Z)(?:-([A-Za-z0-9_.-]+))?\.db$")


@dataclass(frozen=True)
class Backup:
    """One backup file: where it is, when it was taken (UTC) and why ('' for the daily one)."""

    path: Path
    taken: datetime
    reason: str
    size: int

    @property
    def name(self) -> str:
        return self.path.name


def backups_dir(db: Path) -> Path:
    """Backups live beside the database: `$GRILL_HOME/backups/` for the default one."""
    return db.parent / "backups"


def stamp(moment: datetime) -> str:
    """A UTC moment as used in file names: 20261202T090000Z."""
    return to_utc(moment).strftime("%Y%m%dT%H%M%SZ")


def list_backups(folder: Path) -> list[Backup]:
    """The backups in `folder`, oldest first (other files there are ignored)."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = _NAME.match(path.name)
        if match is None or not path.is_file():
            continue
        taken = datetime.strptime(match[1], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
        with contextlib.suppress(OSError):  # removed meanwhile by another grill's rotation
            found.append(Backup(path, taken, match[2] or "", path.stat().st_size))
    return sorted(found, key=lambda b: (b.taken, b.name))


def write_backup(conn: sqlite3.Connection, folder: Path, now: datetime, reason: str = "") -> Backup:
    """Copy the database behind `conn` (a consistent snapshot) into a new backup file."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"grill-{stamp(now)}" + (f"-{_slug(reason)}" if reason else "")
    target = folder / f"{base}.db"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{base}-{n}.db"
    tmp = folder / f".{target.name}.{os.getpid()}.tmp"
    try:
        _copy(conn, tmp)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    size = target.stat().st_size
    rotate(folder, fresh=target, live=_reviews(conn))
    return Backup(target, to_utc(now).replace(microsecond=0), reason, size)


def _reviews(conn: sqlite3.Connection) -> int | None:
    try:
        return int(conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])
    except sqlite3.Error:  # before the first migration: no log to keep
        return None


def _copy(source: sqlite3.Connection, target: Path) -> None:
    dest = sqlite3.connect(target)
    try:
        source.backup(dest)
        # a backup is one self-contained file: no -wal to lose when it is copied around
        dest.execute("PRAGMA journal_mode = DELETE")
        dest.commit()
    finally:
        dest.close()


def _slug(reason: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", reason).strip("-") or "backup"


def rotate(
    folder: Path, keep: int = KEEP, *, fresh: Path | None = None, live: int | None = None
) -> list[Path]:
    """Remove all but the newest `keep` backups, and temporary files a killed grill left
    behind over an hour ago (a half-written copy and SQLite's journal beside it); returns what
    was removed.

    Two backups are never removed: `fresh`, the one just written (with a clock set back, the
    others may all look newer), and, given `live` (the reviews the database holds now), the
    backup holding the most history when it holds more than the database and every backup
    kept: after the database was lost or emptied, rotation must not take its history too."""
    removed = []
    stale = time.time() - 3600
    for tmp in (*folder.glob(".grill-*.tmp"), *folder.glob(".grill-*.tmp-journal")):
        with contextlib.suppress(OSError):
            if tmp.stat().st_mtime < stale:
                tmp.unlink()
                removed.append(tmp)
    for old in _doomed(list_backups(folder), keep, fresh, live):
        with contextlib.suppress(FileNotFoundError):  # another grill rotated it first
            old.path.unlink()
            removed.append(old.path)
    return removed


def _doomed(found: list[Backup], keep: int, fresh: Path | None, live: int | None) -> list[Backup]:
    """The backups `rotate` removes, oldest first."""
    others = [b for b in found if b.path != fresh]
    kept = max(0, keep - (len(found) - len(others)))
    doomed = others[:-kept] if kept > 0 else others
    if live is None or not doomed:
        return doomed
    richest = max((live, *(reviews_in(b.path) for b in found if b not in doomed)), default=live)
    counts = [(reviews_in(b.path), i) for i, b in enumerate(doomed)]
    most, at = max(counts)
    return [b for i, b in enumerate(doomed) if i != at] if most > richest else doomed


def reviews_in(path: Path) -> int:
    """How many reviews the database file at `path` holds; 0 when it cannot be read."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    try:
        return int(conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def check_file(path: Path) -> list[str]:
    """`PRAGMA integrity_check` of a database file without changing it: [] when it is sound."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as exc:  # not a database at all, or unreadable
        return [str(exc)]
    finally:
        conn.close()
    problems = [str(r[0]) for r in rows]
    return [] if problems == ["ok"] else problems


def restore(db: Path, backup: Path, now: datetime) -> tuple[Path, ...]:
    """Replace `db` by a copy of `backup`. The current file and its -wal/-shm are moved aside
    (`grill.db.broken-<time>`), never deleted; returns where they went."""
    tmp = db.with_name(f".{db.name}.restore.{os.getpid()}.tmp")
    try:
        source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
        try:
            _copy(source, tmp)
        finally:
            source.close()
        return _swap(db, tmp, now)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _swap(db: Path, tmp: Path, now: datetime) -> tuple[Path, ...]:
    moved = []
    base = f"{db.name}.broken-{stamp(now)}"
    n = 1
    while db.with_name(base).exists():
        n += 1
        base = f"{db.name}.broken-{stamp(now)}-{n}"
    # the -wal goes with its database: left behind, it would be replayed into the restored copy
    for suffix in ("", "-wal", "-shm"):
        current = db.with_name(db.name + suffix)
        if current.exists():
            aside = db.with_name(base + suffix)
            os.replace(current, aside)
            moved.append(aside)
    os.replace(tmp, db)
    return tuple(moved)
