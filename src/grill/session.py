"""The drill engine: which card comes next, grading, rating, undo, the summary. No UI, no I/O
beyond the Store it is given; time comes from an injected clock.

The queue of a drill (`plan`):
  1. cards due now (by due time, oldest first), whatever their FSRS phase;
  2. new cards in deck order, up to the daily new-card limit minus the new cards already
     introduced this study day (the day starts at 4 am local time: `grill.clock.study_day`);
  3. cards in a learning step (just introduced or forgotten) come back in the same session
     when their step is up: before anything else once due, or early, Anki-style, when nothing
     else is left and they are due within `LEARN_AHEAD` (grill.queue, shared with the simulator).
`limit` caps the cards taken from 1+2; step re-asks of those cards come on top.
With an interview date (`DrillOptions.deadline`, see grill.plan) the queue works for that day:
due dates past it are pulled in when recall on the day would suffer, due cards are ranked by
their gain on the day, the new cards the pace needs come first, over the usual limit, and a
re-ask goes before the next card only when it gains as much on the day (else once the queue
is empty).

Use:
    drill = Drill(store, scheduler, library, options, grader=grade, clock=now)
    while (card := drill.next_card()) is not None:
        grade = drill.submit(card, answer, response_ms)   # graded; nothing written yet
        drill.proposed                                     # rating proposed from the grade
        drill.rate(rating)                                 # written before the next card
        drill.undo()                                       # takes back this session's last review
        drill.early                                        # asked ahead of its learning step?
    summary = drill.finish()                               # a pending grade is kept, not lost

Proposed ratings (`propose_rating`): wrong -> Again, partial -> Hard, correct -> Good, and
correct, *complete and fast* -> Easy: every key point made (a correct answer may leave some
out, and a short one is quick to type), and the answer took at most `EASY_THINK_SECONDS`
beyond the time needed to type it at `TYPING_CHARS_PER_SECOND` (so a long, complete answer
typed without hesitation still counts as fast; a bare "yes" after 30 s does not).

`record_answer` (one review of one card, FSRS from the stored state) is shared with the mock
interview and `grill review`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from grill.clock import now as system_now
from grill.clock import study_day, to_utc
from grill.errors import NotFoundError
from grill.model import (
    Card,
    CardState,
    Grade,
    Library,
    Mode,
    Orphan,
    Phase,
    Rating,
    Review,
    SessionRecord,
    SessionStatus,
    Verdict,
)
from grill.plan import Deadline, new_today
from grill.queue import LEARN_AHEAD, pick, reask
from grill.store import Store

if TYPE_CHECKING:  # fsrs is loaded by whoever makes the Scheduler, not by `grill due`
    from grill.scheduler import Scheduler

__all__ = [
    "EASY_THINK_SECONDS",
    "LEARN_AHEAD",
    "TYPING_CHARS_PER_SECOND",
    "Drill",
    "DrillOptions",
    "DrillSummary",
    "Grader",
    "Plan",
    "find_orphans",
    "new_introduced",
    "plan",
    "propose_rating",
    "record_answer",
    "resolve_card",
]

Grader = Callable[[Card, str], Grade]
"""grill.grader.grade: a typed answer to a card -> its Grade."""


EASY_THINK_SECONDS = 10.0
TYPING_CHARS_PER_SECOND = 5.0


@dataclass(frozen=True)
class DrillOptions:
    """What to study. None means no restriction."""

    new_limit: int = 15
    limit: int | None = None
    section: str | None = None
    deck: str | None = None
    mode: Mode = Mode.DRILL
    deadline: Deadline | None = None
    """An interview date (grill.plan): the queue is shaped to work for that day."""


@dataclass(frozen=True)
class Plan:
    """The cards a drill would take now: due (with their states), new, and learning soon."""

    due: tuple[tuple[Card, CardState], ...]
    new: tuple[Card, ...]
    learning: tuple[tuple[Card, CardState], ...]
    new_today: int
    """New cards already introduced this study day (counted against the daily limit)."""
    lead: int = 0
    """How many of `new` come before the due cards (an interview date's pace; else 0)."""
    orphans: int = 0
    """Cards with history that no loaded deck defines (`find_orphans` lists them)."""

    @property
    def queue(self) -> list[Card]:
        """The cards in the order the drill asks them."""
        new = list(self.new)
        return new[: self.lead] + [c for c, _ in self.due] + new[self.lead :]


def _in_scope(library: Library, options: DrillOptions) -> list[tuple[str, str]]:
    """The (deck, card id) of the cards the options allow, in deck then source order. Keys,
    not cards: among thousands, `plan` builds only the cards it returns."""
    keys = library.keys(options.deck)
    if options.section:
        wanted = options.section.strip().lower()
        sections = library.sections(options.deck)
        keys = [k for k in keys if sections[k].lower() == wanted]
        if not keys:
            known = ", ".join(sorted(set(sections.values())))
            raise NotFoundError(f"no cards in section '{options.section}' (sections: {known})")
    return keys


def new_introduced(store: Store, now: datetime) -> int:
    """Cards reviewed for the first time since this study day began (any mode, any deck)."""
    return store.count_reviews(since=study_day(now), first=True)


def _states(
    store: Store, options: DrillOptions, now: datetime
) -> tuple[dict[tuple[str, str], CardState], set[tuple[str, str]]]:
    """The states `plan` needs and the keys of every studied card. Without an interview date
    only the states due within LEARN_AHEAD are read: with thousands of cards, building every
    state would cost more than the rest of `grill due`. The date's rules may bring any due date
    forward, so with one every state is read."""
    if options.deadline is None:
        return store.states(due_by=now + LEARN_AHEAD), store.studied()
    states = options.deadline.adjust_due(store.states(), now)
    return states, set(states)


def plan(store: Store, library: Library, options: DrillOptions, now: datetime) -> Plan:
    """The queue for a drill starting at `now` (see the module docstring for the order)."""
    keys = _in_scope(library, options)
    states, studied_keys = _states(store, options, now)
    studied = [(k, states[k]) for k in keys if k in states]
    due = sorted((p for p in studied if p[1].due <= now), key=lambda p: p[1].due)
    learning = sorted(
        (p for p in studied if _learning(p[1]) and now < p[1].due <= now + LEARN_AHEAD),
        key=lambda p: p[1].due,
    )
    introduced = new_introduced(store, now)
    unseen = [k for k in keys if k not in studied_keys]
    if options.deadline is not None:
        _, ranked, _ = options.deadline.order([s for _, s in due], [], now, 0)
        due = [(s.key, s) for s in ranked]
    offered, lead = new_today(len(unseen), introduced, options.new_limit, options.deadline, now)
    new = unseen[:offered]
    if options.limit is not None:
        lead = min(lead, len(new), options.limit)
        due = due[: options.limit - lead]
        new = new[: max(lead, options.limit - len(due))]
    card = library.card_at
    return Plan(
        tuple((card(k), s) for k, s in due),
        tuple(card(k) for k in new),
        tuple((card(k), s) for k, s in learning),
        introduced,
        lead,
        len(store.orphan_keys(library.defined(), studied_keys)),
    )


def _learning(state: CardState) -> bool:
    return state.phase in (Phase.LEARNING, Phase.RELEARNING)


def propose_rating(grade: Grade, response_ms: int | None) -> Rating:
    """The rating a grade suggests (see the module docstring); the user may override it."""
    if grade.verdict == Verdict.WRONG:
        return Rating.AGAIN
    if grade.verdict == Verdict.PARTIAL:
        return Rating.HARD
    if response_ms is not None and not grade.missed:
        typing = len(grade.answer.strip()) / TYPING_CHARS_PER_SECOND
        if response_ms / 1000 - typing <= EASY_THINK_SECONDS:
            return Rating.EASY
    return Rating.GOOD


def record_answer(
    store: Store,
    scheduler: Scheduler,
    card: Card,
    rating: Rating,
    at: datetime,
    *,
    verdict: Verdict | None = None,
    answer: str | None = None,
    response_ms: int | None = None,
    mode: Mode = Mode.DRILL,
    session_id: int | None = None,
) -> Review:
    """Log one review of `card` and store its new FSRS state, in one transaction."""

    def schedule(prior: CardState | None) -> CardState:
        state = prior or scheduler.new_state(card.deck, card.id, at)
        return replace(scheduler.review(state, rating, at), content_hash=card.content_hash)

    return store.record_review(
        card.deck,
        card.id,
        reviewed_at=at,
        rating=rating,
        schedule=schedule,
        verdict=verdict,
        answer=answer,
        response_ms=response_ms,
        mode=mode,
        session_id=session_id,
        content_hash=card.content_hash,
    )


def find_orphans(store: Store, library: Library) -> list[Orphan]:
    """Stored cards (and cases) that no loaded deck defines any more, with their history."""
    return store.orphans(library.defined())


def resolve_card(
    store: Store, library: Library, ref: str, deck: str | None = None
) -> tuple[str, str, Card | None]:
    """(deck, card_id, card) for a command-line reference; an orphaned card (no longer in any
    deck, card None) is found by `deck/id` or by an id only it has."""
    try:
        card = library.card(ref, deck)
        return card.deck, card.id, card
    except NotFoundError:
        orphans = find_orphans(store, library)
        wanted = ref.strip()
        matches = [o for o in orphans if wanted in (o.card_id, f"{o.deck}/{o.card_id}")]
        if deck is not None:
            matches = [o for o in matches if o.deck == deck]
        if len(matches) == 1:
            return matches[0].deck, matches[0].card_id, None
        raise


@dataclass(frozen=True)
class DrillSummary:
    """What a session did, computed from the review log, plus what comes next."""

    session_id: int | None
    status: SessionStatus
    reviews: int
    cards: int
    new_cards: int
    by_verdict: dict[Verdict, int]
    by_rating: dict[Rating, int]
    ungraded: int
    seconds: float
    answer_seconds: float
    left: int
    next_due: datetime | None
    due_tomorrow: int
    new_tomorrow: int
    reviewed: tuple[Review, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "session": self.session_id,
            "status": str(self.status),
            "reviews": self.reviews,
            "cards": self.cards,
            "new_cards": self.new_cards,
            "verdicts": {v.label: self.by_verdict.get(v, 0) for v in Verdict},
            "ratings": {r.label: self.by_rating.get(r, 0) for r in Rating},
            "ungraded": self.ungraded,
            "seconds": round(self.seconds, 1),
            "answer_seconds": round(self.answer_seconds, 1),
            "left": self.left,
            "next_due": None if self.next_due is None else to_utc(self.next_due).isoformat(),
            "due_tomorrow": self.due_tomorrow,
            "new_tomorrow": self.new_tomorrow,
        }


@dataclass(frozen=True)
class _Pending:
    """An answer graded but not yet rated."""

    card: Card
    grade: Grade
    response_ms: int | None
    proposed: Rating


class Drill:
    """One drill session over a Store. Each rating is committed before the next card is shown."""

    def __init__(
        self,
        store: Store,
        scheduler: Scheduler,
        library: Library,
        options: DrillOptions | None = None,
        *,
        grader: Grader | None = None,
        clock: Callable[[], datetime] = system_now,
    ) -> None:
        self.store = store
        self.scheduler = scheduler
        self.library = library
        self.options = options or DrillOptions()
        self.grader = grader
        self.clock = clock
        self.started_at = clock()
        self.plan = plan(store, library, self.options, self.started_at)
        self._queue: list[Card] = self.plan.queue
        self._learning: dict[tuple[str, str], tuple[Card, datetime]] = {
            (c.deck, c.id): (c, s.due) for c, s in self.plan.learning
        }
        self._states: dict[tuple[str, str], CardState] = {
            (c.deck, c.id): s for c, s in self.plan.due + self.plan.learning
        }
        """The state of each card of this session, as last reviewed (new cards: absent)."""
        self._current: Card | None = None
        self._early: timedelta | None = None
        self._shown_at: datetime | None = None  # when the rating keys' intervals were computed
        self._pending: _Pending | None = None
        self._record: SessionRecord | None = None
        self._finished: DrillSummary | None = None

    # ------------------------------------------------------------ the queue

    @property
    def session_id(self) -> int | None:
        return self._record.id if self._record else None

    @property
    def current(self) -> Card | None:
        return self._current

    @property
    def done(self) -> int:
        """Reviews recorded in this session so far."""
        return len(self.store.reviews(session_id=self.session_id)) if self._record else 0

    @property
    def early(self) -> timedelta | None:
        """How long before its learning step is up the current card is asked (learn-ahead:
        nothing else is left), or None when it is not early."""
        return self._early if self._current is not None else None

    @property
    def left(self) -> int:
        """Cards still to show, counting the current one and learning-step re-asks."""
        return len(self._queue) + len(self._learning) + (self._current is not None)

    def next_card(self) -> Card | None:
        """The card to show now (the same one until it is rated), or None when done."""
        if self._finished is not None:
            return None
        if self._current is None:
            self._current = self._pick(self.clock())
            if self._current is not None and self._record is None:
                self._record = self.store.start_session(self.options.mode, self.started_at)
        return self._current

    def _pick(self, now: datetime) -> Card | None:
        learning = {key: due for key, (_, due) in self._learning.items()}
        chosen = pick([(c.deck, c.id) for c in self._queue[:1]], learning, now, self._ahead(now))
        self._early = None if chosen is None else chosen.early
        if chosen is None:
            return None
        if chosen.learning:
            return self._learning.pop(chosen.key)[0]
        return self._queue.pop(0)

    def _ahead(self, now: datetime) -> Callable[[tuple[str, str], tuple[str, str]], bool] | None:
        """With an interview date, a re-ask goes before the queue's next card only when it
        gains as much on the day (grill.plan, rule 4)."""
        deadline = self.options.deadline
        if deadline is None:
            return None
        states = self._states
        return lambda card, head: deadline.reask_first(states[card], states.get(head), now)

    # ------------------------------------------------------------ answering

    @property
    def pending(self) -> Grade | None:
        """The grade of the submitted, not yet rated, answer."""
        return self._pending.grade if self._pending else None

    @property
    def proposed(self) -> Rating | None:
        return self._pending.proposed if self._pending else None

    def submit(self, card: Card, answer: str, response_ms: int | None = None) -> Grade:
        """Grade a typed answer to the current card; nothing is written until `rate`.

        `response_ms` is measured by the caller (real elapsed time, not the study clock); None
        when it cannot be known (piped input), and then no answer is proposed as Easy.
        """
        if self.grader is None:
            raise RuntimeError("this drill has no grader: rate the card directly")
        self._check_current(card)
        grade = self.grader(card, answer)
        self._pending = _Pending(card, grade, response_ms, propose_rating(grade, response_ms))
        return grade

    def rate(
        self, rating: Rating, *, answer: str | None = None, response_ms: int | None = None
    ) -> Review:
        """Record the current card's review with `rating` (committed now) and move on.

        After `submit` the graded answer is stored; without it (flip mode, self-rating)
        `answer` and `response_ms` may carry what was typed and how long it took.
        """
        card = self._current
        if card is None:
            raise RuntimeError("no card is being asked")
        pending = self._pending
        # the review is made at the time its intervals were shown, so it saves what they promised
        at = self._shown_at or self.clock()
        review = record_answer(
            self.store,
            self.scheduler,
            card,
            rating,
            at,
            verdict=pending.grade.verdict if pending else None,
            answer=pending.grade.answer if pending else answer,
            response_ms=pending.response_ms if pending else response_ms,
            mode=self.options.mode,
            session_id=self.session_id,
        )
        self._current, self._pending, self._shown_at = None, None, None
        key = (card.deck, card.id)
        if review.after is not None:
            self._states[key] = review.after
        again = reask(review.after, at)
        if again is not None:
            self._learning[(card.deck, card.id)] = (card, again)
        return review

    def undo(self) -> Review | None:
        """Take back this session's last review; its card is asked again next. An answer graded
        but not rated is dropped either way: with nothing saved yet (the first card), undo
        returns None and that answer is not kept, so `finish` cannot save it after all."""
        review = self.store.undo_last(session_id=self.session_id) if self._record else None
        if review is None:
            self._pending = self._shown_at = None
            return None
        if self._current is not None:
            self._queue.insert(0, self._current)
        card = self.library.card(review.card_id, review.deck)
        self._learning.pop((card.deck, card.id), None)
        if review.before is None:
            self._states.pop((card.deck, card.id), None)
        else:
            self._states[(card.deck, card.id)] = review.before
        self._current, self._pending, self._early, self._shown_at = card, None, None, None
        return review

    def dues(self) -> dict[Rating, datetime]:
        """When the current card is due again, for each rating, fuzz included: `rate` then
        reviews the card at this same time (`shown_at`), so it saves the due shown."""
        card = self._current
        if card is None:
            return {}
        now = self._shown_at = self.clock()
        state = self.store.state(card.deck, card.id) or self.scheduler.new_state(
            card.deck, card.id, now
        )
        return self.scheduler.preview(state, now)

    @property
    def shown_at(self) -> datetime | None:
        """When the rating keys' dues were computed (`dues`)."""
        return self._shown_at

    def _check_current(self, card: Card) -> None:
        if self._current is None or (card.deck, card.id) != (self._current.deck, self._current.id):
            raise RuntimeError(f"{card.id} is not the card being asked")

    # ------------------------------------------------------------ ending

    def finish(self, status: SessionStatus = SessionStatus.DONE) -> DrillSummary:
        """End the session: a graded but unrated answer is recorded with its proposed rating
        (nothing answered is lost), then the summary is stored and returned. Idempotent."""
        if self._finished is not None:
            return self._finished
        if self._pending is not None:
            self.rate(self._pending.proposed)
        summary = self.summary(status)  # `left` still counts a card shown but not answered
        self._current = None
        if self._record is not None:
            self.store.finish_session(
                self._record.id, self.clock(), status=status, summary=summary.to_dict()
            )
        self._finished = summary
        return summary

    def summary(self, status: SessionStatus = SessionStatus.OPEN) -> DrillSummary:
        """Counts by verdict and rating, time spent and what is due next, from the log."""
        now = self.clock()
        reviews = tuple(self.store.reviews(session_id=self.session_id)) if self._record else ()
        verdicts = Counter(r.verdict for r in reviews if r.verdict is not None)
        answered = sum(r.response_ms or 0 for r in reviews) / 1000
        due_tomorrow, new_tomorrow, next_due = self._outlook(now)
        return DrillSummary(
            session_id=self.session_id,
            status=status,
            reviews=len(reviews),
            cards=len({r.key for r in reviews}),
            new_cards=sum(1 for r in reviews if r.first),
            by_verdict=dict(verdicts),
            by_rating=dict(Counter(r.rating for r in reviews)),
            ungraded=sum(1 for r in reviews if r.verdict is None),
            # never less than the answering time: under a fixed GRILL_NOW the clock stands still
            seconds=max((now - self.started_at).total_seconds(), answered),
            answer_seconds=answered,
            left=self.left,
            next_due=next_due,
            due_tomorrow=due_tomorrow,
            new_tomorrow=new_tomorrow,
            reviewed=reviews,
        )

    def _outlook(self, now: datetime) -> tuple[int, int, datetime | None]:
        """Cards due by the end of the next study day, new cards then, the next due time."""
        keys = _in_scope(self.library, self.options)
        states = self.store.states()
        scoped = [states[k] for k in keys if k in states]
        tomorrow_ends = study_day(now) + timedelta(days=2)
        due_tomorrow = sum(1 for s in scoped if s.due < tomorrow_ends)
        unseen = len(keys) - len(scoped)
        upcoming = [s.due for s in scoped if s.due > now]
        return due_tomorrow, min(unseen, self.options.new_limit), min(upcoming, default=None)
