"""User settings from `$GRILL_HOME/config.toml`, with defaults for everything.

A leaf module: read with tomllib, validated into one frozen `Settings`. Commands take their
defaults from here; command-line options override them. `set_setting` writes one key back: the
file is flat `key = value` lines, so it is edited line by line (comments survive), checked by
reading it back, and replaced atomically; a bad value leaves the file as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from datetime import date
from pathlib import Path
from typing import Any

from grill.errors import UsageError
from grill.files import write_atomically
from grill.paths import grill_home

__all__ = [
    "SETTING_HELP",
    "SettingInfo",
    "Settings",
    "config_path",
    "describe_settings",
    "format_setting",
    "load_settings",
    "parse_setting",
    "set_setting",
]


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


SETTING_HELP: dict[str, str] = {
    "desired_retention": "chance of recalling a card when it comes due (FSRS)",
    "new_per_day": "new cards introduced per day",
    "per_question_seconds": "mock interview: time for one question",
    "quick_fire_seconds": "mock interview: time for one quick-fire question",
    "case_minutes": "mock interview: time for the open-ended case",
    "follow_up_seconds": "mock interview: time for one follow-up",
    "target": "cards to answer cold to pass",
    "interview_date": "the day of the interview (YYYY-MM-DD), for planning",
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
        if isinstance(value, bool) or (kind is int and isinstance(value, float)):
            raise ValueError  # a bool is an int to Python; 15.7 must not become 15
        number = kind(value)
    except (TypeError, ValueError):
        what = "a number" if kind is float else "a whole number"
        raise UsageError(f"{key} must be {what}, not {value!r}") from None
    if not lo <= number <= hi:
        raise UsageError(f"{key} must be between {lo:g} and {hi:g}, not {number}")
    return number


def load_settings(path: Path | None = None) -> Settings:
    """Settings from config.toml (missing file: all defaults); a bad file is a clear error."""
    path = path or config_path()
    if not path.is_file():
        return Settings()
    import tomllib  # only when there is a file: most commands start without one

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: cannot read settings: {exc}") from None
    try:
        return Settings(**{key: parse_setting(key, value) for key, value in data.items()})
    except UsageError as exc:
        raise UsageError(f"{path}: {exc}") from None


@dataclass(frozen=True)
class SettingInfo:
    """One setting as `grill config list` shows it: its value, default and where it comes from."""

    key: str
    value: Any
    default: Any
    from_file: bool
    help: str


def format_setting(value: Any) -> str:
    """A value as typed on the command line: `0.9`, `15`, `2026-12-20`, or `none`."""
    if value is None:
        return "none"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _read_raw(path: Path) -> tuple[str, dict[str, Any]]:
    if not path.is_file():
        return "", {}
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
        return text, tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: cannot read settings: {exc}") from None


def describe_settings(path: Path | None = None) -> list[SettingInfo]:
    """Every setting in declaration order, with its effective value."""
    path = path or config_path()
    _, raw = _read_raw(path)
    current = load_settings(path)
    defaults = Settings()
    return [
        SettingInfo(
            f.name,
            getattr(current, f.name),
            getattr(defaults, f.name),
            f.name in raw,
            SETTING_HELP.get(f.name, ""),
        )
        for f in fields(Settings)
    ]


def _toml_value(value: Any) -> str:
    if isinstance(value, date):
        return value.isoformat()  # a TOML local date, read back by tomllib as a date
    return repr(value) if isinstance(value, float) else str(value)


def _edit_line(text: str, key: str, value: Any) -> str:
    """`text` with the `key = ...` line replaced (or appended, or dropped for None)."""
    line = re.compile(rf"^\s*{re.escape(key)}\s*=")
    kept = [x for x in text.splitlines() if not line.match(x)]
    at = next((i for i, x in enumerate(text.splitlines()) if line.match(x)), len(kept))
    if value is not None:
        kept.insert(at, f"{key} = {_toml_value(value)}")
    return "\n".join(kept) + "\n" if kept else ""


def _render(raw: dict[str, Any]) -> str:
    lines = ["# grill settings: `grill config list` shows them all with their defaults"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in raw.items() if v is not None]
    return "\n".join(lines) + "\n"


def set_setting(key: str, text: str, path: Path | None = None) -> Any:
    """Check `text` as the value of `key` and write it to config.toml; return the value.

    `none` (or an empty text) removes an optional setting. Any error leaves the file untouched.
    """
    path = path or config_path()
    value = parse_setting(key, text.strip())
    old_text, raw = _read_raw(path)
    wanted = {k: v for k, v in raw.items() if k != key}
    if value is not None:
        wanted[key] = value
    try:
        Settings(**{k: parse_setting(k, v) for k, v in wanted.items()})
    except UsageError as exc:
        raise UsageError(f"{path}: {exc} (fix it by hand or with `grill config set`)") from None
    new_text = _edit_line(old_text, key, value) if old_text.strip() else _render(wanted)
    if not _parses_to(new_text, wanted):
        new_text = _render(wanted)  # an unusual hand-written layout: write it out afresh
    write_atomically(path, new_text)
    return value


def _parses_to(text: str, wanted: dict[str, Any]) -> bool:
    import tomllib

    try:
        got = {k: parse_setting(k, v) for k, v in tomllib.loads(text).items()}
    except (tomllib.TOMLDecodeError, UsageError):
        return False
    return got == {k: parse_setting(k, v) for k, v in wanted.items()}
