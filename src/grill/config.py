"""User settings from `$GRILL_HOME/config.toml`, with defaults for everything.

A leaf module: read with tomllib, validated into one frozen `Settings`. Commands take their
defaults from here; command-line options override them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from datetime import date
from pathlib import Path
from typing import Any

from grill.errors import UsageError
from grill.paths import grill_home

__all__ = ["Settings", "config_path", "load_settings", "parse_setting"]


@dataclass(frozen=True)
class Settings:
    """Every tunable default. Names are the keys of config.toml."""

    desired_retention: float = 0.9
    new_per_day: int = 15
    per_question_seconds: int = 60
    quick_fire_seconds: int = 20
    case_minutes: int = 5
    follow_up_seconds: int = 90
    target: int = 28
    interview_date: date | None = None


_RANGES: dict[str, tuple[float, float]] = {
    "desired_retention": (0.7, 0.99),
    "new_per_day": (0, 1000),
    "per_question_seconds": (3, 3600),
    "quick_fire_seconds": (3, 3600),
    "case_minutes": (1, 120),
    "follow_up_seconds": (3, 3600),
    "target": (1, 10000),
}


def config_path() -> Path:
    return grill_home() / "config.toml"


def parse_setting(key: str, value: Any) -> Any:
    """Check and convert one setting (from TOML or typed text); raise UsageError when bad."""
    names = {f.name for f in fields(Settings)}
    if key not in names:
        raise UsageError(f"unknown setting '{key}' (settings: {', '.join(sorted(names))})")
    if key == "interview_date":
        if value in (None, "", "none"):
            return None
        try:
            return value if isinstance(value, date) else date.fromisoformat(str(value))
        except ValueError:
            raise UsageError(f"interview_date must be YYYY-MM-DD, not {value!r}") from None
    lo, hi = _RANGES[key]
    kind = float if key == "desired_retention" else int
    try:
        if isinstance(value, bool):
            raise ValueError
        number = kind(value)
    except (TypeError, ValueError):
        raise UsageError(f"{key} must be a {kind.__name__}, not {value!r}") from None
    if not lo <= number <= hi:
        raise UsageError(f"{key} must be between {lo:g} and {hi:g}, not {number}")
    return number


def load_settings(path: Path | None = None) -> Settings:
    """Settings from config.toml (missing file: all defaults); a bad file is a clear error."""
    path = path or config_path()
    if not path.is_file():
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: cannot read settings: {exc}") from None
    try:
        return Settings(**{key: parse_setting(key, value) for key, value in data.items()})
    except UsageError as exc:
        raise UsageError(f"{path}: {exc}") from None
