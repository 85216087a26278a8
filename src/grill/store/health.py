"""Backups and health: the part of the store that backs the open database up and checks it.

A backup (`grill.store.backup`) is taken before every schema migration and on the first use of
each UTC day, after a quick integrity check: a damaged file is reported, never copied over a
good backup; the newest `backup.KEEP` are kept. A daily backup that cannot be written (a full
disk, an unwritable backups folder) is a warning (`GrillWarning`), never a refusal: no command
is blocked by its safety net.
"""

from __future__ import annotations

import warnings
from datetime import datetime

from grill.clock import now as clock_now
from grill.clock import to_utc
from grill.errors import GrillWarning, StoreError
from grill.store.backup import Backup, backups_dir, list_backups, write_backup
from grill.store.connection import Database
from grill.store.errors import damaged_message

__all__ = ["Health"]


class Health(Database):
    """Backups of the open database and its integrity."""

    def backup(self, *, reason: str = "") -> Backup:
        """Copy the database, as committed now, into a new backup (SQLite's online backup API);
        only the newest `backup.KEEP` are kept."""
        now = self._now or clock_now()
        with self._errors("back up the database"):
            return write_backup(self._conn, backups_dir(self.path), now, reason)

    def backups(self) -> list[Backup]:
        """The backups of this database, oldest first."""
        with self._errors("list the backups"):
            return list_backups(backups_dir(self.path))

    def integrity(self, *, quick: bool = False) -> list[str]:
        """The problems `PRAGMA integrity_check` (or the faster `quick_check`) finds; [] = sound."""
        pragma = "quick_check" if quick else "integrity_check"
        with self._errors("check the database"):
            rows = self._conn.execute(f"PRAGMA {pragma}").fetchall()
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems

    def _daily_backup(self, now: datetime) -> None:
        """On the first use of a UTC day, check the file and back it up (when it holds any
        history): a damaged file is reported, never copied over a good backup."""
        day = to_utc(now).date()
        if any(b.taken.date() == day for b in self.backups()):
            return
        with self._errors("read the review log"):
            used = self._conn.execute(
                "SELECT EXISTS (SELECT 1 FROM reviews) OR EXISTS (SELECT 1 FROM sessions)"
            ).fetchone()[0]
        if not used:
            return
        problems = self.integrity(quick=True)
        if problems:
            raise StoreError(damaged_message(self.path, problems[0]))
        try:
            self.backup()
        except StoreError as exc:  # a safety net: the command it would block comes first
            warnings.warn(f"{exc} (the daily backup was skipped)", GrillWarning, stacklevel=2)
