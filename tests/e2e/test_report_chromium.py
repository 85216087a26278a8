"""The HTML report in a real browser: Debian's headless Chromium loads the file offline, the
dumped DOM holds every chart's <svg> by id and nothing the page did not contain, and a
screenshot renders.

Skipped when chromium is absent, unless CI or GRILL_CI is set: then it fails (CI installs it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grill.config import Settings
from grill.deck import load_library
from grill.model import Mode, Rating, Verdict
from grill.report import gather, render
from grill.report.html import CHART_IDS
from grill.scheduler import Scheduler
from grill.session import record_answer
from grill.store import Store

pytestmark = pytest.mark.e2e

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") or os.environ.get("GRILL_CI"):
        pytest.fail("chromium is not installed, and CI must run the browser test")
    pytest.skip(
        "chromium is not installed: the report's browser test needs it (apt-get install chromium)"
    )


def _browse(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=90,
    )


def _report(tmp_path: Path) -> Path:
    """A report of five days of study, a mock, and answers holding markup."""
    lib = load_library([])
    deck = lib.main_deck()
    assert deck is not None
    sched = Scheduler(enable_fuzzing=False)
    with Store.open(tmp_path / "grill.db") as store:
        for day in range(5):
            at = NOW - timedelta(days=5 - day, hours=-10)
            for card in deck.cards[day * 9 : day * 9 + 9]:
                record_answer(
                    store,
                    sched,
                    card,
                    Rating.GOOD,
                    at,
                    verdict=Verdict.CORRECT,
                    answer="<img src=x>",
                )
        session = store.start_session(Mode.MOCK, NOW - timedelta(hours=3))
        summary = {
            "status": "completed",
            "score": 26,
            "asked": 45,
            "target": 28,
            "passed": False,
            "predicted": 27.5,
            "misses": [{"n": 1, "question": "<script>x()</script>"}],
        }
        store.finish_session(session.id, NOW - timedelta(hours=2), summary=summary)
        data = gather(store, lib, Settings(interview_date=(NOW + timedelta(days=9)).date()), NOW)
    page = tmp_path / "progress.html"
    page.write_text(render(data, "html"), encoding="utf-8")
    return page


def test_the_report_loads_offline_with_every_chart(tmp_path: Path) -> None:
    chromium = _chromium()
    page = _report(tmp_path)
    dumped = _browse(chromium, tmp_path / "profile", "--dump-dom", page.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = dumped.stdout
    assert "<h1>Progress report</h1>" in dom
    for chart in CHART_IDS:
        assert re.search(rf'<svg id="{chart}"[^>]*class="chart"', dom), f"{chart} missing"
    assert dom.count("<circle") >= 5 and "<polyline" in dom
    # markup in answers and card text stayed text: the browser built no such elements
    assert "<img" not in dom and "<script" not in dom.lower()
    assert "&lt;img src=x&gt;" in dom and "&lt;script&gt;x()&lt;/script&gt;" in dom
    errors = [
        line for line in dumped.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line
    ]
    assert not errors, errors


def test_the_report_renders_to_a_screenshot(tmp_path: Path) -> None:
    chromium = _chromium()
    page = _report(tmp_path)
    shot = tmp_path / "report.png"
    done = _browse(
        chromium,
        tmp_path / "profile",
        f"--screenshot={shot}",
        "--window-size=1000,3000",
        "--hide-scrollbars",
        page.as_uri(),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 50_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1000, 3000)
