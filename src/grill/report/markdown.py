"""The report as Markdown: the HTML report's content as headings and tables (charts as tables).

Deck and answer text is made safe for a table cell: pipes escaped, newlines turned into `<br>`,
and `<`, `>`, `&` written as entities, so a renderer that allows inline HTML shows them as text;
`[` and `]` are escaped, so `[text](javascript:...)` in an answer or a card is text, not a live
link (nor an image that loads from elsewhere).
Backticks in grill's own advice ("run `grill`") are code, as in the HTML report; in deck and
answer text they are escaped.
"""

from __future__ import annotations

from collections.abc import Sequence

from grill.readiness import Readiness
from grill.report.data import MockEntry, MockPoint, ReportData, mock_points

__all__ = ["cell", "render_markdown"]


def cell(value: object, *, code: bool = False) -> str:
    """Text fit for one Markdown table cell; with `code`, its `backticks` mark code."""
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("\\", "\\\\").replace("|", "\\|")
    text = text.replace("[", "\\[").replace("]", "\\]")  # no link, no image
    if not code:
        text = text.replace("`", "\\`")
    return "<br>".join(line.strip() for line in text.splitlines()) or " "


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return out + [""]


def render_markdown(data: ReportData) -> str:
    lines = [f"# Progress report: {cell(data.deck_title)}", ""]
    meta = f"{data.total} cards · target {data.target}"
    if data.floor is not None:
        meta += f" (floor {data.floor})"
    if data.interview is not None:
        meta += f" · interview {data.interview:%Y-%m-%d}"
    lines += [meta + f" · generated {data.generated_at:%Y-%m-%d %H:%M}", ""]
    if data.next_steps:
        lines += ["## " + ("What to do first" if data.total_reviews == 0 else "Next steps"), ""]
        steps = [f"{i}. {cell(s, code=True)}" for i, s in enumerate(data.next_steps, start=1)]
        lines += steps + [""]
    lines += _readiness(data) + _mocks(data) + _mastery(data) + _activity(data) + _weakest(data)
    return "\n".join(lines).rstrip() + "\n"


def _readiness(data: ReportData) -> list[str]:
    rows = [_ready_row("now", data.now)]
    if data.day is not None:
        rows.append(_ready_row("interview day (no more study)", data.day))
    out = ["## Readiness", ""]
    out += _table(["when", "expected", f"P({data.target}+)", "P(floor+)", "studied"], rows)
    if data.history:
        out += ["### Readiness over time", ""]
        out += _table(
            ["day", "expected", f"P({data.target}+)", "studied"],
            [
                [p.day.isoformat(), f"{p.expected:.1f}", f"{p.p_target:.1%}", p.studied]
                for p in data.history
            ],
        )
    return out


def _ready_row(when: str, ready: Readiness) -> list[object]:
    floor = ready.p_floor
    return [
        when,
        f"{ready.expected:.1f}/{ready.total}" + (f" ({ready.interval})" if ready.interval else ""),
        f"{ready.p_target:.1%}",
        "-" if floor is None else f"{floor:.1%}",
        f"{ready.studied}/{ready.total}",
    ]


def _mocks(data: ReportData) -> list[str]:
    out = ["## Mock interviews", ""]
    if not data.mocks:
        return out + ["No mock interview yet: `grill mock`.", ""]
    drawn = {p.mock.id: p for p in mock_points(data.mocks, data.total)[0]}
    out += _table(
        ["date", "score", "target", "result", "predicted", f"out of {data.total} (80%)"],
        [
            [
                f"{m.at:%Y-%m-%d %H:%M}",
                f"{m.score}/{m.asked}",
                "-" if m.target is None else m.target,
                _result(m),
                "-" if m.predicted is None else f"{m.predicted:.1f}",
                _on_deck(drawn.get(m.id)),
            ]
            for m in data.mocks
        ],
    )
    for m in reversed(data.mocks):
        out += [f"### Mock {m.at:%Y-%m-%d %H:%M}: {m.score}/{m.asked}, {_result(m)}", ""]
        out += _table(
            ["section", "asked", "correct", "partial", "wrong"],
            [
                [f"{s.key} {s.title}".strip(), s.asked, s.correct, s.partial, s.wrong]
                for s in m.sections
            ],
        )
        out += _table(
            ["tier", "correct", "verdict"],
            [
                [
                    t.name,
                    f"{t.correct}/{t.asked}",
                    t.verdict or "",
                ]
                for t in m.tiers
            ],
        )
        if m.misses:
            out += _table(
                ["#", "question", "your answer", "short answer"],
                [
                    [
                        x.n,
                        x.question,
                        x.answer or "(none)",
                        x.short_answer,
                    ]
                    for x in m.misses
                ],
            )
    return out


def _on_deck(p: MockPoint | None) -> str:
    """A finished mock's score out of the deck: a shorter one as its range (an aborted: -)."""
    if p is None:
        return "-"
    if not p.partial:
        return f"{p.score:.0f}"
    return f"about {p.score:.0f} ({p.low:.0f}-{p.high:.0f})"


def _result(m: MockEntry) -> str:
    return "aborted" if m.passed is None else "PASS" if m.passed else "below target"


def _mastery(data: ReportData) -> list[str]:
    out = ["## Mastery", "", "Mean chance of cold recall now.", ""]
    out += _table(
        ["section", "mastery", "expected", "studied"],
        [
            [
                f"{g.key} {g.title}",
                f"{g.mastery:.0%}",
                f"{g.expected:.1f}/{g.n}",
                f"{g.studied}/{g.n}",
            ]
            for g in data.now.sections
        ],
    )
    out += _table(
        ["tier", "mastery", "expected", "if you can't answer them"],
        [
            [g.key, f"{g.mastery:.0%}", f"{g.expected:.1f}/{g.n}", g.verdict or ""]
            for g in data.now.tiers
        ],
    )
    return out


def _activity(data: ReportData) -> list[str]:
    out = ["## Study", ""]
    out += [
        f"Streak {data.streak} day(s) (best {data.best_streak}); {data.total_reviews} reviews "
        f"over {data.days_studied} day(s); {data.due_now} due now.",
        "",
    ]
    recent = [d for d in data.activity if d.count][-14:]
    if recent:
        out += ["### Reviews per day (last 14 study days)", ""]
        out += _table(["day", "reviews"], [[d.day.isoformat(), d.count] for d in recent])
    out += ["### Due forecast (next 14 days)", ""]
    out += _table(["day", "due"], [[f"{d.day:%a %Y-%m-%d}", d.count] for d in data.forecast])
    return out


def _weakest(data: ReportData) -> list[str]:
    out = ["## Weakest cards", ""]
    if not data.weakest:
        return out + ["No card studied yet.", ""]
    return out + _table(
        [
            "#",
            "question",
            "recall now",
            "last answer",
            "verdict",
            "short answer",
            "reviews",
            "lapses",
        ],
        [
            [
                w.n,
                w.question,
                f"{w.chance:.0%}",
                w.last_answer or "(no typed answer)",
                w.last_verdict or "-",
                w.short_answer,
                w.reviews,
                w.lapses,
            ]
            for w in data.weakest
        ],
    )
