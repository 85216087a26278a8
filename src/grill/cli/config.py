"""`grill config list|get|set|path`: the settings in `$GRILL_HOME/config.toml`."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from grill.cli.common import JsonOpt, out, print_json
from grill.config import (
    SETTING_HELP,
    config_path,
    describe_settings,
    format_setting,
    parse_setting,
    set_setting,
)

app = typer.Typer(
    help=(
        "Show and change settings (config.toml): retention, new cards a day, time limits,"
        " target, interview date.\n\nExample: grill config set new_per_day 20"
    ),
    no_args_is_help=True,
)


def _complete_key(incomplete: str) -> list[str]:
    return [key for key in SETTING_HELP if key.startswith(incomplete)]


KeyArg = Annotated[
    str,
    typer.Argument(help="The setting, e.g. desired_retention.", autocompletion=_complete_key),
]


@app.command("list")
def list_settings(as_json: JsonOpt = False) -> None:
    """Every setting: its value, its default, and what it does.

    Example: grill config list --json
    """
    infos = describe_settings()
    if as_json:
        print_json({i.key: _jsonable(i.value) for i in infos})
        return
    table = Table(title=f"Settings ({config_path()})", title_justify="left")
    table.add_column("setting", style="bold", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("default", style="dim", no_wrap=True)
    table.add_column("what it does", overflow="fold")
    for i in infos:
        value = format_setting(i.value) + (" *" if i.from_file else "")
        table.add_row(i.key, value, format_setting(i.default), i.help)
    out().print(table)
    out().print("[dim]* set in config.toml. Change one: grill config set KEY VALUE[/]")


def _jsonable(value: object) -> object:
    return value if isinstance(value, int | float) or value is None else format_setting(value)


@app.command("get")
def get(key: KeyArg) -> None:
    """Print one setting's value (`none` when unset), for scripts.

    Example: grill config get desired_retention
    """
    found = {i.key: i for i in describe_settings()}
    if key not in found:
        parse_setting(key, None)  # raises the same "unknown setting" error as `set`
    print(format_setting(found[key].value))


@app.command("set")
def set_(
    key: KeyArg,
    value: Annotated[str, typer.Argument(help="The new value; `none` clears interview_date.")],
) -> None:
    """Change one setting in config.toml. A bad value is refused and the file left as it was.

    Example: grill config set interview_date 2026-12-20
    """
    stored = set_setting(key, value)
    out().print(f"{key} = {format_setting(stored)}  [dim]({config_path()})[/]")


@app.command("path")
def path() -> None:
    """Print where the settings file is (it need not exist yet).

    Example: grill config path
    """
    print(config_path())


__all__ = ["app"]
