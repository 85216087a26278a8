"""`grill stats`, `grill report` and `grill plan` from a database filled by replaying days of
study (the Store API and `grill review` under GRILL_NOW), plus the writers' safety: HTML
escaping of hostile card text and CSV formula neutralisation."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill import personal
from grill.cli import app
from grill.config import Settings, load_settings
from grill.deck import load_library
from grill.errors import UsageError
from grill.model import Card, Deck, Library, Mode, Point, Rating, Rubric, Section, Tier, Verdict
from grill.odds import wilson
from grill.readiness import forecast_for, predicted_score
from grill.report import gather, render
from grill.report.csvlog import neutralise
from grill.report.data import mock_points
from grill.report.html import CHART_IDS
from grill.report.markdown import cell
from grill.scheduler import Scheduler
from grill.session import record_answer
from grill.store import Store

runner = CliRunner()
NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)  # tests/conftest.py's GRILL_NOW
SCHED = Scheduler(enable_fuzzing=False)
HOSTILE = "<script>alert('x')</script>"


@pytest.fixture
def store(grill_home: Path) -> Iterator[Store]:
    with Store.open() as s:
        yield s


def replay(store: Store, lib: Library, days: int = 8, per_day: int = 6) -> None:
    """Study the main deck at 19:00 UTC for `days` days ending yesterday, skipping day 3:
    due cards then `per_day` new ones; every fifth answer forgotten, then relearned."""
    deck = lib.main_deck()
    assert deck is not None
    start = NOW.replace(hour=19) - timedelta(days=days)
    count = 0
    for day in range(days):
        if day == 3:
            continue
        at = start + timedelta(days=day)
        states = {s.card_id: s for s in store.states(deck.name).values()}
        due = [c for c in deck.cards if c.id in states and states[c.id].due <= at]
        new = [c for c in deck.cards if c.id not in states][:per_day]
        for card in due + new:
            count += 1
            forgot = count % 5 == 0
            rating, verdict = (
                (Rating.AGAIN, Verdict.WRONG) if forgot else (Rating.GOOD, Verdict.CORRECT)
            )
            answer = f"=SUM(A1) answer {count}" if count % 7 == 0 else f"answer {count}"
            record_answer(store, SCHED, card, rating, at, verdict=verdict, answer=answer)
            at += timedelta(minutes=1)
            if forgot:
                record_answer(store, SCHED, card, Rating.GOOD, at + timedelta(minutes=10))


def add_mock(
    store: Store,
    at: datetime,
    score: int,
    predicted: float | None,
    *,
    asked: int = 45,
    status: str = "completed",
) -> None:
    session = store.start_session(Mode.MOCK, at)
    summary = {
        "status": status,
        "score": score,
        "asked": asked,
        "predicted_cards": asked,
        "target": 28,
        "floor": 24,
        "passed": score >= 28,
        "predicted": predicted,
        "sections": [
            {"key": "A", "title": "Loss curves", "asked": 6, "correct": 5, "partial": 0, "wrong": 1}
        ],
        "tiers": [{"tier": "1-15", "asked": 15, "correct": 12, "verdict": None}],
        "misses": [
            {"id": "c", "n": 2, "question": HOSTILE, "answer": HOSTILE, "short_answer": "LR"}
        ],
    }
    store.finish_session(session.id, at + timedelta(minutes=30), summary=summary)


# ------------------------------------------------------------------ no study yet


def test_a_report_with_no_study_says_what_to_do_first(store: Store) -> None:
    data = gather(store, load_library([]), Settings(), NOW)
    assert data.total == 45 and data.total_reviews == 0 and data.now.expected == 0
    assert data.next_steps[0].startswith("Start with today's drill: run `grill`")
    assert any("grill plan --date" in s for s in data.next_steps)
    page = render(data, "html")
    assert "What to do first" in page and "<code>grill</code>" in page
    assert "No card studied yet: run grill" in page  # a case answered alone studies no card
    for chart in CHART_IDS:
        assert f'id="{chart}"' in page
    markdown = render(data, "md")
    assert "What to do first" in markdown
    # grill's own advice keeps its code spans (not "run \\`grill\\`")
    assert "1. Start with today's drill: run `grill`" in markdown and "\\`" not in markdown
    assert json.loads(render(data, "json"))["schema"] == 2
    assert render(data, "csv").splitlines() == [
        "id,reviewed_at,deck,card,n,mode,rating,verdict,answer,response_ms,session"
    ]


# ------------------------------------------------------------------ replayed study


def test_stats_from_replayed_days(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = load_library([])
    replay(store, lib)
    reviews = store.reviews()
    # two more reviews through the command line, this morning
    monkeypatch.setenv("GRILL_NOW", "2026-12-02T08:00:00+00:00")
    for ref in ("1", "2"):
        done = runner.invoke(app, ["review", ref, "--rating", "good", "--answer", "typed"])
        assert done.exit_code == 0, done.output
    data = gather(store, lib, Settings(), NOW)
    assert data.total_reviews == len(reviews) + 2 == len(data.log)
    by_day = {d.day: d.count for d in data.activity if d.count}
    assert sorted(by_day) == [
        date(2026, 11, 24) + timedelta(days=i) for i in (0, 1, 2, 4, 5, 6, 7, 8)
    ]
    assert by_day[date(2026, 12, 2)] == 2 and sum(by_day.values()) == data.total_reviews
    assert (data.streak, data.best_streak) == (5, 5)  # 28 Nov to 2 Dec; 27 Nov was skipped
    assert data.days_studied == 8
    states = {s.card_id: s for s in store.states("training-behaviors").values()}
    deck = lib.deck("training-behaviors")
    fitted = personal.load(store, NOW, refresh=False)  # gather refitted on the grown log
    assert fitted.reviews == len(reviews) + 2 and fitted.fitted
    by_card = personal.deck_traces(store.reviews(), deck.name, UTC)
    direct = forecast_for(deck, by_card, fitted, NOW, 28)
    assert data.now.expected == pytest.approx(direct.expected)
    assert data.now.p_target == pytest.approx(direct.p_target)
    assert data.now.studied == len(states) == 42  # 6 new a day for 7 days
    assert sum(d.count for d in data.forecast) <= len(states)
    assert data.due_now == sum(1 for s in states.values() if s.due <= NOW)
    assert [p.day for p in data.history][0] == date(2026, 11, 24)
    assert len(data.history) == 9 and data.history[-1].studied == 42
    assert data.history[0].expected < data.history[-1].expected
    weakest = data.weakest
    assert len(weakest) == 10
    assert [w.chance for w in weakest] == sorted(w.chance for w in weakest)
    assert all(w.last_answer for w in weakest)


def test_stats_says_when_the_interview_day_range_is_early(store: Store) -> None:
    from dataclasses import replace

    from rich.console import Console

    from grill.memory.forecast import SETTLED_DAYS
    from grill.report.terminal import render_stats

    lib = load_library([])
    replay(store, lib)
    data = gather(store, lib, Settings(), NOW)
    dated = replace(data, interview=NOW + timedelta(days=9), day=data.now)

    def shown(d: object) -> str:
        console = Console(file=io.StringIO(), width=80, color_system=None)
        render_stats(console, d)  # type: ignore[arg-type]
        return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]

    early = shown(replace(dated, days_studied=3))
    assert "With 3 days of study the interview-day range is wide" in early
    assert f"It narrows after about {SETTLED_DAYS} days." in early
    for settled in (replace(dated, days_studied=SETTLED_DAYS), replace(data, days_studied=3)):
        assert "range is wide" not in shown(settled)  # settled, or no interview date
        assert settled.early is None
    # the HTML report's readiness caption says the same, and the interview day's dot carries
    # its 80% range as a whisker, never a bare dot
    from grill.report.html import render_html

    page = render_html(replace(dated, days_studied=3))
    assert "With 3 days of study the interview-day range is wide" in page
    chart = page[page.index('<svg id="chart-readiness"') :]
    chart = chart[: chart.index("</svg>")]
    assert dated.day is not None and dated.day.low is not None
    whisker = re.search(r'<line[^>]*class="range (s\d)"', chart)
    assert whisker, "no whisker on the interview day"
    assert f"svg .range.{whisker.group(1)} {{ stroke:" in page  # drawn, not an unstyled line
    assert f"if you stop now ({dated.day.interval})" in chart


def test_stats_command_text_and_json(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    lib = load_library([])
    replay(store, lib)
    add_mock(store, NOW - timedelta(days=2), 21, 23.5)
    add_mock(store, NOW - timedelta(days=1), 29, 27.0)
    monkeypatch.setenv("COLUMNS", "80")
    shown = runner.invoke(app, ["stats"])
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "\x1b[" not in shown.stdout  # NO_COLOR (conftest) and not a terminal: plain text
    text = shown.stdout
    assert re.search(r"Expected \d+\.\d/45 \(80%: \d+-\d+\) · P\(≥28\) \d+% · now", text)
    for part in ("Mastery now", "A Loss curves", "tier 1-15", "Streak", "Due, next 14 days"):
        assert part in text
    # section names whole, never cut to a column ("F Loss spikes and reco")
    assert "F Loss spikes and recovery " in text and "G Overfitting and forgetting " in text
    assert "Mock scores against 28" in text and re.search(r"got +21 +29", text)
    assert "Ten weakest cards" in text
    as_json = runner.invoke(app, ["stats", "--json"])
    data = json.loads(as_json.stdout)
    assert data["schema"] == 2
    assert data["readiness"]["now"]["total"] == 45
    assert [m["score"] for m in data["mocks"]] == [21, 29]
    assert data["mocks"][1]["predicted"] == 27.0
    assert len(data["forecast"]) == 14 and len(data["weakest"]) == 10
    assert data["activity"]["total_reviews"] == len(data["reviews"])


def _chart(page: str) -> str:
    start = page.index('<svg id="chart-mocks"')
    return page[start : page.index("</svg>", start)]


def test_an_aborted_mock_is_listed_not_drawn_as_a_score(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after one answer, a mock is no 0/45: the terminal chart and the HTML chart draw
    only the finished mocks and name the aborted one under them."""
    lib = load_library([])
    replay(store, lib, days=4)
    add_mock(store, NOW - timedelta(days=2), 21, 23.5)
    add_mock(store, NOW - timedelta(days=1), 0, 0.9, asked=1, status="aborted")
    monkeypatch.setenv("COLUMNS", "80")
    text = runner.invoke(app, ["stats"]).stdout
    assert re.search(r"got +21 +│", text) and re.search(r"of +45 +│", text)  # one column
    assert "Aborted, not drawn: 01 Dec (1 answered)" in text
    data = gather(store, lib, Settings(), NOW)
    assert [m.status for m in data.mocks] == ["completed", "aborted"]
    assert data.to_dict()["mock_chart"]["aborted"] == [data.mocks[1].id]
    assert [p["score"] for p in data.to_dict()["mock_chart"]["drawn"]] == [21]
    chart = _chart(render(data, "html"))
    assert chart.count('class="dot s2"') == 1 and "0/1" not in chart
    page = render(data, "html")
    assert "Aborted, not drawn as scores: 01 Dec (1 answered)" in page
    assert "last mock, 01 Dec, aborted" in page  # its tile says so too


def test_with_only_aborted_mocks_no_score_is_drawn(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = load_library([])
    replay(store, lib, days=2)
    add_mock(store, NOW - timedelta(days=1), 1, 0.8, asked=1, status="aborted")
    monkeypatch.setenv("COLUMNS", "80")
    text = runner.invoke(app, ["stats"]).stdout
    assert "No finished mock yet: grill mock" in text and "got" not in text
    assert "Aborted, not drawn: 01 Dec (1 answered)" in text
    chart = _chart(render(gather(store, lib, Settings(), NOW), "html"))
    assert "No finished mock yet" in chart and "<circle" not in chart


def test_a_shorter_mock_keeps_its_denominator_and_an_interval(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = load_library([])
    replay(store, lib, days=4)
    add_mock(store, NOW - timedelta(days=2), 2, 3.5, asked=5)
    add_mock(store, NOW - timedelta(days=1), 30, 27.0)
    drawn, aborted = mock_points(gather(store, lib, Settings(), NOW).mocks, 45)
    short, full = drawn
    assert not aborted and short.partial and not full.partial
    assert short.score == 18 and short.predicted == pytest.approx(31.5)  # both scaled by 45/5
    low, high = wilson(2, 5, 1.2816)
    assert (short.low, short.high) == pytest.approx((2 + 40 * low, 2 + 40 * high))
    assert short.low < 12 and short.high > 26  # 2 of 5 is far from a certain 18 of 45
    assert (full.low, full.score, full.high) == (30, 30, 30)
    monkeypatch.setenv("COLUMNS", "80")
    text = runner.invoke(app, ["stats"]).stdout
    assert re.search(r"got +2 +30", text) and re.search(r"of +5 +45", text)
    assert "│" in text.split("Mock scores")[1].split("day")[0]  # the short mock's range
    chart = _chart(render(gather(store, lib, Settings(), NOW), "html"))
    assert chart.count('class="range s2"') == 1  # only the short mock has a range
    assert chart.count('class="dot s1"') == 2  # predictions, on the same scale
    markdown = render(gather(store, lib, Settings(), NOW), "md")
    assert (
        f"| 2/5 | 28 | below target | 3.5 | about 18 ({short.low:.0f}-{short.high:.0f}) |"
        in markdown
    )


def test_an_old_aborted_mock_prediction_is_scaled_to_the_questions_scored(store: Store) -> None:
    session = store.start_session(Mode.MOCK, NOW - timedelta(days=1))
    summary = {"status": "aborted", "score": 0, "asked": 1, "predicted": 2.8}
    store.finish_session(session.id, NOW, summary={**summary, "questions": ["q"] * 45})
    (entry,) = gather(store, load_library([]), Settings(), NOW).mocks
    assert entry.predicted == pytest.approx(2.8 / 45)


def test_report_writes_each_format_from_the_extension(store: Store, tmp_path: Path) -> None:
    replay(store, load_library([]), days=3)
    add_mock(store, NOW - timedelta(hours=5), 12, None)
    for name, marker in (
        ("r.html", "<!DOCTYPE html>"),
        ("r.md", "# Progress report"),
        ("r.json", '"schema": 2'),
        ("r.csv", "id,reviewed_at,deck,card"),
    ):
        made = runner.invoke(app, ["report", "-o", str(tmp_path / name)])
        assert made.exit_code == 0, made.output
        assert marker in (tmp_path / name).read_text(encoding="utf-8")
    forced = runner.invoke(app, ["report", "-o", str(tmp_path / "log.txt"), "--format", "csv"])
    assert forced.exit_code == 0
    assert (tmp_path / "log.txt").read_text().startswith("id,")
    unknown = runner.invoke(app, ["report", "-o", str(tmp_path / "r.pdf")])
    assert isinstance(unknown.exception, UsageError) and not (tmp_path / "r.pdf").exists()


def test_html_report_is_self_contained(store: Store) -> None:
    replay(store, load_library([]), days=4)
    page = render(gather(store, load_library([]), Settings(), NOW), "html")
    assert "<script" not in page.lower()
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", page)
    assert "@import" not in page and "url(" not in page
    assert "@media print" in page
    for chart in CHART_IDS:
        assert page.count(f'<svg id="{chart}"') == 1


# ------------------------------------------------------------------ hostile text


def _hostile_library() -> Library:
    point = Point("p", "the point", ("point",))
    cards = tuple(
        Card(
            f"c{n}",
            n,
            "A",
            f"{HOSTILE} question {n} & <b>",
            f"answer {n} {HOSTILE}",
            Rubric((point,)),
            "mine",
        )
        for n in range(1, 4)
    )
    deck = Deck(
        "mine",
        f"Deck {HOSTILE}",
        "mine.yaml",
        cards=cards,
        sections=(Section("A", f"Section {HOSTILE}"),),
        tiers=(Tier(1, 3, f"verdict {HOSTILE}"),),
        target=2,
    )
    return Library((deck,))


def test_every_piece_of_deck_and_answer_text_is_escaped_in_html(store: Store) -> None:
    lib = _hostile_library()
    for card in lib.cards():
        record_answer(
            store, SCHED, card, Rating.AGAIN, NOW - timedelta(days=1), answer=f"</td>{HOSTILE}"
        )
    add_mock(store, NOW - timedelta(hours=2), 1, 1.5)
    data = gather(store, lib, Settings(target=2), NOW)
    page = render(data, "html")
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert page.count("&lt;script&gt;") >= 8  # deck title, section, tier, questions, answers, mock
    assert "</td><script" not in page
    markdown = render(data, "md")
    assert "<script" not in markdown and "&lt;script&gt;" in markdown


def test_markdown_cells_cannot_break_the_table() -> None:
    assert cell("a | b\nc") == "a \\| b<br>c"
    assert cell("<i>") == "&lt;i&gt;"
    assert cell("a `b`") == "a \\`b\\`" and cell("run `grill`", code=True) == "run `grill`"


def test_csv_neutralises_formulas(store: Store) -> None:
    lib = _hostile_library()
    answers = [
        "=1+1",
        "+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1)",
        "\t=x",
        "  =HYPERLINK(1)",
        'plain, "quoted"',
        "5-3",
    ]
    at = NOW - timedelta(days=1)
    for i, answer in enumerate(answers):
        record_answer(
            store, SCHED, lib.cards()[i % 3], Rating.GOOD, at + timedelta(minutes=i), answer=answer
        )
    rows = list(csv.reader(io.StringIO(render(gather(store, lib, Settings(), NOW), "csv"))))
    got = [r[8] for r in rows[1:]]
    assert got == [
        "'=1+1",
        "'+cmd|' /C calc'!A0",
        "'-2+3",
        "'@SUM(A1)",
        "'\t=x",
        "'  =HYPERLINK(1)",
        'plain, "quoted"',
        "5-3",
    ]
    assert len(rows) == len(answers) + 1 and all(len(r) == 11 for r in rows)
    assert neutralise("-") == "'-" and neutralise("ok") == "ok"


# ------------------------------------------------------------------ grill plan


def test_plan_saves_the_date_and_prints_the_days(store: Store) -> None:
    replay(store, load_library([]), days=2)
    shown = runner.invoke(app, ["plan", "--date", "2026-12-09", "--target", "30"])
    assert shown.exit_code == 0, shown.output
    settings = load_settings()
    assert settings.interview_date == date(2026, 12, 9) and settings.target == 30
    text = shown.stdout
    assert "Interview: Wed 09 Dec 2026, 09:00 (7 study day(s) left" in text
    days = re.findall(r"^ *(\w{3} \d\d \w{3}) +\d+ +\d+ +\d+ *$", text, re.M)
    assert days[0] == "Wed 02 Dec" and days[-1] == "Tue 08 Dec" and len(days) == 7
    followed = r"If you follow it: +expected \d+\.\d/45 \(80%: [\d.]+-[\d.]+\) on the day, P\(≥30\)"
    assert re.search(followed, text)
    assert re.search(r"If you stop now: +expected \d+\.\d/45", text)
    data = json.loads(runner.invoke(app, ["plan", "--json"]).stdout)
    assert data["interview"].startswith("2026-12-09T09:00")
    assert len(data["days"]) == 7
    assert sum(d["new"] for d in data["days"]) == pytest.approx(45 - 12)  # every card met
    assert data["followed"]["expected"] > data["not_followed"]["expected"]
    ahead = data["followed"]
    assert ahead["expected_low"] <= ahead["expected"] <= ahead["expected_high"]


def test_plan_refuses_a_past_date_and_needs_one() -> None:
    missing = runner.invoke(app, ["plan"])
    assert isinstance(missing.exception, UsageError)
    assert "no interview date set: grill plan --date" in str(missing.exception)
    past = runner.invoke(app, ["plan", "--date", "2026-11-30"])
    assert isinstance(past.exception, UsageError) and "in the past" in str(past.exception)
    assert load_settings().interview_date is None


def test_plan_simulate_prints_the_comparison() -> None:
    runner.invoke(app, ["plan", "--date", "2026-12-06"])
    shown = runner.invoke(app, ["plan", "--simulate", "--learners", "1"])
    assert shown.exit_code == 0, shown.output
    for word in ("grill", "fsrs", "sm2", "fixed", "Goal 1", "Goal 2", "4 study days"):
        assert word in shown.stdout


def test_a_mock_records_the_prediction_made_just_before_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fakes import fake_grade

    monkeypatch.setattr("grill.ui.mock.load_grader", lambda: fake_grade)
    lib = load_library([])
    replay(store, lib, days=4)
    by_card = personal.deck_traces(store.reviews(), "training-behaviors", UTC)
    fitted = personal.load(store, NOW)  # the log as it stands, fitted as the mock fits it
    done = runner.invoke(app, ["mock", "--count", "5", "--seed", "3"], input="right\n" * 5)
    assert done.exit_code == 0, done.output
    (session,) = store.sessions(Mode.MOCK)
    asked = session.summary["questions"]
    expected = predicted_score(by_card, asked, fitted, NOW)
    assert session.summary["predicted"] == pytest.approx(expected)
    assert 0 < expected < 5
    (entry,) = gather(store, lib, Settings(), NOW).mocks
    assert entry.predicted == pytest.approx(expected) and entry.asked == 5


def test_an_aborted_mock_predicts_only_the_questions_it_scored(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after one answer, a mock is scored 0 or 1 of 1: its prediction is that one
    card's chance, never the whole plan's expected score (it was 2.8 of 1)."""
    from fakes import fake_grade

    monkeypatch.setattr("grill.ui.mock.load_grader", lambda: fake_grade)
    lib = load_library([])
    replay(store, lib, days=4)
    by_card = personal.deck_traces(store.reviews(), "training-behaviors", UTC)
    fitted = personal.load(store, NOW)  # the log as it stands, fitted as the mock fits it
    done = runner.invoke(app, ["mock", "--seed", "3"], input="right\n")  # then EOF: aborted
    assert done.exit_code == 0, done.output
    (session,) = store.sessions(Mode.MOCK)
    assert (session.summary["status"], session.summary["asked"]) == ("aborted", 1)
    planned = session.summary["questions"]
    chance = predicted_score(by_card, planned[:1], fitted, NOW)
    assert session.summary["predicted"] == pytest.approx(chance)
    assert 0 <= session.summary["predicted"] <= 1
    whole = predicted_score(by_card, planned, fitted, NOW)
    assert whole > 1  # what used to be recorded: the 45 planned questions' expected score


def test_a_report_that_fails_halfway_leaves_the_previous_one_whole(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import grill.report as report_pkg
    from grill.errors import StoreError

    replay(store, load_library([]), days=2)
    target = tmp_path / "out" / "progress.json"
    assert runner.invoke(app, ["report", "-o", str(target)]).exit_code == 0
    before = target.read_text(encoding="utf-8")

    def broken(data: object, out: io.TextIOBase, chunks: object) -> None:
        out.write('{"schema": 1, "half')
        raise StoreError("the database went away while the log was read")

    monkeypatch.setattr(report_pkg, "write_json", broken)
    failed = runner.invoke(app, ["report", "-o", str(target)])
    assert isinstance(failed.exception, StoreError)
    assert target.read_text(encoding="utf-8") == before
    assert [p.name for p in target.parent.iterdir()] == ["progress.json"]  # no temporary left


def test_a_reference_line_label_is_drawn_over_the_series_with_a_halo() -> None:
    from grill.report.html import _CSS
    from grill.report.svg import Point, line_chart

    rising = [Point(0, 10, "a"), Point(1, 40, "b")]  # crosses the target's label at the left
    chart = line_chart(
        "c", "t", [("score", rising, True)], y_max=45, lines=[(28, "target 28", "target")]
    )
    assert chart.index('class="target-label"') > chart.index('class="line s0"')
    assert chart.index('class="target-label"') > chart.rindex('class="dot s0"')
    assert re.search(r"svg \.target-label[^{]*\{[^}]*paint-order: stroke", _CSS)


def test_the_calendar_labels_the_current_month_from_its_first_day() -> None:
    from grill.report.svg import heatmap

    start = date(2026, 11, 5)  # 28 days to Wed 2 Dec: no first Monday of December yet
    days = [(start + timedelta(days=i), i % 3) for i in range(28)]
    labels = re.findall(r'<text class="axis"[^>]*>([A-Z][a-z]{2})</text>', heatmap("c", "t", days))
    months = [m for m in labels if m not in ("Mon", "Wed", "Fri", "Sun")]
    assert months == ["Nov", "Dec"]


def test_stats_says_when_the_interview_lies_far_beyond_the_logs_gaps(store: Store) -> None:
    """A forecast reaching FAR_STRETCH times the log's gaps was measured to hold the truth about
    7 times in 10: `grill stats` and the report say so under it; one a day or two out does not."""
    from dataclasses import replace

    from rich.console import Console

    from grill.memory.forecast import FAR_STRETCH, SETTLED_DAYS
    from grill.report.html import render_html
    from grill.report.terminal import render_stats

    lib = load_library([])
    replay(store, lib)

    def gathered(days_out: int) -> object:
        settings = Settings(interview_date=(NOW + timedelta(days=days_out)).date())
        data = gather(store, lib, settings, NOW)
        return replace(data, days_studied=max(data.days_studied, SETTLED_DAYS))

    def shown(d: object) -> str:
        console = Console(file=io.StringIO(), width=80, color_system=None)
        render_stats(console, d)  # type: ignore[arg-type]
        return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]

    far, near = gathered(40), gathered(2)
    assert far.day is not None and far.day.stretch is not None  # type: ignore[attr-defined]
    assert far.day.stretch >= FAR_STRETCH  # type: ignore[attr-defined]
    assert near.day.stretch < FAR_STRETCH  # type: ignore[attr-defined]
    assert "further from your last reviews than the gaps your log has tested" in shown(far)
    assert "held the truth about 7 times in 10" in render_html(far)  # type: ignore[arg-type]
    assert "further from your last reviews" not in shown(near)
    assert near.far is None  # type: ignore[attr-defined]
    early = replace(far, days_studied=3)
    assert early.caveats == (early.early,)  # type: ignore[attr-defined]
