"""Far dates and failing commands: an interview date is bounded (not past, within two years) by
one check that `plan --date`, `config set` and a hand-edited config.toml all meet; GRILL_NOW is
bounded too; and a `plan` that fails saves none of its options."""

from __future__ import annotations

import time
from datetime import date, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from grill.cli import app
from grill.clock import parse_now
from grill.config import (
    INTERVIEW_HORIZON_DAYS,
    check_interview_date,
    load_settings,
    set_setting,
)
from grill.errors import GrillError, UsageError

runner = CliRunner()
TODAY = date(2026, 12, 2)  # tests/conftest.py's GRILL_NOW
LATEST = TODAY + timedelta(days=INTERVIEW_HORIZON_DAYS)


def _refused(result: Result) -> str:
    assert isinstance(result.exception, UsageError), result.output
    assert result.exception.exit_code == 2
    return str(result.exception)


def test_the_one_check_bounds_the_date_both_ways() -> None:
    assert check_interview_date(TODAY, TODAY, new=True) == TODAY
    assert check_interview_date(LATEST, TODAY, new=True) == LATEST
    with pytest.raises(UsageError, match="more than 2 years away"):
        check_interview_date(LATEST + timedelta(days=1), TODAY, new=False)
    with pytest.raises(UsageError, match="in the past"):
        check_interview_date(TODAY - timedelta(days=1), TODAY, new=True)
    # a date saved earlier that has since passed stays readable
    assert check_interview_date(TODAY - timedelta(days=1), TODAY, new=False)


@pytest.mark.parametrize("command", [["plan", "--date"], ["config", "set", "interview_date"]])
@pytest.mark.parametrize(
    ("day", "says"),
    [
        ("9999-12-31", "interview_date 9999-12-31 is more than 2 years away (today is 2026-12-02)"),
        ("2028-12-03", "is more than 2 years away"),
        ("2026-12-01", "interview_date 2026-12-01 is in the past (today is 2026-12-02)"),
        ("soon", "interview_date must be YYYY-MM-DD, not 'soon'"),
    ],
)
def test_plan_and_config_set_refuse_the_same_dates_and_save_nothing(
    grill_home: Path, command: list[str], day: str, says: str
) -> None:
    set_setting("target", "30")
    before = (grill_home / "config.toml").read_text()
    started = time.monotonic()
    assert says in _refused(runner.invoke(app, [*command, day]))
    assert time.monotonic() - started < 5  # refused at once, not after walking the days
    assert (grill_home / "config.toml").read_text() == before


def test_the_last_day_allowed_plans_in_seconds(grill_home: Path) -> None:
    started = time.monotonic()
    result = runner.invoke(app, ["plan", "--date", LATEST.isoformat(), "--json"])
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started < 30
    assert load_settings().interview_date == LATEST


def test_a_hand_edited_far_date_is_one_line_and_can_be_cleared(grill_home: Path) -> None:
    grill_home.mkdir()
    (grill_home / "config.toml").write_text("interview_date = 9999-12-31\n")
    message = _refused(runner.invoke(app, ["plan"]))
    assert message.endswith(
        "config.toml: interview_date 9999-12-31 is more than 2 years away"
        f" (today is 2026-12-02); plan for a day up to {LATEST}"
    )
    assert runner.invoke(app, ["config", "set", "interview_date", "none"]).exit_code == 0
    assert load_settings().interview_date is None


def test_a_saved_date_that_has_passed_still_loads(grill_home: Path) -> None:
    grill_home.mkdir()
    (grill_home / "config.toml").write_text("interview_date = 2026-11-20\n")
    assert load_settings().interview_date == date(2026, 11, 20)


# ------------------------------------------------------------------ a failing plan saves nothing


def test_plan_with_a_target_but_no_date_fails_and_saves_no_target(grill_home: Path) -> None:
    message = _refused(runner.invoke(app, ["plan", "--target", "9999"]))
    assert "no interview date set" in message
    assert not (grill_home / "config.toml").exists() and load_settings().target == 28


def test_plan_with_a_bad_target_saves_no_date(grill_home: Path) -> None:
    result = runner.invoke(app, ["plan", "--date", "2026-12-20", "--target", "20000"])
    assert "target must be between 1 and 10000" in _refused(result)
    assert not (grill_home / "config.toml").exists()


def test_plan_that_succeeds_saves_both(grill_home: Path) -> None:
    result = runner.invoke(app, ["plan", "--date", "2026-12-20", "--target", "30"])
    assert result.exit_code == 0, result.output
    settings = load_settings()
    assert settings.interview_date == date(2026, 12, 20) and settings.target == 30


# ------------------------------------------------------------------ GRILL_NOW


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+00:00", "9999-12-31T23:00:00+00:00"])
def test_grill_now_out_of_bounds_is_one_line(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UsageError, match="is outside the years 1970 to 2999"):
        parse_now(value)
    monkeypatch.setenv("GRILL_NOW", value)
    for command in (["stats"], ["report", "-o", "-", "--format", "md"], ["due"]):
        result = runner.invoke(app, command)
        assert isinstance(result.exception, GrillError), result.output
        assert "is outside the years 1970 to 2999" in str(result.exception)


@pytest.mark.parametrize("value", ["1970-01-01T00:00:00+14:00", "2999-12-31T23:00:00-12:00"])
def test_grill_now_at_its_bounds_works(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRILL_NOW", value)
    for command in (["stats"], ["report", "-o", "-", "--format", "md"], ["due"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, (command, result.output, result.exception)
