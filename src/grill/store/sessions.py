"""Sessions: the part of the store that records each drill, mock or case from start to end.

A session is opened when it starts (`open`) and closed with a status and a JSON summary when it
ends; reviews name the session they belong to. While it runs, its grill holds its lock
(`grill.store.lock`): a session left open by a grill that is gone is closed, as interrupted,
when the next one starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from grill.errors import StoreError
from grill.model import Mode, SessionRecord, SessionStatus
from grill.store import lock
from grill.store.connection import Database
from grill.store.rows import session_from_row, to_db_time

__all__ = ["Sessions"]


class Sessions(Database):
    """The sessions, oldest first."""

    def start_session(self, mode: Mode, at: datetime) -> SessionRecord:
        """Open a session of `mode` started `at`, held as running (`grill.store.lock`) until
        it is finished or this store closes. Sessions still open that no grill runs any more
        (killed, or the machine lost power) are closed first, as interrupted."""
        with self._write("start a session") as conn:
            self._close_abandoned()
            cursor = conn.execute(
                "INSERT INTO sessions (mode, started_at, status) VALUES (?, ?, ?)",
                (str(Mode(mode)), to_db_time(at), str(SessionStatus.OPEN)),
            )
            session_id = int(cursor.lastrowid or 0)
            # taken before COMMIT: no other grill sees the session before it is held
            held = lock.hold_session(self.path, session_id)
            if held is not None:
                self._locks[session_id] = held
            return self.session(session_id)

    def _close_abandoned(self) -> None:
        """End, as interrupted at its last review (or its start), each open session whose
        grill is gone. Runs inside a write transaction: no session starts meanwhile."""
        for session_id in self._abandoned():
            self._conn.execute(
                "UPDATE sessions SET status = ?, ended_at = coalesce((SELECT max(reviewed_at)"
                " FROM reviews WHERE session_id = sessions.id), started_at) WHERE id = ?",
                (str(SessionStatus.INTERRUPTED), session_id),
            )
            lock.forget_session(self.path, session_id)

    def abandoned(self) -> list[int]:
        """The ids of the sessions still open that no grill runs any more (what the next
        `start_session` closes)."""
        with self._errors("read sessions"):
            return self._abandoned()

    def _abandoned(self) -> list[int]:
        rows = self._conn.execute(
            "SELECT id FROM sessions WHERE status = ? ORDER BY id", (str(SessionStatus.OPEN),)
        ).fetchall()
        ids = [int(r[0]) for r in rows]
        return [i for i in ids if i not in self._locks and not lock.session_alive(self.path, i)]

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
            record = self.session(session_id)
        held = self._locks.pop(session_id, None)
        if held is not None:
            held.release()
        return record

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
