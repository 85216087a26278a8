"""The mock and the case on screen: the live prompt's auto-submit, piped answers, the end screen,
and what the database holds afterwards."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from fakes import CASE, FakeClock, fake_grade, fake_grade_case
from grill.deck import load_library
from grill.mock import (
    CaseRun,
    Countdown,
    MockOptions,
    MockPlan,
    MockRun,
    StoreRecorder,
    plan_mock,
)
from grill.model import Deck, Mode, Rating, SessionStatus, Verdict
from grill.scheduler import Scheduler
from grill.store import Store
from grill.ui.case import case_interview, render_case_history
from grill.ui.mock import interview, render_result
from grill.ui.timed import LineInput, Status, TerminalInput, clock_text, parse_ticks

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
ESC = re.compile(r"\x1b\[")


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_library().deck("training-behaviors")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "grill.db") as s:
        yield s


def console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=100, no_color=True, highlight=False, emoji=False), buffer


def plan(deck: Deck, **options: object) -> MockPlan:
    return plan_mock(
        deck,
        MockOptions(**options),  # type: ignore[arg-type]
        per_question_seconds=60,
        quick_fire_seconds=20,
        target=28,
    )


def run_of(p: MockPlan, store: Store, scheduler: Scheduler | None = None) -> MockRun:
    recorder = StoreRecorder(store, scheduler=scheduler, predict=lambda ids: 0.5 * len(ids))
    return MockRun(p, clock=FakeClock(), now=lambda: NOW, grader=fake_grade, recorder=recorder)


# ------------------------------------------------------------------------------- small parts


def test_clock_text_rounds_up_so_zero_shows_only_at_the_end() -> None:
    assert [clock_text(s) for s in (60, 59.2, 2.1, 0.4, 0, -1, 125)] == [
        "1:00",
        "1:00",
        "0:03",
        "0:01",
        "0:00",
        "0:00",
        "2:05",
    ]


def test_parse_ticks() -> None:
    assert parse_ticks("1 3", 4) == (1, 3)
    assert parse_ticks("3,1,3", 4) == (1, 3)
    assert parse_ticks("a", 3) == (1, 2, 3)
    assert parse_ticks("", 3) == () and parse_ticks("none", 3) == ()
    assert parse_ticks("5", 4) is None and parse_ticks("x", 4) is None


# ------------------------------------------------------------------------------- the live prompt


def test_the_live_prompt_auto_submits_what_was_typed_at_zero() -> None:
    out, _ = console()
    with create_pipe_input() as pipe:
        pipe.send_text("warmup then desc")  # no Enter: the clock must end it
        source = TerminalInput(out, input=pipe, output=DummyOutput())
        started = time.monotonic()
        reply = source.ask(Countdown.starting_now(time.monotonic, 0.6), status="question 1/2")
        waited = time.monotonic() - started
    assert reply.text == "warmup then desc" and reply.timed_out
    assert 0.5 <= waited < 3


def test_enter_submits_before_the_clock_runs_out() -> None:
    out, _ = console()
    with create_pipe_input() as pipe:
        pipe.send_text("lr too low\r")
        source = TerminalInput(out, input=pipe, output=DummyOutput())
        reply = source.ask(Countdown.starting_now(time.monotonic, 30), status="question 1/2")
    assert reply.text == "lr too low" and not reply.timed_out


def test_multi_line_answers_take_alt_enter_for_a_new_line() -> None:
    out, _ = console()
    with create_pipe_input() as pipe:
        pipe.send_text("grad norm explodes\x1b\rroll back\r")
        source = TerminalInput(out, input=pipe, output=DummyOutput())
        reply = source.ask(
            Countdown.starting_now(time.monotonic, 30), status="case", multiline=True
        )
    assert reply.text == "grad norm explodes\nroll back" and not reply.timed_out


def test_ctrl_c_in_the_live_prompt_interrupts() -> None:
    out, _ = console()
    with create_pipe_input() as pipe:
        pipe.send_text("half an answ\x03")
        source = TerminalInput(out, input=pipe, output=DummyOutput())
        with pytest.raises(KeyboardInterrupt):
            source.ask(Countdown.starting_now(time.monotonic, 30), status="question 1/2")


def test_the_live_checklist_asks_again_until_it_understands() -> None:
    out, buffer = console()
    points = CASE.follow_ups[0].points
    with create_pipe_input() as pipe:
        pipe.send_text("7\r2\r")
        source = TerminalInput(out, input=pipe, output=DummyOutput())
        assert source.ask_ticks(points) == ("first",)
    assert "1. per-layer grad norms" in buffer.getvalue()


# ------------------------------------------------------------------------------- a whole mock


def test_a_piped_mock_is_plain_text_scored_and_kept(deck: Deck, store: Store) -> None:
    out, buffer = console()
    run = run_of(plan(deck, seed=4, section="A"), store, Scheduler(enable_fuzzing=False))
    answers = "right\nhalf\n[bold]no[/bold]\nright\nright\nright\n"
    result = interview(out, run, LineInput(out, io.StringIO(answers)))
    render_result(out, result)
    text = buffer.getvalue()
    assert not ESC.search(text)
    assert (result.status, result.correct, result.asked) == ("completed", 4, 6)
    assert "Score 4/6 answered cold · target 4: PASS · floor 4: at the floor" in text
    assert "target 28/45 -> 4/6, floor 24/45 -> 4" in text
    assert "you: [bold]no[/bold]" in text  # the user's text is never read as markup
    session = store.sessions(Mode.MOCK)[-1]
    assert session.status == SessionStatus.DONE
    assert session.summary["score"] == 4 and session.summary["predicted"] == 3.0
    assert [a["answer"] for a in session.summary["answers"]][:2] == ["right", "half"]
    reviews = store.reviews(mode=Mode.MOCK, session_id=session.id)
    assert [r.rating for r in reviews] == [
        Rating.GOOD,
        Rating.HARD,
        Rating.AGAIN,
        Rating.GOOD,
        Rating.GOOD,
        Rating.GOOD,
    ]
    assert all(r.after is not None for r in reviews)  # the schedule moved
    missed = reviews[2]
    assert missed.after is not None and missed.after.due < NOW.replace(hour=10)


def test_eof_mid_mock_keeps_the_answers_as_aborted(deck: Deck, store: Store) -> None:
    out, buffer = console()
    run = run_of(plan(deck, seed=4, count=5), store)  # no scheduler: --no-schedule
    result = interview(out, run, LineInput(out, io.StringIO("right\nnope\n")))
    assert (result.status, result.answered, result.passed) == ("aborted", 2, None)
    assert "Stopped. The answers given so far are saved." in buffer.getvalue()
    session = store.sessions(Mode.MOCK)[-1]
    assert session.status == SessionStatus.INTERRUPTED
    assert session.summary["status"] == "aborted" and session.summary["answered"] == 2
    reviews = store.reviews(session_id=session.id)
    assert [r.answer for r in reviews] == ["right", "nope"]
    assert all(r.after is None for r in reviews) and store.states() == {}


def test_ctrl_c_mid_mock_keeps_the_answers_as_aborted(deck: Deck, store: Store) -> None:
    class Interrupting(LineInput):
        def ask(self, timer: Countdown, *, status: Status, multiline: bool = False, keys: str = ""):  # type: ignore[no-untyped-def]
            if str(status() if callable(status) else status).startswith("question 3"):
                raise KeyboardInterrupt
            return super().ask(timer, status=status, multiline=multiline)

    out, _ = console()
    run = run_of(plan(deck, seed=4, count=5), store)
    result = interview(out, run, Interrupting(out, io.StringIO("right\nright\nright\n")))
    assert (result.status, result.answered, result.correct) == ("aborted", 2, 2)
    assert store.sessions(Mode.MOCK)[-1].status == SessionStatus.INTERRUPTED


def test_the_interview_clock_shows_beside_the_question_clock(deck: Deck, store: Store) -> None:
    clock = FakeClock()
    seen: list[tuple[float, str]] = []

    class Slow(LineInput):
        def ask(self, timer: Countdown, *, status: Status, multiline: bool = False, keys: str = ""):  # type: ignore[no-untyped-def]
            seen.append((timer.seconds, str(status() if callable(status) else status)))
            clock.advance(50)
            return super().ask(timer, status=status, multiline=multiline)

    out, buffer = console()
    p = plan(deck, seed=1, section="A", total_minutes=1.5)
    run = MockRun(p, clock=clock, now=lambda: NOW, grader=fake_grade, recorder=None)
    result = interview(out, run, Slow(out, io.StringIO("right\nright\nright\n")))
    assert seen == [
        (60, "question 1/6 · interview 1:30 left"),
        (40, "question 2/6 · interview 0:40 left"),
    ]
    text = buffer.getvalue()
    assert "Question 2 of 6 · " in text and " · 40 s" in text
    assert "The interview's total time is up." in text
    assert (result.answered, result.asked, result.not_reached) == (2, 6, 4)


def test_a_spoken_mock_is_graded_by_the_ticks(deck: Deck, store: Store) -> None:
    out, buffer = console()
    run = run_of(plan(deck, seed=1, section="G", count=2, spoken=True), store)
    # Enter when done speaking, then the points ticked: all of them, then none
    result = interview(out, run, LineInput(out, io.StringIO("\na\n\n\n")))
    assert [a.grade.verdict for a in run.answers] == [Verdict.CORRECT, Verdict.WRONG]
    assert result.correct == 1
    render_result(out, result)
    text = buffer.getvalue()
    assert "Tick honestly" in text
    points = len(run.answers[1].question.card.rubric.points)
    assert f"you said 0 of {points} key points" in text


def test_the_end_screen_of_a_full_mock(deck: Deck, store: Store) -> None:
    out, buffer = console()
    p = plan(deck, seed=2)
    wanted = {q.card.n: ("right" if q.card.n <= 27 else "no") for q in p.questions}
    lines = "".join(wanted[q.card.n] + "\n" for q in p.questions)
    result = interview(out, run_of(p, store), LineInput(out, io.StringIO(lines)))
    render_result(out, result)
    text = buffer.getvalue()
    assert "Score 27/45 answered cold · target 28: NOT YET · floor 24: above the floor" in text
    assert "Scaled" not in text
    assert "you’ll get tripped up on practical questions" in text  # 28-30 missed
    assert "you don’t understand training dynamics" not in text  # 1-15 all cold
    assert "#42 Clip value? (wrong)" in text and "answer: 1.0." in text


# ------------------------------------------------------------------------------- the case


def case_run(clock: FakeClock, store: Store | None = None) -> CaseRun:
    return CaseRun(
        CASE,
        minutes=5,
        follow_up_seconds=90,
        clock=clock,
        now=lambda: NOW,
        grader=fake_grade_case,
        store=store,
    )


def test_a_piped_case_is_graded_followed_up_saved_and_listed(store: Store) -> None:
    out, buffer = console()
    lines = (
        "grad-norm spike, so rollback to a checkpoint\n"
        "then lower the lr\n"
        "\n"
        "per-layer norms\n\n1 2\n"  # follow-up 1: answer, blank line, both points ticked
        "\n1\n"  # follow-up 2: no words, ticked its one point
    )
    attempt = case_interview(out, case_run(FakeClock(), store), LineInput(out, io.StringIO(lines)))
    assert attempt is not None and attempt.status == "completed"
    assert attempt.grade.verdict == Verdict.PARTIAL
    assert attempt.grade.answer == "grad-norm spike, so rollback to a checkpoint\nthen lower the lr"
    assert [f.verdict for f in attempt.follow_ups] == [Verdict.CORRECT, Verdict.CORRECT]
    text = buffer.getvalue()
    assert "✓ culprits" in text and "✗ prevention" in text
    assert "[not markup]" in text  # the example is shown as text
    assert "prevention: not covered; name at least 1 of\n    • pre-layer-norm" in text
    assert "culprits: covered; you could also have named\n    • FP16 overflow" in text
    [session] = store.sessions(Mode.CASE)
    assert session.status == SessionStatus.DONE and session.summary["case"] == "spike"
    assert len(session.summary["follow_ups"]) == 2
    review = store.reviews(mode=Mode.CASE)[-1]
    assert (review.card_id, review.verdict, review.after) == ("spike", Verdict.PARTIAL, None)
    out2, listing = console()
    render_case_history(out2, store.sessions(Mode.CASE), NOW)
    row = listing.getvalue()
    assert "02 Dec 09:00" in row and "partial" in row and "2/2" in row
    assert "✓culprits ✓triage ✗prevention" in row


def test_a_case_with_a_red_flag_is_wrong_and_names_it(store: Store) -> None:
    out, buffer = console()
    source = LineInput(out, io.StringIO("grad-norm rollback pre-ln, or restart from scratch\n\n"))
    attempt = case_interview(out, case_run(FakeClock(), store), source)
    assert attempt is not None and attempt.status == "aborted"  # EOF at the first follow-up
    assert attempt.grade.verdict == Verdict.WRONG
    assert "red flag restart_from_scratch" in buffer.getvalue()
    [session] = store.sessions(Mode.CASE)
    assert session.status == SessionStatus.INTERRUPTED
    assert session.summary["grade"]["red_flags"] == ["restart_from_scratch"]


def test_a_case_is_kept_from_the_moment_its_answer_is_graded(store: Store) -> None:
    clock = FakeClock()
    run = case_run(clock, store)
    run.start()
    run.submit("grad-norm and rollback")
    [session] = store.sessions(Mode.CASE)
    assert session.status == SessionStatus.OPEN and session.summary["follow_ups"] == []
    [review] = store.reviews(mode=Mode.CASE)
    assert review.answer == "grad-norm and rollback" and review.verdict == Verdict.PARTIAL
    run.start_follow_up()
    run.submit_follow_up("per-layer", ["per-layer"])
    assert len(store.session(session.id).summary["follow_ups"]) == 1
    run.finish("aborted")
    assert store.session(session.id).status == SessionStatus.INTERRUPTED


def test_a_case_answer_after_the_deadline_counts_as_timed_out() -> None:
    clock = FakeClock()
    run = case_run(clock)
    run.start()
    clock.advance(301)
    attempt = run.submit("grad-norm")
    assert attempt.timed_out and attempt.seconds == 300
    assert attempt.grade.parts[0].covered


def test_stopping_before_the_case_answer_keeps_nothing(store: Store) -> None:
    out, buffer = console()
    run = case_run(FakeClock(), store)
    assert case_interview(out, run, LineInput(out, io.StringIO(""))) is None
    assert "nothing saved" in buffer.getvalue()
    assert store.sessions(Mode.CASE) == []
