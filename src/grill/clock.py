"""The current time, in one place, so tests and scripts can replay days of study.

`GRILL_NOW` (ISO-8601 with an offset, e.g. `2026-12-02T09:00:00+01:00`) fixes "now" for a whole
command, in the years `NOW_YEARS` (the year 1 or 9999 would overflow the first day added or taken
away). Everything returned is timezone-aware; storage and scheduling use UTC.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from grill.errors import UsageError

__all__ = ["DAY_ROLLOVER_HOUR", "NOW_YEARS", "now", "parse_now", "study_day", "to_utc"]

DAY_ROLLOVER_HOUR = 4
"""A study day starts at 4 am local time, as in Anki, so a late-night session counts as that day."""
NOW_YEARS = (1970, 2999)
"""The first and last year GRILL_NOW may name: room for every horizon grill plans over."""


def parse_now(text: str) -> datetime:
    """Parse a GRILL_NOW value; it must carry a UTC offset so the moment is unambiguous."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"GRILL_NOW={text!r} is not an ISO-8601 time; use e.g. 2026-12-02T09:00:00+00:00"
        ) from None
    if value.tzinfo is None or value.utcoffset() is None:
        raise UsageError(
            f"GRILL_NOW={text!r} has no UTC offset; add one, e.g. {text.strip()}+00:00"
        )
    first, last = NOW_YEARS
    if not first <= value.year <= last:
        raise UsageError(f"GRILL_NOW={text!r} is outside the years {first} to {last}")
    return value


def now() -> datetime:
    """The current time: GRILL_NOW when set, else the system clock, always timezone-aware."""
    fixed = os.environ.get("GRILL_NOW")
    if fixed:
        return parse_now(fixed)
    return datetime.now(UTC).astimezone()


def to_utc(moment: datetime) -> datetime:
    """The same instant in UTC; a naive datetime is refused rather than guessed."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: grill only handles timezone-aware times")
    return moment.astimezone(UTC)


def study_day(moment: datetime) -> datetime:
    """The start (4 am, in `moment`'s own timezone) of the study day that `moment` falls in."""
    start = moment.replace(hour=DAY_ROLLOVER_HOUR, minute=0, second=0, microsecond=0)
    if moment < start:
        start -= timedelta(days=1)
    return start
