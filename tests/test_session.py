"""The drill engine with an injected clock and a fake grader: queue order, daily new-card limit
across the 4 am rollover, learning-step re-asks, proposed ratings, undo, the summary."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from grill.clock import study_day
from grill.model import (
    Card,
    Deck,
    Grade,
    Library,
    Mode,
    Phase,
    Point,
    Rating,
    Rubric,
    SessionStatus,
    Verdict,
)
from grill.scheduler import Scheduler
from grill.session import Drill, DrillOptions, find_orphans, plan, propose_rating
from grill.store import Store

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, **kw: float) -> None:
        self.now += timedelta(**kw)


def _card(n: int, section: str = "A", deck: str = "d") -> Card:
    point = Point("p", "the point", ("point",))
    return Card(f"c{n}", n, section, f"question {n}?", f"answer {n}", Rubric((point,)), deck)


def _library(count: int = 6) -> Library:
    cards = tuple(_card(n, "A" if n <= count // 2 else "B") for n in range(1, count + 1))
    return Library((Deck("d", "Deck", "d.yaml", cards=cards),))


def fake_grader(card: Card, answer: str) -> Grade:
    """'right' -> correct, 'half' -> partial, anything else -> wrong."""
    verdict = {"right": Verdict.CORRECT, "half": Verdict.PARTIAL}.get(answer, Verdict.WRONG)
    points = card.rubric.points
    matched = points if verdict == Verdict.CORRECT else ()
    missed = () if verdict == Verdict.CORRECT else points
    return Grade(card.id, verdict, float(verdict) / 2, matched, missed, (), answer, card.answer)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "grill.db") as s:
        yield s


SCHED = Scheduler(enable_fuzzing=False)


def _drill(store: Store, clock: Clock, lib: Library | None = None, **opts: object) -> Drill:
    options = DrillOptions(**opts)  # type: ignore[arg-type]
    return Drill(store, SCHED, lib or _library(), options, grader=fake_grader, clock=clock)


def _answer_all(
    drill: Drill, clock: Clock, answer: str = "right", seconds: float = 30
) -> list[str]:
    """Answer every card the drill shows; returns the ids in the order shown."""
    shown = []
    while (card := drill.next_card()) is not None:
        shown.append(card.id)
        clock.tick(seconds=seconds)
        drill.submit(card, answer, int(seconds * 1000))
        assert drill.proposed is not None
        drill.rate(drill.proposed)
    return shown


def test_new_cards_come_in_deck_order_up_to_the_daily_limit(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=3)
    first = drill.next_card()
    assert first is not None and first.id == "c1"
    assert [c.id for c in drill.plan.new] == ["c1", "c2", "c3"]


def test_good_new_cards_are_re_asked_once_in_the_same_session(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=2)
    shown = _answer_all(drill, clock)
    # Good puts a new card on its 10-minute step: asked again at the end (learn-ahead), then
    # graduates; the session ends with every card in review
    assert shown == ["c1", "c2", "c1", "c2"]
    states = store.states()
    assert {k[1]: s.phase for k, s in states.items()} == {"c1": Phase.REVIEW, "c2": Phase.REVIEW}


def test_a_due_learning_card_jumps_ahead_of_the_queue(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=4)
    card = drill.next_card()
    assert card is not None
    drill.rate(Rating.AGAIN)  # step 0: due again in 1 minute
    clock.tick(seconds=30)
    assert _take(drill) == "c2"  # not yet due: the queue goes on
    clock.tick(seconds=40)
    assert _take(drill) == "c1"  # its minute is up: it comes before c3
    assert _take(drill) == "c3"


def _take(drill: Drill, rating: Rating = Rating.GOOD) -> str:
    card = drill.next_card()
    assert card is not None
    drill.rate(rating)
    return card.id


def test_the_daily_new_limit_counts_cards_introduced_earlier_that_study_day(store: Store) -> None:
    clock = Clock(T0)
    _answer_all(_drill(store, clock, new_limit=2), clock)
    clock.tick(hours=3)  # same study day: no more new cards
    later = _drill(store, clock, new_limit=2)
    assert later.plan.new_today == 2 and later.plan.new == ()
    assert later.next_card() is None


def test_the_study_day_rolls_over_at_4am_local_time(store: Store) -> None:
    # 00:30 on 3 December in UTC+1: still the study day of 2 December
    paris = datetime(2026, 12, 2, 23, 30, tzinfo=UTC).astimezone(timezone(timedelta(hours=1)))
    clock = Clock(paris)
    _answer_all(_drill(store, clock, new_limit=2), clock)
    clock.now = paris.replace(hour=3, minute=59)
    assert _drill(store, clock, new_limit=2).plan.new == ()
    clock.now = paris.replace(hour=4, minute=0)
    assert [c.id for c in _drill(store, clock, new_limit=2).plan.new] == ["c3", "c4"]


def test_due_cards_come_first_oldest_first_then_new(store: Store) -> None:
    clock = Clock(T0)
    _answer_all(_drill(store, clock, new_limit=3), clock)
    clock.tick(days=30)
    drill = _drill(store, clock, new_limit=1)
    assert [c.id for c, _ in drill.plan.due] == ["c1", "c2", "c3"]
    assert [c.id for c in drill.plan.new] == ["c4"]


def test_limit_section_and_deck_options(store: Store) -> None:
    clock = Clock(T0)
    assert [c.id for c in _drill(store, clock, new_limit=9, limit=2).plan.new] == ["c1", "c2"]
    assert [c.id for c in _drill(store, clock, new_limit=9, section="b").plan.new] == [
        "c4",
        "c5",
        "c6",
    ]
    with pytest.raises(Exception, match="no deck named 'nope'"):
        _drill(store, clock, deck="nope")


@pytest.mark.parametrize(
    ("answer", "ms", "expected"),
    [
        ("wrong", 3000, Rating.AGAIN),
        ("half", 3000, Rating.HARD),
        ("right", 25_000, Rating.GOOD),
        ("right", 9_000, Rating.EASY),
        # 100 characters take ~20 s to type: 28 s is still fast, 35 s is not
        ("right" + "x" * 95, 28_000, Rating.EASY),
        ("right" + "x" * 95, 35_000, Rating.GOOD),
    ],
)
def test_proposed_rating(answer: str, ms: int, expected: Rating) -> None:
    grade = fake_grader(_card(1), answer[:5] if answer.startswith("right") else answer)
    grade = replace(grade, answer=answer)
    assert propose_rating(grade, ms) == expected


def test_a_fast_correct_answer_that_leaves_points_out_is_good_not_easy() -> None:
    card = replace(
        _card(1), rubric=Rubric(tuple(Point(f"p{i}", f"point {i}", ("x",)) for i in range(5)))
    )
    short = Grade(
        "c1",
        Verdict.CORRECT,
        0.4,
        card.rubric.points[:2],
        card.rubric.points[2:],
        (),
        "overfitting, use early stopping",
        card.answer,
    )
    assert propose_rating(short, 3_000) == Rating.GOOD
    complete = replace(short, matched=card.rubric.points, missed=())
    assert propose_rating(complete, 3_000) == Rating.EASY


def test_submit_grades_but_writes_nothing_until_rate(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock)
    card = drill.next_card()
    assert card is not None
    grade = drill.submit(card, "half", 12_000)
    assert grade.verdict == Verdict.PARTIAL and drill.proposed == Rating.HARD
    assert store.history("d", "c1") == []
    review = drill.rate(Rating.GOOD)  # the user overrides the proposal
    assert (review.rating, review.verdict, review.answer, review.response_ms) == (
        Rating.GOOD,
        Verdict.PARTIAL,
        "half",
        12_000,
    )
    assert store.history("d", "c1") == [review]


def test_undo_takes_back_the_last_review_and_asks_that_card_again(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock)
    assert _take(drill, Rating.EASY) == "c1"
    assert drill.next_card() is not None  # c2 on screen
    undone = drill.undo()
    assert undone is not None and undone.card_id == "c1"
    assert store.state("d", "c1") is None
    assert [_take(drill), _take(drill)] == ["c1", "c2"]
    # undo never reaches beyond this session
    other = _drill(store, clock)
    assert other.undo() is None


def test_undo_on_the_first_card_drops_its_graded_answer_so_nothing_is_saved(
    store: Store,
) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock)
    card = drill.next_card()
    assert card is not None
    drill.submit(card, "half", 5_000)
    assert drill.undo() is None  # nothing saved in this session yet
    assert drill.pending is None and drill.next_card() == card
    drill.finish(SessionStatus.INTERRUPTED)
    assert store.reviews() == []  # the undone answer is not saved on the way out


def test_a_learning_card_asked_ahead_of_its_step_says_how_early(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=1)
    assert _take(drill) == "c1"  # Good: due again in 10 minutes
    clock.tick(seconds=15)
    assert drill.next_card() is not None
    assert drill.early == timedelta(minutes=10) - timedelta(seconds=15)
    drill.rate(Rating.GOOD)
    assert drill.early is None


def test_finish_keeps_a_graded_answer_and_stores_the_summary(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=3)
    _take(drill, Rating.AGAIN)
    card = drill.next_card()
    assert card is not None
    clock.tick(seconds=20)
    drill.submit(card, "right", 20_000)  # interrupted before rating: the answer must not be lost
    summary = drill.finish(SessionStatus.INTERRUPTED)
    assert [r.card_id for r in store.reviews()] == ["c1", "c2"]
    assert summary.reviews == 2 and summary.new_cards == 2
    assert summary.by_rating == {Rating.AGAIN: 1, Rating.GOOD: 1}
    assert summary.by_verdict == {Verdict.CORRECT: 1} and summary.ungraded == 1
    assert summary.seconds == 20.0
    assert summary.left == 3  # c3 queued, c1 and c2 on learning steps
    assert summary.next_due == T0 + timedelta(minutes=1)
    [record] = store.sessions(Mode.DRILL)
    assert record.status == SessionStatus.INTERRUPTED and record.summary["reviews"] == 2
    assert drill.finish() is summary and drill.next_card() is None


def test_a_session_with_nothing_to_do_writes_no_session(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=0)
    assert drill.next_card() is None
    summary = drill.finish()
    assert summary.reviews == 0 and store.sessions() == []
    assert summary.new_tomorrow == 0


def test_summary_looks_ahead_to_tomorrow(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock, new_limit=2)
    _answer_all(drill, clock)
    summary = drill.finish()
    assert summary.new_tomorrow == 2  # 4 cards never seen, limit 2
    assert summary.due_tomorrow == 0
    assert summary.next_due is not None and summary.next_due > clock.now + timedelta(days=1)


def test_orphans_are_found_against_the_library(store: Store) -> None:
    clock = Clock(T0)
    _answer_all(_drill(store, clock, new_limit=2), clock)
    smaller = Library((Deck("d", "Deck", "d.yaml", cards=(_card(2),)),))
    assert [o.card_id for o in find_orphans(store, smaller)] == ["c1"]


def test_the_plan_counts_orphans_with_state_and_with_log_only_reviews(store: Store) -> None:
    clock = Clock(T0)
    _answer_all(_drill(store, clock, new_limit=3), clock)  # c1-c3 get a state
    store.record_review("d", "c6", reviewed_at=T0, rating=Rating.GOOD, schedule=None)
    assert plan(store, _library(), DrillOptions(), clock.now).orphans == 0
    smaller = Library((Deck("d", "Deck", "d.yaml", cards=(_card(2), _card(4))),))
    assert plan(store, smaller, DrillOptions(), clock.now).orphans == 3  # c1, c3; c6 in the log
    assert [o.card_id for o in find_orphans(store, smaller)] == ["c1", "c3", "c6"]


def test_an_edited_card_keeps_its_state_and_history(store: Store) -> None:
    clock = Clock(T0)
    _answer_all(_drill(store, clock, new_limit=1), clock)
    edited = replace(_card(1), question="question 1, reworded?")
    lib = Library((Deck("d", "Deck", "d.yaml", cards=(edited,)),))
    clock.tick(days=60)
    drill = _drill(store, clock, lib)
    assert [c.id for c, _ in drill.plan.due] == ["c1"]
    _take(drill)
    hashes = [r.content_hash for r in store.history("d", "c1")]
    assert hashes[0] == _card(1).content_hash and hashes[-1] == edited.content_hash
    assert hashes[0] != hashes[-1]


def test_plan_is_the_same_queue_the_drill_uses(store: Store) -> None:
    got = plan(store, _library(), DrillOptions(new_limit=2), T0)
    assert [c.id for c in got.new] == ["c1", "c2"] and got.due == ()


def test_dues_preview_each_rating_for_the_current_card(store: Store) -> None:
    clock = Clock(T0)
    drill = _drill(store, clock)
    assert drill.dues() == {}
    drill.next_card()
    shown = drill.dues()
    assert shown[Rating.AGAIN] - T0 == timedelta(minutes=1)
    assert shown[Rating.GOOD] - T0 == timedelta(minutes=10)
    assert shown[Rating.EASY] - T0 > timedelta(hours=12)
    assert shown[Rating.EASY] == study_day(shown[Rating.EASY])  # a review is due by the day


def test_a_card_shown_but_not_answered_counts_as_left(store: Store) -> None:
    drill = _drill(store, Clock(T0), new_limit=1)
    assert drill.next_card() is not None
    summary = drill.finish(SessionStatus.INTERRUPTED)
    assert (summary.reviews, summary.left) == (0, 1)


def test_the_interval_saved_is_the_one_shown_on_the_rating_keys(store: Store) -> None:
    clock = Clock(T0)
    fuzzed = Scheduler(enable_fuzzing=True)
    lib = _library()
    first = Drill(store, fuzzed, lib, DrillOptions(new_limit=6), grader=fake_grader, clock=clock)
    _answer_all(first, clock)
    clock.tick(days=30)
    drill = Drill(store, fuzzed, lib, grader=fake_grader, clock=clock)
    for _ in range(6):
        card = drill.next_card()
        assert card is not None
        shown = drill.dues()
        clock.tick(seconds=40)  # the person reads the feedback, then presses a key
        review = drill.rate(Rating.GOOD)
        assert review.after is not None
        assert review.after.due == shown[Rating.GOOD]
        assert shown[Rating.GOOD] - review.reviewed_at > timedelta(days=3)
