"""Sessions: the part of the store that records each drill, mock or case from start to end.

A session is opened when it starts (`open`) and closed with a status and a JSON summary when it
ends; reviews name the session they belong to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from grill.errors import StoreError
from grill.model import Mode, SessionRecord, SessionStatus
from grill.store.connection import Database
from grill.store.rows import session_from_row, to_db_time

__all__ = ["Sessions"]


class Sessions(Database):
    """The sessions, oldest first."""

    def start_session(self, mode: Mode, at: datetime) -> SessionRecord:
        """Open a session of `mode` started `at`."""
        with self._write("start a session") as conn:
            cursor = conn.execute(
                "INSERT INTO sessions (mode, started_at, status) VALUES (?, ?, ?)",
                (str(Mode(mode)), to_db_time(at), str(SessionStatus.OPEN)),
            )
            return self.session(int(cursor.lastrowid or 0))

    def finish_session(
        self,
        session_id: int,
        at: datetime,
        *,
        status: SessionStatus = SessionStatus.DONE,
        summary: Mapping[str, object] | None = None,
    ) -> SessionRecord:
        """Close a session with its status and a JSON-serialisable summary."""
        text = json.dumps(dict(summary or {}), ensure_ascii=False, default=str)
        with self._write("finish a session") as conn:
            cursor = conn.execute(
                "UPDATE sessions SET ended_at = ?, status = ?, summary = ? WHERE id = ?",
                (to_db_time(at), str(SessionStatus(status)), text, session_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"no session {session_id}")
            return self.session(session_id)

    def session(self, session_id: int) -> SessionRecord:
        """The session `session_id`; a StoreError when there is none."""
        with self._errors("read a session"):
            row = self._conn.execute(
                "SELECT * FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"no session {session_id}")
        return session_from_row(row)

    def sessions(self, mode: Mode | None = None) -> list[SessionRecord]:
        """Sessions (of one mode, if given), oldest first."""
        where = "" if mode is None else "WHERE mode = ?"
        args = () if mode is None else (str(mode),)
        with self._errors("read sessions"):
            rows = self._conn.execute(
                f"SELECT * FROM sessions {where} ORDER BY id", args
            ).fetchall()
        return [session_from_row(r) for r in rows]
