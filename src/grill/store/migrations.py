"""The database schema as an ordered list of named migrations. Never edit one that has shipped.

`Store.open` applies, in order, every migration not yet recorded in the `migrations` table, each
in the same transaction as its record, so a crash leaves the schema either before or after it.
A database holding a migration this list does not know was written by a newer grill and is refused.
To change the schema, append a new `Migration` with a new name; never reorder or rewrite.

Times are UTC ISO-8601 text with microseconds (`2026-12-02T09:00:00.000000+00:00`), so text order
is time order. Enums are stored as ints (Rating, Verdict, Phase) or text (Mode, SessionStatus).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIGRATIONS", "Migration"]


@dataclass(frozen=True)
class Migration:
    """One schema step: a unique name and the statements that make it."""

    name: str
    statements: tuple[str, ...]


_STATE_COLUMNS = """
    {p}state INTEGER CHECK ({p}state IN (1, 2, 3)),
    {p}step INTEGER,
    {p}stability REAL,
    {p}difficulty REAL,
    {p}due TEXT,
    {p}last_review TEXT,
    {p}content_hash TEXT"""

_INITIAL = Migration(
    "0001_initial",
    (
        # current scheduling state, one row per studied card; a new card has no row
        """CREATE TABLE cards (
            deck TEXT NOT NULL,
            card_id TEXT NOT NULL,
            state INTEGER NOT NULL CHECK (state IN (1, 2, 3)),
            step INTEGER,
            stability REAL,
            difficulty REAL,
            due TEXT NOT NULL,
            last_review TEXT,
            content_hash TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (deck, card_id)
        )""",
        "CREATE INDEX cards_by_due ON cards (due)",
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            mode TEXT NOT NULL CHECK (mode IN ('drill', 'mock', 'case')),
            started_at TEXT NOT NULL,
            ended_at TEXT,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'interrupted')),
            summary TEXT NOT NULL DEFAULT '{}'
        )""",
        "CREATE INDEX sessions_by_start ON sessions (started_at)",
        # the append-only review log; `prior_*` is the card's state before the review (all NULL:
        # the card was new), `after_*` the state it produced (all NULL: logged, not scheduled)
        f"""CREATE TABLE reviews (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            deck TEXT NOT NULL,
            card_id TEXT NOT NULL,
            reviewed_at TEXT NOT NULL,
            rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
            verdict INTEGER CHECK (verdict IN (0, 1, 2)),
            answer TEXT,
            response_ms INTEGER CHECK (response_ms >= 0),
            mode TEXT NOT NULL CHECK (mode IN ('drill', 'mock', 'case')),
            session_id INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
            content_hash TEXT NOT NULL DEFAULT '',
            {_STATE_COLUMNS.format(p="prior_")},
            {_STATE_COLUMNS.format(p="after_")}
        )""",
        "CREATE INDEX reviews_by_card ON reviews (deck, card_id, id)",
        "CREATE INDEX reviews_by_time ON reviews (reviewed_at)",
        "CREATE INDEX reviews_by_session ON reviews (session_id)",
    ),
)

_UNSCHEDULED = Migration(
    "0002_unscheduled_reviews",
    # the cards with log-only reviews (no state written), so listing the cards that have any
    # history never scans the whole log (Store.orphans)
    ("CREATE INDEX reviews_unscheduled ON reviews (deck, card_id) WHERE after_state IS NULL",),
)

_MEMORY_FITS = Migration(
    "0003_memory_fits",
    # what was learned about the person's memory from their log (grill.memory), with how many
    # reviews and when; the latest row is the one in use, older ones show how it moved
    (
        """CREATE TABLE memory_fits (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            fitted_at TEXT NOT NULL,
            reviews INTEGER NOT NULL CHECK (reviews >= 0),
            body TEXT NOT NULL
        )""",
    ),
)

MIGRATIONS: tuple[Migration, ...] = (_INITIAL, _UNSCHEDULED, _MEMORY_FITS)
"""Every migration, oldest first. Append only."""
