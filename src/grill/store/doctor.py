"""`grill doctor`: check the database without changing it, and restore a backup.

    check(path=None, known=None) -> Health        # never raises for a damaged or newer file
    restore(path=None, backup=None, now=None) -> Restored

`check` opens the file without migrating it and reports what it finds (a file it cannot read
for another reason than damage, or a database that is missing beside its backups or cannot be
made where it should be, is `Health.error`, never "damaged"): `PRAGMA integrity_check`,
the schema (current, behind, or from a newer grill), how much history it holds, how many cards
are orphaned (when `known`, the cards the decks define, is given) and the backups.
`restore` puts the newest backup (or the one named) in place after checking it is sound; the
current file is moved aside, never deleted (`grill.store.backup.restore`). It refuses while
another grill has the database open (`grill.store.lock`): that grill would go on writing into
the file moved aside.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grill.clock import now as clock_now
from grill.errors import NotFoundError, StoreError
from grill.paths import db_path
from grill.store import LOCK_WAIT_SECONDS, Store, lock
from grill.store import backup as backups
from grill.store.backup import Backup
from grill.store.errors import is_damage, missing_message, store_error
from grill.store.migrations import MIGRATIONS

__all__ = ["Health", "Restored", "check", "restore"]


@dataclass(frozen=True)
class Health:
    """What `grill doctor` found. `ok` is False for a damaged file or one from a newer grill."""

    path: Path
    exists: bool
    size: int
    problems: tuple[str, ...]
    schema: tuple[str, ...]
    pending: tuple[str, ...]
    newer: tuple[str, ...]
    reviews: int
    cards: int
    sessions: int
    orphans: int | None
    backups: tuple[Backup, ...]
    error: str = ""
    """What kept the file from being checked, when that is not damage: GRILL_HOME a file,
    the database a folder, or missing beside its backups; a file grill cannot open."""

    @property
    def ok(self) -> bool:
        return not self.problems and not self.newer and not self.error


@dataclass(frozen=True)
class Restored:
    """A restore: the backup put in place and where the files it replaced were moved."""

    path: Path
    backup: Backup
    moved: tuple[Path, ...]


def check(path: Path | None = None, known: Collection[tuple[str, str]] | None = None) -> Health:
    """Inspect the database at `path` (default: grill's) without migrating or writing it."""
    path = path or db_path()
    try:
        found = tuple(backups.list_backups(backups.backups_dir(path)))
    except OSError as exc:
        return _missing(path, (f"cannot list the backups: {exc}",), ())
    blocked = _blocked(path, found)
    if blocked or not path.is_file():
        return _missing(path, (), found, blocked)
    try:
        conn = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        return _unreadable(path, exc, found)
    try:
        return _inspect(conn, path, known, found)
    finally:
        conn.close()


def _blocked(path: Path, found: tuple[Backup, ...]) -> str:
    """Why `path` cannot be a database at all, or must not be started afresh; '' when not."""
    if path.parent.exists() and not path.parent.is_dir():
        return (
            f"{path.parent} is a file, not a folder: grill keeps its data in a folder"
            " (set GRILL_HOME to one)"
        )
    if path.exists() and not path.is_file():
        return f"{path} is not a file (a folder?): move it away, grill makes the database there"
    if not path.exists() and found:
        return missing_message(path, found[-1])
    return ""


def _missing(
    path: Path, problems: tuple[str, ...], found: tuple[Backup, ...], error: str = ""
) -> Health:
    return Health(path, False, 0, problems, (), (), (), 0, 0, 0, None, found, error)


def _unreadable(path: Path, exc: sqlite3.Error, found: tuple[Backup, ...]) -> Health:
    """A file that could not be read: damaged when SQLite says so, else why it cannot be read
    (a read-only folder is no reason to restore a backup over a sound file)."""
    size = path.stat().st_size
    if is_damage(exc) or not size:
        problem = str(exc) if size else "the file is empty"
        return Health(path, True, size, (problem,), (), (), (), 0, 0, 0, None, found)
    error = str(store_error(exc, path, "check the database", lock_wait=LOCK_WAIT_SECONDS))
    return Health(path, True, size, (), (), (), (), 0, 0, 0, None, found, error)


def _inspect(
    conn: sqlite3.Connection,
    path: Path,
    known: Collection[tuple[str, str]] | None,
    found: tuple[Backup, ...],
) -> Health:
    size = path.stat().st_size
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
        problems = tuple(str(r[0]) for r in rows if str(r[0]) != "ok")
        applied = tuple(str(r[0]) for r in conn.execute("SELECT name FROM migrations ORDER BY id"))
    except sqlite3.Error as exc:
        return _unreadable(path, exc, found)
    names = [m.name for m in MIGRATIONS]
    pending = tuple(n for n in names if n not in applied)
    newer = tuple(n for n in applied if n not in names)
    reviews, cards, sessions = (_count(conn, t) for t in ("reviews", "cards", "sessions"))
    orphans = None
    if known is not None and not problems and not newer and not pending:
        conn.row_factory = sqlite3.Row
        orphans = len(Store(conn, path).orphans(known))
    return Health(
        path,
        True,
        size,
        problems,
        applied,
        pending,
        newer,
        reviews,
        cards,
        sessions,
        orphans,
        found,
    )


def _count(conn: sqlite3.Connection, table: str) -> int:
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0


def restore(
    path: Path | None = None, backup: str | None = None, now: datetime | None = None
) -> Restored:
    """Restore the newest backup, or `backup` (a file name in the backups folder or a path),
    after checking it is sound. The file it replaces is moved aside, never deleted."""
    path = path or db_path()
    now = now or clock_now()
    chosen = _choose(path, backup)
    try:
        alone = lock.alone(path)
    except lock.Held:
        raise StoreError(
            f"cannot restore {path}: another grill has it open (a drill, a mock, a report?);"
            " end it and run `grill doctor --restore` again. Nothing was changed"
        ) from None
    try:
        return _restore(path, chosen, now)
    finally:
        if alone is not None:
            alone.release()


def _restore(path: Path, chosen: Backup, now: datetime) -> Restored:
    try:
        problems = backups.check_file(chosen.path)
        if problems:
            raise StoreError(
                f"the backup {chosen.path} is damaged too ({problems[0]}); name another one:"
                " grill doctor --restore NAME"
            )
        moved = backups.restore(path, chosen.path, now)
    except (sqlite3.Error, OSError) as exc:
        raise store_error(exc, path, f"restore {chosen.path}", lock_wait=LOCK_WAIT_SECONDS) from exc
    return Restored(path, chosen, moved)


def _choose(path: Path, name: str | None) -> Backup:
    folder = backups.backups_dir(path)
    try:
        found = backups.list_backups(folder)
    except OSError as exc:
        raise store_error(exc, path, "list the backups", lock_wait=LOCK_WAIT_SECONDS) from exc
    if name is None:
        if not found:
            raise NotFoundError(f"there is no backup to restore in {folder}")
        return found[-1]
    for item in found:
        if name in (item.name, item.name.removesuffix(".db"), str(item.path)):
            return item
    given = Path(name).expanduser()
    if given.is_file():
        taken = datetime.fromtimestamp(given.stat().st_mtime, UTC)
        return Backup(given, taken, "", given.stat().st_size)
    listed = ", ".join(b.name for b in found) or "none"
    raise NotFoundError(f"no backup named {name!r} in {folder} (there are: {listed})")
