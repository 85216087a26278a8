"""User settings from `$GRILL_HOME/config.toml`, with defaults for everything.

A leaf module: read with tomllib, validated into one frozen `Settings`. Commands take their
defaults from here; command-line options override them. `set_settings` writes keys back: the
file is flat `key = value` lines, so it is edited line by line (comments survive), checked by
reading it back, and replaced atomically (through a symlink); a bad value leaves the file as it
was. `with_changes` gives the settings as they would be, without writing, so that a command can
save its options only once it has succeeded.

The interview date is checked in one place, `check_interview_date`: never more than
`INTERVIEW_HORIZON_DAYS` after today (a far date would make every plan walk thousands of days),
and, when it is being set, not in the past. A date saved earlier may pass: it stays readable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from grill.clock import now
from grill.errors import UsageError
from grill.files import write_atomically
from grill.paths import grill_home

__all__ = [
    "INTERVIEW_HORIZON_DAYS",
    "SETTING_HELP",
    "SettingInfo",
    "Settings",
    "check_interview_date",
    "config_path",
    "describe_settings",
    "format_setting",
    "load_settings",
    "parse_setting",
    "set_setting",
    "set_settings",
    "with_changes",
]

INTERVIEW_HORIZON_DAYS = 731
"""How far ahead an interview date may be: two years, a leap day included."""


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


def parse_setting(key: str, value: Any, *, new: bool = False, today: date | None = None) -> Any:
    """Check and convert one setting (from TOML or typed text); raise UsageError when bad.
    `new`: the value is being set now, so an interview date must not be in the past; `today`
    defaults to the date of `grill.clock.now()`."""
    names = {f.name for f in fields(Settings)}
    if key not in names:
        raise UsageError(f"unknown setting '{key}' (settings: {', '.join(sorted(names))})")
    if key == "interview_date":
        if value in (None, "", "none"):
            return None
        try:
            day = value if isinstance(value, date) else date.fromisoformat(str(value).strip())
        except ValueError:
            raise UsageError(f"interview_date must be YYYY-MM-DD, not {value!r}") from None
        return check_interview_date(day, today or now().date(), new=new)
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


def check_interview_date(day: date, today: date, *, new: bool) -> date:
    """`day` as an interview date seen `today`: within INTERVIEW_HORIZON_DAYS, and not in
    the past when `new` (being set). The one check for `plan --date` and `config set`."""
    latest = today + timedelta(days=INTERVIEW_HORIZON_DAYS)
    if day > latest:
        raise UsageError(
            f"interview_date {day} is more than 2 years away (today is {today});"
            f" plan for a day up to {latest}"
        )
    if new and day < today:
        raise UsageError(f"interview_date {day} is in the past (today is {today})")
    return day


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
    today = now().date()  # outside the try: a bad GRILL_NOW is not the file's fault
    try:
        return Settings(
            **{key: parse_setting(key, value, today=today) for key, value in data.items()}
        )
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
    return set_settings({key: text}, path)[key]


def with_changes(changes: dict[str, str], path: Path | None = None) -> Settings:
    """The settings as they would be with `changes` (key: typed text) set; nothing is written.
    Raises UsageError as `set_settings` would."""
    values = {key: parse_setting(key, text.strip(), new=True) for key, text in changes.items()}
    return replace(load_settings(path), **values)


def set_settings(changes: dict[str, str], path: Path | None = None) -> dict[str, Any]:
    """Check every value of `changes` (key: typed text), then write them all at once; return
    the values. Any error leaves the file untouched."""
    path = path or config_path()
    values = {key: parse_setting(key, text.strip(), new=True) for key, text in changes.items()}
    if not values:
        return values
    old_text, raw = _read_raw(path)
    wanted = {k: v for k, v in raw.items() if k not in values}
    wanted.update({k: v for k, v in values.items() if v is not None})
    try:
        Settings(**{k: parse_setting(k, v) for k, v in wanted.items()})
    except UsageError as exc:
        raise UsageError(f"{path}: {exc} (fix it by hand or with `grill config set`)") from None
    new_text = old_text
    for key, value in values.items():
        new_text = _edit_line(new_text, key, value)
    if not old_text.strip() or not _parses_to(new_text, wanted):
        new_text = _render(wanted)  # a new file, or an unusual hand-written layout: afresh
    write_atomically(path, new_text)
    return values


def _parses_to(text: str, wanted: dict[str, Any]) -> bool:
    import tomllib

    try:
        got = {k: parse_setting(k, v) for k, v in tomllib.loads(text).items()}
    except (tomllib.TOMLDecodeError, UsageError):
        return False
    return got == {k: parse_setting(k, v) for k, v in wanted.items()}
