"""Tables for the study commands `grill history` and `grill orphans`, and the one-line
confirmations of `grill review` and `grill undo`. Times are shown in the timezone of `now`.
(`grill due`, which must start quickly, is drawn without rich by `grill.ui.due`.)"""

from __future__ import annotations

from datetime import datetime, timedelta

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grill.model import Card, Orphan, Review
from grill.ui.drill import format_duration, format_until, short_until
from grill.ui.plain import when as _when

__all__ = [
    "render_history",
    "render_orphans",
    "render_review",
    "render_undo",
]


def render_history(
    console: Console,
    title: str,
    reviews: list[Review],
    card: Card | None,
    now: datetime,
    by_card: bool = False,
) -> None:
    """Reviews, oldest first: one card's (`edited` marks answers given to an older text), or
    with `by_card` the log's latest, each with its card."""
    table = Table(title=title, title_justify="left")
    modes = len({r.mode for r in reviews}) > 1 or any(r.mode != "drill" for r in reviews)
    table.add_column("when", no_wrap=True)
    if by_card:
        table.add_column("card", style="cyan", no_wrap=True)
    if modes:
        table.add_column("mode", no_wrap=True)
    table.add_column("rating", no_wrap=True)
    if not by_card:  # the log's latest leave the answer room instead
        table.add_column("time", justify="right", no_wrap=True)
    table.add_column("next", justify="right", no_wrap=True)
    table.add_column("answer", overflow="fold", ratio=1)
    room = 2 * max(12, console.width - 60)  # by card, two lines each at most: at a glance
    for r in reviews:
        when = r.reviewed_at.astimezone(now.tzinfo)
        interval = "-" if r.after is None else short_until(r.after.due, when)
        edited = card is not None and r.content_hash and r.content_hash != card.content_hash
        if by_card:  # on one line, cut to the room there is
            answer = Text(" ".join((r.answer or "").split()))
            answer.truncate(room, overflow="ellipsis")
        else:
            answer = Text(r.answer or "")
        if edited:
            answer = Text.assemble(("(older text) ", "dim"), answer)
        rating = r.rating.label if r.verdict is None else f"{r.rating.label} ({r.verdict.label})"
        table.add_row(
            _when(r.reviewed_at, now),
            *([r.card_id] if by_card else []),
            *([str(r.mode)] if modes else []),
            rating,
            *([] if by_card else ["-" if r.response_ms is None else _short(r.response_ms / 1000)]),
            interval,
            answer,
        )
    if not reviews:
        console.print(Text("No reviews yet: run grill" if by_card else f"{title}: never reviewed"))
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
        text.append(f"; next due {_when(after.due, now)} (in {format_until(after.due, now)})")
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
