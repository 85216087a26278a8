"""Rows <-> objects: how a card's state, a review and a session are laid out in SQLite.

Times are stored as UTC ISO-8601 text with microseconds (`to_db_time`), fixed width so that text
order is time order; a card's state is the seven `STATE_FIELDS` columns, once in `cards` and
twice in each review (`prior_*`, the state before it; `after_*`, the state it produced), all
NULL for no state. Every part of the store builds its objects from rows here.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from grill.clock import to_utc
from grill.model import (
    CardState,
    Mode,
    Phase,
    Rating,
    Review,
    SessionRecord,
    SessionStatus,
    Verdict,
)

__all__ = [
    "STATE_FIELDS",
    "from_db_time",
    "review_from_row",
    "session_from_row",
    "state_columns",
    "state_from_row",
    "state_values",
    "to_db_time",
]

STATE_FIELDS = (
    "state",
    "step",
    "stability",
    "difficulty",
    "due",
    "last_review",
    "content_hash",
)
"""The columns of a card's state, after an optional prefix (`prior_`, `after_`)."""


def to_db_time(moment: datetime) -> str:
    """UTC ISO-8601 with microseconds: fixed width, so text order is time order."""
    return to_utc(moment).isoformat(timespec="microseconds")


def from_db_time(text: str) -> datetime:
    """A stored time as an aware datetime (a naive one read as UTC)."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def state_columns(prefix: str) -> str:
    """The state's columns under `prefix`, comma-separated, in `state_values` order."""
    return ", ".join(prefix + name for name in STATE_FIELDS)


def state_values(state: CardState | None) -> tuple[Any, ...]:
    """The values of `state_columns`; all None for no state."""
    if state is None:
        return (None,) * len(STATE_FIELDS)
    return (
        int(state.phase),
        state.step,
        state.stability,
        state.difficulty,
        to_db_time(state.due),
        None if state.last_review is None else to_db_time(state.last_review),
        state.content_hash,
    )


def state_from_row(deck: str, card_id: str, row: sqlite3.Row, prefix: str) -> CardState | None:
    """The state held in `row`'s columns under `prefix`; None when they are NULL."""
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


def review_from_row(row: sqlite3.Row) -> Review:
    """A row of `reviews` as a Review, with the states before and after it."""
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
        before=state_from_row(deck, card_id, row, "prior_"),
        after=state_from_row(deck, card_id, row, "after_"),
    )


def session_from_row(row: sqlite3.Row) -> SessionRecord:
    """A row of `sessions` as a SessionRecord, its summary parsed from JSON."""
    return SessionRecord(
        id=row["id"],
        mode=Mode(row["mode"]),
        started_at=from_db_time(row["started_at"]),
        ended_at=None if row["ended_at"] is None else from_db_time(row["ended_at"]),
        status=SessionStatus(row["status"]),
        summary=json.loads(row["summary"]),
    )
