"""Output as a terminal shows it: NO_COLOR and FORCE_COLOR are obeyed, and the main tables fit
an 80-column terminal."""

from __future__ import annotations

import re

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
