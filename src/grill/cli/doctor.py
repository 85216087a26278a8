"""`grill doctor`: check the database, list its backups, restore one."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from grill.cli.common import err, library, out
from grill.errors import DeckError, UsageError
from grill.store import doctor as store_doctor
from grill.store.backup import KEEP

__all__ = ["doctor"]


def doctor(
    backup: Annotated[
        str | None,
        typer.Argument(
            help="With --restore: the backup to restore (a name from the list or a path)."
        ),
    ] = None,
    restore: Annotated[
        bool,
        typer.Option(
            "--restore",
            help="Restore the newest backup (or BACKUP); the current file is moved aside.",
        ),
    ] = False,
) -> None:
    """Check the database (integrity, schema, history, orphans) and list its backups.

    Exit 1 when the database is damaged or from a newer grill. With --restore, the newest
    backup (or BACKUP) replaces the database; the current file is moved aside, never deleted.

    Example: grill doctor --restore
    """
    if backup is not None and not restore:
        raise UsageError(f"to restore {backup}, add --restore: grill doctor --restore {backup}")
    if restore:
        done = store_doctor.restore(backup=backup)
        for moved in done.moved:
            err().print(Text(f"moved aside: {moved}"), soft_wrap=True)
        out().print(Text(f"restored {done.path} from {done.backup.path}"), soft_wrap=True)
    health = store_doctor.check(known=_known())
    _render(health)
    if not health.ok:
        raise typer.Exit(1)


def _known() -> set[tuple[str, str]] | None:
    """The cards the decks define, for counting orphans; None when a deck does not load."""
    try:
        lib = library()
    except DeckError:
        return None
    return lib.defined()


def _render(health: store_doctor.Health) -> None:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    size = f" ({health.size / 1024:,.0f} KB)" if health.exists else " (not created yet)"
    table.add_row("database", Text(f"{health.path}{'' if health.error else size}"))
    if health.error:
        table.add_row("problem", Text(health.error, style="red"))
    table.add_row("integrity", _integrity(health))
    table.add_row("schema", _schema(health))
    table.add_row(
        "history",
        f"{health.reviews} reviews, {health.cards} cards studied, {health.sessions} sessions",
    )
    table.add_row("memory", _memory(health))
    orphans = "unknown (a deck does not load)" if health.orphans is None else str(health.orphans)
    table.add_row("orphans", orphans if health.exists and health.ok else "-")
    folder = health.path.parent / "backups"
    table.add_row("backups", Text(f"{len(health.backups)} in {folder} (the newest {KEEP} kept)"))
    for item in reversed(health.backups):
        why = f"  {item.reason}" if item.reason else ""
        line = f"{item.name}  {item.taken:%Y-%m-%d %H:%M} UTC  {item.size / 1024:,.0f} KB{why}"
        table.add_row("", Text(line))
    out().print(table, soft_wrap=True)


def _memory(health: store_doctor.Health) -> Text:
    """The stored memory fit: when and on how much it was made, or why it is refused."""
    if not health.exists or not health.ok or health.pending:
        return Text("-")
    from grill import personal
    from grill.store import Store

    with Store.open(health.path) as store:
        stored = store.memory_fit()
    if stored is None:
        return Text("not fitted yet (grill memory --fit)")
    at, reviews, body = stored
    try:
        fitted = personal.parse(body)
    except ValueError as exc:
        return Text(f"REFUSED: {exc}; the defaults are used (grill memory --fit refits)", "yellow")
    return Text(f"fitted {at:%Y-%m-%d %H:%M} UTC on {reviews} reviews ({fitted.trials} usable)")


def _integrity(health: store_doctor.Health) -> Text:
    if not health.exists or health.error:
        return Text("-")
    if not health.problems:
        return Text("ok", style="green")
    more = f" (and {len(health.problems) - 1} more)" if len(health.problems) > 1 else ""
    advice = "; run grill doctor --restore" if health.backups else ""
    return Text(f"DAMAGED: {health.problems[0]}{more}{advice}", style="red")


def _schema(health: store_doctor.Health) -> Text:
    if not health.schema:
        return Text("-")
    latest = health.schema[-1]
    if health.newer:
        return Text(f"{latest}: written by a newer grill; upgrade grill to use it", style="red")
    if health.pending:
        return Text(f"{latest} ({len(health.pending)} migration(s) to apply on next use)")
    return Text(f"{latest} (current)")
