"""The drill screen rendered into a StringIO: what a person sees after each answer, the keys,
undo, end of input and Ctrl-C, and user text never read as markup."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from rich.console import Console

from grill.model import (
    RATING_KEYS,
    Card,
    Deck,
    Flag,
    Grade,
    Library,
    Point,
    Rating,
    Rubric,
    Section,
    SessionStatus,
    Tier,
    Verdict,
)
from grill.scheduler import Scheduler
from grill.session import Drill, DrillOptions, Grader
from grill.store import Store
from grill.ui.drill import format_duration, run_drill
from grill.ui.prompt import LineReader, echo_answer

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
POINTS = (
    Point("cause", "names the cause: the [b]LR[/b] is too high", ("lr",)),
    Point("fix", "says the fix: lower it", ("lower",)),
)
WRONG = (Point("bigger-batch", "thinks a bigger batch fixes it", ("bigger batch",)),)


def _card(n: int) -> Card:
    return Card(
        id=f"c{n}",
        n=n,
        section="B",
        question=f"Loss oscillates [red]wildly[/red] ({n})?",
        answer="LR too high: lower it.",
        rubric=Rubric(POINTS, wrong=WRONG),
        deck="d",
        explanation="Saying it: [link]the steps overshoot[/link].",
    )


LIB = Library(
    (
        Deck(
            "d",
            "Deck",
            "d.yaml",
            cards=tuple(_card(n) for n in (7, 8, 9)),
            sections=(Section("B", "Learning rate"),),
            tiers=(Tier(1, 15, "basic"),),
        ),
    )
)


def grader(card: Card, answer: str) -> Grade:
    """A stand-in for grill.grader: 'lr lower' correct, 'lr' partial, 'bigger batch' flagged."""
    matched = tuple(p for p in POINTS if p.match[0] in answer)
    missed = tuple(p for p in POINTS if p not in matched)
    flags = tuple(Flag(w.id, w.says, "bigger batch") for w in WRONG if "bigger batch" in answer)
    verdict = [Verdict.WRONG, Verdict.PARTIAL, Verdict.CORRECT][len(matched)]
    if flags:
        verdict = Verdict.WRONG
    return Grade(card.id, verdict, len(matched) / 2, matched, missed, flags, answer, card.answer)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "grill.db") as s:
        yield s


def _run(
    store: Store,
    typed: str,
    *,
    flip: bool = False,
    grade: Grader | None = grader,
    new: int = 3,
    at: datetime = T0,
) -> tuple[str, Drill]:
    console = Console(file=io.StringIO(), width=80, color_system=None, force_terminal=False)
    drill = Drill(
        store,
        Scheduler(enable_fuzzing=False),
        LIB,
        DrillOptions(new_limit=new),
        grader=grade,
        clock=lambda: at,
    )
    run_drill(console, drill, LineReader(io.StringIO(typed), console), flip=flip)
    return console.file.getvalue(), drill  # type: ignore[attr-defined]


def test_feedback_shows_verdict_points_flags_answer_explanation_and_proposal(store: Store) -> None:
    screen, _ = _run(store, "lr is up, bigger batch please\n\n", new=1)
    assert "#7 · B Learning rate · tier 1-15" in screen
    assert "Loss oscillates [red]wildly[/red] (7)?" in screen  # deck text is not markup
    assert "✗ wrong" in screen
    assert "+ names the cause: the [b]LR[/b] is too high" in screen
    assert "- says the fix: lower it" in screen
    assert "misconception: thinks a bigger batch fixes it (you wrote: “bigger batch”)" in screen
    assert "Answer: LR too high: lower it." in screen
    assert "Saying it out loud: Saying it: [link]the steps overshoot[/link]." in screen
    assert "proposed: again (Enter to accept)" in screen
    assert "1 again 1m · 2 hard 5m · 3 good 10m · 4 easy 8d" in screen
    assert "\x1b" not in screen


def test_the_saved_line_counts_the_days_the_rating_key_showed_in_any_timezone(
    store: Store,
) -> None:
    tokyo_evening = datetime(2026, 12, 2, 20, 0, tzinfo=timezone(timedelta(hours=9)))
    screen, _ = _run(store, "lr lower\n4\n", new=1, at=tokyo_evening)
    shown = screen.split("4 easy ")[1].split()[0]
    assert shown.endswith("d")
    assert f"saved: easy · next in {shown}" in screen


def test_enter_takes_the_proposed_rating_and_keys_override_it(store: Store) -> None:
    # c7 correct -> Good (Enter); c8 partial -> Hard proposed, overridden with e; c9 answer
    # shown as markup is stored verbatim; then the learning re-asks, ended by end of input
    _, drill = _run(store, "lr lower\n\nlr\ne\n[bold]x[/bold]\n4\n")
    log = store.reviews()
    assert [(r.card_id, r.rating, r.verdict) for r in log] == [
        ("c7", Rating.GOOD, Verdict.CORRECT),
        ("c8", Rating.EASY, Verdict.PARTIAL),
        ("c9", Rating.EASY, Verdict.WRONG),
    ]
    assert log[2].answer == "[bold]x[/bold]"
    assert all(r.response_ms is None for r in log)  # piped: no timing
    assert store.session(log[0].session_id or 0).status == SessionStatus.INTERRUPTED


def test_the_rating_keys_come_from_one_table(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RATING_KEYS, "x", Rating.EASY)  # a key added to the table alone
    screen, _ = _run(store, "lr lower\nx\nlr\nhard\n")
    assert [r.rating for r in store.reviews()] == [Rating.EASY, Rating.HARD]
    assert Rating.parse("x") is Rating.EASY  # `grill review --rating x` reads it too
    assert "1 again" in screen and "4 easy" in screen  # each rating shown by its number
    assert [Rating.parse(k) for k in RATING_KEYS] == list(RATING_KEYS.values())


def test_end_of_input_after_grading_keeps_the_answer(store: Store) -> None:
    screen, drill = _run(store, "lr lower\n", new=1)
    assert "left      1 card(s)" in screen  # its learning-step re-ask was on screen
    [review] = store.reviews()
    assert (review.answer, review.verdict, review.rating) == (
        "lr lower",
        Verdict.CORRECT,
        Rating.GOOD,
    )
    assert "session summary" in screen
    assert "1 review(s) of 1 card(s), 1 new" in screen
    assert "1 correct · 0 partial · 0 wrong" in screen


def test_a_finished_queue_ends_done_with_the_outlook(store: Store) -> None:
    # one card: Good puts it on its 10-minute step, re-asked at once (learn-ahead), Good again
    screen, drill = _run(store, "lr lower\n3\nlr lower\n3\n", new=1)
    assert [r.rating for r in store.reviews()] == [Rating.GOOD, Rating.GOOD]
    [session] = store.sessions()
    assert session.status == SessionStatus.DONE
    assert "2 review(s) of 1 card(s), 1 new" in screen
    assert "next due" in screen and "left" not in screen


def test_undo_from_the_answer_prompt_and_the_rating_key(store: Store) -> None:
    screen, _ = _run(store, "lr\n1\n/undo\nlr lower\n3\nlr\nu\n")
    assert screen.count("undone: c7") == 2
    assert store.reviews() == []  # both ratings taken back, c8's pending answer dropped by undo


def test_q_ends_the_session_with_its_summary(store: Store) -> None:
    screen, _ = _run(store, "lr lower\nq\n")
    assert "session summary" in screen
    # q at the rating prompt keeps the graded answer with its proposed rating, and says so
    assert [r.rating for r in store.reviews()] == [Rating.GOOD]
    assert "saved: good, the proposed rating" in screen
    assert screen.index("saved: good") < screen.index("session summary")


def test_ctrl_c_anywhere_ends_with_the_summary(store: Store) -> None:
    class Interrupting(LineReader):
        def key(self, prompt: str, keys: str, default: str) -> str | None:
            raise KeyboardInterrupt

    console = Console(file=io.StringIO(), width=80, color_system=None)
    drill = Drill(store, Scheduler(enable_fuzzing=False), LIB, grader=grader, clock=lambda: T0)
    summary = run_drill(console, drill, Interrupting(io.StringIO("lr\n"), console))
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "interrupted" in screen and "session summary" in screen
    assert summary.status == SessionStatus.INTERRUPTED
    assert [(r.verdict, r.rating) for r in store.reviews()] == [(Verdict.PARTIAL, Rating.HARD)]


def test_flip_mode_reveals_then_takes_a_self_rating(store: Store) -> None:
    screen, _ = _run(store, "\n2\n", flip=True, new=1)
    assert "Enter to reveal" in screen and "rate yourself" in screen
    assert "Answer: LR too high: lower it." in screen
    [review] = store.reviews()
    assert (review.rating, review.verdict, review.answer) == (Rating.HARD, None, None)


def test_without_a_grader_the_answer_is_revealed_and_self_rated(store: Store) -> None:
    screen, _ = _run(store, "my answer\n4\n", grade=None, new=1)
    assert "Answer: LR too high: lower it." in screen and "proposed" not in screen
    [review] = store.reviews()
    assert (review.rating, review.answer, review.verdict) == (Rating.EASY, "my answer", None)


def test_nothing_due_says_so(store: Store) -> None:
    screen, _ = _run(store, "", new=0)
    assert screen.startswith("Nothing to study right now.")
    assert store.sessions() == []


def test_a_60_column_console_still_shows_everything(store: Store) -> None:
    console = Console(file=io.StringIO(), width=60, color_system=None)
    drill = Drill(store, Scheduler(enable_fuzzing=False), LIB, grader=grader, clock=lambda: T0)
    run_drill(console, drill, LineReader(io.StringIO("lr\n\n"), console))
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert max(len(line) for line in screen.splitlines()) <= 60
    assert "proposed: hard" in screen


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (5, "5s"),
        (372, "6m 12s"),
        (600, "10m"),
        (7500, "2h 5m"),
        (86400 * 3, "3d"),
        (86400 * 500, "1.4y"),
    ],
)
def test_format_duration(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


def test_undo_on_the_first_card_says_its_answer_is_dropped_and_keeps_nothing(
    store: Store,
) -> None:
    screen, _ = _run(store, "lr\nu\n", new=1)
    assert "undone: your answer (it was not saved): answer again" in screen
    assert "nothing to undo" not in screen
    assert store.reviews() == []  # end of input: the undone answer is not saved after all


def test_a_card_asked_ahead_of_its_learning_step_says_so(store: Store) -> None:
    screen, _ = _run(store, "lr lower\n3\n", new=1)
    assert screen.count("#7 · B Learning rate") == 2
    assert "asked early: due in 10m, but nothing else is waiting" in screen


def test_a_submitted_answer_is_echoed_wrapped_at_words_under_its_prompt() -> None:
    console = Console(file=io.StringIO(), width=30, color_system=None, force_terminal=False)
    answer = "the loss drops steeply during warmup then descends\nand plateaus"
    echo_answer(console, "> ", answer)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert [line.rstrip() for line in lines] == [
        "> the loss drops steeply",
        "  during warmup then descends",
        "  and plateaus",
    ]


@pytest.mark.parametrize(("typed", "shown"), [("", ""), ("  ", ""), ("cosine", "> cosine")])
def test_the_terminal_reader_leaves_no_empty_prompt_line_for_an_empty_enter(
    monkeypatch: pytest.MonkeyPatch, typed: str, shown: str
) -> None:
    """prompt_toolkit erases its prompt when done and the answer is printed again under "> ";
    an Enter with nothing typed (a rating's "3⏎" landing on the next card) prints nothing."""
    import grill.ui.prompt as prompt

    monkeypatch.setattr(prompt, "prompt_once", lambda session: typed)
    console = Console(file=io.StringIO(), width=60, color_system=None, force_terminal=False)
    assert prompt.TerminalReader(console).answer() == typed
    assert console.file.getvalue().rstrip() == shown  # type: ignore[attr-defined]


def test_the_ready_row_wraps_under_its_column_in_a_narrow_window() -> None:
    from grill.deck import load_library
    from grill.readiness import readiness
    from grill.ui.drill import render_readiness

    deck = load_library(user_decks=False).main_deck()
    assert deck is not None
    ready = readiness(deck, {deck.cards[0].id: 0.9}, datetime(2026, 12, 4, tzinfo=UTC), 28)
    console = Console(file=io.StringIO(), width=50, color_system=None)
    render_readiness(console, ready, interview=None)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) > 1 and lines[0].startswith("ready     expected 0.9/45")
    assert all(line.startswith(" " * 10) for line in lines[1:]), lines


class _Typed:
    """A person at a terminal: answers and keys typed in order, each at a moment of `clock`."""

    timed = True
    answer_hint = "Enter: submit"

    def __init__(self, typed: list[tuple[float, str]], clock: list[float]) -> None:
        self.typed = typed
        self.clock = clock

    def _next(self) -> str | None:
        if not self.typed:
            return None
        at, text = self.typed.pop(0)
        self.clock[0] = at
        return text

    def answer(self) -> str | None:
        return self._next()

    def key(self, prompt: str, keys: str, default: str) -> str | None:
        got = self._next()
        return None if got is None else (got or default)


def _typed_run(store: Store, typed: list[tuple[float, str]]) -> Drill:
    console = Console(file=io.StringIO(), width=80, color_system=None, force_terminal=False)
    drill = Drill(
        store,
        Scheduler(enable_fuzzing=False),
        LIB,
        DrillOptions(new_limit=2),
        grader=grader,
        clock=lambda: T0,
    )
    clock = [0.0]
    run_drill(console, drill, _Typed(typed, clock), timer=lambda: clock[0])
    return drill


def test_the_enter_of_a_rating_typed_as_3_enter_is_no_empty_answer(store: Store) -> None:
    # "3" rates the first card alone; its Enter, 0.05 s later, lands on the second card's prompt
    typed = [(5.0, "lr lower"), (6.0, "3"), (6.05, ""), (9.0, "lr lower"), (10.0, "3")]
    _typed_run(store, typed)
    answers = [r.answer for r in store.reviews()]
    assert answers == ["lr lower", "lr lower"]


def test_an_empty_answer_given_after_reading_the_question_is_taken(store: Store) -> None:
    typed = [(5.0, "lr lower"), (6.0, "3"), (8.0, ""), (9.0, "1")]
    _typed_run(store, typed)
    reviews = store.reviews()
    assert [r.answer for r in reviews] == ["lr lower", ""]
    assert reviews[-1].rating is Rating.AGAIN
