"""`grill config`: settings are read with tomllib, written back one line at a time, and a bad
value is refused with a clear message and exit code 2, leaving the file as it was."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from dataclasses import fields
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill.cli import app
from grill.config import SETTING_HELP, Settings, load_settings, set_setting
from grill.errors import UsageError

runner = CliRunner()


def test_set_then_get_and_list(grill_home: Path) -> None:
    assert runner.invoke(app, ["config", "set", "new_per_day", "20"]).exit_code == 0
    assert runner.invoke(app, ["config", "set", "interview_date", "2026-12-20"]).exit_code == 0
    assert runner.invoke(app, ["config", "get", "new_per_day"]).stdout == "20\n"
    assert runner.invoke(app, ["config", "get", "target"]).stdout == "28\n"  # the default
    data = tomllib.loads((grill_home / "config.toml").read_text())
    assert data == {"new_per_day": 20, "interview_date": date(2026, 12, 20)}
    listed = json.loads(runner.invoke(app, ["config", "list", "--json"]).stdout)
    assert listed["new_per_day"] == 20
    assert listed["interview_date"] == "2026-12-20"
    assert listed["desired_retention"] == 0.9
    settings = load_settings()
    assert settings.new_per_day == 20 and settings.interview_date == date(2026, 12, 20)


def test_path_is_in_grill_home(grill_home: Path) -> None:
    result = runner.invoke(app, ["config", "path"])
    assert result.stdout.strip() == str(grill_home / "config.toml")


def test_none_clears_the_interview_date(grill_home: Path) -> None:
    set_setting("interview_date", "2026-12-20")
    set_setting("interview_date", "none")
    assert load_settings().interview_date is None
    assert "interview_date" not in (grill_home / "config.toml").read_text()
    assert runner.invoke(app, ["config", "get", "interview_date"]).stdout == "none\n"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("desired_retention", "1.5", "desired_retention must be between 0.7 and 0.99, not 1.5"),
        ("desired_retention", "high", "desired_retention must be a number, not 'high'"),
        ("new_per_day", "15.5", "new_per_day must be a whole number, not '15.5'"),
        ("new_per_day", "1001", "new_per_day must be between 0 and 1000, not 1001"),
        ("interview_date", "next friday", "interview_date must be YYYY-MM-DD"),
        ("retention", "0.9", "unknown setting 'retention'"),
    ],
)
def test_a_bad_value_is_refused_and_the_file_untouched(
    grill_home: Path, key: str, value: str, message: str
) -> None:
    path = grill_home / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("# mine\nnew_per_day = 12\n")
    before = path.read_bytes()
    result = runner.invoke(app, ["config", "set", key, value])
    assert isinstance(result.exception, UsageError)
    assert result.exception.exit_code == 2
    assert message in str(result.exception)
    assert path.read_bytes() == before
    assert not list(grill_home.glob(".config.toml*"))  # no temp file left behind


def test_the_error_is_one_line_and_exit_2_for_a_user() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "grill", "config", "set", "target", "lots"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr == "error: target must be a whole number, not 'lots'\n"


def test_editing_keeps_comments_and_other_lines(grill_home: Path) -> None:
    path = grill_home / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("# my settings\nnew_per_day = 10  # gentle start\ntarget = 30\n")
    set_setting("new_per_day", "25")
    set_setting("case_minutes", "7")
    assert path.read_text() == "# my settings\nnew_per_day = 25\ntarget = 30\ncase_minutes = 7\n"


def test_an_unusual_layout_is_rewritten_rather_than_broken(grill_home: Path) -> None:
    path = grill_home / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('"target" = 30\n')  # a quoted key the line editor does not recognise
    set_setting("target", "31")
    assert tomllib.loads(path.read_text()) == {"target": 31}


def test_a_bad_value_already_in_the_file_can_be_fixed_with_set(grill_home: Path) -> None:
    path = grill_home / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("desired_retention = 5\n")
    with pytest.raises(UsageError, match="desired_retention must be between"):
        load_settings()
    with pytest.raises(UsageError, match="desired_retention must be between"):
        set_setting("target", "30")
    set_setting("desired_retention", "0.85")
    assert load_settings() == Settings(desired_retention=0.85)


def test_a_file_that_is_not_toml_is_reported(grill_home: Path) -> None:
    path = grill_home / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("target = = 3\n")
    with pytest.raises(UsageError, match="cannot read settings"):
        set_setting("target", "30")
    assert path.read_text() == "target = = 3\n"


def test_every_setting_is_described() -> None:
    assert list(SETTING_HELP) == [f.name for f in fields(Settings)]
