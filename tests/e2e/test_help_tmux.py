"""Every command's --help read in a real 80-column terminal (tmux), as a person reads it: prose
folded by the terminal, not broken where the docstring was wrapped, and flags shown without a
value type (`--spoken`, not `--spoken <bool>`)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
import typer
from test_drill_tmux import Tmux, _need_tmux
from tmux_util import wait_for_width

from grill.cli import build_app

pytestmark = pytest.mark.e2e

WIDTH = 80


def _commands(app: typer.Typer, prefix: str = "") -> list[str]:
    names = [f"{prefix}{c.name}" for c in app.registered_commands]
    for group in app.registered_groups:
        assert group.typer_instance is not None
        names += [f"{prefix}{group.name}", *_commands(group.typer_instance, f"{group.name} ")]
    return names


def _breaks_early(lines: list[str]) -> list[str]:
    """Lines of a paragraph that end although the next line's first word would have fitted."""
    early = []
    for line, after in zip(lines, lines[1:], strict=False):
        if line.strip() and after.strip():
            room = WIDTH - 1 - len(line.rstrip())  # help text keeps one column free at the right
            if len(after.split()[0]) + 1 <= room:
                early.append(f"{line.strip()!r} / {after.strip()!r}")
    return early


def test_every_commands_help_reads_well_at_80_columns(grill_home: Path) -> None:
    commands = ["", *_commands(build_app())]
    tmux = Tmux(_need_tmux(), WIDTH)
    grill = f"{shlex.quote(sys.executable)} -m grill"
    env = {"PATH": os.environ.get("PATH", ""), "GRILL_HOME": str(grill_home), "NO_COLOR": "1"}
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    loop = "; ".join(f"echo '=== [{c}]'; {grill} {c} --help" for c in commands)
    try:
        script = f"{wait_for_width(WIDTH)} export {exports}; {loop}; echo all-shown; sleep 60"
        # one tmux command: the server starts, takes the scrollback every help needs, and opens
        # the session with the script in it at the test's size (a second window opened after the
        # session, to get the scrollback, raced its own sizing and now and then never printed)
        tmux.run(
            *("start-server", ";", "set-option", "-g", "history-limit", "20000", ";"),
            *("new-session", "-d", "-s", "t", "-x", str(WIDTH), "-y", "50", script),
        )
        tmux.wait_for("all-shown", timeout=240)  # every command's help, on a loaded machine
        screen = tmux.run("capture-pane", "-p", "-S", "-", "-t", "t")
    finally:
        tmux.kill()
    helps = dict(part.split("]\n", 1) for part in screen.split("=== [")[1:])
    assert sorted(helps) == sorted(commands)
    problems = []
    for command, text in helps.items():
        if "<bool>" in text:
            problems.append(f"grill {command} --help: a flag shown as taking a value (<bool>)")
        prose = text.split("Usage:")[1].split("╭")[0].splitlines()[1:]
        problems += [f"grill {command} --help breaks early: {b}" for b in _breaks_early(prose)]
        assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert problems == []
