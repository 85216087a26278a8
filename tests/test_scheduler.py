"""FSRS through grill's own card state: golden intervals with fixed UTC dates, fuzzing off."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from grill.clock import study_day
from grill.model import Phase, Rating
from grill.scheduler import Scheduler, fsrs_card_id

T0 = datetime(2022, 11, 29, 12, 30, tzinfo=UTC)


def test_interval_history_matches_the_fsrs_reference_sequence() -> None:
    # the ratings and start of py-fsrs's own test_review_card, through our state type; these
    # are fsrs 6.3's numbers (later py-fsrs releases round the 6th and last to 497 and 20)
    sched = Scheduler(enable_fuzzing=False)
    ratings = [Rating.GOOD] * 6 + [Rating.AGAIN] * 2 + [Rating.GOOD] * 5
    state = sched.new_state("d", "c", T0)
    at = T0
    intervals = []
    for rating in ratings:
        state = sched.review(state, rating, at)
        assert state.last_review == at
        intervals.append((study_day(state.due) - study_day(at)).days)  # reviews are by the day
        # asked on its due day at the time of day it was last asked, as a person would
        at = max(state.due, study_day(state.due) + (at - study_day(at)))
    assert intervals == [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]


def test_a_new_card_walks_the_learning_steps_then_graduates() -> None:
    sched = Scheduler(enable_fuzzing=False)
    new = sched.new_state("d", "c", T0)
    assert (new.phase, new.step, new.stability, new.due) == (Phase.LEARNING, 0, None, T0)
    once = sched.review(new, Rating.GOOD, T0)
    assert (once.phase, once.step, once.due - T0) == (Phase.LEARNING, 1, timedelta(minutes=10))
    twice = sched.review(once, Rating.GOOD, once.due)
    assert twice.phase == Phase.REVIEW and twice.step is None
    forgot = sched.review(twice, Rating.AGAIN, twice.due)
    assert (forgot.phase, forgot.step) == (Phase.RELEARNING, 0)
    assert forgot.due - twice.due == timedelta(minutes=10)


def test_first_ratings_give_fsrs6_initial_stability_and_due() -> None:
    sched = Scheduler(enable_fuzzing=False)
    new = sched.new_state("d", "c", T0)
    after = {r: sched.review(new, r, T0) for r in Rating}
    # FSRS-6 default parameters w0..w3 are the initial stabilities of again/hard/good/easy
    assert [round(after[r].stability or 0, 4) for r in Rating] == [0.212, 1.2931, 2.3065, 8.2956]
    assert after[Rating.AGAIN].due - T0 == timedelta(minutes=1)
    assert after[Rating.HARD].due - T0 == timedelta(minutes=5, seconds=30)
    assert after[Rating.GOOD].due - T0 == timedelta(minutes=10)
    assert after[Rating.EASY].phase == Phase.REVIEW
    # a review is due by the day: from the start (4 am) of the study day 8 days on
    assert after[Rating.EASY].due == study_day(T0) + timedelta(days=8)
    assert sched.preview(new, T0) == {r: after[r].due for r in Rating}


def test_a_review_answered_in_the_evening_is_due_at_the_start_of_its_day() -> None:
    sched = Scheduler(enable_fuzzing=False)
    evening = datetime(2026, 12, 2, 18, 45, tzinfo=timezone(timedelta(hours=1)))
    learned = sched.review(sched.new_state("d", "c", evening), Rating.EASY, evening)
    local = learned.due.astimezone(evening.tzinfo)
    assert (local.hour, local.minute) == (4, 0)  # 4 am local: tomorrow's 18:00 session sees it
    days = (study_day(local) - study_day(evening)).days
    assert days >= 1 and learned.due < evening + timedelta(days=days)
    late = datetime(2026, 12, 3, 2, 30, tzinfo=evening.tzinfo)  # after midnight: still the 2nd
    assert study_day(sched.review(learned, Rating.GOOD, late).due) > study_day(late)


def test_days_between_reviews_are_study_days_not_24_hour_periods() -> None:
    sched = Scheduler(enable_fuzzing=False)
    first = datetime(2026, 12, 2, 18, 30, tzinfo=UTC)
    learned = sched.review(sched.new_state("d", "c", first), Rating.EASY, first)
    # the next evening, a little earlier in the day: a review a day later, not a same-day one
    next_evening = sched.review(learned, Rating.GOOD, first + timedelta(hours=23, minutes=30))
    same_evening = sched.review(learned, Rating.GOOD, first + timedelta(hours=1))
    a_day_later = sched.review(learned, Rating.GOOD, first + timedelta(days=1))
    assert next_evening.stability == a_day_later.stability
    assert (next_evening.stability or 0) > (same_evening.stability or 0)
    assert next_evening.last_review == first + timedelta(hours=23, minutes=30)


def test_review_returns_a_new_state_and_keeps_identity() -> None:
    sched = Scheduler(enable_fuzzing=False)
    new = sched.new_state("deck", "card", T0)
    after = sched.review(new, Rating.GOOD, T0)
    assert new.last_review is None and new.stability is None
    assert (after.deck, after.card_id) == ("deck", "card")


def test_times_are_taken_in_any_zone_and_returned_in_utc() -> None:
    sched = Scheduler(enable_fuzzing=False)
    paris = timezone(timedelta(hours=1))
    local = T0.astimezone(paris)
    a = sched.review(sched.new_state("d", "c", local), Rating.GOOD, local)
    b = sched.review(sched.new_state("d", "c", T0), Rating.GOOD, T0)
    assert a == b
    assert a.due.tzinfo == UTC


def test_naive_datetimes_are_refused() -> None:
    sched = Scheduler(enable_fuzzing=False)
    with pytest.raises(ValueError, match="naive"):
        sched.new_state("d", "c", datetime(2026, 1, 1))
    state = sched.new_state("d", "c", T0)
    with pytest.raises(ValueError, match="naive"):
        sched.review(state, Rating.GOOD, datetime(2026, 1, 1))


def test_retrievability_is_zero_when_never_studied_and_decays_after() -> None:
    sched = Scheduler(enable_fuzzing=False)
    new = sched.new_state("d", "c", T0)
    assert sched.retrievability(None, T0) == 0.0
    assert sched.retrievability(new, T0) == 0.0
    learned = sched.review(sched.review(new, Rating.GOOD, T0), Rating.GOOD, T0 + timedelta(hours=1))
    stability = learned.stability or 0
    # exact elapsed time: an hour after the review it has already begun to fall
    assert 0.99 < sched.retrievability(learned, T0 + timedelta(hours=2)) < 1.0
    # by definition of stability, recall probability is 0.9 after `stability` days
    at_s = learned.last_review + timedelta(days=round(stability))  # type: ignore[operator]
    assert sched.retrievability(learned, at_s) == pytest.approx(0.9, abs=0.01)
    later = sched.retrievability(learned, T0 + timedelta(days=60))
    assert 0 < later < 0.9


def test_lower_desired_retention_gives_longer_intervals() -> None:
    def interval(retention: float) -> int:
        sched = Scheduler(retention, enable_fuzzing=False)
        state = sched.review(sched.new_state("d", "c", T0), Rating.GOOD, T0)
        state = sched.review(state, Rating.GOOD, state.due)
        return (state.due - state.last_review).days  # type: ignore[operator]

    assert interval(0.8) > interval(0.9) > interval(0.95)
    with pytest.raises(ValueError):
        Scheduler(1.5)


def test_fsrs_card_id_is_stable_and_distinct() -> None:
    assert fsrs_card_id("a", "b") == fsrs_card_id("a", "b")
    assert fsrs_card_id("a", "b") != fsrs_card_id("a", "c")
    assert 0 < fsrs_card_id("a", "b") < 2**63


def test_fuzzed_review_is_the_same_computation_as_its_preview() -> None:
    # the rating keys show `preview`; the drill then saves `review` at the same time: with fuzz
    # on, both must give the same interval, and the global random source is left as it was
    sched = Scheduler(enable_fuzzing=True)
    state = sched.review(sched.new_state("d", "c", T0), Rating.EASY, T0)
    at = state.due + timedelta(days=3)
    random.seed(7)
    before = random.getstate()
    shown = sched.preview(state, at)
    assert random.getstate() == before
    saved = {r: sched.review(state, r, at).due for r in Rating}
    assert saved == shown
    # the fuzz still spreads cards: other cards (and other times) draw other intervals
    others = {sched.review(replace(state, card_id=f"c{i}"), Rating.GOOD, at).due for i in range(30)}
    assert len(others) > 1
