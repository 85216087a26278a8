"""The SQLite database: card state, the append-only review log, sessions. The only sqlite3 user.

One `Store` owns one connection. `Store.open(path)` creates the folder, sets WAL, a busy timeout
and foreign keys, and applies pending migrations (`grill.store.migrations`); a database written by
a newer grill is refused with a StoreError. Every read-then-write runs in `BEGIN IMMEDIATE`, so
two grills on one database never interleave a review; when another grill holds the write lock
beyond the busy timeout, the transaction is retried with back-off for up to `LOCK_WAIT_SECONDS`.
Close it (`close()` or `with`).

Nothing lost, nothing trusted:
  - every sqlite3 and OS error becomes one StoreError with a message meant for the user, in one
    place (`_store_error`): a busy database, a full disk, an I/O error, a damaged file (naming
    the newest backup and `grill doctor --restore`), an unwritable data folder;
  - a backup (`grill.store.backup`) is taken before every schema migration and on the first use
    of each UTC day, after a quick integrity check; the newest `backup.KEEP` are kept;
  - a database emptied to 0 bytes while backups exist is refused, not silently started afresh;
  - typed answers are cleaned and capped (`grill.answers.clean_answer`) before they are stored.

API (all times timezone-aware; stored as UTC ISO-8601 text):

    with Store.open() as store:                     # default path: grill.paths.db_path()
        Store.open(path, now=)                      # `now` names the backups (default: clock)
        store.state(deck, card_id) -> CardState | None          # None: never studied
        store.states(deck=None, due_by=None) -> dict[(deck, card_id), CardState]
        store.studied() -> set[(deck, card_id)]                 # the keys of store.states()
        store.record_review(deck, card_id, reviewed_at=, rating=, schedule=, verdict=, answer=,
                            response_ms=, mode=, session_id=, content_hash=) -> Review
            # log row + new state in one transaction; `schedule(prior_state_or_None)` computes
            # the new state from the state read inside that transaction (None: log only)
        store.undo_last(session_id=None) -> Review | None        # exact prior state back
        store.history(deck, card_id) -> list[Review]            # oldest first
        store.reviews(since=, until=, mode=, deck=, session_id=) -> list[Review]
        store.count_reviews(since=, first=) -> int              # counted in SQL
        store.count_by_day(shift) -> dict[date, int]            # reviews per (shifted) day
        store.iter_reviews(chunk=) -> Iterator[Review]          # the whole log, chunk by chunk
        store.log_rows(chunk=) -> Iterator[tuple]               # the same, as plain values
        store.log_json(numbers, indent=) -> Iterator[bytes]     # the log as JSON, by SQLite,
                                                                # on every core (streamer)
        store.log_csv(numbers) -> Iterator[bytes]               # the log as CSV rows, alike
        store.orphans(known={(deck, card_id), ...}) -> list[Orphan]
        store.start_session(mode, at) -> SessionRecord
        store.finish_session(id, at, status=, summary=) -> SessionRecord
        store.session(id) / store.sessions(mode=None) -> SessionRecord(s)
        store.backup(reason="") -> Backup                       # an online backup, rotated
        store.backups() -> list[Backup]                         # oldest first
        store.integrity(quick=False) -> list[str]               # [] when the file is sound

The data classes (CardState, Review, SessionRecord, Orphan) live in grill.model.
"""

from __future__ import annotations

import errno
import json
import random
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from grill.answers import clean_answer
from grill.clock import now as clock_now
from grill.clock import to_utc
from grill.errors import StoreError
from grill.model import (
    CardState,
    Mode,
    Orphan,
    Phase,
    Rating,
    Review,
    SessionRecord,
    SessionStatus,
    Verdict,
)
from grill.paths import db_path
from grill.store.backup import Backup, backups_dir, list_backups, write_backup
from grill.store.migrations import MIGRATIONS, Migration

__all__ = [
    "BUSY_TIMEOUT_MS",
    "LOCK_WAIT_SECONDS",
    "Schedule",
    "Store",
    "damaged_message",
    "from_db_time",
    "to_db_time",
]

BUSY_TIMEOUT_MS = 5000
"""How long one attempt at a write waits for another grill's transaction (SQLite's busy handler)."""

LOCK_WAIT_SECONDS = 30.0
"""How long a write keeps retrying, with back-off, before telling the user the database is busy."""

_jitter = random.Random()
_T = TypeVar("_T")

Schedule = Callable[[CardState | None], CardState | None]
"""Stored state (None: never studied) -> the state after a review (None: only log it)."""

_STATE_FIELDS = (
    "state",
    "step",
    "stability",
    "difficulty",
    "due",
    "last_review",
    "content_hash",
)


def to_db_time(moment: datetime) -> str:
    """UTC ISO-8601 with microseconds: fixed width, so text order is time order."""
    return to_utc(moment).isoformat(timespec="microseconds")


def from_db_time(text: str) -> datetime:
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class Store:
    """The open database. Not thread-safe: one Store per thread."""

    def __init__(self, conn: sqlite3.Connection, path: Path, now: datetime | None = None) -> None:
        self._conn = conn
        self.path = path
        self._now = now

    # ------------------------------------------------------------ opening and closing

    @classmethod
    def open(cls, path: Path | None = None, *, now: datetime | None = None) -> Store:
        """Open (creating if needed) the database at `path`, back it up if due (before a
        migration, once a day) and bring its schema up to date."""
        path = path or db_path()
        now = now or clock_now()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            _refuse_emptied(path)
            conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except (OSError, sqlite3.Error) as exc:
            raise _store_error(exc, path, "open the database") from exc
        conn.row_factory = sqlite3.Row
        store = cls(conn, path, now)
        try:
            store._configure()
            store._migrate(MIGRATIONS)
            store._daily_backup(now)
        except BaseException:
            conn.close()
            raise
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
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
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA foreign_keys = ON")
            # switching a new file to WAL takes an exclusive lock another grill may hold
            mode = self._retry_busy(
                lambda: self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            )
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: cannot switch the database to WAL mode ({mode})")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn sqlite3 and OS errors into a StoreError (see `_store_error`)."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise _store_error(exc, self.path, doing) from exc

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
        (each attempt already waits BUSY_TIMEOUT_MS), for up to LOCK_WAIT_SECONDS in all."""
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        pause = 0.02
        while True:
            try:
                return attempt()
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause * (0.5 + _jitter.random()))
            pause = min(pause * 2, 0.5)

    # ------------------------------------------------------------ migrations

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

    # ------------------------------------------------------------ card state

    def state(self, deck: str, card_id: str) -> CardState | None:
        """The card's scheduling state, or None when it has never been studied."""
        with self._errors("read card state"):
            row = self._conn.execute(
                "SELECT * FROM cards WHERE deck = ? AND card_id = ?", (deck, card_id)
            ).fetchone()
        return _state(deck, card_id, row, "") if row else None

    def states(
        self, deck: str | None = None, *, due_by: datetime | None = None
    ) -> dict[tuple[str, str], CardState]:
        """Every studied card's state (or one deck's), keyed by (deck, card_id); with `due_by`,
        only the cards due by then (read through the index on `due`)."""
        where: list[str] = []
        args: list[str] = []
        if deck is not None:
            where.append("deck = ?")
            args.append(deck)
        if due_by is not None:
            where.append("due <= ?")
            args.append(to_db_time(due_by))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        # with `due_by`, `+` keeps SQLite from walking the primary key in order (every card)
        # to save sorting the few due ones: it reads them through cards_by_due instead
        order = "+deck, +card_id" if due_by is not None else "deck, card_id"
        with self._errors("read card states"):
            rows = self._conn.execute(
                f"SELECT * FROM cards {clause} ORDER BY {order}", args
            ).fetchall()
        out = {}
        for row in rows:
            state = _state(row["deck"], row["card_id"], row, "")
            if state is not None:
                out[state.key] = state
        return out

    def studied(self) -> set[tuple[str, str]]:
        """The (deck, card_id) of every card with a state, without building the states."""
        with self._errors("read card states"):
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples: thousands of keys, no Row objects
            return set(cursor.execute("SELECT deck, card_id FROM cards").fetchall())

    # ------------------------------------------------------------ the review log

    def record_review(
        self,
        deck: str,
        card_id: str,
        *,
        reviewed_at: datetime,
        rating: Rating,
        schedule: Schedule | None,
        verdict: Verdict | None = None,
        answer: str | None = None,
        response_ms: int | None = None,
        mode: Mode = Mode.DRILL,
        session_id: int | None = None,
        content_hash: str = "",
    ) -> Review:
        """Append one review and store the card's new state, in one transaction.

        `schedule` receives the state read inside the transaction, so a review made by another
        grill in between is never overwritten. With `schedule=None` the answer is only logged.
        """
        at = to_db_time(reviewed_at)
        answer = None if answer is None else clean_answer(answer)
        with self._write("record a review") as conn:
            prior = self.state(deck, card_id)
            after = schedule(prior) if schedule is not None else None
            if after is not None and after.key != (deck, card_id):
                raise ValueError(
                    f"schedule returned the state of {after.key}, not {(deck, card_id)}"
                )
            cursor = conn.execute(
                "INSERT INTO reviews (deck, card_id, reviewed_at, rating, verdict, answer,"
                " response_ms, mode, session_id, content_hash,"
                f" {_columns('prior_')}, {_columns('after_')})"
                f" VALUES ({', '.join('?' * (10 + 2 * len(_STATE_FIELDS)))})",
                (
                    deck,
                    card_id,
                    at,
                    int(rating),
                    None if verdict is None else int(verdict),
                    answer,
                    response_ms,
                    str(Mode(mode)),
                    session_id,
                    content_hash,
                    *_values(prior),
                    *_values(after),
                ),
            )
            if after is not None:
                self._put_state(after)
            review_id = int(cursor.lastrowid or 0)
            return self._review(review_id)

    def undo_last(self, *, session_id: int | None = None) -> Review | None:
        """Take back the latest review (of one session, if given): delete its log row and restore
        the card's state exactly as it was. Returns the review undone, or None when there is none.
        Repeatable: each call takes back the one before."""
        with self._write("undo a review") as conn:
            sql = "SELECT id FROM reviews"
            args: tuple[Any, ...] = ()
            if session_id is not None:
                sql, args = sql + " WHERE session_id = ?", (session_id,)
            row = conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
            if row is None:
                return None
            review = self._review(int(row[0]))
            self._check_latest_of_card(review)
            if review.after is not None:
                if review.before is None:
                    conn.execute("DELETE FROM cards WHERE deck = ? AND card_id = ?", review.key)
                else:
                    self._put_state(review.before)
            conn.execute("DELETE FROM reviews WHERE id = ?", (review.id,))
            return review

    def _check_latest_of_card(self, review: Review) -> None:
        later = self._conn.execute(
            "SELECT COUNT(*) FROM reviews WHERE deck = ? AND card_id = ? AND id > ?",
            (*review.key, review.id),
        ).fetchone()[0]
        if later:
            raise StoreError(
                f"cannot undo review {review.id} of {review.deck}/{review.card_id}: "
                "the card was reviewed again since (undo that first)"
            )

    def history(self, deck: str, card_id: str) -> list[Review]:
        """A card's reviews, oldest first. It follows the id, whatever the card's text became."""
        return self._reviews("deck = ? AND card_id = ?", (deck, card_id))

    def reviews(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        mode: Mode | None = None,
        deck: str | None = None,
        session_id: int | None = None,
    ) -> list[Review]:
        """Reviews with `since <= reviewed_at < until` (and the other filters), oldest first."""
        where: list[str] = ["1 = 1"]
        args: list[str | int] = []
        if since is not None:
            where.append("reviewed_at >= ?")
            args.append(to_db_time(since))
        if until is not None:
            where.append("reviewed_at < ?")
            args.append(to_db_time(until))
        for column, value in (("mode", mode), ("deck", deck), ("session_id", session_id)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(str(value) if column == "mode" else value)
        return self._reviews(" AND ".join(where), tuple(args))

    def last_review(self) -> Review | None:
        """The most recent review in the log (what `undo_last` would take back)."""
        with self._errors("read the review log"):
            row = self._conn.execute("SELECT MAX(id) FROM reviews").fetchone()
        return self._review(int(row[0])) if row and row[0] is not None else None

    def count_reviews(self, *, since: datetime | None = None, first: bool = False) -> int:
        """How many reviews have `reviewed_at >= since`; with `first`, only those that
        introduced their card (`Review.first`). Counted in SQL, no Review is built."""
        where: list[str] = ["1 = 1"]
        args: list[str] = []
        if since is not None:
            where.append("reviewed_at >= ?")
            args.append(to_db_time(since))
        if first:
            where.append("prior_state IS NULL AND after_state IS NOT NULL")
        with self._errors("read the review log"):
            row = self._conn.execute(
                f"SELECT COUNT(*) FROM reviews WHERE {' AND '.join(where)}", args
            ).fetchone()
        return int(row[0])

    def count_by_day(self, shift: timedelta) -> dict[date, int]:
        """Reviews per calendar day of `reviewed_at + shift`, for the days that have any. Each
        day is one range of the index on reviewed_at, so no review is read: with a fixed UTC
        offset, `shift = offset - rollover` counts the local study days exactly."""
        counts: dict[date, int] = {}
        with self._errors("read the review log"):
            # apart, MIN and MAX each read one end of the index; together they read all of it
            (first,) = self._conn.execute("SELECT MIN(reviewed_at) FROM reviews").fetchone()
            (last,) = self._conn.execute("SELECT MAX(reviewed_at) FROM reviews").fetchone()
            if first is None:
                return counts
            day, end = (from_db_time(first) + shift).date(), (from_db_time(last) + shift).date()
            while day <= end:
                start = datetime(day.year, day.month, day.day, tzinfo=UTC) - shift
                (count,) = self._conn.execute(
                    "SELECT COUNT(*) FROM reviews WHERE reviewed_at >= ? AND reviewed_at < ?",
                    (to_db_time(start), to_db_time(start + timedelta(days=1))),
                ).fetchone()
                if count:
                    counts[day] = int(count)
                day += timedelta(days=1)
        return counts

    def iter_reviews(self, *, chunk: int = 5000) -> Iterator[Review]:
        """Every review, oldest first, read `chunk` at a time (a long log never sits in memory)."""
        low, high = self._id_range()
        if low is None or high is None:
            return
        for start in range(int(low) - 1, int(high), chunk):
            yield from self._reviews("id > ? AND id <= ?", (start, start + chunk))

    def log_rows(self, *, chunk: int = 20_000) -> Iterator[tuple[Any, ...]]:
        """The review log, oldest first, as plain rows for export, never built into Reviews (a
        million of those took a minute): (id, at, deck, card, mode, rating, verdict, answer,
        response_ms, session), `at` as `datetime.isoformat()` writes it (microseconds only when
        not zero), rating and verdict as labels (verdict None when not graded)."""
        with self._errors("read the review log"):
            low, high = self._id_range()
            if low is None or high is None:
                return
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples
            for start in range(int(low) - 1, int(high), chunk):
                yield from cursor.execute(_LOG_ROWS, (start, start + chunk)).fetchall()

    def log_json(
        self,
        numbers: Mapping[tuple[str, str], int],
        *,
        indent: str = "",
        chunk: int = 20_000,
        workers: int | None = None,
    ) -> Iterator[bytes]:
        """The review log, oldest first, as compact JSON objects written by SQLite, one per line
        (each after `indent`), lines joined by ",\\n" within a chunk of `chunk` reviews: UTF-8
        text, never decoded on its way to a file.

        An object holds id, at (UTC ISO-8601, microseconds only when not zero), deck, card,
        n (`numbers[(deck, card)]`, null when absent), mode, rating and verdict (labels),
        answer, response_ms and session: `grill.report.data.LogRow.to_dict()`, built here
        because a million of them built in Python would take several times as long.

        Building the objects is nearly all of the time: `workers` processes (default: one per
        core, `grill.store.streamer.WORKERS`) build the chunks, each on a read-only connection
        of its own, with the card numbers in a temporary table (joined, not looked up in a
        subquery per row: a quarter faster). At most one chunk per worker is held at once."""
        yield from self._export(_LOG_OBJECT, numbers, (indent, ",\n" + indent, ""), chunk, workers)

    def log_csv(
        self,
        numbers: Mapping[tuple[str, str], int],
        *,
        chunk: int = 20_000,
        workers: int | None = None,
    ) -> Iterator[bytes]:
        """The review log, oldest first, as the CSV rows `grill.report.csvlog` writes (the same
        cells, quoted and neutralised alike, each row ending in CRLF), written by SQLite as
        `log_json` writes its objects: a million rows built in Python took 12 s."""
        yield from self._export(_LOG_CSV, numbers, ("", "\r\n", "\r\n"), chunk, workers)

    def _export(
        self,
        line: str,
        numbers: Mapping[tuple[str, str], int],
        around: tuple[str, str, str],
        chunk: int,
        workers: int | None,
    ) -> Iterator[bytes]:
        """Each chunk of the log as the SQL expression `line` (over `reviews r` and the card
        numbers `m`) gives its rows: before, between and after them the three texts `around`."""
        with self._errors("export the review log"):
            low, high = self._id_range()
            if low is None or high is None:
                return
            job = {
                "uri": f"{self.path.resolve().as_uri()}?mode=ro",
                "timeout": BUSY_TIMEOUT_MS / 1000,
                "setup": [
                    [
                        "CREATE TEMP TABLE export_numbers (deck TEXT, card_id TEXT, n INTEGER,"
                        " PRIMARY KEY (deck, card_id)) WITHOUT ROWID",
                        None,
                    ],
                    [
                        "INSERT INTO export_numbers VALUES (?, ?, ?)",
                        [[deck, card, n] for (deck, card), n in numbers.items()],
                    ],
                ],
                "sql": _LOG_CHUNK.format(line=line),
            }
            runs = [(*around, start, start + chunk) for start in range(low - 1, high, chunk)]
            from grill.store import streamer  # only an export needs its processes

            for text in streamer.stream(job, runs, workers or streamer.WORKERS):
                if text:
                    yield text

    def _id_range(self) -> tuple[int | None, int | None]:
        """The first and last review ids (two lookups: MIN and MAX together scan the log)."""
        with self._errors("read the review log"):
            (low,) = self._conn.execute("SELECT MIN(id) FROM reviews").fetchone()
            (high,) = self._conn.execute("SELECT MAX(id) FROM reviews").fetchone()
        return low, high

    def orphan_keys(
        self,
        known: Collection[tuple[str, str]],
        studied: Collection[tuple[str, str]] | None = None,
    ) -> list[tuple[str, str]]:
        """(deck, card_id) of the cards with state or history that are not in `known` (what
        the loaded decks define: pass cards and cases), sorted. `studied`: what `studied()`
        returned, when the caller has it already.

        The log is not scanned: a card with a scheduled review always has a row in `cards`
        (`record_review` writes it in the same transaction; `undo_last` removes it only with
        the card's first and last scheduled review), so the cards with history are those in
        `cards` plus those with log-only reviews, which an index of their own lists."""
        with self._errors("list orphaned cards"):
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples: thousands of keys, no Row objects
            keys = set(self.studied() if studied is None else studied)
            keys.update(
                cursor.execute("SELECT deck, card_id FROM reviews WHERE after_state IS NULL")
            )
        return sorted(keys.difference(known))

    def orphans(self, known: Collection[tuple[str, str]]) -> list[Orphan]:
        """The orphaned cards (`orphan_keys`) with their review count, last review and state.
        Their history is kept, never dropped."""
        found = []
        with self._errors("list orphaned cards"):
            for deck, card_id in self.orphan_keys(known):
                count, last = self._conn.execute(
                    "SELECT COUNT(*), MAX(reviewed_at) FROM reviews WHERE deck = ? AND card_id = ?",
                    (deck, card_id),
                ).fetchone()
                when = None if last is None else from_db_time(last)
                found.append(Orphan(deck, card_id, int(count), when, self.state(deck, card_id)))
        return found

    # ------------------------------------------------------------ memory fits

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

    # ------------------------------------------------------------ sessions

    def start_session(self, mode: Mode, at: datetime) -> SessionRecord:
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
        with self._errors("read a session"):
            row = self._conn.execute(
                "SELECT * FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"no session {session_id}")
        return _session(row)

    def sessions(self, mode: Mode | None = None) -> list[SessionRecord]:
        """Sessions (of one mode, if given), oldest first."""
        where = "" if mode is None else "WHERE mode = ?"
        args = () if mode is None else (str(mode),)
        with self._errors("read sessions"):
            rows = self._conn.execute(
                f"SELECT * FROM sessions {where} ORDER BY id", args
            ).fetchall()
        return [_session(r) for r in rows]

    # ------------------------------------------------------------ rows <-> objects

    def _put_state(self, state: CardState) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO cards (deck, card_id, state, step, stability, difficulty,"
            " due, last_review, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (state.deck, state.card_id, *_values(state)),
        )

    def _review(self, review_id: int) -> Review:
        found = self._reviews("id = ?", (review_id,))
        if not found:
            raise StoreError(f"no review {review_id}")
        return found[0]

    def _reviews(self, where: str, args: tuple[Any, ...]) -> list[Review]:
        with self._errors("read the review log"):
            rows = self._conn.execute(f"SELECT * FROM reviews WHERE {where} ORDER BY id", args)
            return [_review(r) for r in rows.fetchall()]

    # ------------------------------------------------------------ backups and health

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
        self.backup()


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


_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code; 0 for an error the sqlite3 module raises itself (a
    ProgrammingError such as a closed database carries no code)."""
    return int(getattr(exc, "sqlite_errorcode", 0)) & 0xFF


def _busy(exc: sqlite3.Error) -> bool:
    return _code(exc) in _BUSY or "locked" in str(exc)


def _store_error(exc: sqlite3.Error | OSError, path: Path, doing: str) -> StoreError:
    """The one place where a sqlite3 or OS error becomes a message for the user."""
    if isinstance(exc, OSError):
        return _os_error(exc, path, doing)
    code = _code(exc)
    if _busy(exc):
        return StoreError(
            f"cannot {doing}: {path} is busy (another grill kept it locked for more than"
            f" {LOCK_WAIT_SECONDS:g} s); nothing was saved, try again when it has finished"
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
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
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


def _refuse_emptied(path: Path) -> None:
    """A 0-byte database beside backups was truncated: starting afresh would hide the history."""
    if path.is_file() and path.stat().st_size == 0 and list_backups(backups_dir(path)):
        raise StoreError(damaged_message(path, "the file is empty"))


def _labels(column: str, enum: type[Rating] | type[Verdict]) -> str:
    cases = " ".join(f"WHEN {int(member)} THEN '{member.label}'" for member in enum)
    return f"CASE {column} {cases} END"


# a review's time as `datetime.isoformat()` writes it: without microseconds when they are zero
_AT = "replace(r.reviewed_at, '.000000+', '+')"

# one review as exported (Store.log_json)
_LOG_OBJECT = (
    f"json_object('id', r.id, 'at', {_AT}, 'deck', r.deck,"
    " 'card', r.card_id, 'n', m.n, 'mode', r.mode,"
    f" 'rating', {_labels('r.rating', Rating)}, 'verdict', {_labels('r.verdict', Verdict)},"
    " 'answer', r.answer, 'response_ms', r.response_ms, 'session', r.session_id)"
)


def _csv_text(x: str) -> str:
    """SQL for the text column `x` as a CSV cell: as grill.report.csvlog writes it, neutralised
    (a leading apostrophe before what a spreadsheet would evaluate), then quoted as csv.writer
    quotes (QUOTE_MINIMAL, CRLF lines); NULL is an empty cell. Each test is a GLOB on the
    column itself: no copy of the text is made unless it is changed."""
    special = "'*[,\"' || char(13) || char(10) || ']*'"
    risky = (
        f"({x} GLOB '[-=+@' || char(9) || char(13) || ']*'"
        f" OR ({x} GLOB ' *' AND ltrim({x}, ' ') GLOB '[-=+@]*'))"
    )
    quoted = f"replace({x}, '\"', '\"\"')"
    return (
        f"CASE WHEN {x} IS NULL THEN ''"
        f" WHEN {risky} THEN"
        f" CASE WHEN {x} GLOB {special} THEN '\"''' || {quoted} || '\"' ELSE '''' || {x} END"
        f" WHEN {x} GLOB {special} THEN '\"' || {quoted} || '\"'"
        f" ELSE {x} END"
    )


# one review as a CSV row (grill.report.csvlog.COLUMNS); mode and the labels never need quotes.
# One printf, not `||` between cells: each `||` copies the row so far (3.6 s a million rows
# against 2.0 s)
_CSV_CELLS = [
    "r.id",
    _AT,
    _csv_text("r.deck"),
    _csv_text("r.card_id"),
    "coalesce(m.n, '')",
    "r.mode",
    _labels("r.rating", Rating),
    f"coalesce({_labels('r.verdict', Verdict)}, '')",
    _csv_text("r.answer"),
    "coalesce(r.response_ms, '')",
    "coalesce(r.session_id, '')",
]
_LOG_CSV = f"printf('{','.join(['%s'] * len(_CSV_CELLS))}', {', '.join(_CSV_CELLS)})"

# the reviews with ids in (?4, ?5] as `line` gives them, oldest first: ?1, the lines joined by
# ?2, then ?3; NULL when there are none
_LOG_CHUNK = (
    "SELECT ? || group_concat(line, ?) || ? FROM (SELECT {line} AS line"
    " FROM reviews r LEFT JOIN export_numbers m ON m.deck = r.deck AND m.card_id = r.card_id"
    " WHERE r.id > ? AND r.id <= ? ORDER BY r.id)"
)


# the reviews with ids in (?1, ?2] as Store.log_rows gives them
_LOG_ROWS = (
    f"SELECT r.id, {_AT}, r.deck, r.card_id, r.mode,"
    f" {_labels('r.rating', Rating)}, {_labels('r.verdict', Verdict)}, r.answer,"
    " r.response_ms, r.session_id FROM reviews r WHERE r.id > ? AND r.id <= ? ORDER BY r.id"
)


def _columns(prefix: str) -> str:
    return ", ".join(prefix + name for name in _STATE_FIELDS)


def _values(state: CardState | None) -> tuple[Any, ...]:
    if state is None:
        return (None,) * len(_STATE_FIELDS)
    return (
        int(state.phase),
        state.step,
        state.stability,
        state.difficulty,
        to_db_time(state.due),
        None if state.last_review is None else to_db_time(state.last_review),
        state.content_hash,
    )


def _state(deck: str, card_id: str, row: sqlite3.Row, prefix: str) -> CardState | None:
    if row[prefix + "state"] is None:
        return None
    last = row[prefix + "last_review"]
    return CardState(
        deck=deck,
        card_id=card_id,
        phase=Phase(row[prefix + "state"]),
        step=row[prefix + "step"],
        stability=row[prefix + "stability"],
        difficulty=row[prefix + "difficulty"],
        due=from_db_time(row[prefix + "due"]),
        last_review=None if last is None else from_db_time(last),
        content_hash=row[prefix + "content_hash"] or "",
    )


def _review(row: sqlite3.Row) -> Review:
    deck, card_id = row["deck"], row["card_id"]
    return Review(
        id=row["id"],
        deck=deck,
        card_id=card_id,
        reviewed_at=from_db_time(row["reviewed_at"]),
        rating=Rating(row["rating"]),
        verdict=None if row["verdict"] is None else Verdict(row["verdict"]),
        answer=row["answer"],
        response_ms=row["response_ms"],
        mode=Mode(row["mode"]),
        session_id=row["session_id"],
        content_hash=row["content_hash"],
        before=_state(deck, card_id, row, "prior_"),
        after=_state(deck, card_id, row, "after_"),
    )


def _session(row: sqlite3.Row) -> SessionRecord:
    return SessionRecord(
        id=row["id"],
        mode=Mode(row["mode"]),
        started_at=from_db_time(row["started_at"]),
        ended_at=None if row["ended_at"] is None else from_db_time(row["ended_at"]),
        status=SessionStatus(row["status"]),
        summary=json.loads(row["summary"]),
    )
