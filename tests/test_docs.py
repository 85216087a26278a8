"""Every command, whoever adds it, has help with an example and is named in README.md.

The commands are found by walking the Typer app's command tree, so a new command is checked
the moment it is registered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from grill.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
runner = CliRunner()


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if path:
        yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not sub.hidden:
            yield from _walk(sub, (*path, name))


COMMANDS = list(_walk(typer.main.get_command(app)))
NAMES = [" ".join(path) for path, _ in COMMANDS]


def test_the_walk_finds_the_commands() -> None:
    assert {"card", "decks", "decks list", "config set", "export anki"} <= set(NAMES)


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=NAMES)
def test_help_has_an_example(path: tuple[str, ...], command: Any) -> None:
    assert "Example:" in (command.help or ""), f"add 'Example: grill {' '.join(path)} ...'"
    shown = runner.invoke(app, [*path, "--help"])
    assert shown.exit_code == 0, shown.output
    example = re.search(r"Example: (grill [^\n│]*)", shown.stdout)
    assert example, shown.stdout
    assert example.group(1).startswith("grill " + " ".join(path))


@pytest.mark.parametrize("name", NAMES)
def test_readme_names_the_command(name: str) -> None:
    assert re.search(rf"\bgrill {re.escape(name)}(?![\w-])", README), (
        f"README.md does not mention `grill {name}`"
    )
