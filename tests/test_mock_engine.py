"""The mock-interview engine: order, time limits on an injected clock, auto-submit, scoring."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from fakes import FakeClock, fake_grade
from grill.deck import load_library
from grill.errors import UsageError
from grill.grader import grade
from grill.mock import (
    ABORTED,
    COMPLETED,
    MockAnswer,
    MockOptions,
    MockPlan,
    MockResult,
    MockRun,
    Question,
    full_target,
    grade_ticks,
    plan_mock,
    scale,
    score_mock,
    tick_verdict,
)
from grill.model import Card, Deck, Point, Rubric, Verdict

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


@dataclass
class ListRecorder:
    events: list[tuple[str, object]] = field(default_factory=list)

    def begin(self, plan: MockPlan, started_at: datetime) -> None:
        self.events.append(("begin", len(plan.questions)))

    def answer(self, answer: MockAnswer) -> None:
        self.events.append(("answer", answer.question.card.id))

    def finish(self, result: MockResult, ended_at: datetime) -> None:
        self.events.append(("finish", result.status))


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_library().deck("training-behaviors")


def plan(deck: Deck, **options: object) -> MockPlan:
    return plan_mock(
        deck,
        MockOptions(**options),  # type: ignore[arg-type]
        per_question_seconds=60,
        quick_fire_seconds=20,
        target=28,
    )


def run_of(p: MockPlan, clock: FakeClock, recorder: ListRecorder | None = None) -> MockRun:
    return MockRun(p, clock=clock, now=lambda: NOW, grader=fake_grade, recorder=recorder)


# ------------------------------------------------------------------------------------- order


def test_all_cards_by_default_in_a_repeatable_shuffled_order(deck: Deck) -> None:
    first = [q.card.n for q in plan(deck, seed=7).questions]
    assert sorted(first) == list(range(1, 46))
    assert first != list(range(1, 46))
    assert [q.card.n for q in plan(deck, seed=7).questions] == first
    assert [q.card.n for q in plan(deck, seed=8).questions] != first


def test_count_and_section_narrow_the_questions(deck: Deck) -> None:
    assert len(plan(deck, seed=1, count=10).questions) == 10
    section_b = plan(deck, seed=1, section="b").questions
    assert sorted(q.card.n for q in section_b) == [7, 8, 9, 10, 11, 12]
    assert len(plan(deck, seed=1, section="B", count=2).questions) == 2


def test_bad_options_are_usage_errors(deck: Deck) -> None:
    with pytest.raises(UsageError, match="no section 'Z'") as raised:
        plan(deck, section="Z")
    # the sections as a person reads them, not a Python list
    assert "(sections: A Loss curves, B Learning rate, C Batch size," in str(raised.value)
    assert "[" not in str(raised.value)
    with pytest.raises(UsageError, match="--count"):
        plan(deck, count=0)
    with pytest.raises(UsageError, match="--total"):
        plan(deck, total_minutes=0)


# ------------------------------------------------------------------------------------- limits


def limits(p: MockPlan) -> dict[int, int]:
    return {q.card.n: q.seconds for q in p.questions}


def test_quick_fire_cards_get_the_short_limit(deck: Deck) -> None:
    got = limits(plan(deck, seed=1))
    assert {got[n] for n in range(1, 36)} == {60}
    assert {got[n] for n in range(36, 46)} == {20}


def test_per_question_replaces_the_default_and_caps_quick_fire(deck: Deck) -> None:
    longer = limits(plan(deck, seed=1, per_question=90))
    assert longer[1] == 90 and longer[40] == 20
    shorter = limits(plan(deck, seed=1, per_question=3))
    assert shorter[1] == 3 and shorter[40] == 3


# ------------------------------------------------------------------------------------- timing


def test_the_countdown_follows_the_injected_clock(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A"), clock)
    timer = run.start()
    assert timer.remaining() == 60
    clock.advance(42.5)
    assert timer.remaining() == 17.5 and not timer.expired
    clock.advance(17.5)
    assert timer.remaining() == 0 and timer.expired


def test_an_answer_in_time_records_its_seconds(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A"), clock)
    run.start()
    clock.advance(12)
    answer = run.submit("right")
    assert (answer.seconds, answer.timed_out, answer.grade.verdict) == (12, False, Verdict.CORRECT)
    assert answer.question.index == 0 and run.current is not None and run.current.index == 1


def test_auto_submit_at_zero_keeps_what_was_typed(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A", per_question=5), clock)
    run.start()
    clock.advance(5)
    answer = run.submit("right")
    assert answer.timed_out and answer.seconds == 5
    assert answer.text == "right" and answer.grade.verdict == Verdict.CORRECT


def test_a_late_answer_counts_but_is_clamped_to_the_limit(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A", per_question=5), clock)
    run.start()
    clock.advance(9)
    answer = run.submit("half")
    assert answer.seconds == 5 and answer.timed_out and answer.grade.verdict == Verdict.PARTIAL


def test_the_total_limit_cuts_questions_and_ends_the_mock(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A", total_minutes=1.5), clock)
    assert run.start().seconds == 60
    clock.advance(50)
    run.submit("right")
    assert run.start().seconds == 40  # the 40 s of the interview left
    clock.advance(40)
    run.submit("right")
    assert run.out_of_time and run.current is None
    result = run.finish()
    assert result.status == COMPLETED
    assert (result.asked, result.answered, result.correct, result.not_reached) == (6, 2, 2, 4)
    assert sum(1 for m in result.misses if not m.reached) == 4


def test_submitting_without_starting_the_clock_is_a_bug(deck: Deck) -> None:
    run = run_of(plan(deck, seed=1, section="A"), FakeClock())
    with pytest.raises(RuntimeError):
        run.submit("right")


# ------------------------------------------------------------------------------------- scoring

# Hand-computed: correct 1-12 and 16-30 (27 cards), partial 13 and 14, wrong 15 and 31-45.
CORRECT = set(range(1, 13)) | set(range(16, 31))
PARTIAL = {13, 14}


def full_mock(deck: Deck, recorder: ListRecorder | None = None) -> MockResult:
    clock = FakeClock()
    run = run_of(plan(deck, seed=3), clock, recorder)
    while (q := run.current) is not None:
        run.start()
        clock.advance(10)
        n = q.card.n
        run.submit("right" if n in CORRECT else "half" if n in PARTIAL else "no idea")
    return run.finish()


def test_score_against_target_and_floor(deck: Deck) -> None:
    result = full_mock(deck)
    assert (result.correct, result.partial, result.wrong, result.asked) == (27, 2, 16, 45)
    assert (result.target, result.floor, result.scaled) == (28, 24, False)
    assert result.passed is False and result.above_floor is True
    assert result.seconds_used == 450


def test_section_breakdown(deck: Deck) -> None:
    rows = {s.key: (s.asked, s.correct, s.partial, s.wrong) for s in full_mock(deck).sections}
    assert rows == {
        "A": (6, 6, 0, 0),
        "B": (6, 6, 0, 0),
        "C": (5, 2, 2, 1),
        "D": (5, 5, 0, 0),
        "E": (5, 5, 0, 0),
        "F": (3, 3, 0, 0),
        "G": (5, 0, 0, 5),
        "Q": (10, 0, 0, 10),
    }


def test_tier_breakdown_gives_the_seed_verdict_only_where_cards_were_missed(deck: Deck) -> None:
    tiers = {t.name: t for t in full_mock(deck).tiers}
    assert (tiers["1-15"].asked, tiers["1-15"].correct, tiers["1-15"].missed) == (15, 12, 3)
    assert (
        tiers["1-15"].verdict == "If you can’t answer 1-15, you don’t understand training dynamics."
    )
    assert (tiers["16-30"].correct, tiers["16-30"].verdict) == (15, None)
    assert tiers["31-45"].correct == 0
    assert tiers["31-45"].verdict is not None and "frontier-lab" in tiers["31-45"].verdict


def test_misses_carry_the_short_answer(deck: Deck) -> None:
    misses = full_mock(deck).misses
    assert sorted(m.card.n for m in misses) == [13, 14, 15, *range(31, 46)]
    by_n = {m.card.n: m for m in misses}
    assert by_n[42].card.answer == "1.0." and by_n[42].answer == "no idea"
    assert by_n[13].verdict == Verdict.PARTIAL


def test_one_more_correct_passes(deck: Deck) -> None:
    CORRECT.add(31)
    try:
        result = full_mock(deck)
    finally:
        CORRECT.discard(31)
    assert result.correct == 28 and result.passed is True


def test_fewer_cards_scale_target_and_floor(deck: Deck) -> None:
    assert scale(28, 10, 45) == 7  # 6.2 -> 7
    assert scale(24, 10, 45) == 6  # 5.3 -> 6
    assert scale(24, 15, 45) == 8  # exactly 8
    assert scale(28, 6, 45) == 4
    assert scale(28, 45, 45) == 28
    p = plan(deck, seed=2, count=10)
    answers = [
        MockAnswer(q, "right", fake_grade(q.card, "right"), 5, 60, False, NOW)
        for q in p.questions[:7]
    ]
    result = score_mock(p, answers)
    assert (result.asked, result.target, result.floor, result.scaled) == (10, 7, 6, True)
    assert result.correct == 7 and result.passed is True
    assert result.full_target == 28 and result.full_floor == 24


def test_the_users_target_setting_applies_to_the_builtin_deck(deck: Deck) -> None:
    assert full_target(deck, 30) == 30
    mine = Deck(name="mine", title="Mine", path="x.yaml", target=5)
    assert full_target(mine, 28) == 5


# ------------------------------------------------------------------------------------- abort


def test_an_aborted_mock_keeps_the_answers_given(deck: Deck) -> None:
    clock = FakeClock()
    recorder = ListRecorder()
    run = run_of(plan(deck, seed=1, count=5), clock, recorder)
    for text in ("right", "no"):
        run.start()
        clock.advance(3)
        run.submit(text)
    run.start()
    result = run.finish(ABORTED)
    assert (result.status, result.asked, result.answered, result.correct) == (ABORTED, 2, 2, 1)
    assert result.passed is None and result.above_floor is None
    assert [e[0] for e in recorder.events] == ["begin", "answer", "answer", "finish"]
    assert recorder.events[-1] == ("finish", ABORTED)
    assert run.finish(COMPLETED) is result  # finishing twice changes nothing


# ------------------------------------------------------------------------------------- spoken


def card_with(points: int, **rubric: object) -> Card:
    pts = tuple(Point(f"p{i}", f"point {i}", (f"p{i}",)) for i in range(1, points + 1))
    return Card("c", 1, "A", "Q?", "A.", Rubric(points=pts, **rubric), "d")  # type: ignore[arg-type]


def test_ticks_and_typed_answers_share_one_verdict_policy() -> None:
    """The mock's tick grading calls the grader's verdict policy: the same points, same verdict."""
    for n in range(1, 8):
        card = card_with(n)
        for k in range(n + 1):
            ids = [f"p{i}" for i in range(1, k + 1)]
            typed = grade(card, " and ".join(ids) or "nothing here").verdict
            assert tick_verdict(card.rubric, ids) == typed, (n, k)


def test_ticks_set_the_verdict_by_the_rubric_thresholds() -> None:
    four = card_with(4)
    assert grade_ticks(four, ["p1", "p3"]).verdict == Verdict.CORRECT
    assert grade_ticks(four, ["p1"]).verdict == Verdict.PARTIAL
    assert grade_ticks(four, []).verdict == Verdict.WRONG
    assert grade_ticks(four, ["nope"]).verdict == Verdict.WRONG
    strict = card_with(3, correct=3, partial=2)
    assert tick_verdict(strict.rubric, ["p1", "p2"]) == Verdict.PARTIAL
    assert tick_verdict(strict.rubric, ["p1"]) == Verdict.WRONG
    needs = card_with(3, requires=("p3",))
    assert tick_verdict(needs.rubric, ["p1", "p2"]) == Verdict.PARTIAL
    assert tick_verdict(needs.rubric, ["p1", "p3"]) == Verdict.CORRECT


def test_a_spoken_answer_is_graded_by_its_ticks_and_timed_when_speaking_stopped(deck: Deck) -> None:
    clock = FakeClock()
    run = run_of(plan(deck, seed=1, section="A", spoken=True), clock)
    question = run.current
    assert isinstance(question, Question)
    run.start()
    clock.advance(20)
    spoke_for = run.timer.elapsed() if run.timer else 0
    clock.advance(30)  # ticking the checklist does not count against the answer
    ids = [p.id for p in question.card.rubric.points]
    answer = run.submit_ticks(ids, seconds=spoke_for)
    assert answer.grade.verdict == Verdict.CORRECT and answer.ticked == tuple(ids)
    assert answer.seconds == 20 and not answer.timed_out
