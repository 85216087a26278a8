"""The JSON report: everything in ReportData, `"schema": 2`, documented in docs/report-json.md.

The document is indented; the review log in it (`reviews`, the last key) has one compact
object per line, so a log of a million reviews is written as it is read (`write_json` takes
the lines as chunks of UTF-8 from `grill.report.data.log_chunks`, written to a file as they
come) and stays easy to grep.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TextIO

from grill.report.data import ReportData, as_text, chunk_writer

__all__ = ["LOG_INDENT", "render_json", "write_json"]

LOG_INDENT = "    "
"""Before each review's object: it sits two levels deep in the document."""


def render_json(data: ReportData) -> str:
    return as_text(write_json, data)


def write_json(data: ReportData, out: TextIO, log: Iterable[bytes] | None = None) -> None:
    """Write the report; the review log is `data.log`, or the UTF-8 chunks of `log` (lines
    of compact objects after `LOG_INDENT`, joined by ",\\n") when given: those go straight to
    the file under `out` when it has one (`out.buffer`), undecoded."""
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
            ).encode()
        ]
    out.write(head + "[")
    write = chunk_writer(out)
    first = True
    for chunk in log:
        if not chunk:
            continue
        write(b"\n" if first else b",\n")
        write(chunk)
        first = False
    out.write(("]" if first else "\n  ]") + tail + "\n")
