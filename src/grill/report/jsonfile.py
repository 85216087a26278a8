"""The JSON report: everything in ReportData, `"schema": 1`, documented in docs/report-json.md.

The document is indented; the review log in it (`reviews`, the last key) has one compact
object per line, so a log of a million reviews is written as it is read (`write_json` takes
the lines as text chunks from `grill.report.data.log_chunks`) and stays easy to grep.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import TextIO

from grill.report.data import ReportData

__all__ = ["LOG_INDENT", "render_json", "write_json"]

LOG_INDENT = "    "
"""Before each review's object: it sits two levels deep in the document."""


def render_json(data: ReportData) -> str:
    buffer = io.StringIO()
    write_json(data, buffer)
    return buffer.getvalue()


def write_json(data: ReportData, out: TextIO, log: Iterable[str] | None = None) -> None:
    """Write the report; the review log is `data.log`, or the text chunks of `log` (lines
    of compact objects after `_INDENT`, joined by ",\\n") when given."""
    document = data.to_dict()
    document["reviews"] = []
    text = json.dumps(document, indent=2, ensure_ascii=False)
    head, tail = text.rsplit("[]", 1)  # "reviews": [] is the last value of the document
    assert tail == "\n}", tail
    if log is None:
        log = [
            ",\n".join(
                LOG_INDENT + json.dumps(row.to_dict(), ensure_ascii=False, separators=(",", ":"))
                for row in data.log
            )
        ]
    out.write(head + "[")
    first = True
    for chunk in log:
        if chunk:
            out.write(("\n" if first else ",\n") + chunk)
            first = False
    out.write(("]" if first else "\n  ]") + tail + "\n")
