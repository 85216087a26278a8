"""Planning toward an interview date: due dates pulled in before the day, the new-card pace,
the day's order, and the drill's queue shaped by them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grill.cli import app
from grill.config import set_setting
from grill.deck import load_library
from grill.memory.forecast import SETTLED_DAYS
from grill.model import Card, CardState, Deck, Library, Phase, Point, Rating, Rubric
from grill.plan import Deadline, interview_moment
from grill.scheduler import Scheduler
from grill.session import Drill, DrillOptions, record_answer
from grill.session import plan as drill_plan
from grill.simulate import project
from grill.store import Store

SCHED = Scheduler(enable_fuzzing=False)
INTERVIEW = datetime(2026, 12, 16, 9, 0, tzinfo=UTC)
DEADLINE = Deadline(INTERVIEW, SCHED)


def _review_state(card_id: str, stability: float, last: datetime, due: datetime) -> CardState:
    return CardState("d", card_id, Phase.REVIEW, None, stability, 5.0, due, last)


def test_the_interview_is_at_nine_local_time() -> None:
    tz = timezone(timedelta(hours=2))
    assert interview_moment(date(2026, 12, 16), tz).isoformat() == "2026-12-16T09:00:00+02:00"
    assert Deadline.on(None, INTERVIEW, SCHED) is None
    on = Deadline.on(date(2026, 12, 16), datetime(2026, 12, 1, 20, tzinfo=tz), SCHED)
    assert on is not None and on.at == interview_moment(date(2026, 12, 16), tz)
    assert DEADLINE.last_day == datetime(2026, 12, 15, 4, 0, tzinfo=UTC)


def test_a_review_due_after_the_date_is_pulled_in_when_recall_on_the_day_would_be_low() -> None:
    now = datetime(2026, 12, 10, 18, tzinfo=UTC)
    weak = _review_state("weak", 3.0, now - timedelta(days=1), now + timedelta(days=9))
    strong = _review_state("strong", 200.0, now - timedelta(days=1), now + timedelta(days=60))
    soon = _review_state("soon", 3.0, now - timedelta(days=2), now + timedelta(days=1))
    assert DEADLINE.recall(weak) < 0.95 < DEADLINE.recall(strong)
    adjusted = DEADLINE.adjust_due({"w": weak, "s": strong, "n": soon}, now)
    assert adjusted["w"].due == DEADLINE.last_day
    assert adjusted["s"] == strong  # recall on the day already high: keeps its FSRS due
    assert adjusted["n"] == soon  # already due before the last day


def test_a_card_that_would_wait_a_week_for_the_last_day_is_checked_halfway() -> None:
    now = datetime(2026, 12, 5, 18, tzinfo=UTC)
    last = datetime(2026, 12, 5, 4, tzinfo=UTC)  # ten days before the last day
    weak = _review_state("weak", 5.0, last, now + timedelta(days=14))
    assert DEADLINE.recall(weak) < 0.95
    halfway = DEADLINE.adjust_due({"w": weak}, now)["w"].due
    assert halfway == datetime(2026, 12, 10, 4, tzinfo=UTC)
    # checked then, it waits for the last day: another halfway would be under CHECK_IN_DAYS
    checked = _review_state("weak", 5.0, halfway, halfway + timedelta(days=12))
    assert DEADLINE.recall(checked) < 0.95
    assert DEADLINE.adjust_due({"w": checked}, halfway)["w"].due == DEADLINE.last_day
    strong = _review_state("strong", 400.0, last, now + timedelta(days=90))
    assert DEADLINE.adjust_due({"s": strong}, now)["s"] == strong  # high recall on the day


def test_cards_in_a_learning_step_and_plans_past_the_date_are_left_alone() -> None:
    now = datetime(2026, 12, 15, 18, tzinfo=UTC)
    learning = CardState("d", "l", Phase.LEARNING, 1, 0.2, 5.0, now + timedelta(minutes=10), now)
    assert DEADLINE.adjust_due({"l": learning}, now)["l"] == learning
    weak = _review_state("weak", 3.0, now - timedelta(days=1), now + timedelta(days=9))
    after = INTERVIEW + timedelta(hours=1)
    assert DEADLINE.adjust_due({"w": weak}, after)["w"] == weak


def test_new_cards_are_paced_to_be_all_met_two_days_before() -> None:
    start = datetime(2026, 12, 2, 9, tzinfo=UTC)  # 14 study days before the 16th
    assert DEADLINE.new_pace(45, start) == 4  # ceil(45 / 13)
    assert DEADLINE.new_limit(45, start, 15) == 15  # the usual limit is higher
    eve = datetime(2026, 12, 15, 20, tzinfo=UTC)
    assert DEADLINE.new_pace(45, eve) == 45  # the last evening: everything left
    assert DEADLINE.new_limit(45, eve, 15) == 45
    assert DEADLINE.new_pace(0, start) == 0
    assert DEADLINE.new_limit(45, INTERVIEW + timedelta(days=1), 15) == 15


def test_in_the_last_days_the_lowest_recall_on_the_day_comes_first() -> None:
    now = datetime(2026, 12, 15, 18, tzinfo=UTC)
    states = [
        _review_state(f"s{stab}", float(stab), now - timedelta(days=3), now)
        for stab in (50, 2, 10, 5)
    ]
    first, ranked, rest = DEADLINE.order(states, ["n1", "n2", "n3"], now, pace=2)
    assert first == ["n1", "n2"] and rest == ["n3"]
    recall = [DEADLINE.recall(s) for s in ranked]
    assert [s.card_id for s in ranked] == ["s2", "s5", "s10", "s50"]
    assert recall == sorted(recall)


def test_without_a_date_ahead_order_is_by_due_time() -> None:
    now = INTERVIEW + timedelta(days=1)
    a = _review_state("a", 2.0, now - timedelta(days=3), now - timedelta(hours=1))
    b = _review_state("b", 50.0, now - timedelta(days=3), now - timedelta(hours=5))
    first, ranked, rest = DEADLINE.order([a, b], ["n"], now, pace=1)
    assert (first, [s.card_id for s in ranked], rest) == ([], ["b", "a"], ["n"])


# ------------------------------------------------------------------ the drill's queue


def _library(count: int) -> Library:
    point = Point("p", "the point", ("point",))
    cards = tuple(
        Card(f"c{n}", n, "A", f"q{n}?", f"a{n}", Rubric((point,)), "d") for n in range(1, count + 1)
    )
    return Library((Deck("d", "Deck", "d.yaml", cards=cards),))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "grill.db") as s:
        yield s


def test_with_a_date_near_the_drill_raises_the_new_limit_and_asks_new_cards_first(
    store: Store,
) -> None:
    lib = _library(12)
    start = datetime(2026, 12, 13, 18, tzinfo=UTC)  # interview on the 16th: days 13, 14, 15
    for card in lib.cards()[:2]:
        record_answer(store, SCHED, card, Rating.GOOD, start - timedelta(days=3))
        record_answer(store, SCHED, card, Rating.GOOD, start - timedelta(days=3, minutes=-10))
    plain = drill_plan(store, lib, DrillOptions(new_limit=3), start)
    assert len(plain.new) == 3 and plain.lead == 0
    assert plain.queue[: len(plain.due)] == [c for c, _ in plain.due]
    dated = drill_plan(store, lib, DrillOptions(new_limit=3, deadline=DEADLINE), start)
    # 10 unseen to meet on the 13th and 14th (the 15th is the last day): 5 today, before reviews
    assert len(dated.new) == 5 and dated.lead == 5
    assert dated.queue[:5] == list(dated.new)
    assert {c.id for c, _ in dated.due} == {c.id for c, _ in plain.due}
    limited = drill_plan(store, lib, DrillOptions(new_limit=3, deadline=DEADLINE, limit=4), start)
    assert len(limited.queue) == 4 and limited.queue == list(limited.new[:4])


def test_the_drill_commands_plan_for_the_saved_interview_date() -> None:
    runner = CliRunner()
    plain = json.loads(runner.invoke(app, ["due", "--json"]).stdout)
    assert len(plain["new"]) == 15  # new_per_day
    set_setting("interview_date", "2026-12-04")  # today is 2 Dec (conftest): one day to meet all
    dated = json.loads(runner.invoke(app, ["due", "--json"]).stdout)
    assert len(dated["new"]) == 45


def _plan_today(runner: CliRunner) -> dict[str, float]:
    shown = json.loads(runner.invoke(app, ["plan", "--json"]).stdout)
    return {"new": shown["days"][0]["new"], **shown["today"]}


@pytest.mark.parametrize("per_day", [15, 2])
def test_plan_and_drill_agree_on_todays_new_cards(per_day: int) -> None:
    """New cards met earlier today count against today's in the plan as in the drill; the plan's
    own projection (not only its today line) offers what the drill's queue offers."""
    runner = CliRunner()
    set_setting("new_per_day", str(per_day))
    assert runner.invoke(app, ["plan", "--date", "2026-12-16"]).exit_code == 0  # 14 days out
    assert _plan_today(runner)["new"] == max(per_day, 4)  # the pace: ceil(45 / 13) = 4
    for n in (1, 2, 3):  # three new cards met this morning
        assert runner.invoke(app, ["review", str(n), "--rating", "good"]).exit_code == 0
    due = json.loads(runner.invoke(app, ["due", "--json"]).stdout)
    today = _plan_today(runner)
    assert today["new"] == len(due["new"]) == max(per_day, 4) - 3
    assert today["new_already"] == 3
    now = datetime(2026, 12, 2, 9, tzinfo=UTC)  # conftest's GRILL_NOW
    deadline = Deadline.on(date(2026, 12, 16), now, Scheduler())
    lib = load_library()
    with Store.open() as store:
        queue = drill_plan(store, lib, DrillOptions(per_day, deadline=deadline), now)
        states = store.states("training-behaviors")
        deck = lib.deck("training-behaviors")
        ordered = [states.get(("training-behaviors", i)) for i in deck.cards.ids]
        projected = project(
            ordered, INTERVIEW, now, target=28, per_day=per_day, runs=2, introduced=3
        )
    assert [c.id for c in queue.new] == [d["id"] for d in due["new"]]
    assert projected.days[0].new == len(queue.new)


# ------------------------------------------------------------------ re-asks in the session


def _just_failed(card_id: str, now: datetime) -> CardState:
    """A card answered "again" a minute ago: in its learning step, its step now up."""
    state = SCHED.review(
        SCHED.new_state("d", card_id, now - timedelta(minutes=1)),
        Rating.AGAIN,
        now - timedelta(minutes=1),
    )
    assert state.phase == Phase.LEARNING and state.due <= now
    return state


def test_a_reask_waits_behind_a_card_that_gains_more_on_the_day() -> None:
    now = datetime(2026, 12, 12, 18, tzinfo=UTC)
    reask = _just_failed("l", now)
    weak = _review_state("weak", 2.0, now - timedelta(days=3), now)  # due, fading
    assert DEADLINE.day_gain(weak, now) > DEADLINE.day_gain(reask, now)
    assert not DEADLINE.reask_first(reask, weak, now)
    assert not DEADLINE.reask_first(reask, None, now)  # a card never met scores nothing yet


def test_a_reask_goes_first_when_it_gains_more_and_always_after_the_date() -> None:
    now = datetime(2026, 12, 12, 18, tzinfo=UTC)
    reask = _just_failed("l", now)
    known = _review_state("known", 400.0, now - timedelta(days=1), now)  # due, but kept anyway
    assert DEADLINE.day_gain(known, now) < DEADLINE.day_gain(reask, now)
    assert DEADLINE.reask_first(reask, known, now)
    weak = _review_state("weak", 2.0, now - timedelta(days=3), now)
    after = INTERVIEW + timedelta(hours=1)
    assert DEADLINE.reask_first(reask, weak, after) and DEADLINE.reask_first(reask, None, after)


def _asked(drill: Drill, clock: list[datetime], fail: str, count: int) -> list[str]:
    """The cards a drill asks, two minutes apart; `fail` is answered "again" the first time."""
    asked: list[str] = []
    while (card := drill.next_card()) is not None and len(asked) < count:
        asked.append(card.id)
        drill.rate(Rating.AGAIN if card.id == fail and asked.count(fail) == 1 else Rating.GOOD)
        clock[0] += timedelta(minutes=2)
    return asked


def test_with_a_date_the_drill_asks_the_queue_before_a_reask_that_gains_less(
    store: Store,
) -> None:
    lib = _library(3)
    start = datetime(2026, 12, 12, 18, tzinfo=UTC)
    due = lib.cards()[2]  # studied six days ago: due now, and fading
    record_answer(store, SCHED, due, Rating.GOOD, start - timedelta(days=6))
    record_answer(store, SCHED, due, Rating.GOOD, start - timedelta(days=6, minutes=-10))
    clock = [start]
    drill = Drill(
        store, SCHED, lib, DrillOptions(new_limit=3, deadline=DEADLINE), clock=lambda: clock[0]
    )
    # the pace puts c1 first; failed at once, its one-minute step is up when c3 (due, ranked
    # by its gain) and c2 (new) come, yet both go first: c1 is re-asked once they are done
    assert _asked(drill, clock, "c1", 4) == ["c1", "c3", "c2", "c1"]


def test_without_a_date_a_reask_whose_step_is_up_comes_first(store: Store) -> None:
    clock = [datetime(2026, 12, 12, 18, tzinfo=UTC)]
    drill = Drill(store, SCHED, _library(3), DrillOptions(new_limit=3), clock=lambda: clock[0])
    assert _asked(drill, clock, "c1", 3) == ["c1", "c1", "c2"]


def test_if_you_follow_it_says_it_assumes_an_average_memory_until_the_log_has_days(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Made in the first days, the projection is an FSRS learner's, too sure for someone who
    forgets much faster: the plan says so until the log has SETTLED_DAYS study days in it."""
    runner = CliRunner()
    assert runner.invoke(app, ["plan", "--date", "2026-12-20"]).exit_code == 0
    first = json.loads(runner.invoke(app, ["plan", "--json"]).stdout)["followed"]
    assert (first["log_days"], first["settled"]) == (0, False)
    assert "assumes a memory like the average" in " ".join(
        runner.invoke(app, ["plan"]).stdout.split()
    )
    for day in range(SETTLED_DAYS):
        monkeypatch.setenv("GRILL_NOW", f"2026-12-{2 + day:02d}T19:00:00+00:00")
        assert runner.invoke(app, ["review", str(day + 1), "--rating", "good"]).exit_code == 0
        shown = json.loads(runner.invoke(app, ["plan", "--json"]).stdout)["followed"]
        assert shown["log_days"] == day + 1
        assert shown["settled"] is (day + 1 >= SETTLED_DAYS)
    assert "assumes a memory like" not in " ".join(runner.invoke(app, ["plan"]).stdout.split())
