"""Inline SVG charts for the HTML report, drawn by hand: no library, no script, no network.

Each function returns one `<svg>` element with a fixed `id`, a `<title>` and a `viewBox`, so it
scales to the page and prints sharp. Colours come from CSS classes (see html.py), so the print
stylesheet can turn them to ink. Every piece of text passes through `esc`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

__all__ = [
    "Bar",
    "Point",
    "bars",
    "columns",
    "esc",
    "heatmap",
    "line_chart",
]

W, H = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 16, 34


def esc(text: object) -> str:
    """Text made safe for HTML and SVG, quotes included (it may land in an attribute)."""
    return html.escape(str(text), quote=True)


def _el(tag: str, inner: str = "", /, **attrs: object) -> str:
    """One SVG element; attribute names use _ for - and a trailing _ for reserved words."""
    text = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{esc(f"{v:.1f}" if isinstance(v, float) else v)}"'
        for k, v in attrs.items()
    )
    return f"<{tag}{text}>{inner}</{tag}>" if inner else f"<{tag}{text}/>"


def _tip(text: str) -> str:
    return f"<title>{esc(text)}</title>"


def _frame(height: int = H) -> str:
    return _el("rect", class_="frame", x=1, y=1, width=W - 2, height=height - 2, rx=6)


def _svg(chart_id: str, title: str, body: list[str], height: int = H) -> str:
    return (
        f'<svg id="{esc(chart_id)}" class="chart" viewBox="0 0 {W} {height}" role="img" '
        f'aria-labelledby="{esc(chart_id)}-title" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{esc(chart_id)}-title">{esc(title)}</title>' + "".join(body) + "</svg>"
    )


def _empty(chart_id: str, title: str, message: str) -> str:
    note = _el("text", esc(message), class_="empty", x=W / 2, y=H / 2, text_anchor="middle")
    return _svg(chart_id, title, [_frame(), note])


@dataclass(frozen=True)
class Point:
    """One point of a line chart; `label` is its tooltip; `low`..`high`, when given, a range
    drawn as a whisker through it (an uncertain value is never drawn as a bare dot)."""

    x: float
    y: float
    label: str
    low: float | None = None
    high: float | None = None


def _scale(value: float, lo: float, hi: float, out_lo: float, out_hi: float) -> float:
    if hi == lo:
        return (out_lo + out_hi) / 2
    return out_lo + (value - lo) * (out_hi - out_lo) / (hi - lo)


def line_chart(
    chart_id: str,
    title: str,
    series: Sequence[tuple[str, Sequence[Point], bool]],
    *,
    y_max: float,
    lines: Sequence[tuple[float, str, str]] = (),
    x_labels: Sequence[tuple[float, str]] = (),
    empty: str = "Nothing yet",
) -> str:
    """Series of points (name, points, joined by a line?) on a 0..y_max axis, with horizontal
    reference lines (value, label, css class) such as the target."""
    xs = [p.x for _, pts, _ in series for p in pts] + [x for x, _ in x_labels]
    if not any(pts for _, pts, _ in series):
        return _empty(chart_id, title, empty)
    x0, x1 = min(xs), max(xs)

    def px(x: float) -> float:
        return _scale(x, x0, x1, LEFT + 24, W - RIGHT - 28)  # room for centred date labels

    def py(y: float) -> float:
        return _scale(y, 0, y_max, H - BOTTOM, TOP)

    body = [_frame()]
    for tick in _ticks(y_max):
        y = py(tick)
        body.append(_el("line", class_="grid", x1=LEFT, x2=W - RIGHT, y1=y, y2=y))
        body.append(_el("text", f"{tick:g}", class_="axis", x=LEFT - 6, y=y + 4, text_anchor="end"))
    labels = []  # drawn last, over the series, so a line crossing them leaves them legible
    for value, label, css in lines:
        y = py(value)
        body.append(_el("line", class_=css, x1=LEFT, x2=W - RIGHT, y1=y, y2=y))
        at = {"x": LEFT + 6, "y": y - 5, "text_anchor": "start"}
        labels.append(_el("text", esc(label), class_=f"{css}-label", **at))
    for x, label in x_labels:
        at = {"x": px(x), "y": H - BOTTOM + 18, "text_anchor": "middle"}
        body.append(_el("text", esc(label), class_="axis", **at))
    for i, (name, pts, joined) in enumerate(series):
        if joined and len(pts) > 1:
            path = " ".join(f"{px(p.x):.1f},{py(p.y):.1f}" for p in pts)
            body.append(_el("polyline", _tip(name), class_=f"line s{i}", points=path))
        for p in pts:
            if p.low is not None and p.high is not None:
                span = {"x1": px(p.x), "x2": px(p.x), "y1": py(p.low), "y2": py(p.high)}
                body.append(_el("line", _tip(p.label), class_=f"range s{i}", **span))
            dot = {"cx": px(p.x), "cy": py(p.y), "r": 3.5 if joined else 5.0}
            body.append(_el("circle", _tip(p.label), class_=f"dot s{i}", **dot))
    return _svg(chart_id, title, body + labels)


def _ticks(y_max: float) -> list[float]:
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1e9) if y_max / s <= 5)
    out, tick = [], 0.0
    while tick <= y_max + 1e-9:
        out.append(tick)
        tick += step
    return out


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: a label, a fraction 0..1 and the text shown at its end."""

    label: str
    fraction: float
    text: str


def bars(chart_id: str, title: str, items: Sequence[Bar], empty: str = "Nothing yet") -> str:
    """Horizontal bars on a 0-100% scale, one row per item."""
    if not items:
        return _empty(chart_id, title, empty)
    row, label_w, text_w = 26, 210, 90
    height = TOP + row * len(items) + 8
    span = W - label_w - text_w - RIGHT
    body = [_frame(height)]
    for i, item in enumerate(items):
        y = TOP + i * row
        width = max(0.0, min(1.0, item.fraction)) * span
        at = {"x": label_w - 8, "y": y + 15, "text_anchor": "end"}
        body.append(_el("text", esc(item.label), class_="label", **at))
        body.append(_el("rect", class_="track", x=label_w, y=y + 3, width=span, height=16, rx=3))
        tip = _tip(f"{item.label}: {item.text}")
        body.append(
            _el("rect", tip, class_="bar", x=label_w, y=y + 3, width=width, height=16, rx=3)
        )
        body.append(_el("text", esc(item.text), class_="value", x=label_w + span + 8, y=y + 15))
    return _svg(chart_id, title, body, height)


def columns(
    chart_id: str, title: str, items: Sequence[tuple[str, int, str]], empty: str = "Nothing yet"
) -> str:
    """Vertical columns: (axis label, value, tooltip) each, labelled with their value."""
    if not items:
        return _empty(chart_id, title, empty)
    top = max(v for _, v, _ in items) or 1
    slot = (W - LEFT - RIGHT) / len(items)
    body = [_frame()]
    base = H - BOTTOM
    for i, (label, value, tip) in enumerate(items):
        x = LEFT + i * slot + slot * 0.15
        h = (base - TOP - 14) * value / top
        mid = x + slot * 0.35
        body.append(
            _el("rect", _tip(tip), class_="bar", x=x, y=base - h, width=slot * 0.7, height=h)
        )
        body.append(
            _el("text", str(value), class_="value", x=mid, y=base - h - 4, text_anchor="middle")
        )
        body.append(
            _el("text", esc(label), class_="axis", x=mid, y=base + 16, text_anchor="middle")
        )
    body.append(_el("line", class_="grid", x1=LEFT, x2=W - RIGHT, y1=base, y2=base))
    return _svg(chart_id, title, body)


def heatmap(chart_id: str, title: str, days: Sequence[tuple[date, int]]) -> str:
    """A calendar of weeks (columns, Monday on top) shaded by the day's count."""
    if not days:
        return _empty(chart_id, title, "No reviews yet")
    first = days[0][0] - timedelta(days=days[0][0].weekday())
    weeks = (days[-1][0] - first).days // 7 + 1
    cell = min(18.0, (W - LEFT - RIGHT) / max(weeks, 1))
    height = int(TOP + 7 * cell + 30)
    body = [_frame(height)]
    for row, name in ((0, "Mon"), (2, "Wed"), (4, "Fri"), (6, "Sun")):
        y = TOP + row * cell + cell * 0.7
        body.append(_el("text", name, class_="axis", x=LEFT - 6, y=y, text_anchor="end"))
    for day, count in days:
        x, y = LEFT + (day - first).days // 7 * cell, TOP + day.weekday() * cell
        level = (
            0 if count == 0 else 1 if count < 10 else 2 if count < 25 else 3 if count < 50 else 4
        )
        tip = _tip(f"{day.isoformat()}: {count} review{'s' if count != 1 else ''}")
        size = {"width": cell - 2, "height": cell - 2, "rx": 2}
        body.append(_el("rect", tip, class_=f"cal l{level}", x=x, y=y, **size))
    for week, month in _month_labels([d for d, _ in days], first).items():
        x = LEFT + week * cell
        body.append(_el("text", month, class_="axis", x=x, y=TOP + 7 * cell + 16))
    return _svg(chart_id, title, body, height)


def _month_labels(days: Sequence[date], first: date) -> dict[int, str]:
    """Week column -> month name: under the week holding each month's 1st, and under the first
    week for the month shown before that, unless a 1st comes within three weeks (no room). The
    current month is labelled from its 1st on, not only from its first full Monday."""
    labels = {(d - first).days // 7: d.strftime("%b") for d in days if d.day == 1}
    if days and not any(week < 3 for week in labels):
        labels[0] = days[0].strftime("%b")
    return dict(sorted(labels.items()))
