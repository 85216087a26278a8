"""The SQLite database: card state, the append-only review log, sessions. The only sqlite3 user.

One `Store` owns one connection. `Store.open(path)` creates the folder, sets WAL, a busy timeout
and foreign keys, and applies pending migrations (`grill.store.migrations`); a database written by
a newer grill is refused with a StoreError. Every read-then-write runs in `BEGIN IMMEDIATE`, so
two grills on one database never interleave a review; when another grill holds the write lock
beyond the busy timeout (`BUSY_TIMEOUT_MS`), the transaction is retried with back-off for up to
`LOCK_WAIT_SECONDS` (both read when a Store is opened). Close it (`close()` or `with`).

`Store` is a facade: its parts live in modules of their own, each a class the Store is made of,
all sharing its one connection:

    connection   opening, the connection, transactions, busy retries      (Database)
    lock         who has the database open, which sessions still run (OS locks)
    errors       every sqlite3 and OS error worded for a person, in one place
    rows         rows <-> CardState, Review, SessionRecord; times as UTC text
    health       backups (daily, before a migration) and integrity         (Health)
    schema       migrations applied on open                                (Schema)
    cards        card state and orphans                                    (Cards)
    reviews      the review log: record, undo, read, count                 (Reviews)
    export       the log streamed out as SQLite writes it                  (Export)
    sessions     drill, mock and case sessions                             (Sessions)
    memoryfits   what grill.memory learned from the log                    (MemoryFits)

Nothing lost, nothing trusted:
  - every sqlite3 and OS error becomes one StoreError with a message meant for the user, in one
    place (`grill.store.errors`): a busy database, a full disk, an I/O error, a damaged file
    (naming the newest backup and `grill doctor --restore`), an unwritable data folder;
  - a backup (`grill.store.backup`) is taken before every schema migration and on the first use
    of each UTC day, after a quick integrity check; the newest `backup.KEEP` are kept;
  - a database deleted or emptied to 0 bytes while backups exist is refused, not silently
    started afresh, and rotation never takes the last backup holding more history than it;
  - a daily backup that cannot be written warns (GrillWarning) and blocks nothing;
  - `grill doctor --restore` refuses while another grill has the database open, and a session
    whose grill is gone (killed with -9) is closed when the next one starts (`lock`);
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
        store.log_rows(chunk=) -> Iterator[tuple]               # the same, as stored values
        store.export_log(line, numbers, around) -> Iterator[bytes]
            # the log as the SQL expression `line` writes each review (grill.report.logformat),
            # by SQLite, on every core (streamer)
        store.orphans(known={(deck, card_id), ...}) -> list[Orphan]
        store.start_session(mode, at) -> SessionRecord
        store.finish_session(id, at, status=, summary=) -> SessionRecord
        store.session(id) / store.sessions(mode=None) -> SessionRecord(s)
        store.abandoned() -> list[int]             # open sessions whose grill is gone
        store.save_memory_fit(at, reviews, body) / store.memory_fit() -> (at, reviews, body)
        store.backup(reason="") -> Backup                       # an online backup, rotated
        store.backups() -> list[Backup]                         # oldest first
        store.integrity(quick=False) -> list[str]               # [] when the file is sound

The data classes (CardState, Review, SessionRecord, Orphan) live in grill.model.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from grill.clock import now as clock_now
from grill.paths import db_path
from grill.store import lock
from grill.store.connection import BUSY_TIMEOUT_MS, LOCK_WAIT_SECONDS, connect
from grill.store.errors import damaged_message
from grill.store.export import Export
from grill.store.memoryfits import MemoryFits
from grill.store.migrations import MIGRATIONS
from grill.store.reviews import Schedule
from grill.store.rows import from_db_time, to_db_time
from grill.store.schema import Schema
from grill.store.sessions import Sessions

__all__ = [
    "BUSY_TIMEOUT_MS",
    "LOCK_WAIT_SECONDS",
    "Schedule",
    "Store",
    "damaged_message",
    "from_db_time",
    "to_db_time",
]


class Store(Export, Sessions, MemoryFits, Schema):
    """The open database. Not thread-safe: one Store per thread."""

    @classmethod
    def open(cls, path: Path | None = None, *, now: datetime | None = None) -> Store:
        """Open (creating if needed) the database at `path`, back it up if due (before a
        migration, once a day) and bring its schema up to date. The busy timeout and lock
        wait are this module's `BUSY_TIMEOUT_MS` and `LOCK_WAIT_SECONDS` as they are now."""
        path = path or db_path()
        now = now or clock_now()
        held = lock.hold_database(path)  # shared with other grills; waits out a restore
        try:
            conn = connect(path, BUSY_TIMEOUT_MS, LOCK_WAIT_SECONDS)
        except BaseException:
            if held is not None:
                held.release()
            raise
        store = cls(
            conn,
            path,
            now,
            busy_timeout_ms=BUSY_TIMEOUT_MS,
            lock_wait_seconds=LOCK_WAIT_SECONDS,
        )
        if held is not None:
            store._locks["database"] = held
        try:
            store._configure()
            store._migrate(MIGRATIONS)
            store._daily_backup(now)
        except BaseException:
            store.close()
            raise
        return store
