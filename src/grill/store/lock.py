"""Who has the database open, told by advisory locks the operating system drops with their
process (a grill killed with -9 included), in `<data folder>/locks/`:

    grill.db.lock               every open Store holds it shared; `doctor --restore` takes it
                                alone, so it never moves the file from under a running grill
    grill.db.session-<id>.lock  held by the grill running session <id>; a session still open
                                whose lock nobody holds was ended uncleanly (killed, lost power)

The locks are `flock`s: two opens of one file conflict even within one process. Where the
system has none (Windows), or the folder cannot hold them, nothing is locked and every
session is taken to be running: locks that cannot be had never refuse a command.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

if sys.platform != "win32":
    import fcntl

__all__ = [
    "Held",
    "Lock",
    "alone",
    "forget_session",
    "hold_database",
    "hold_session",
    "locks_dir",
    "session_alive",
]


class Held(Exception):
    """Another grill holds the lock asked for without waiting."""


def locks_dir(db: Path) -> Path:
    """Where the locks of the database `db` are: `locks/` beside it."""
    return db.parent / "locks"


class Lock:
    """A held lock; `release()` (or the end of the process) lets it go."""

    def __init__(self, fd: int, path: Path, remove: bool) -> None:
        self._fd: int | None = fd
        self.path = path
        self._remove = remove

    def release(self) -> None:
        """Let the lock go (a session's file removed first); idempotent."""
        if self._fd is None:
            return
        if self._remove:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self._fd)
        self._fd = None


def _take(path: Path, *, exclusive: bool, wait: bool, remove: bool = False) -> Lock | None:
    """The lock on `path`; None when locks cannot be had here; Held when another holds it
    and `wait` is False."""
    if sys.platform == "win32":
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return None
    mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
    try:
        fcntl.flock(fd, mode)
    except BlockingIOError:
        os.close(fd)
        raise Held(str(path)) from None
    except OSError:
        os.close(fd)
        return None
    return Lock(fd, path, remove)


def _database(db: Path) -> Path:
    return locks_dir(db) / f"{db.name}.lock"


def _session(db: Path, session_id: int) -> Path:
    return locks_dir(db) / f"{db.name}.session-{session_id}.lock"


def hold_database(db: Path) -> Lock | None:
    """The database lock, shared with every other open Store (waiting out a restore)."""
    return _take(_database(db), exclusive=False, wait=True)


def alone(db: Path) -> Lock | None:
    """The database lock, held alone: Held when another grill has `db` open."""
    return _take(_database(db), exclusive=True, wait=False)


def hold_session(db: Path, session_id: int) -> Lock | None:
    """The lock of session `session_id`, held while it runs; its file goes on release."""
    return _take(_session(db, session_id), exclusive=True, wait=True, remove=True)


def forget_session(db: Path, session_id: int) -> None:
    """Remove the lock file a killed grill left for session `session_id`."""
    with contextlib.suppress(OSError):
        _session(db, session_id).unlink()


def session_alive(db: Path, session_id: int) -> bool:
    """Whether a grill still runs session `session_id` (holds its lock). Without locks on
    this system every session is taken to be running."""
    if sys.platform == "win32":
        return True
    path = _session(db, session_id)
    if not path.exists():
        return False
    try:
        probe = _take(path, exclusive=True, wait=False)
    except Held:
        return True
    if probe is None:
        return True
    probe.release()
    return False
