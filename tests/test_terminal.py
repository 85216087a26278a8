"""Output as a terminal shows it: NO_COLOR and FORCE_COLOR are obeyed, and the main tables fit
an 80-column terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill.cli import app

runner = CliRunner()
COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7])(;[0-9]+)*m")  # a foreground colour code


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_no_colour_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in _run("decks", "validate")


def test_force_color_then_no_color_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert COLOUR.search(_run("decks", "validate"))  # "ok" in green, though not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    forced_but_plain = _run("decks", "validate")
    assert "ok" in forced_but_plain and not COLOUR.search(forced_but_plain)


@pytest.mark.parametrize(
    "args",
    [
        ("decks", "list"),
        ("decks", "show", "training-behaviors"),
        ("card", "7"),
        ("card", "45"),
        ("config", "list"),
        ("--help",),
        ("export", "anki", "--help"),
    ],
)
def test_output_fits_80_columns(monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    text = _run(*args)
    wide = [line for line in text.splitlines() if len(line) > 80]
    assert not wide, "\n".join(wide)
    assert len(text.splitlines()) > 3


def _complete(words: str) -> list[str]:
    """What bash completion offers after `words`, asked of the installed `grill` script."""
    grill = Path(sys.executable).with_name("grill")
    if not grill.exists():
        pytest.skip("the grill script is not installed beside this Python")
    env = {**os.environ, "_GRILL_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    proc = subprocess.run([str(grill)], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_shell_completion_offers_commands_and_setting_names() -> None:
    assert _complete("grill con") == ["config"]
    assert set(_complete("grill decks ")) >= {"list", "new", "show", "validate", "schema"}
    assert _complete("grill config set desired") == ["desired_retention"]


def test_the_completion_script_is_shown_for_bash(monkeypatch: pytest.MonkeyPatch) -> None:
    # typer reads `--show-completion bash` as naming the shell only with its detection off;
    # with it on, the flag shows the script of whatever shell ran pytest (or none, under CI)
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    result = runner.invoke(app, ["--show-completion", "bash"], prog_name="grill")
    assert result.exit_code == 0
    assert "_GRILL_COMPLETE=complete_bash" in result.stdout
