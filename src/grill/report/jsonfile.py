"""The JSON report: everything in ReportData, `"schema": 1`, documented in docs/report-json.md."""

from __future__ import annotations

import json

from grill.report.data import ReportData

__all__ = ["render_json"]


def render_json(data: ReportData) -> str:
    return json.dumps(data.to_dict(), indent=2, ensure_ascii=False) + "\n"
