"""The person's memory: fitted from their own log, judged by their later reviews, forecast with
its uncertainty. Synthetic learners whose memory is known check the direction of each fit."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grill import personal
from grill.clock import study_day
from grill.deck import load_library
from grill.memory import COLD_GAP, Forecaster, MemoryFit, Trace, components, default_fit, fit
from grill.memory.fitting import SHRINK_TRIALS, fit_slope, recalibrated, recalibration, shrink
from grill.memory.forecast import (
    SETTLED_DAYS,
    SPREAD_FLOOR,
    SPREAD_KNEE,
    SPREAD_SLOPE,
    Component,
    interval,
    spread_calibrated,
    weakened,
)
from grill.memory.models import FsrsModel, HlrModel, counts, model_from
from grill.memory.optimizer import DEFAULT_PARAMETERS
from grill.model import Mode
from grill.odds import at_least, poisson_binomial
from grill.readiness import forecast, predicted_score
from grill.store import Store

START = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


def learner(
    half_life: float, days: int, cards: int = 45, seed: int = 0, growth: float = 2.0
) -> list[Trace]:
    """A learner with exponential forgetting reviewed every evening: a first look leaves a
    half-life of `half_life` days, each recall multiplies it by `growth`, a lapse resets it."""
    rng = random.Random(seed)
    origin = study_day(START)
    out = []
    for c in range(cards):
        start = c % 3  # cards met over the first three days
        h, last = half_life, None
        at, ratings = [], []
        for d in range(start, days):
            now = START + timedelta(days=d)
            if last is None:
                ratings.append(3)
            else:
                recalled = rng.random() < 2 ** (-(now - last).total_seconds() / 86400 / h)
                ratings.append(3 if recalled else 1)
                h = h * growth if recalled else half_life
            at.append(now)
            last = now
        days_ = tuple((study_day(t) - origin).days for t in at)
        out.append(Trace(("d", f"c{c}"), tuple(at), days_, tuple(ratings)))
    return out


def end_of(days: int) -> datetime:
    return START + timedelta(days=days - 1, hours=1)


def expected_at(fitted: MemoryFit, traces: list[Trace], at: datetime) -> float:
    return sum(c.weight * c.expected for c in components(fitted, traces, at))


def test_a_fast_forgetter_is_fitted_as_fast_and_forecast_low() -> None:
    traces = learner(half_life=0.3, days=10)
    fitted = fit(traces, end_of(10))
    assert fitted.fitted
    assert fitted.speed > 1.5  # forgets faster than FSRS's average learner
    interview = end_of(10) + timedelta(days=4)
    assert expected_at(fitted, traces, interview) < 0.5 * expected_at(
        default_fit(), traces, interview
    )


def test_a_slow_forgetter_is_fitted_as_slow() -> None:
    traces = learner(half_life=30.0, days=10)
    fitted = fit(traces, end_of(10))
    assert fitted.speed < 0.8
    interview = end_of(10) + timedelta(days=4)
    assert expected_at(fitted, traces, interview) > expected_at(default_fit(), traces, interview)


def test_the_interval_narrows_as_reviews_accumulate() -> None:
    deck = load_library(user_decks=False).main_deck()
    assert deck is not None
    traces = learner(half_life=1.0, days=10, cards=len(deck.cards), seed=3)
    interview = end_of(10) + timedelta(days=4)
    widths = []
    for fitted_on in (traces[:6], traces):  # the same cards forecast, from fewer or more reviews
        ready = forecast(deck, traces, fit(fitted_on, end_of(10)), interview, 28)
        assert ready.low is not None and ready.high is not None
        assert ready.low <= ready.expected <= ready.high
        widths.append(ready.high - ready.low)
    assert widths[0] > widths[1] > 0


def test_three_days_of_study_leave_the_forecast_open() -> None:
    deck = load_library(user_decks=False).main_deck()
    assert deck is not None
    traces = learner(half_life=2.0, days=3, cards=len(deck.cards))
    ready = forecast(deck, traces, fit(traces, end_of(3)), end_of(3) + timedelta(days=4), 28)
    assert 0.02 < ready.p_target < 0.98
    assert ready.low is not None and ready.high is not None
    assert ready.high - ready.low > 10


def test_a_log_too_small_says_so_instead_of_fitting() -> None:
    traces = learner(half_life=1.0, days=2, cards=4)
    fitted = fit(traces, end_of(2))
    assert not fitted.fitted
    assert "needed" in fitted.notes[0]
    assert [c.model.name for c in fitted.candidates] == ["default"]


def test_forty_reviews_move_the_parameters_less_than_a_third_of_the_way() -> None:
    wild = [w * 50 if i < 4 else w for i, w in enumerate(DEFAULT_PARAMETERS)]
    shrunk = shrink(wild, 40)
    lam = 40 / (40 + SHRINK_TRIALS)
    assert lam < 1 / 3
    for got, default, far in zip(shrunk[:4], DEFAULT_PARAMETERS[:4], wild[:4], strict=True):
        assert math.log(got / default) == pytest.approx(lam * math.log(far / default))


def test_candidates_are_weighted_by_their_predictions_and_the_fit_round_trips() -> None:
    traces = learner(half_life=0.3, days=10, seed=5)
    fitted = fit(traces, end_of(10))
    assert sum(c.weight for c in fitted.candidates) == pytest.approx(1)
    # FSRS's average learner predicts a fast forgetter's later reviews worst of all
    assert fitted.reference is not None
    best = max(fitted.candidates, key=lambda c: c.weight)
    assert best.evaluation is not None
    assert best.evaluation.log_loss < fitted.reference.log_loss
    again = MemoryFit.from_dict(json.loads(json.dumps(fitted.to_dict())))
    assert again.to_dict() == fitted.to_dict()


def test_a_card_failed_today_is_weak_the_same_day() -> None:
    first = START
    morning = first + timedelta(days=2, hours=14)  # 08:00, three study days later
    failed = Trace(("d", "x"), (first, morning), (0, 3), (3, 1))
    just_after = morning + timedelta(minutes=5)
    evening = morning + timedelta(hours=13)  # 21:00, the same study day
    soon = components(default_fit(), [failed], just_after)
    later = components(default_fit(), [failed], evening)
    p_soon = sum(c.weight * c.chances[0] for c in soon)
    p_later = sum(c.weight * c.chances[0] for c in later)
    assert p_soon < 0.95  # never counted from less than COLD_GAP after the answer was shown
    assert p_later < p_soon
    assert COLD_GAP > 0


def test_the_scheduler_counts_elapsed_time_exactly() -> None:
    from grill.model import Rating
    from grill.scheduler import Scheduler

    sched = Scheduler(enable_fuzzing=False)
    state = sched.review(sched.new_state("d", "x", START), Rating.AGAIN, START)
    hour = sched.retrievability(state, START + timedelta(hours=1))
    evening = sched.retrievability(state, START + timedelta(hours=6))
    assert 1 > hour > evening


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (
            lambda d: d["candidates"][1]["model"]["parameters"].__setitem__(0, float("nan")),
            "not numbers",
        ),
        (lambda d: d["candidates"][1]["model"]["parameters"].__setitem__(4, 99.0), "w[4]"),
        (lambda d: d["candidates"][1]["model"].__setitem__("parameters", [0.4] * 19), "19"),
        (lambda d: d.__setitem__("version", 99), "version 99"),
    ],
)
def test_stored_parameters_that_make_no_sense_are_refused_with_one_line(mangle, reason) -> None:  # type: ignore[no-untyped-def]
    traces = learner(half_life=0.5, days=10, seed=1)
    data = fit(traces, end_of(10)).to_dict()
    mangle(data)
    warnings: list[str] = []
    with Store.open() as store:
        store.save_memory_fit(end_of(10), 10**6, json.dumps(data, allow_nan=True))
        used = personal.load(store, end_of(10), refresh=False, warn=warnings.append)
    assert len(warnings) == 1 and reason in warnings[0]
    assert "default" in warnings[0]
    assert not used.fitted


def test_the_store_keeps_the_latest_fit_with_its_review_count() -> None:
    with Store.open() as store:
        assert store.memory_fit() is None
        store.save_memory_fit(START, 12, "{}")
        store.save_memory_fit(START + timedelta(days=1), 30, '{"a": 1}')
        at, count, body = store.memory_fit() or (None, 0, "")
    assert (at, count, body) == (START + timedelta(days=1), 30, '{"a": 1}')


def test_a_stale_fit_is_refitted_before_a_forecast() -> None:
    assert not personal.stale(100, 105)
    assert personal.stale(100, 110)
    # an evening's reviews on a small log always reach the forecast; a large log waits a tenth
    assert personal.stale(1000, 1010) and not personal.stale(1000, 1009)
    big = personal.SMALL_LOG * 2
    assert personal.stale(big, big + big // 10) and not personal.stale(big, big + big // 20)


def _review_days(days: int, fail: bool) -> None:
    """Every card of the built-in deck reviewed each evening through the command line."""
    from typer.testing import CliRunner

    from grill.cli import app

    runner = CliRunner()
    for d in range(days):
        at = (START + timedelta(days=d)).isoformat()
        for n in range(1, 11):
            rating = "again" if fail and d else "good"
            done = runner.invoke(app, ["review", str(n), "--rating", rating], env={"GRILL_NOW": at})
            assert done.exit_code == 0, done.output


def test_grill_memory_tells_a_fast_forgetter_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from grill.cli import app

    _review_days(5, fail=True)
    monkeypatch.setenv("GRILL_NOW", (START + timedelta(days=5)).isoformat())
    runner = CliRunner()
    shown = runner.invoke(app, ["memory", "--fit"])
    assert shown.exit_code == 0, shown.output
    assert "You forget faster than the average FSRS user" in shown.stdout
    assert "on 50 reviews (40 asked on a later day, 10 cards)" in shown.stdout
    data = json.loads(runner.invoke(app, ["memory", "--json"]).stdout)
    assert data["reviews"] == 50 and data["trials"] == 40
    assert data["speed"] > 1.5
    names = [c["model"]["name"] for c in data["candidates"]]
    assert names == ["default", "personal", "steep", "hlr"]
    # every review failed: the models fitted on the first days over-predicted the later ones,
    # and the screen shows how each is corrected
    assert all(c["shift"] < 0 for c in data["candidates"])
    assert "70% becomes" in shown.stdout
    with Store.open() as store:
        fitted_at, count, _ = store.memory_fit() or (None, 0, "")
    assert count == 50 and fitted_at == START + timedelta(days=5)


def test_a_forecast_refits_a_grown_log_and_the_scheduler_uses_the_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from grill.cli import app

    _review_days(4, fail=True)
    monkeypatch.setenv("GRILL_NOW", (START + timedelta(days=4)).isoformat())
    stats = json.loads(CliRunner().invoke(app, ["stats", "--json"]).stdout)
    assert stats["schema"] == 2
    now = stats["readiness"]["now"]
    assert now["expected_low"] <= now["expected"] <= now["expected_high"]
    with Store.open() as store:
        fitted = personal.load(store, START + timedelta(days=4), refresh=False)
        assert fitted.reviews == 40 and fitted.fitted
        sched = personal.scheduler(store, 0.9, START + timedelta(days=4))
    assert sched.parameters == fitted.personal.parameters != DEFAULT_PARAMETERS


def test_reviews_recorded_one_by_one_are_fitted_before_the_next_days_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from grill.cli import app

    _review_days(4, fail=True)  # `grill review` alone never fits
    with Store.open() as store:
        assert store.memory_fit() is None
    monkeypatch.setenv("GRILL_NOW", (START + timedelta(days=4)).isoformat())
    runner = CliRunner()
    assert runner.invoke(app, ["plan", "--date", "2026-11-20"]).exit_code == 0
    with Store.open() as store:
        store.save_memory_fit(START, 0, json.dumps(default_fit().to_dict()))  # outgrown
    assert runner.invoke(app, ["due", "--json"]).exit_code == 0
    with Store.open() as store:
        fitted = personal.load(store, START + timedelta(days=4), refresh=False)
    assert fitted.reviews == 40 and fitted.fitted
    assert fitted.personal.parameters != DEFAULT_PARAMETERS


def test_a_damaged_fit_is_refused_by_the_commands_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from grill.cli import app

    with Store.open() as store:
        store.save_memory_fit(START, 0, '{"version": 1, "candidates": "nonsense"')
    shown = CliRunner().invoke(app, ["memory"])
    assert shown.exit_code == 0
    lines = [line for line in shown.stderr.splitlines() if line.startswith("grill:")]
    assert len(lines) == 1 and "not JSON" in lines[0] and "default memory model" in lines[0]


def test_grill_doctor_checks_the_stored_fit() -> None:
    from typer.testing import CliRunner

    from grill.cli import app

    traces = learner(half_life=0.5, days=10, seed=1)
    data = fit(traces, end_of(10)).to_dict()
    with Store.open() as store:
        store.save_memory_fit(end_of(10), 400, json.dumps(data))
    shown = CliRunner().invoke(app, ["doctor"])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"memory +fitted 2026-11-11 19:00 UTC on 400 reviews", shown.stdout)
    data["candidates"][1]["model"]["parameters"][20] = 5.0
    with Store.open() as store:
        store.save_memory_fit(end_of(10), 410, json.dumps(data))
    shown = CliRunner().invoke(app, ["doctor"])
    assert shown.exit_code == 0  # the database is fine; the fit is refused and not used
    assert re.search(r"memory +REFUSED: FSRS parameter w\[20\] = 5.0 is outside", shown.stdout)


def test_after_a_drill_the_refit_runs_in_the_background(
    monkeypatch: pytest.MonkeyPatch, grill_home: Path
) -> None:
    import subprocess
    import sys
    import time

    _review_days(3, fail=False)
    env = {k: v for k, v in os.environ.items() if k != "GRILL_NO_BACKGROUND"}
    env["GRILL_NOW"] = (START + timedelta(days=3)).isoformat()
    env["PYTHONWARNINGS"] = "default"  # as a person with warnings on would see it
    done = subprocess.run(
        [sys.executable, "-m", "grill", "drill", "--new", "1", "--limit", "1"],
        input="an answer\n3\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "still running" not in done.stderr  # the detached child is no stray warning line
    deadline = time.monotonic() + 60
    stored = None
    while time.monotonic() < deadline:
        with Store.open() as store:
            stored = store.memory_fit()
        if stored is not None:
            break
        time.sleep(0.5)
    assert stored is not None and stored[1] >= 30


def test_the_slope_says_whether_strong_cards_hold_as_well_as_the_model_grows_them() -> None:
    steep = FsrsModel("steep", curve="exp")
    flat = fit_slope(steep, learner(half_life=1.0, days=10, growth=1.1))  # recalls barely help
    grows = fit_slope(steep, learner(half_life=1.0, days=10, growth=4.0))
    assert flat.slope < 0 and flat.slope < grows.slope
    assert (flat.curve, flat.parameters) == (steep.curve, steep.parameters)
    assert fit_slope(steep, learner(half_life=1.0, days=1)) == steep  # nothing to fit on
    # read back from a stored fit
    assert model_from(flat.to_dict()) == flat


def test_hlr_counts_a_recall_only_when_it_was_spaced() -> None:
    # an evening of relearning (again, good, good minutes apart), then a recall the next day
    at = tuple(START + timedelta(minutes=m) for m in (0, 5, 10)) + (START + timedelta(days=1),)
    trace = Trace(("d", "c"), at, (0, 0, 0, 1), (1, 3, 3, 3))
    assert counts(trace) == [(0, 1), (0, 1), (0, 1), (1, 1)]
    hlr = HlrModel("hlr")
    relearned, spaced = hlr.strengths([trace])[0][2:]
    assert spaced > relearned


def test_a_forecast_far_beyond_the_logs_gaps_weighs_the_candidates_more_evenly() -> None:
    assert weakened([0.9, 0.1], 1.0) == pytest.approx([0.9, 0.1])
    near, far = weakened([0.9, 0.1], 1.5), weakened([0.9, 0.1], 4.0)
    assert 0.1 < near[1] < far[1] < 0.5
    assert sum(far) == pytest.approx(1.0)
    # through the forecaster: a fit whose gaps reach a day, forecast a day and then weeks out
    traces = learner(half_life=1.0, days=8)
    fitted = fit(traces, end_of(8))
    top = max(fitted.candidates, key=lambda c: c.weight)

    def weight_of_top(at: datetime) -> float:
        return sum(c.weight for c in components(fitted, traces, at) if c.name == top.model.name)

    assert weight_of_top(end_of(8) + timedelta(days=30)) < weight_of_top(end_of(9)) - 0.02


def test_a_far_forecast_keeps_each_candidates_time_scale_posterior() -> None:
    # the doubt about how far out the log's verdict holds is counted once, in the candidates'
    # weights: each one's time scale keeps the posterior its log gave it
    traces = learner(half_life=1.0, days=8)
    fitted = fit(traces, end_of(8))
    for cand in fitted.candidates:
        posterior = dict(cand.posterior())
        near = {
            c.kappa: c.weight
            for c in components(fitted, traces, end_of(9))
            if c.name == cand.model.name
        }
        far = {
            c.kappa: c.weight
            for c in components(fitted, traces, end_of(8) + timedelta(days=30))
            if c.name == cand.model.name
        }
        for comps in (near, far):
            top = sorted(comps, key=comps.get, reverse=True)[:2]  # type: ignore[arg-type]
            if len(top) == 2:
                ratio = comps[top[0]] / comps[top[1]]
                assert ratio == pytest.approx(posterior[top[0]] / posterior[top[1]], rel=1e-6)


def test_a_model_that_overpredicted_the_later_reviews_is_recalibrated_down() -> None:
    def rows(n: int, p: float, observed: float) -> list[tuple[float, bool]]:
        return [(p, i < observed * n) for i in range(n)]

    few, many = recalibration(rows(10, 0.8, 0.4), 1.0), recalibration(rows(400, 0.8, 0.4), 1.0)
    assert many < few < 0  # the more later reviews were missed, the larger the correction
    assert many == pytest.approx(math.log(0.4 / 0.6) - math.log(0.8 / 0.2), abs=0.1)
    assert recalibration(rows(400, 0.8, 0.4), 20.0) > many  # tempered evidence moves it less
    assert recalibration(rows(100, 0.5, 0.8), 1.0) > 0
    assert recalibration(rows(100, 0.6, 0.6), 1.0) == pytest.approx(0.0, abs=0.02)
    assert recalibrated(0.8, math.log(0.4 / 0.6) - math.log(0.8 / 0.2)) == pytest.approx(0.4)


def test_a_vanishing_chance_is_recalibrated_without_overflow() -> None:
    # a fast forgetter's card read days later on an exponential curve: logit near -737
    assert 0.0 < recalibrated(1e-320, -0.8) < 1e-320
    assert recalibrated(1e-320, 0.8) > 1e-320
    assert recalibrated(1 - 1e-12, 0.5) < 1.0


def test_the_forecast_applies_each_candidates_recalibration() -> None:
    traces = learner(half_life=2.0, days=8)
    fitted = fit(traces, end_of(8))
    lowered = dataclasses.replace(
        fitted,
        candidates=tuple(dataclasses.replace(c, shift=c.shift - 1.0) for c in fitted.candidates),
    )
    at = end_of(8) + timedelta(days=4)
    assert expected_at(lowered, traces, at) < expected_at(fitted, traces, at) - 2
    again = MemoryFit.from_dict(json.loads(json.dumps(lowered.to_dict())))
    assert [c.shift for c in again.candidates] == pytest.approx(
        [c.shift for c in lowered.candidates], abs=1e-4
    )


@pytest.mark.parametrize("width", [60, 80])
def test_the_memory_screen_fits_a_narrow_window(width: int) -> None:
    from io import StringIO

    from rich.console import Console

    from grill.ui.memory import render_memory

    traces = learner(half_life=0.5, days=8)
    buf = StringIO()
    render_memory(Console(file=buf, width=width), fit(traces, end_of(8)), "You forget faster.")
    rows = [line.rstrip() for line in buf.getvalue().splitlines() if line[:1] in "┏┃┡│└"]
    assert rows and all(line[-1] in "┓┃┩│┘" for line in rows)  # no table cut at the edge
    if width >= 80:
        assert "│ FSRS, exponential, sloped │" in buf.getvalue()


def test_a_mock_predicts_with_the_memory_fitted_on_the_log_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a person who only ever used `grill review` has no stored fit; the mock's prediction must
    # still come from their own log, as `grill stats` would, not from the average learner
    from typer.testing import CliRunner

    from grill.cli import app

    _review_days(5, fail=True)
    moment = START + timedelta(days=5)
    monkeypatch.setenv("GRILL_NOW", moment.isoformat())
    with Store.open() as store:
        assert store.memory_fit() is None
    runner = CliRunner()
    done = runner.invoke(app, ["mock", "--count", "3", "--seed", "1"], input="a\nb\nc\n")
    assert done.exit_code == 0, done.output
    with Store.open() as store:
        stored = store.memory_fit()
        [session] = store.sessions(Mode.MOCK)
        fitted = personal.parse(stored[2]) if stored else default_fit()
        before = [r for r in store.reviews() if r.mode != Mode.MOCK]
        by_card = personal.deck_traces(before, "training-behaviors", UTC)
    assert stored is not None and stored[1] == 50  # fitted on the 50 reviews before the mock
    asked = [a["id"] for a in session.summary["answers"]]
    assert session.summary["predicted_cards"] == len(asked) == 3
    average = predicted_score(by_card, asked, default_fit(), moment)
    assert session.summary["predicted"] == pytest.approx(
        predicted_score(by_card, asked, fitted, moment), abs=0.01
    )
    assert session.summary["predicted"] < average - 0.3


def _comp(name: str, weight: float, chance: float, cards: int = 40) -> Component:
    return Component(name, 1.0, weight, (chance,) * cards)


def test_wide_disagreement_is_drawn_toward_the_mean_and_narrow_agreement_widened() -> None:
    # two models 16 cards apart (expected 12 and 28 of 40): a half-width of 8 beyond the knee of
    # 4 counts for 4 + 0.3 * 4, and the mean stays where it was
    wide = [_comp("low", 0.5, 0.3), _comp("high", 0.5, 0.7)]
    lo, hi = interval(wide)
    assert (hi - lo) / 2 == pytest.approx(8.0)
    moved = spread_calibrated(wide)
    lo2, hi2 = interval(moved)
    assert (hi2 - lo2) / 2 == pytest.approx(SPREAD_KNEE + SPREAD_SLOPE * (8.0 - SPREAD_KNEE))
    assert sum(c.weight * c.expected for c in moved) == pytest.approx(20.0)
    # two models that nearly agree (half-width 1) are widened to the floor
    close = [_comp("a", 0.5, 0.475), _comp("b", 0.5, 0.525)]
    lo3, hi3 = interval(spread_calibrated(close))
    assert (hi3 - lo3) / 2 == pytest.approx(SPREAD_FLOOR)
    # between the floor and the knee nothing moves; one component has no spread to move
    middle = [_comp("a", 0.5, 0.42), _comp("b", 0.5, 0.58)]
    assert spread_calibrated(middle) == tuple(middle)
    assert spread_calibrated(wide[:1]) == tuple(wide[:1])
    # chances stay chances when widened near the ends
    edge = [_comp("a", 0.5, 0.97), _comp("b", 0.5, 0.995)]
    assert all(0.0 <= p <= 1.0 for c in spread_calibrated(edge) for p in c.chances)
    # a log of a few days has not placed the person between the models: the wide spread is
    # kept whole, and the narrow one is still widened
    assert spread_calibrated(wide, settled=False) == tuple(wide)
    lo4, hi4 = interval(spread_calibrated(close, settled=False))
    assert (hi4 - lo4) / 2 == pytest.approx(SPREAD_FLOOR)


def test_a_forecast_whose_models_disagree_lends_the_far_one_less_chance() -> None:
    # the same mixture, before and after the spread is calibrated: P(>= 28) of a person whose
    # models say 12 or 28 (mean 20) falls, as the far model's chance is no longer taken whole
    wide = [_comp("low", 0.5, 0.3), _comp("high", 0.5, 0.7)]
    raw = sum(c.weight * at_least(poisson_binomial(c.chances), 28) for c in wide)
    moved = spread_calibrated(wide)
    calibrated = sum(c.weight * at_least(poisson_binomial(c.chances), 28) for c in moved)
    assert calibrated < raw - 0.1


def test_a_forecast_from_a_few_study_days_keeps_the_models_disagreement_whole() -> None:
    # the same learner three evenings in and six: the candidates disagree beyond the knee both
    # times, and only the longer log is drawn in (SETTLED_DAYS study days)
    for days, drawn in ((3, False), (SETTLED_DAYS, True)):
        traces = learner(half_life=1.0, days=days)
        forecaster = Forecaster(fit(traces, end_of(days)), traces)
        day = end_of(days) + timedelta(days=8)
        raw = forecaster.at(day, calibrated=False)
        lo, hi = interval(raw)
        assert (hi - lo) / 2 > SPREAD_KNEE
        lo2, hi2 = interval(forecaster.at(day))
        assert (hi2 - lo2 < hi - lo - 1) is drawn
    # the days are counted up to the moment forecast: the six-day log read at the end of its
    # third evening is three days long
    moment = end_of(3) + timedelta(hours=2)
    raw = forecaster.at(moment, calibrated=False)
    assert (interval(raw)[1] - interval(raw)[0]) / 2 > SPREAD_KNEE
    assert forecaster.at(moment) == raw


def test_the_forecaster_calibrates_its_spread_and_keeps_the_raw_one_for_the_plan() -> None:
    traces = learner(half_life=1.0, days=8)
    forecaster = Forecaster(fit(traces, end_of(8)), traces)
    day = end_of(8) + timedelta(days=4)
    raw = forecaster.at(day, calibrated=False)
    assert forecaster.at(day) == spread_calibrated(raw)
    assert forecaster.at(day) != raw  # this learner's candidates disagree beyond the knee
    lo, hi = interval(raw)
    lo2, hi2 = interval(forecaster.at(day))
    assert hi2 - lo2 < hi - lo
