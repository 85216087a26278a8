"""`grill due` on screen: the cards due now, oldest first, and the new cards today still allows.

Drawn with `grill.ui.plain`, not rich, so that the command stays quick to start.
"""

from __future__ import annotations

from datetime import datetime

from grill.session import Plan
from grill.ui.plain import BOLD, CYAN, DIM, YELLOW, Out, Table, when

__all__ = ["SHOWN_DUE", "render_due"]

SHOWN_DUE = 20
"""Due cards `grill due` lists before it only counts the rest (`--all` lists them all)."""


def render_due(
    out: Out,
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
    listed = plan.due if shown is None else plan.due[:shown]
    if plan.due:
        due = _cards(f"Due now: {len(plan.due)}", several, dates=True)
        for card, state in listed:
            deck = [card.deck] if several else []
            due.add_row(str(card.n), card.id, *deck, when(state.due, now))
        out.table(due)
    else:
        out.line("Due now: none", BOLD)
    if len(listed) < len(plan.due):
        more = len(plan.due) - len(listed)
        out.line(f"... and {more} more due: `grill due --all` lists them", DIM)
    title = f"New today: {len(plan.new)} (limit {new_limit}/day, {plan.new_today} introduced today)"
    if plan.new:
        new = _cards(title, several, dates=False)
        for card in plan.new:
            new.add_row(str(card.n), card.id, *([card.deck] if several else []))
        out.table(new)
    else:
        out.line(title, BOLD)
    if plan.learning:
        soon = ", ".join(f"{c.id} {when(s.due, now)}" for c, s in plan.learning)
        out.line(f"In learning steps, due soon: {soon}", DIM)
    if orphans:
        out.line(f"{orphans} orphaned card(s) with history: see `grill orphans`", YELLOW)


def _cards(title: str, several: bool, *, dates: bool) -> Table:
    table = Table(title)
    table.add_column("#", right=True, fold=False)
    table.add_column("id", sgr=CYAN)
    if several:
        table.add_column("deck")
    if dates:
        table.add_column("due", fold=False)
    return table
