"""Memory fits: the part of the store that keeps what `grill.memory` learned from the log.

Each fit is one row of `memory_fits` (when, on how many reviews, the fit as JSON text); the
latest is the one in use, older ones show how it moved.
"""

from __future__ import annotations

from datetime import datetime

from grill.store.connection import Database
from grill.store.rows import from_db_time, to_db_time

__all__ = ["MemoryFits"]


class MemoryFits(Database):
    """The stored memory fits, newest in use."""

    def save_memory_fit(self, fitted_at: datetime, reviews: int, body: str) -> None:
        """Keep a memory fit (grill.memory) made from `reviews` reviews, as JSON text."""
        with self._write("save the memory fit") as conn:
            conn.execute(
                "INSERT INTO memory_fits (fitted_at, reviews, body) VALUES (?, ?, ?)",
                (to_db_time(fitted_at), reviews, body),
            )

    def memory_fit(self) -> tuple[datetime, int, str] | None:
        """The latest memory fit: (when, reviews fitted on, JSON text); None before the first."""
        with self._errors("read the memory fit"):
            row = self._conn.execute(
                "SELECT fitted_at, reviews, body FROM memory_fits ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else (from_db_time(row[0]), int(row[1]), str(row[2]))
