"""The progress report: one data model (`data.gather`), then writers that only format it:
`html` (one self-contained page with inline SVG charts), `markdown`, `jsonfile` (schema 2,
docs/report-json.md), `csvlog` (the review log) and `terminal` (the `grill stats` dashboard).

`write_report(data, path, fmt)` picks the writer; the format defaults to the file's extension.
"""

from __future__ import annotations

from pathlib import Path

from grill.errors import UsageError
from grill.files import STDOUT_HINT, is_stdout, open_output
from grill.model import Library
from grill.report.csvlog import render_csv, write_csv
from grill.report.data import ReportData, csv_chunks, gather, log_chunks
from grill.report.html import render_html
from grill.report.jsonfile import LOG_INDENT, render_json, write_json
from grill.report.markdown import render_markdown
from grill.store import Store

__all__ = [
    "FORMATS",
    "ReportData",
    "format_for",
    "gather",
    "render",
    "write_report",
]

FORMATS = {"html": render_html, "md": render_markdown, "json": render_json, "csv": render_csv}
_EXTENSIONS = {
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".markdown": "md",
    ".json": "json",
    ".csv": "csv",
}


def format_for(path: Path, fmt: str | None) -> str:
    """The format asked for, else the one the file's extension names."""
    if fmt:
        key = fmt.strip().lower().lstrip(".")
        key = "md" if key == "markdown" else key
        if key not in FORMATS:
            raise UsageError(f"unknown report format '{fmt}': use html, md, json or csv")
        return key
    if is_stdout(path):
        raise UsageError("-o - (standard output) needs --format: html, md, json or csv")
    found = _EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise UsageError(
            f"cannot tell the format from '{path.name}': end it in .html, .md, .json or .csv, "
            "or pass --format"
        )
    return found


def render(data: ReportData, fmt: str) -> str:
    return FORMATS[fmt](data)


def write_report(
    data: ReportData,
    path: Path,
    fmt: str | None = None,
    *,
    store: Store | None = None,
    library: Library | None = None,
) -> str:
    """Write the report to `path` (UTF-8; `-`: standard output); returns the format used.
    Given the `store` (and the `library` that numbers the cards), the JSON and CSV reports
    stream the review log from it as they write, instead of taking `data.log`: a long log
    never sits in memory."""
    key = format_for(path, fmt)
    # through a temporary file renamed at the end: a failure halfway (a full disk, a database
    # error while the log streams) leaves the previous report, never half of one
    with open_output(path, newline="" if key == "csv" else None, hint=STDOUT_HINT) as out:
        if key == "json":
            chunks = (
                None if store is None or library is None else log_chunks(store, library, LOG_INDENT)
            )
            write_json(data, out, chunks)
        elif key == "csv":
            rows = None if store is None or library is None else csv_chunks(store, library)
            write_csv(data, out, rows)
        else:
            out.write(render(data, key))
    return key
