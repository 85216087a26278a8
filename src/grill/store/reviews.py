"""The review log: the part of the store that appends reviews, takes them back and reads them.

Each review is one row of `reviews` holding the card's state before and after it, written in the
same transaction as the card's new state (`record_review`), so undo restores the card exactly
and is repeatable (`undo_last`). The log is read as Reviews (`history`, `reviews`,
`iter_reviews`), counted in SQL (`count_reviews`, `count_by_day`), or served as stored values
for an export (`log_rows`; `grill.store.export` for the long exports SQLite writes itself).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

from grill.answers import clean_answer
from grill.errors import StoreError
from grill.model import CardState, Mode, Rating, Review, Verdict
from grill.store.cards import Cards
from grill.store.rows import (
    STATE_FIELDS,
    from_db_time,
    review_from_row,
    state_columns,
    state_values,
    to_db_time,
)

__all__ = ["Reviews", "Schedule"]

Schedule = Callable[[CardState | None], CardState | None]
"""Stored state (None: never studied) -> the state after a review (None: only log it)."""

# the reviews with ids in (?1, ?2] as Reviews.log_rows gives them
_LOG_ROWS = (
    "SELECT id, reviewed_at, deck, card_id, mode, rating, verdict, answer, response_ms,"
    " session_id FROM reviews WHERE id > ? AND id <= ? ORDER BY id"
)


class Reviews(Cards):
    """The append-only review log, and the card states it moves."""

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
                f" {state_columns('prior_')}, {state_columns('after_')})"
                f" VALUES ({', '.join('?' * (10 + 2 * len(STATE_FIELDS)))})",
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
                    *state_values(prior),
                    *state_values(after),
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
        """The review log, oldest first, as stored values, never built into Reviews (a million
        of those took a minute): (id, reviewed_at, deck, card_id, mode, rating, verdict, answer,
        response_ms, session_id), `reviewed_at` as stored text (`grill.store.rows`), rating
        and verdict as their ints (verdict None when not graded)."""
        with self._errors("read the review log"):
            low, high = self._id_range()
            if low is None or high is None:
                return
            cursor = self._conn.cursor()
            cursor.row_factory = None  # plain tuples
            for start in range(int(low) - 1, int(high), chunk):
                yield from cursor.execute(_LOG_ROWS, (start, start + chunk)).fetchall()

    def _id_range(self) -> tuple[int | None, int | None]:
        """The first and last review ids (two lookups: MIN and MAX together scan the log)."""
        with self._errors("read the review log"):
            (low,) = self._conn.execute("SELECT MIN(id) FROM reviews").fetchone()
            (high,) = self._conn.execute("SELECT MAX(id) FROM reviews").fetchone()
        return low, high

    def _review(self, review_id: int) -> Review:
        found = self._reviews("id = ?", (review_id,))
        if not found:
            raise StoreError(f"no review {review_id}")
        return found[0]

    def _reviews(self, where: str, args: tuple[Any, ...]) -> list[Review]:
        with self._errors("read the review log"):
            rows = self._conn.execute(f"SELECT * FROM reviews WHERE {where} ORDER BY id", args)
            return [review_from_row(r) for r in rows.fetchall()]
