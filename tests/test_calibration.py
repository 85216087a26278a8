"""The calibration run: learners of known memory study through grill's own drill, and grill's
forecast for the interview is set against what they will really score."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from grill.calibration import average_fit, calibrate, format_calibration, study
from grill.clock import study_day
from grill.store import Store


def test_a_fast_forgetter_is_forecast_near_the_truth_and_the_average_learner_is_not() -> None:
    cal = calibrate(["fast"], learners=1, days=6, ahead=3, seed=4)
    (row,) = cal.rows
    assert row.reviews > 100
    # a fast forgetter stays far from 28; FSRS's average learner would promise far more
    assert row.true_expected < 20 < row.default_expected
    assert abs(row.expected - row.true_expected) < abs(row.default_expected - row.true_expected)
    assert abs(row.default_expected - row.true_expected) > 8
    assert row.low <= row.expected <= row.high
    text = format_calibration(cal)
    assert "fast" in text and "inside the 80% interval" in text


def test_the_candidates_behind_a_forecast_are_shown_and_add_up_to_it() -> None:
    cal = calibrate(["fast"], learners=1, days=4, ahead=3, seed=8)
    (row,) = cal.rows
    names = [n for n, _, _ in row.candidates]
    assert len(names) == len(set(names)) >= 2
    assert abs(sum(w for _, w, _ in row.candidates) - 1) < 1e-9
    # the forecast is the weighted mean of what each candidate expects
    assert abs(sum(w * e for _, w, e in row.candidates) - row.expected) < 1e-6
    shown = format_calibration(cal, components=True)
    assert f"candidates: {names[0]} " in shown
    assert "candidates:" not in format_calibration(cal)


def test_a_learner_can_study_as_a_script_of_grill_due_and_grill_review(tmp_path: Path) -> None:
    studied = study("fsrs", 0, days=3, ahead=2, seed=5, home=tmp_path, via="due")
    with Store.open(tmp_path / "grill.db", now=studied.last) as store:
        reviews = store.reviews()
    assert len(reviews) == studied.reviews > 15
    # each card the day's queue lists is answered once: a card failed waits for the next evening
    per_day = Counter((r.card_id, study_day(r.reviewed_at)) for r in reviews)
    assert max(per_day.values()) == 1
    drilled = study("fsrs", 0, days=3, ahead=2, seed=5, home=tmp_path / "drill")
    assert drilled.reviews > studied.reviews  # the drill re-asks a failed card the same evening


def test_the_plan_followed_is_judged_against_the_learner_who_follows_it(tmp_path: Path) -> None:
    """`--follow`: the same learner studies the first evenings in both homes, then one home goes
    on through the plan; the plan made in the other is set against where that one ends up."""
    early = study("fast", 0, days=4, ahead=5, seed=6, home=tmp_path / "a")
    full = study("fast", 0, days=6, ahead=3, seed=6, home=tmp_path / "b")
    with Store.open(tmp_path / "a" / "grill.db", now=early.last) as a:
        first = [(r.card_id, r.rating) for r in a.reviews()]
    with Store.open(tmp_path / "b" / "grill.db", now=full.last) as b:
        assert [(r.card_id, r.rating) for r in b.reviews()][: len(first)] == first
    cal = calibrate(["fast"], learners=1, days=6, ahead=3, seed=6, follow=2)
    (row,) = cal.rows
    assert row.reviews == full.reviews and row.true_expected == sum(full.truth)
    assert row.default_expected < row.expected  # stopping then forecasts less than following
    assert row.low <= row.expected <= row.high
    text = format_calibration(cal)
    assert "made 2 evenings before the last" in text and "if stopped then" in text


def test_the_average_learner_is_one_certain_component() -> None:
    (cand,) = average_fit().candidates
    assert cand.kappas == ((1.0, 1.0),)


def test_scripts_simulate_runs_the_calibration() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "grill.calibration",
            "--learners",
            "1",
            "--days",
            "3",
            "--memory",
            "slow",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "slow" in done.stdout and "|forecast - true expected|" in done.stdout
