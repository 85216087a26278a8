"""Tables for the study commands: `grill due`, `grill history`, `grill orphans`, and the one-line
confirmations of `grill review` and `grill undo`. Times are shown in the timezone of `now`."""

from __future__ import annotations

from datetime import datetime, timedelta

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.model import Card, Orphan, Review
from grill.session import Plan
from grill.ui.drill import format_duration

__all__ = [
    "SHOWN_DUE",
    "render_due",
    "render_history",
    "render_orphans",
    "render_review",
    "render_undo",
]


def _when(moment: datetime | None, now: datetime) -> str:
    """Compact local time, e.g. `04 Dec 09:00`; the year only when it is not this year's."""
    if moment is None:
        return "-"
    local = moment.astimezone(now.tzinfo)
    return f"{local:%d %b %H:%M}" if local.year == now.year else f"{local:%d %b %Y %H:%M}"


SHOWN_DUE = 20
"""Due cards `grill due` lists before it only counts the rest (`--all` lists them all)."""


def render_due(
    console: Console,
    plan: Plan,
    new_limit: int,
    now: datetime,
    orphans: int = 0,
    *,
    shown: int | None = SHOWN_DUE,
) -> None:
    """Cards due now (oldest first, the first `shown` of them; None: all) and the new cards
    today's limit still allows."""
    several = len({c.deck for c, _ in plan.due} | {c.deck for c in plan.new}) > 1
    due = Table(title=f"Due now: {len(plan.due)}", title_justify="left")
    due.add_column("#", justify="right")
    due.add_column("id", style="cyan", overflow="fold")
    if several:
        due.add_column("deck", overflow="fold")
    due.add_column("due", no_wrap=True)
    listed = plan.due if shown is None else plan.due[:shown]
    for card, state in listed:
        deck = [card.deck] if several else []
        due.add_row(str(card.n), card.id, *deck, _when(state.due, now))
    if plan.due:
        console.print(due)
    else:
        console.print(Text("Due now: none", style="bold"))
    if len(listed) < len(plan.due):
        more = len(plan.due) - len(listed)
        console.print(Text(f"... and {more} more due: `grill due --all` lists them", style="dim"))
    title = f"New today: {len(plan.new)} (limit {new_limit}/day, {plan.new_today} introduced today)"
    if plan.new:
        new = Table(title=title, title_justify="left")
        new.add_column("#", justify="right")
        new.add_column("id", style="cyan", overflow="fold")
        if several:
            new.add_column("deck", overflow="fold")
        for card in plan.new:
            new.add_row(str(card.n), card.id, *([card.deck] if several else []))
        console.print(new)
    else:
        console.print(Text(title, style="bold"))
    if plan.learning:
        soon = ", ".join(f"{c.id} {_when(s.due, now)}" for c, s in plan.learning)
        console.print(Text(f"In learning steps, due soon: {soon}", style="dim"))
    if orphans:
        console.print(
            Text(f"{orphans} orphaned card(s) with history: see `grill orphans`", style="yellow")
        )


def render_history(
    console: Console, title: str, reviews: list[Review], card: Card | None, now: datetime
) -> None:
    """A card's reviews, oldest first; `edited` marks answers given to an older text."""
    table = Table(title=title, title_justify="left")
    modes = len({r.mode for r in reviews}) > 1 or any(r.mode != "drill" for r in reviews)
    table.add_column("when", no_wrap=True)
    if modes:
        table.add_column("mode", no_wrap=True)
    table.add_column("rating", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    table.add_column("next", justify="right", no_wrap=True)
    table.add_column("answer", overflow="fold", ratio=1)
    for r in reviews:
        interval = "-" if r.after is None else _short(r.after.due - r.reviewed_at)
        edited = card is not None and r.content_hash and r.content_hash != card.content_hash
        answer = Text(r.answer or "")
        if edited:
            answer = Text.assemble(("(older text) ", "dim"), answer)
        rating = r.rating.label if r.verdict is None else f"{r.rating.label} ({r.verdict.label})"
        table.add_row(
            _when(r.reviewed_at, now),
            *([str(r.mode)] if modes else []),
            rating,
            "-" if r.response_ms is None else _short(r.response_ms / 1000),
            interval,
            answer,
        )
    if not reviews:
        console.print(Text(f"{title}: never reviewed"))
        return
    console.print(table)


def _short(delta: timedelta | float) -> str:
    return format_duration(delta).split(" ")[0]


def render_orphans(console: Console, orphans: list[Orphan], now: datetime) -> None:
    """Stored cards no deck defines any more; their history is kept."""
    if not orphans:
        console.print(Text("No orphaned cards: every stored card is in a loaded deck."))
        return
    table = Table(title=f"Orphaned cards: {len(orphans)}", title_justify="left")
    table.add_column("card", style="cyan", no_wrap=True)
    table.add_column("reviews", justify="right")
    table.add_column("last review")
    table.add_column("state")
    for o in orphans:
        state = "-" if o.state is None else o.state.phase.label
        table.add_row(f"{o.deck}/{o.card_id}", str(o.reviews), _when(o.last_review, now), state)
    console.print(table)
    console.print(
        Text(
            "Their history is kept. Put the card back in a deck with the same id to resume it; "
            "`grill history deck/id` shows what was recorded."
        )
    )


def render_review(console: Console, card: Card, review: Review, now: datetime) -> None:
    after = review.after
    text = Text.assemble(
        "reviewed ",
        (f"{card.deck}/{card.id}", "cyan"),
        f" (#{card.n}): {review.rating.label}",
    )
    if after is not None:
        text.append(f"; next due {_when(after.due, now)} (in {format_duration(after.due - now)})")
    console.print(text)


def render_undo(console: Console, review: Review, now: datetime) -> None:
    restored = "never studied" if review.before is None else f"due {_when(review.before.due, now)}"
    console.print(
        Text.assemble(
            "undone: ",
            (f"{review.deck}/{review.card_id}", "cyan"),
            f" {review.rating.label} at {_when(review.reviewed_at, now)} ({review.mode});"
            f" the card is back to {restored}",
        )
    )
