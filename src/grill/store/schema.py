"""Bringing the schema up to date on open: the part of the store that applies migrations.

Each pending migration of `grill.store.migrations` runs in its own write transaction together
with its record, re-checked inside it (another grill may have just applied it); a backup is
taken before the first migration of a database with history; a database holding a migration
this grill does not know was written by a newer grill and is refused.
"""

from __future__ import annotations

from datetime import UTC, datetime

from grill.errors import StoreError
from grill.store.health import Health
from grill.store.migrations import Migration
from grill.store.rows import to_db_time

__all__ = ["Schema"]


class Schema(Health):
    """Migrations applied on open; `schema` names those applied."""

    def _migrate(self, migrations: tuple[Migration, ...]) -> None:
        with self._write("migrate"):
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS migrations ("
                " id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL)"
            )
        with self._errors("read the schema"):
            self._check_not_newer(migrations)
            applied = self._applied()
        pending = [m.name for m in migrations if m.name not in applied]
        if applied and pending:
            self.backup(reason=f"before-{pending[0]}")
        for migration in migrations:
            with self._write(f"apply migration {migration.name}") as conn:
                # re-read inside the transaction: another grill may have just applied it
                if migration.name in self._applied():
                    continue
                self._check_not_newer(migrations)
                for statement in migration.statements:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                    (migration.name, to_db_time(datetime.now(UTC))),
                )
        with self._errors("read the schema"):
            self._check_not_newer(migrations)

    def _applied(self) -> list[str]:
        rows = self._conn.execute("SELECT name FROM migrations ORDER BY id").fetchall()
        return [str(r[0]) for r in rows]

    def _check_not_newer(self, migrations: tuple[Migration, ...]) -> None:
        known = {m.name for m in migrations}
        unknown = [name for name in self._applied() if name not in known]
        if unknown:
            raise StoreError(
                f"{self.path} was written by a newer grill (schema {unknown[-1]}); "
                "upgrade grill to use it"
            )

    @property
    def schema(self) -> list[str]:
        """The names of the applied migrations, oldest first."""
        with self._errors("read the schema"):
            return self._applied()
