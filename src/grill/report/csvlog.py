"""The review log as CSV: one row per review, oldest first, RFC 4180 (CRLF, quoted as needed).

Answers are free text a spreadsheet would happily run as a formula (`=HYPERLINK(...)`), so every
text cell that starts with `=`, `+`, `-` or `@` (after any leading spaces), or with a tab or a
carriage return, is neutralised with a leading apostrophe, as OWASP advises for CSV injection.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import TextIO

from grill.report.data import LogRow, ReportData, chunk_writer

__all__ = ["COLUMNS", "neutralise", "render_csv", "write_csv"]

COLUMNS = (
    "id",
    "reviewed_at",
    "deck",
    "card",
    "n",
    "mode",
    "rating",
    "verdict",
    "answer",
    "response_ms",
    "session",
)

_FORMULA_START = ("=", "+", "-", "@")
_RISKY = frozenset("=+-@\t\r ")  # what a cell `neutralise` changes starts with


def neutralise(cell: str) -> str:
    """A text cell a spreadsheet will show as text, never evaluate."""
    if cell.startswith(("\t", "\r")) or cell.lstrip(" ").startswith(_FORMULA_START):
        return "'" + cell
    return cell


def _values(r: LogRow) -> tuple[object, ...]:
    return (
        r.id,
        r.at.isoformat(),
        r.deck,
        r.card,
        r.n,
        r.mode,
        r.rating,
        r.verdict,
        r.answer,
        r.response_ms,
        r.session,
    )


def _row(values: Sequence[object]) -> list[object]:
    """The cells as csv.writer takes them: numbers as they are (None writes an empty cell), and
    text neutralised. Only a cell starting with one of `_RISKY` can need it: the check is
    skipped for the rest, which is nearly every cell of a million-review log."""
    return [neutralise(c) if isinstance(c, str) and c[:1] in _RISKY else c for c in values]


def render_csv(data: ReportData) -> str:
    buffer = io.StringIO()
    write_csv(data, buffer)
    return buffer.getvalue()


def write_csv(data: ReportData, out: TextIO, log: Iterable[bytes] | None = None) -> None:
    """Write the log: `data.log`, or the UTF-8 chunks of rows of `log` as they come (a long
    log streamed, `grill.report.data.csv_chunks`), straight to the file under `out` when it has
    one (`out.buffer`)."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    if log is None:
        writer.writerows(_row(_values(r)) for r in data.log)
        return
    write = chunk_writer(out)
    for chunk in log:
        write(chunk)
