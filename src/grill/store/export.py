"""Long exports of the review log, written by SQLite on every core: the part of the store that
serves what `grill.report.logformat` defines.

`export_log(line, numbers, around)` gives the log, oldest first, as UTF-8 bytes in chunks: each
review as the SQL expression `line` gives it (over the review `r` and its card's number `m.n`
from `numbers`), the reviews of a chunk joined by `around[1]`, after `around[0]` and before
`around[2]`. The expression is the report's; the store only runs it: a million reviews built
in Python took several times as long (and 12 s as CSV).

Building the lines is nearly all of the time: `workers` processes (default: one per core,
`grill.store.streamer.WORKERS`) build the chunks, each on a read-only connection of its own,
with the card numbers in a temporary table (joined, not looked up in a subquery per row: a
quarter faster). At most one chunk per worker is held at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from grill.store.reviews import Reviews

__all__ = ["Export"]

# the reviews with ids in (?4, ?5] as `line` gives them, oldest first: ?1, the lines joined by
# ?2, then ?3; NULL when there are none
_LOG_CHUNK = (
    "SELECT ? || group_concat(line, ?) || ? FROM (SELECT {line} AS line"
    " FROM reviews r LEFT JOIN export_numbers m ON m.deck = r.deck AND m.card_id = r.card_id"
    " WHERE r.id > ? AND r.id <= ? ORDER BY r.id)"
)

_NUMBERS = (
    "CREATE TEMP TABLE export_numbers (deck TEXT, card_id TEXT, n INTEGER,"
    " PRIMARY KEY (deck, card_id)) WITHOUT ROWID"
)


class Export(Reviews):
    """The review log streamed out as SQLite writes it."""

    def export_log(
        self,
        line: str,
        numbers: Mapping[tuple[str, str], int],
        around: tuple[str, str, str],
        *,
        chunk: int = 20_000,
        workers: int | None = None,
    ) -> Iterator[bytes]:
        """Each chunk of `chunk` reviews as `line` (an SQL expression over `reviews r` and
        the card numbers `m`) gives its rows: before, between and after them the three texts
        `around`. Empty chunks are skipped."""
        with self._errors("export the review log"):
            low, high = self._id_range()
            if low is None or high is None:
                return
            job = {
                "uri": f"{self.path.resolve().as_uri()}?mode=ro",
                "timeout": self.busy_timeout_ms / 1000,
                "setup": [
                    [_NUMBERS, None],
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
