"""The study simulator: its learners and schedules behave as specified, runs are seeded, and the
projection of the user's plan meets every card before the day."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from grill.model import CardState, Phase, Rating
from grill.scheduler import Scheduler
from grill.simulate import (
    FRESH_MODELS,
    LATER_MODELS,
    START,
    ExpMemory,
    FastMemory,
    FsrsMemory,
    Memory,
    PersonalPolicy,
    Scenario,
    Sm2Policy,
    carried,
    format_result,
    main,
    project,
    run,
    spread_over,
)


def test_the_average_fsrs_learner_forgets_as_the_scheduler_predicts() -> None:
    memory = FsrsMemory(None, 1)
    memory.study(0, 0.0, True, Rating.GOOD)
    sched = Scheduler(enable_fuzzing=False)
    state = sched.review(sched.new_state("d", "c", START), Rating.GOOD, START)
    for days in (1, 3, 10):
        expected = sched.retrievability(state, START + timedelta(days=days))
        assert memory.chance(0, float(days)) == pytest.approx(expected, rel=1e-9)


def test_an_fsrs_learner_counts_the_next_evening_as_a_day_later() -> None:
    evening = 18 / 24  # days since START: sessions are at 18:00
    grown = {}
    for label, later in (("next evening, earlier", 1 + evening - 0.02), ("same evening", 0.9)):
        memory = FsrsMemory(None, 1)
        memory.study(0, evening, True, Rating.GOOD)
        memory.study(0, later, True, Rating.GOOD)
        grown[label] = memory.s[0]
    # FSRS counts days in study days: the next evening is a long-term review even 23.5 hours on
    assert grown["next evening, earlier"] > 2 * grown["same evening"]


def test_exponential_learners_forget_harder_cards_faster() -> None:
    memory = ExpMemory(random.Random(3), 2)
    memory.difficulty = [0.5, 2.0]
    for card in (0, 1):
        memory.study(card, 0.0, True, Rating.GOOD)
    assert memory.chance(0, 2.0) > memory.chance(1, 2.0) > 0
    before = memory.h[0]
    memory.study(0, 3.0, True, Rating.GOOD)
    assert memory.h[0] > before  # a successful review lengthens memory


def test_sm2_follows_ankis_default_intervals() -> None:
    sm2 = Sm2Policy(Scenario())
    at = START + timedelta(hours=18)
    assert sm2.answer(0, Rating.GOOD, at) == at + timedelta(minutes=10)  # second step
    assert sm2.answer(0, Rating.GOOD, at + timedelta(minutes=10)) is None  # graduates: 1 day
    intervals = []
    for _ in range(3):
        card = sm2.cards[0]
        at = card.due + timedelta(hours=18)
        sm2.answer(0, Rating.GOOD, at)
        intervals.append(sm2.cards[0].interval)
    assert intervals == [3, 8, 20]  # 1 x 2.5, 3 x 2.5, 8 x 2.5, rounded
    sm2.answer(0, Rating.AGAIN, sm2.cards[0].due)
    assert sm2.cards[0].ease == pytest.approx(2.3)


SMALL = Scenario(cards=12, days=5, target=7, new_per_day=6, learners=2, caps=(6, None))


def test_runs_are_seeded_and_report_every_schedule() -> None:
    first, again = run(SMALL), run(SMALL)
    assert first == again
    assert {(c.policy, c.memory) for c in first.curves} == {
        (p, m) for p in ("grill", "fsrs", "sm2", "fixed") for m in ("fsrs", "exp", "fast", "slow")
    }
    for curve in first.curves:
        capped, free = curve.points
        assert capped[1] <= 6 * SMALL.days  # the cap holds
        assert 0 <= curve.uncapped[1] <= SMALL.cards
    text = format_result(first)
    for word in ("grill", "fsrs", "sm2", "fixed", "Goal 1", "Goal 2", "memory model: exp"):
        assert word in text
    assert run(Scenario(**{**SMALL.__dict__, "seed": 2})) != first


def test_curve_interpolation_and_reviews_to_target() -> None:
    result = run(SMALL)
    curve = result.curve("fsrs", "fsrs")
    (_, r0, s0, _), (_, r1, s1, _) = sorted(curve.points, key=lambda p: p[1])
    assert curve.score_at((r0 + r1) / 2) == pytest.approx((s0 + s1) / 2)
    need = curve.reviews_for(s0)
    assert need is not None and need == pytest.approx(r0)
    assert curve.reviews_for(SMALL.cards + 1) is None


def test_projection_meets_every_card_before_the_interview() -> None:
    now = datetime(2026, 12, 2, 18, tzinfo=UTC)
    interview = datetime(2026, 12, 9, 9, tzinfo=UTC)
    result = project([None] * 20, interview, now, target=12, per_day=5, runs=4)
    assert [d.day.isoformat() for d in result.days][0] == "2026-12-02"
    assert result.days[-1].day.isoformat() == "2026-12-08"
    assert sum(d.new for d in result.days) == 20
    assert all(d.reviews >= d.cards >= d.new for d in result.days)
    assert 12 < result.expected <= 20
    assert 0 < result.p_target <= 1


def test_a_projection_carries_the_doubt_about_how_fast_the_person_forgets() -> None:
    """Each run's learner forgets on its own time scale, drawn from what is known: a spread of
    time scales spreads the runs' scores, and a learner known to forget five times as fast as
    the parameters say is projected lower, from its own memory's recall on the day."""
    now = datetime(2026, 12, 2, 18, tzinfo=UTC)
    interview = datetime(2026, 12, 9, 9, tzinfo=UTC)
    args = ([None] * 20, interview, now)
    sure = project(*args, target=12, per_day=5, runs=6)
    fast = project(*args, target=12, per_day=5, runs=6, time_scales=((0.2, 1.0),))
    doubt = project(*args, target=12, per_day=5, runs=6, time_scales=((0.2, 0.5), (1.0, 0.5)))
    assert fast.expected < sure.expected - 1
    assert sure.low is not None and sure.high is not None and sure.high - sure.low < 1
    assert doubt.low is not None and doubt.high is not None
    assert doubt.low < fast.high + 0.5 and doubt.high > sure.low - 0.5
    assert doubt.high - doubt.low > 2 * (sure.high - sure.low) + 1
    assert doubt.interval.startswith("80%: ")
    assert list(doubt.scores) == sorted(doubt.scores) and len(doubt.scores) == 6
    assert project(*args, target=12, per_day=5, runs=4).interval == ""  # too few runs


def test_time_scales_are_spread_by_their_weights() -> None:
    assert spread_over([1.0], 3) == [0, 0, 0]
    assert spread_over([0.75, 0.25], 4) == [0, 0, 0, 1]
    assert spread_over([0.0, 0.0], 2) == [0, 0]


def test_the_gain_of_study_is_carried_onto_the_persons_own_forecast() -> None:
    assert carried(0.3, 0.6, 0.6) == pytest.approx(0.3)  # no study: the person's own chance
    assert carried(0.3, 0.5, 0.9) == pytest.approx(0.3 + 0.8 * 0.7)  # 80% of the gap closed
    assert carried(0.02, 0.3, 0.95) > 0.9  # re-taught, however far it had gone
    assert carried(0.4, 0.8, 0.6) == pytest.approx(0.3)  # recall fell by a quarter
    assert carried(0.0, 0.0, 0.8) == 0.8  # never studied: the simulated learner's


def test_following_the_plan_is_read_on_the_persons_own_memory() -> None:
    """With `baselines`, each run's score is the person's own forecast plus what the plan's
    study adds: nothing left to study gives the forecast itself, and a person whose own
    forecast is low is projected lower than the simulated learner alone."""
    first = datetime(2026, 12, 1, 18, tzinfo=UTC)
    due = first + timedelta(days=3)
    states = [CardState("d", str(i), Phase.REVIEW, None, 3.0, 5.0, due, first) for i in range(6)]
    low = [(1.0, [0.2] * 6)]
    interview = datetime(2026, 12, 9, 9, tzinfo=UTC)
    on_the_day = datetime(2026, 12, 9, 8, tzinfo=UTC)  # the interview's study day: no session
    args = {"target": 4, "per_day": 5, "runs": 5}
    assert project(states, interview, on_the_day, baselines=low, **args).expected == (
        pytest.approx(6 * 0.2)
    )
    now = datetime(2026, 12, 2, 18, tzinfo=UTC)
    alone = project(states, interview, now, **args)
    read = project(states, interview, now, baselines=low, **args)
    assert 6 * 0.2 < read.expected < alone.expected


def test_a_run_reports_its_progress_step_by_step() -> None:
    steps: list[str] = []
    run(SMALL, progress=steps.append)
    assert steps == [
        f"{p} on {m} learners"
        for m in ("fsrs", "exp", "fast", "slow")
        for p in ("grill", "fsrs", "sm2", "fixed")
    ]


def test_the_fast_and_slow_learners_forget_as_named() -> None:
    import random

    from grill.model import Rating
    from grill.simulate import memory_of

    def half_life(kind: str) -> float:
        memory = memory_of(kind, random.Random(0), 1)
        memory.study(0, 0.0, True, Rating.GOOD)
        t = 0.0
        while memory.chance(0, t) > 0.5:
            t += 0.01
        return t

    assert half_life("fast") < 1.0 < half_life("fsrs") < half_life("slow")


def test_grills_schedule_refits_the_learners_own_parameters_each_day() -> None:
    # a fast forgetter studying a week through grill's drill, then its policy's scheduler
    scenario = Scenario(cards=20, days=7, learners=1, seed=3)
    memory = FastMemory(random.Random(3), scenario.cards)
    policy = PersonalPolicy(0.9, 10, scenario.interview)
    answers = random.Random(4)
    for day in range(scenario.days):
        now = START + timedelta(days=day, hours=18)
        for card in policy.queue(now, [c for c in range(scenario.cards) if c not in memory.h]):
            at = (now - START).total_seconds() / 86400
            recalled = answers.random() < memory.chance(card, at)
            rating = Rating.GOOD if recalled else Rating.AGAIN
            memory.study(card, at, recalled, rating)
            policy.answer(card, rating, now)
    fitted, default = policy.scheduler.parameters, Scheduler().parameters
    assert fitted != default
    # fitted to a fast forgetter: a card first rated good is given less time than by default
    assert fitted[2] < default[2]


def _learned(kind: str, looks: Sequence[float], seed: int = 0) -> Memory:
    from grill.simulate import memory_of

    memory = memory_of(kind, random.Random(seed), 1)
    for at in looks:
        memory.study(0, at, True, Rating.GOOD)
    return memory


@pytest.mark.parametrize("kind", FRESH_MODELS + LATER_MODELS)
def test_every_fresh_memory_forgets_with_time_and_keeps_more_after_spaced_recall(
    kind: str,
) -> None:
    once, twice = _learned(kind, [0.0]), _learned(kind, [0.0, 2.0])
    assert 0 < once.chance(0, 5.0) < once.chance(0, 1.0) < 1
    assert twice.chance(0, 5.0) > once.chance(0, 5.0)


def test_actr_memory_rewards_spacing_over_massing() -> None:
    # the same three looks, massed in one evening or spread over days: a week after the last,
    # the spread ones are kept better (the spacing effect ACT-R's decay builds in)
    massed = _learned("actr", [4.0, 4.01, 4.02])
    spaced = _learned("actr", [0.0, 2.0, 4.0])
    assert spaced.chance(0, 11.0) > massed.chance(0, 11.0)


def test_a_leech_learners_cards_differ_far_more_than_fsrs_difficulty_allows() -> None:
    from grill.simulate import LeechMemory

    memory = LeechMemory(random.Random(5), 60)
    for card in range(60):
        memory.study(card, 0.0, True, Rating.GOOD)
    # the same first look, three days on: a third of the cards are far behind the rest
    chances = sorted(memory.chance(card, 3.0) for card in range(60))
    leeches = [p for p in chances if p < chances[-1] - 0.1]
    assert 10 <= len(leeches) <= 30 and max(leeches) < 0.8 < chances[-1]


def test_a_decay_learners_curves_agree_at_their_stability_and_part_after_it() -> None:
    from grill.simulate import DecayMemory

    decays, tails = [], []
    for seed in range(40):
        memory = DecayMemory(random.Random(seed), 1)
        memory.study(0, 0.0, True, Rating.GOOD)
        s = memory.s[0]
        assert memory.chance(0, s) == pytest.approx(0.9)
        decays.append(memory.decay)
        tails.append((memory.decay, memory.chance(0, 10 * s)))
    # the curve's shape varies between FSRS-6's and FSRS-4.5's, and a larger decay keeps less
    # of the card ten stabilities on
    assert min(decays) < 0.15 and max(decays) > 0.4
    tails.sort()
    assert tails[0][1] > tails[-1][1]


def test_the_simulator_runs_the_fresh_memory_models_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--cards", "6", "--days", "3", "--learners", "1", "--target", "3", "--new", "3"]
    main([*argv, "--memory", "actr", "--memory", "weibull"])
    text = capsys.readouterr().out
    assert "memory model: actr" in text and "memory model: weibull" in text
    assert "memory model: fsrs" not in text
