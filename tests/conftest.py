"""Every test gets its own GRILL_HOME and a fixed clock, so no test sees another's data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

FIXED_NOW = "2026-12-02T09:00:00+00:00"


@pytest.fixture(autouse=True)
def grill_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "grill-home"
    monkeypatch.setenv("GRILL_HOME", str(home))
    monkeypatch.setenv("GRILL_NOW", FIXED_NOW)
    monkeypatch.delenv("GRILL_DEBUG", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    # the refit grill starts after a drill or mock would outlive the test; tests that check
    # it unset this
    monkeypatch.setenv("GRILL_NO_BACKGROUND", "1")
    yield home
