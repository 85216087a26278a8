"""The HTML report: one self-contained page (inline CSS, inline SVG, no script, no network) that
reads well on screen and on paper.

Every piece of deck or answer text goes through `esc` (html.escape with quotes), so a card
about `<script>` shows `<script>` and runs nothing. Charts have fixed ids (CHART_IDS) so a test
can find each in the rendered page.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from grill.readiness import GroupReadiness, Readiness
from grill.report.data import SCHEMA, MockEntry, MockPoint, ReportData, mock_points
from grill.report.svg import Bar, Point, bars, columns, esc, heatmap, line_chart

__all__ = ["CHART_IDS", "render_html"]

CHART_IDS = ("chart-readiness", "chart-mocks", "chart-mastery", "chart-heatmap", "chart-forecast")

_CSS = """
:root { --ink:#1d232b; --muted:#5b6673; --line:#d9dee4; --bg:#ffffff; --panel:#f6f8fa;
  --accent:#2f6fdb; --accent2:#d9822b; --good:#2e8b57; --bad:#c0392b; --track:#e8ecf0; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
  font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 28px 20px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 34px 0 10px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 18px 0 6px; }
.sub { color: var(--muted); margin: 0 0 18px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 12px; }
.tile { background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
  padding: 12px 14px; }
.tile .big { font-size: 26px; font-weight: 650; }
.tile .what { color: var(--muted); font-size: 13px; }
.pass { color: var(--good); font-weight: 600; } .fail { color: var(--bad); font-weight: 600; }
ol.steps li { margin: 4px 0; }
figure { margin: 14px 0 22px; break-inside: avoid; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
svg.chart { width: 100%; height: auto; display: block; }
svg .frame { fill: var(--bg); stroke: var(--line); }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .axis, svg .label, svg .value { fill: var(--muted); font-size: 12px; }
svg .label { fill: var(--ink); }
svg .empty { fill: var(--muted); font-size: 15px; }
svg .target { stroke: var(--bad); stroke-width: 2; stroke-dasharray: 6 4; }
svg .target-label { fill: var(--bad); font-size: 12px; font-weight: 600; }
svg .floor { stroke: var(--accent2); stroke-width: 1.5; stroke-dasharray: 2 4; }
svg .floor-label { fill: var(--accent2); font-size: 12px; }
svg .target-label, svg .floor-label { paint-order: stroke; stroke: var(--bg); stroke-width: 4px;
  stroke-linejoin: round; }
svg .line { fill: none; stroke-width: 2.5; }
svg .line.s0 { stroke: var(--accent); } svg .dot.s0 { fill: var(--accent); }
svg .line.s1 { stroke: var(--accent2); }
svg .dot.s1 { fill: var(--bg); stroke: var(--accent2); stroke-width: 2; }
svg .range.s1 { stroke: var(--accent2); stroke-width: 2; }
svg .dot.s2 { fill: var(--ink); } svg .range.s2 { stroke: var(--ink); stroke-width: 2; }
svg .track { fill: var(--track); } svg .bar { fill: var(--accent); }
svg .cal.l0 { fill: #ebedf0; } svg .cal.l1 { fill: #b7d3f6; } svg .cal.l2 { fill: #6fa3ea; }
svg .cal.l3 { fill: #2f6fdb; } svg .cal.l4 { fill: #173f87; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 16px; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px;
  border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
code { font: 13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; background: var(--panel);
  border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print {
  :root { --bg:#fff; --panel:#fff; --line:#999; --accent:#222; --accent2:#666; --track:#ddd; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  table, figure, .tile, section.mock { break-inside: avoid; }
  svg .cal.l1 { fill:#ccc; } svg .cal.l2 { fill:#999; }
  svg .cal.l3 { fill:#555; } svg .cal.l4 { fill:#111; }
  a { color: inherit; text-decoration: none; }
}
"""


def render_html(data: ReportData) -> str:
    parts = [
        _header(data),
        _tiles(data),
        _next_steps(data),
        _readiness_section(data),
        _mocks_section(data),
        _mastery_section(data),
        _activity_section(data),
        _weakest_section(data),
        f"<footer>grill progress report · schema {SCHEMA} · "
        f"generated {esc(_when(data.generated_at))}"
        " · this file works offline and prints</footer>",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>grill progress · {esc(data.deck_title)}</title>\n"
        f"<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(parts)
        + "\n</main>\n</body>\n</html>\n"
    )


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()


def _header(data: ReportData) -> str:
    sub = f"{esc(data.deck_title)} · {data.total} cards · target {data.target}"
    if data.floor is not None:
        sub += f" (floor {data.floor})"
    if data.interview is not None:
        days = (data.interview.date() - data.generated_at.date()).days
        when = data.interview.strftime("%A %d %B %Y")
        sub += f" · interview {esc(when)}" + (f", in {days} day(s)" if days >= 0 else " (past)")
    return f'<h1>Progress report</h1>\n<p class="sub">{sub}</p>'


def _tiles(data: ReportData) -> str:
    focus = data.focus
    where = f"on {data.interview:%d %b}" if data.day is not None and data.interview else "now"
    passed = focus.expected >= data.target
    tiles = [
        (
            f"{focus.expected:.1f}/{data.total}",
            f"expected cold score {where}" + (f" ({focus.interval})" if focus.interval else ""),
            "pass" if passed else "fail",
        ),
        (f"{focus.p_target:.0%}", f"chance of {data.target}+ {where}", ""),
        (f"{data.now.studied}/{data.total}", "cards studied", ""),
        (str(data.streak), f"day streak (best {data.best_streak})", ""),
        (str(data.total_reviews), f"reviews over {data.days_studied} day(s)", ""),
    ]
    if data.mocks:
        last = data.mocks[-1]
        stopped = ", aborted" if last.status == "aborted" else ""
        tiles.append((f"{last.score}/{last.asked}", f"last mock, {last.at:%d %b}{stopped}", ""))
    html = "".join(
        f'<div class="tile"><div class="big {css}">{esc(big)}</div>'
        f'<div class="what">{esc(what)}</div></div>'
        for big, what, css in tiles
    )
    return f'<section class="tiles">{html}</section>'


def _next_steps(data: ReportData) -> str:
    if not data.next_steps:
        return ""
    items = "".join(f"<li>{_code(step)}</li>" for step in data.next_steps)
    title = "What to do first" if data.total_reviews == 0 else "Next steps"
    return f'<h2>{title}</h2>\n<ol class="steps">{items}</ol>'


def _readiness_section(data: ReportData) -> str:
    pts = [
        Point(
            p.day.toordinal(),
            p.expected,
            f"{p.day}: expected {p.expected:.1f}, P({data.target}+) {p.p_target:.0%}",
        )
        for p in data.history
    ]
    series: list[tuple[str, Sequence[Point], bool]] = [("expected cold score", pts, True)]
    x_labels = [
        (p.x, data.history[i].day.strftime("%d %b"))
        for i, p in enumerate(pts)
        if i in (0, len(pts) - 1)
    ]
    if data.day is not None and data.interview is not None and pts:
        x = data.interview.date().toordinal()
        day = data.day
        label = f"interview {data.interview:%d %b}: {day.expected:.1f} if you stop now"
        if day.interval:
            label += f" ({day.interval})"
        series.append(
            (
                "on the interview day, as things stand",
                [Point(x, day.expected, label, day.low, day.high)],
                False,
            )
        )
        x_labels.append((x, f"{data.interview:%d %b}"))
    chart = line_chart(
        "chart-readiness",
        "Expected cold score over time, against the target",
        series,
        y_max=data.total or 1,
        lines=_bars_for(data),
        x_labels=x_labels,
        empty="No card studied yet: run grill to start",
    )
    rows = [_readiness_row("now", data.now, data.target)]
    if data.day is not None:
        rows.append(_readiness_row("on the interview day (no more study)", data.day, data.target))
    table = _table(
        ["when", "expected", f"P({data.target}+)", "P(floor+)", "studied"], rows, nums={1, 2, 3, 4}
    )
    caption = "Each day's expected score if the whole deck were asked cold at the end of that day."
    if data.day is not None:
        caption += (
            " The hollow dot is the interview day if you stopped studying today, its whisker"
            " the 80% range."
        )
    for note in data.caveats:
        caption += f" {esc(note)}"
    figure = _figure(chart, caption)
    return f"<h2 id='readiness'>Readiness</h2>\n{table}\n{figure}"


def _bars_for(data: ReportData) -> list[tuple[float, str, str]]:
    lines = [(float(data.target), f"target {data.target}", "target")]
    if data.floor is not None:
        lines.append((float(data.floor), f"floor {data.floor}", "floor"))
    return lines


def _readiness_row(when: str, ready: Readiness, target: int) -> list[str]:
    floor = ready.p_floor
    return [
        esc(when),
        f"{ready.expected:.1f}/{ready.total}" + (f" ({ready.interval})" if ready.interval else ""),
        f"{ready.p_target:.1%}",
        "-" if floor is None else f"{floor:.1%}",
        f"{ready.studied}/{ready.total}",
    ]


def _mocks_section(data: ReportData) -> str:
    drawn, aborted = mock_points(data.mocks, data.total)
    total = data.total or 1
    when = {p.mock.id: _x(p.mock.at, data.generated_at) for p in drawn}
    scores = [
        Point(when[p.mock.id], p.score, _mock_tip(p), p.low, p.high)
        if p.partial
        else Point(when[p.mock.id], p.score, _mock_tip(p))
        for p in drawn
    ]
    predicted = [
        Point(when[p.mock.id], p.predicted, f"predicted {p.mock.predicted:.1f}/{p.mock.asked}")
        for p in drawn
        if p.predicted is not None and p.mock.predicted is not None
    ]
    forecast = [
        Point(d.day.toordinal() + 1, d.expected, f"{d.day}: expected {d.expected:.1f}")
        for d in data.history
        if drawn and d.day.toordinal() + 1 >= min(when.values()) - 3
    ]
    chart = line_chart(
        "chart-mocks",
        f"Forecast against mock scores, out of {total}",
        [
            ("expected cold score at the end of each day", forecast, True),
            ("predicted just before the mock", predicted, False),
            ("mock score", scores, False),
        ],
        y_max=total,
        lines=_bars_for(data),
        x_labels=[(when[p.mock.id], f"{p.mock.at:%d %b}") for p in drawn],
        empty="No finished mock yet: grill mock"
        if data.mocks
        else "No mock interview yet: grill mock",
    )
    caption = (
        f"Forecast against outcome, both out of {total}. Line: the expected cold score of the "
        "whole deck at the end of each day. Hollow dots: the score predicted just before each "
        f"mock for the cards it asked, scaled to {total}. Filled dots: the mock's score scaled to "
        f"{total}; a mock of fewer cards has a bar over where a full one could have landed (80%)."
    )
    if aborted:
        listed = ", ".join(f"{m.at:%d %b} ({m.asked} answered)" for m in aborted)
        caption += f" Aborted, not drawn as scores: {listed}."
    out = [f"<h2 id='mocks'>Mock interviews</h2>\n{_figure(chart, caption)}"]
    for m in reversed(data.mocks):
        out.append(_mock_breakdown(m))
    return "\n".join(out)


def _x(moment: datetime, now: datetime) -> float:
    """A moment on the chart's day axis: its local date's ordinal plus the fraction of the day."""
    local = moment.astimezone(now.tzinfo)
    return local.toordinal() + (local.hour + local.minute / 60) / 24


def _mock_tip(p: MockPoint) -> str:
    tip = f"{p.mock.at:%Y-%m-%d}: {p.mock.score}/{p.mock.asked}"
    if p.partial:
        tip += f", about {p.score:.0f}/{p.total} (80%: {p.low:.0f}-{p.high:.0f})"
    return tip


def _mock_breakdown(m: MockEntry) -> str:
    verdict = "aborted" if m.passed is None else "PASS" if m.passed else "below target"
    css = "" if m.passed is None else "pass" if m.passed else "fail"
    head = f"{m.at:%Y-%m-%d %H:%M} · {m.score}/{m.asked} answered cold"
    if m.target is not None:
        head += f" · target {m.target}"
    if m.predicted is not None:
        head += f" · predicted {m.predicted:.1f}"
    sections = _table(
        ["section", "asked", "correct", "partial", "wrong"],
        [
            [
                esc(f"{s.key} {s.title}".strip()),
                *(esc(v) for v in (s.asked, s.correct, s.partial, s.wrong)),
            ]
            for s in m.sections
        ],
        nums={1, 2, 3, 4},
    )
    tiers = _table(
        ["tier", "correct", "verdict"],
        [
            [
                esc(t.name),
                f"{esc(t.correct)}/{esc(t.asked)}",
                esc(t.verdict or ""),
            ]
            for t in m.tiers
        ],
        nums={1},
    )
    misses = _table(
        ["#", "question", "your answer", "short answer"],
        [
            [
                esc(x.n),
                esc(x.question),
                _text(x.answer or "(none)"),
                _text(x.short_answer),
            ]
            for x in m.misses
        ],
        nums={0},
    )
    body = f'<h3>{esc(head)} · <span class="{css}">{verdict}</span></h3>{sections}{tiers}'
    if m.misses:
        body += f"<h4>Missed ({len(m.misses)})</h4>{misses}"
    return f'<section class="mock">{body}</section>'


def _mastery_section(data: ReportData) -> str:
    ready = data.now
    items = [
        Bar(f"{g.key} {g.title}", g.mastery, f"{g.mastery:.0%} ({g.expected:.1f}/{g.n})")
        for g in ready.sections
    ]
    chart = bars(
        "chart-mastery", "Mastery by section: mean chance of cold recall now", items, "No sections"
    )
    tiers = _table(
        ["tier", "mastery", "expected", "studied", "if you can't answer them"],
        [_tier_row(g) for g in ready.tiers],
        nums={1, 2, 3},
    )
    caption = "Mastery: the mean chance of recalling the section's cards cold right now."
    figure = f"<figure>{chart}<figcaption>{caption}</figcaption></figure>"
    return f"<h2 id='mastery'>Mastery</h2>\n{figure}\n<h3>By tier</h3>{tiers}"


def _tier_row(g: GroupReadiness) -> list[str]:
    return [
        esc(g.key),
        f"{g.mastery:.0%}",
        f"{g.expected:.1f}/{g.n}",
        f"{g.studied}/{g.n}",
        esc(g.verdict or ""),
    ]


def _activity_section(data: ReportData) -> str:
    cal = heatmap(
        "chart-heatmap", "Reviews per day", [(d.day, d.count) for d in data.activity[-26 * 7 :]]
    )
    forecast = columns(
        "chart-forecast",
        "Cards coming due over the next 14 days",
        [
            (d.day.strftime("%d"), d.count, f"{d.day:%a %d %b}: {d.count} due")
            for d in data.forecast
        ],
    )
    text = (
        f"Streak: {data.streak} day(s), best {data.best_streak}. "
        f"{data.total_reviews} reviews in all."
    )
    due = f"{data.due_now} card(s) due now; day 1 counts everything overdue."
    return (
        f"<h2 id='study'>Study</h2>\n<p>{esc(text)}</p>\n"
        f"{_figure(cal, 'Reviews per study day (days start at 4 am).')}\n"
        f"<h3>Due forecast</h3>\n{_figure(forecast, esc(due))}"
    )


def _weakest_section(data: ReportData) -> str:
    if not data.weakest:
        return "<h2 id='weakest'>Weakest cards</h2>\n<p class='muted'>No card studied yet.</p>"
    rows = [
        [
            str(w.n),
            esc(w.question),
            f"{w.chance:.0%}",
            _text(w.last_answer or "(no typed answer)")
            + (f' <span class="muted">({esc(w.last_verdict)})</span>' if w.last_verdict else ""),
            _text(w.short_answer),
            f"{w.reviews}/{w.lapses}",
        ]
        for w in data.weakest
    ]
    table = _table(
        ["#", "question", "recall now", "last answer", "short answer", "reviews/lapses"],
        rows,
        nums={0, 2, 5},
    )
    return f"<h2 id='weakest'>Weakest cards</h2>\n{table}"


def _figure(chart: str, caption: str) -> str:
    """A chart with its caption (already-escaped HTML)."""
    return f"<figure>{chart}<figcaption>{caption}</figcaption></figure>"


def _code(text: str) -> str:
    """Escaped text with `backticked` commands set as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text))


def _text(value: Any) -> str:
    return f'<span class="text">{esc(value)}</span>'


_NUM = ' class="num"'


def _table(
    head: Sequence[str],
    rows: Iterable[Sequence[str]],
    nums: Collection[int] = (),
) -> str:
    """A table; cells are already-escaped HTML."""
    th = "".join(f"<th{_NUM if i in nums else ''}>{esc(h)}</th>" for i, h in enumerate(head))
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"num" if i in nums else "text"}">{c}</td>' for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
