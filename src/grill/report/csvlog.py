"""The review log as CSV: one row per review, oldest first, RFC 4180 (CRLF, quoted as needed).

Answers are free text a spreadsheet would happily run as a formula (`=HYPERLINK(...)`), so every
text cell that starts with `=`, `+`, `-` or `@` (after any leading spaces), or with a tab or a
carriage return, is neutralised with a leading apostrophe, as OWASP advises for CSV injection.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import TextIO

from grill.report.data import LogRow, ReportData

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


def neutralise(cell: str) -> str:
    """A text cell a spreadsheet will show as text, never evaluate."""
    if cell.startswith(("\t", "\r")) or cell.lstrip(" ").startswith(_FORMULA_START):
        return "'" + cell
    return cell


def _row(r: LogRow) -> list[str]:
    cells: list[object] = [
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
    ]
    return [
        "" if c is None else str(c) if isinstance(c, int) else neutralise(str(c)) for c in cells
    ]


def render_csv(data: ReportData) -> str:
    buffer = io.StringIO()
    write_csv(data, buffer)
    return buffer.getvalue()


def write_csv(data: ReportData, out: TextIO, log: Iterable[LogRow] | None = None) -> None:
    """Write the log: `data.log`, or the rows of `log` as they come (a long log streamed)."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(_row(row) for row in (data.log if log is None else log))
