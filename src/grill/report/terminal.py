"""`grill stats`: the report's figures as a terminal dashboard (rich), in 80 columns.

Bars and charts are drawn with plain Unicode blocks and carry their numbers as text, so the
dashboard reads the same with NO_COLOR=1 or when piped. `score_chart` draws finished mocks'
scores as dots over a target line (the 28), one column per mock, a shorter mock with its range;
aborted mocks are listed under it, not drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grill.memory.forecast import SETTLED_DAYS
from grill.readiness import GroupReadiness, Readiness
from grill.report.data import MockPoint, ReportData, mock_points
from grill.report.planning import PlanView
from grill.simulate import Projection

__all__ = ["bar", "render_plan", "render_stats", "score_chart", "spark"]

_BLOCKS = " ▁▂▃▄▅▆▇█"
_WIDTH = 80


def bar(fraction: float, width: int) -> str:
    """A bar of `width` cells filled to `fraction`, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_BLOCKS[part] if part else "")
    return text + "·" * (width - len(text))


def spark(values: Sequence[int]) -> str:
    """One block per value, scaled to the largest."""
    top = max(values, default=0) or 1
    return "".join("·" if v == 0 else _BLOCKS[max(1, round(v / top * 8))] for v in values)


def score_chart(
    points: Sequence[MockPoint], y_max: int, target: int, height: int = 10
) -> list[str]:
    """Rows of a chart: one 3-wide column per finished mock, a dot at its score scaled to
    `y_max`, a bar over the range a shorter mock leaves open (MockPoint), a ring at the score
    predicted just before it, the target as a dashed line, the y axis labelled at the top, the
    target and 0; then each column's day, score and questions asked as text, so the chart reads
    exactly without colour and a mock of 5 never passes for one of 45."""

    def row_of(value: float) -> int:
        return round((1 - value / y_max) * (height - 1)) if y_max else height - 1

    target_row = row_of(target)
    lines = []
    for r in range(height):
        label = (
            str(y_max)
            if r == 0
            else str(target)
            if r == target_row
            else "0"
            if r == height - 1
            else ""
        )
        cells = [_cell(p, r, row_of, r == target_row) for p in points]
        tail = " target" if r == target_row else ""
        lines.append(f"{label:>3} ┤" + "".join(cells) + tail)
    lines.append("    └" + "───" * len(points))
    lines.append("day  " + "".join(f"{p.mock.at.day:02d}".ljust(3) for p in points))
    lines.append("got  " + "".join(f"{p.mock.score:^3}" for p in points))
    lines.append("of   " + "".join(f"{p.mock.asked:^3}" for p in points))
    return lines


def _cell(p: MockPoint, r: int, row_of: Callable[[float], int], on_target: bool) -> str:
    if row_of(p.score) == r:
        return " ● "
    if p.predicted is not None and row_of(p.predicted) == r:
        return " ○ "
    if row_of(p.high) <= r <= row_of(p.low):
        return " │ "
    return "╌╌╌" if on_target else "   "


def render_stats(console: Console, data: ReportData) -> None:
    width = min(console.width, _WIDTH)
    parts: list[RenderableType] = [_readiness(data)]
    if data.next_steps:
        steps = Text("\n".join(f"{i}. {s}" for i, s in enumerate(data.next_steps, start=1)))
        title = "What to do first" if data.total_reviews == 0 else "Next steps"
        parts.append(Panel(steps, title=title, title_align="left", width=width))
    parts.append(_mastery(data, width))
    parts.append(_activity(data, width))
    parts.append(_mocks(data, width))
    parts.append(_weakest(data, width))
    for part in parts:
        console.print(part, width=width)


def _readiness(data: ReportData) -> Text:
    text = Text()
    text.append(f"{data.deck_title}\n", style="bold")
    text.append(f"{data.now.studied}/{data.total} cards studied · target {data.target}")
    if data.floor is not None:
        text.append(f" (floor {data.floor})")
    text.append("\n")
    lines = [("now", data.now)]
    if data.day is not None and data.interview is not None:
        lines.append((f"on {data.interview:%a %d %b} (interview, if you stop now)", data.day))
    for when, ready in lines:
        ok = ready.expected >= data.target
        text.append("Expected ")
        text.append(f"{ready.expected:.1f}/{ready.total}", style="bold green" if ok else "bold red")
        if ready.interval:
            text.append(f" ({ready.interval})")
        text.append(f" · P(≥{data.target}) {ready.p_target:.0%} · {when}\n")
    for note in data.caveats:
        text.append(f"{note}\n", style="dim")
    if data.interview is None:
        text.append("No interview date set: grill plan --date YYYY-MM-DD\n", style="dim")
    return text


def _name(g: GroupReadiness) -> str:
    return f"{g.key} {g.title}" if g.title != g.key else f"tier {g.key}"


def _groups(title: str, groups: Sequence[GroupReadiness], width: int, name_width: int) -> Table:
    """One row per group: its whole name (wrapped at words when the terminal is too narrow,
    never cut), a bar in the room left, the mastery and expected score."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=name_width)
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    span = max(10, width - name_width - 14 - 4)
    for g in groups:
        table.add_row(_name(g), bar(g.mastery, span), f"{g.mastery:4.0%} {g.expected:4.1f}/{g.n}")
    table.title = title
    table.title_justify = "left"
    return table


def _mastery(data: ReportData, width: int) -> Panel:
    groups = (*data.now.sections, *data.now.tiers)
    longest = max((len(_name(g)) for g in groups), default=10)
    name_width = min(longest, max(12, width - 4 - 14 - 4 - 10))  # leave the bar 10 columns
    body = Group(
        _groups("by section", data.now.sections, width - 4, name_width),
        Text(""),
        _groups("by tier", data.now.tiers, width - 4, name_width),
    )
    return Panel(
        body, title="Mastery now (mean chance of cold recall)", title_align="left", width=width
    )


def _activity(data: ReportData, width: int) -> Panel:
    last = data.activity[-28:]
    text = Text()
    text.append(f"Reviews, last {len(last)} days  ")
    text.append(spark([d.count for d in last]))
    text.append(f"  today {last[-1].count if last else 0}\n")
    text.append(
        f"Streak {data.streak} day(s), best {data.best_streak} · {data.total_reviews} reviews "
        f"over {data.days_studied} day(s)\n"
    )
    counts = [d.count for d in data.forecast]
    text.append("Due, next 14 days  ")
    text.append(spark(counts))
    text.append("  " + " ".join(str(c) for c in counts[:7]) + (" …" if len(counts) > 7 else ""))
    text.append(f"\n{data.due_now} due now; {sum(counts)} in the next 14 days")
    return Panel(text, title="Study", title_align="left", width=width)


def _mocks(data: ReportData, width: int) -> Panel:
    title = f"Mock scores against {data.target}"
    drawn, aborted = mock_points(data.mocks, data.total)
    if not data.mocks:
        title, lines = "Mock scores", ["No mock interview yet: grill mock"]
    elif not drawn:
        lines = ["No finished mock yet: grill mock"]
    else:
        shown = drawn[-((width - 16) // 3) :]
        lines = score_chart(shown, data.total, data.target)
        lines.append(
            f"● score out of {data.total}  │ its 80% range if fewer were asked  ○ predicted"
        )
        last = shown[-1].mock
        predicted = "" if last.predicted is None else f" (predicted {last.predicted:.1f})"
        lines.append(f"last: {last.score}/{last.asked} on {last.at:%d %b}{predicted}")
    if aborted:
        said = ", ".join(f"{m.at:%d %b} ({m.asked} answered)" for m in aborted[-3:])
        more = f" and {len(aborted) - 3} more" if len(aborted) > 3 else ""
        lines.append(f"Aborted, not drawn: {said}{more}")
    return Panel(Text("\n".join(lines)), title=title, title_align="left", width=width)


def _weakest(data: ReportData, width: int) -> Panel:
    if not data.weakest:
        return Panel(
            Text("No card studied yet."), title="Weakest cards", title_align="left", width=width
        )
    table = Table(expand=True, box=None, padding=(0, 1))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("card", overflow="ellipsis", no_wrap=True, ratio=1)
    table.add_column("recall", justify="right", no_wrap=True)
    table.add_column("last", no_wrap=True)
    for w in data.weakest:
        table.add_row(str(w.n), w.question, f"{w.chance:.0%}", w.last_verdict or "-")
    return Panel(table, title="Ten weakest cards (recall now)", title_align="left", width=width)


def render_plan(console: Console, view: PlanView) -> None:
    """The plan: the interview, the load per study day, readiness on the day followed or not."""
    width = min(console.width, _WIDTH)
    head = Text()
    head.append(f"Interview: {view.interview:%a %d %b %Y, %H:%M}", style="bold")
    head.append(f" ({view.days_left} study day(s) left, today included)\n")
    head.append(
        f"Target {view.target}/{len(view.deck.cards)} · now: expected "
        f"{view.current.expected:.1f}, P(≥{view.target}) {view.current.p_target:.0%}"
    )
    console.print(head, width=width)
    table = Table(title="The plan: run `grill` every day", title_justify="left", box=None)
    table.add_column("day", no_wrap=True)
    table.add_column("new", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("reviews", justify="right")
    for d in view.followed.days:
        table.add_row(f"{d.day:%a %d %b}", f"{d.new:.0f}", f"{d.cards:.0f}", f"{d.reviews:.0f}")
    console.print(table, width=width)
    out = Text()
    ahead: tuple[tuple[str, Projection | Readiness], ...] = (
        ("If you follow it", view.followed),
        ("If you stop now", view.idle),
    )
    for label, forecast in ahead:
        ok = forecast.expected >= view.target
        out.append(f"{label + ':':<18} expected ")
        out.append(
            f"{forecast.expected:.1f}/{len(view.deck.cards)}",
            style="bold green" if ok else "bold red",
        )
        out.append(f" ({forecast.interval})" if forecast.interval else "")
        out.append(f" on the day, P(≥{view.target}) {forecast.p_target:.0%}\n")
    today = view.today
    steps = f", {len(today.learning)} in a learning step" if today.learning else ""
    met = f"; {today.new_today} new met earlier today" if today.new_today else ""
    out.append(
        f"Today: what `grill` asks now, {len(today.due)} due{steps} and {len(today.new)} new"
        f"{met}.\n",
        style="dim",
    )
    out.append(
        f"cards: cards asked (new ones included); reviews: answers, re-asks included. "
        f"If you follow it: {view.followed.runs} simulated runs of the plan on the FSRS "
        "parameters grill schedules you by, each forgetting at a pace your log allows; "
        "`grill plan --simulate` compares schedules.",
        style="dim",
    )
    if not view.settled:
        days = f"{view.log_days} day{'s' if view.log_days != 1 else ''}"
        out.append(
            f'\nWith {days} of reviews, "If you follow it" assumes a memory like the average '
            "FSRS learner's: for someone who forgets much faster it has run several cards high. "
            f"It firms up after about {SETTLED_DAYS} days of study.",
            style="yellow",
        )
    console.print(out, width=width)
