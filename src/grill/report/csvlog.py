"""The review log as CSV: one row per review, oldest first, RFC 4180 (CRLF, quoted as needed).

Answers are free text a spreadsheet would happily run as a formula (`=HYPERLINK(...)`), so every
text cell that starts with `=`, `+`, `-` or `@` (after any leading spaces), or with a tab or a
carriage return, is neutralised with a leading apostrophe, as OWASP advises for CSV injection.
The columns and that rule are `grill.report.logformat`'s, which also writes them for SQLite
(a long log is streamed as SQLite makes its rows).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import TextIO

from grill.report.data import ReportData, as_text, chunk_writer
from grill.report.logformat import FIELDS, RISKY_START, neutralise

__all__ = ["COLUMNS", "neutralise", "render_csv", "write_csv"]

COLUMNS = tuple(f.column for f in FIELDS)


def _row(values: Sequence[object]) -> list[object]:
    """The cells as csv.writer takes them: numbers as they are (None writes an empty cell), and
    text neutralised. Only a cell starting with one of `RISKY_START` can need it: the check is
    skipped for the rest, which is nearly every cell of a million-review log."""
    return [neutralise(c) if isinstance(c, str) and c[:1] in RISKY_START else c for c in values]


def render_csv(data: ReportData) -> str:
    return as_text(write_csv, data)


def write_csv(data: ReportData, out: TextIO, log: Iterable[bytes] | None = None) -> None:
    """Write the log: `data.log`, or the UTF-8 chunks of rows of `log` as they come (a long
    log streamed, `grill.report.data.csv_chunks`), straight to the file under `out` when it has
    one (`out.buffer`)."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    if log is None:
        writer.writerows(_row(r.values()) for r in data.log)
        return
    write = chunk_writer(out)
    for chunk in log:
        write(chunk)
