"""How far to trust the forecast: simulated learners study through grill itself, then grill's
forecast for the interview morning is set against what each learner will really score.

Each learner has a hidden memory (grill.simulate: `fsrs` perturbed FSRS-6, `exp` exponential
forgetting with per-card difficulty, `fast` a fast forgetter, `slow` a slow one; and, with
`--memory`, the fresh models `actr`, `weibull` and `leech`, and `decay`, written later). It studies
`days` evenings through grill's own drill (grill.session.Drill over a real Store in a
temporary folder, with the interview date set, the person's memory refitted each evening as
`grill stats` would, and scheduling with the fitted parameters), answering each card it is
asked with its hidden chance of recall and rating again or good (now and then hard or easy).
With `--via due` it studies as a script driving `grill due` and `grill review` would: each
card the day's queue lists is reviewed once an evening. Then it stops, and its memory is
refitted on the whole log, as the drill's background refit does when the last evening ends;
`ahead` days later is the interview at 9 am. Compared, for every learner:

* truth: the sum of its hidden chances at the interview, and P(score >= target) from them;
* grill's forecast on the last evening, under the fitted memory (expected, 80% interval, P);
* the forecast grill made before it learned from the log: FSRS's average learner.

With `--follow F`, what is judged is `grill plan`'s "If you follow it" instead: the plan made F
evenings before the last (after that evening's study), against the same learner who goes on
studying those F evenings through the plan and then stops; the forecast beside it is the one
for stopping then.

Deterministic for a seed; writes only to a temporary folder.
"""

from __future__ import annotations

import math
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol

from grill import personal
from grill.ceiling import Ceiling, posterior
from grill.config import Settings
from grill.deck import load_library
from grill.memory import Candidate, Forecaster, MemoryFit
from grill.memory.events import Trace
from grill.memory.fitting import KAPPA_GRID
from grill.memory.models import FsrsModel
from grill.model import Deck, Rating
from grill.odds import at_least, poisson_binomial
from grill.plan import Deadline
from grill.readiness import forecast_for
from grill.report.planning import plan_view
from grill.session import Drill, DrillOptions, plan, record_answer
from grill.simulate import MEMORY_MODELS, MODEL_CHOICES, START, learner_rating, memory_of
from grill.store import Store

__all__ = [
    "Calibration",
    "LearnerResult",
    "Studied",
    "average_fit",
    "candidates",
    "calibrate",
    "follower",
    "format_calibration",
    "judge",
    "main",
    "study",
]

_ANSWER = timedelta(seconds=60)
_VIA = {
    "drill": "grill's drill",
    "due": "grill due and grill review (each listed card once an evening)",
}


@dataclass(frozen=True)
class LearnerResult:
    memory: str
    learner: int
    reviews: int
    true_expected: float
    true_p: float
    expected: float
    low: float
    high: float
    p: float
    default_expected: float
    default_p: float
    candidates: tuple[tuple[str, float, float], ...] = ()
    """Each candidate model of the forecast: (name, weight, expected score under it)."""
    ceiling: Ceiling | None = None
    """The best forecast the log allows, knowing the simulator's models (`--ceiling`)."""

    @property
    def covered(self) -> bool:
        return self.low <= self.true_expected <= self.high


@dataclass(frozen=True)
class Calibration:
    days: int
    ahead: int
    target: int
    rows: tuple[LearnerResult, ...]
    via: str = "drill"
    follow: int = 0
    """Evenings the judged plan was made before the last (0: the forecast for stopping)."""

    def summary(self) -> dict[str, float]:
        rows = self.rows
        n = len(rows)
        return {
            "learners": n,
            "p_within_015": sum(abs(r.p - r.true_p) <= 0.15 for r in rows) / n,
            "covered": sum(r.covered for r in rows) / n,
            "within_3": sum(abs(r.expected - r.true_expected) <= 3 for r in rows) / n,
            "within_2": sum(abs(r.expected - r.true_expected) <= 2 for r in rows) / n,
            "max_half_width": max((r.high - r.low) / 2 for r in rows),
            "mean_abs_error": sum(abs(r.expected - r.true_expected) for r in rows) / n,
            "default_mean_abs_error": sum(abs(r.default_expected - r.true_expected) for r in rows)
            / n,
            "default_p_within_015": sum(abs(r.default_p - r.true_p) <= 0.15 for r in rows) / n,
        }

    def ceiling_summary(self) -> dict[str, float] | None:
        """The same figures for the best forecast each log allows (None without `--ceiling`),
        and `unavoidable`: the share of learners even it is expected to miss by more than 3."""
        best = [(r, r.ceiling) for r in self.rows if r.ceiling is not None]
        if not best:
            return None
        n = len(best)
        return {
            "learners": n,
            "p_within_015": sum(abs(c.p - r.true_p) <= 0.15 for r, c in best) / n,
            "within_3": sum(abs(c.expected - r.true_expected) <= 3 for r, c in best) / n,
            "mean_abs_error": sum(abs(c.expected - r.true_expected) for r, c in best) / n,
            "unavoidable": sum(c.unavoidable for _, c in best) / n,
            "own_model": sum(dict(c.family).get(r.memory, 0.0) for r, c in best) / n,
        }


def average_fit() -> MemoryFit:
    """FSRS's average learner, certain of itself: the forecast before grill learned from logs."""
    peaked = tuple(0.0 if abs(math.log(k)) < 1e-9 else -1e9 for k in KAPPA_GRID)
    return MemoryFit(None, 0, 0, 0, (Candidate(FsrsModel("default"), 1.0, peaked),))


@dataclass(frozen=True)
class Studied:
    """A learner after its study: its log is in the store; `truth` holds its hidden chance of
    recall of each card on the interview morning."""

    memory: str
    learner: int
    reviews: int
    last: datetime
    interview: datetime
    truth: tuple[float, ...]
    events: tuple[tuple[int, float, bool, Rating], ...] = ()
    """Every answer in order: (card index, days since START, recalled, rating)."""


def learner(
    kind: str,
    index: int,
    *,
    days: int,
    ahead: int,
    target: int,
    seed: int,
    home: Path,
    via: str = "drill",
    ceiling: bool = False,
) -> LearnerResult:
    """One learner studying through grill (`study`) in the home `home`, then judged; with
    `ceiling`, beside the best forecast its log allows (grill.ceiling)."""
    studied = study(kind, index, days=days, ahead=ahead, seed=seed, home=home, via=via)
    with Store.open(home / "grill.db", now=studied.last) as store:
        # the fit the drill's background refit stores when the last evening ends
        row = judge(studied, store, target, personal.refit(store, studied.last))
    if not ceiling:
        return row
    best = posterior(
        studied.events, _days(studied.interview), cards=len(studied.truth), target=target
    )
    return replace(row, ceiling=best)


def follower(
    kind: str,
    index: int,
    *,
    days: int,
    follow: int,
    ahead: int,
    target: int,
    seed: int,
    home: Path,
    via: str = "drill",
) -> LearnerResult:
    """`grill plan`'s "If you follow it", made `follow` evenings before the last, against the
    same learner who then follows it: the first `days - follow` evenings are the same study in
    both homes (the same seed, interview and schedule), the second home goes on to the end.
    The default columns hold the forecast for stopping that evening."""
    early = study(
        kind,
        index,
        days=days - follow,
        ahead=ahead + follow,
        seed=seed,
        home=home / "early",
        via=via,
    )
    full = study(kind, index, days=days, ahead=ahead, seed=seed, home=home / "full", via=via)
    settings = Settings(interview_date=full.interview.date(), target=target)
    with Store.open(home / "early" / "grill.db", now=early.last) as store:
        view = plan_view(store, load_library(user_decks=False), settings, early.last)
    return _result(kind, index, full.reviews, full.truth, view.followed, view.idle, target)


def study(
    kind: str, index: int, *, days: int, ahead: int, seed: int, home: Path, via: str = "drill"
) -> Studied:
    """The learner's `days` evenings of study in the home `home`: through grill's drill
    (`via="drill"`: re-asks in the session included), or as a script driving `grill due` and
    `grill review` would (`via="due"`: each evening, every card the day's queue lists is
    reviewed once, and a card failed waits for the next evening)."""
    library = load_library(user_decks=False)
    deck = library.main_deck()
    assert deck is not None
    ids = list(deck.cards.ids)
    where = {cid: i for i, cid in enumerate(ids)}
    traits = random.Random(f"{seed}/{kind}/{index}")
    memory = memory_of(kind, traits, len(ids))
    known = [traits.random() * 0.5 for _ in ids]
    answers = random.Random(f"{seed}/{kind}/{index}/answers")
    random.seed(f"{seed}/{kind}/{index}/fuzz")  # fsrs fuzzes intervals with the global source
    interview = START + timedelta(days=days + ahead, hours=9)
    seen: set[int] = set()
    events: list[tuple[int, float, bool, Rating]] = []
    clock = [START]
    reviews = 0
    with Store.open(home / "grill.db", now=START) as store:
        for day in range(days):
            clock[0] = START + timedelta(days=day, hours=18)
            personal.load(store, clock[0])  # refit as the evening's `grill stats` would
            sched = personal.scheduler(store, 0.9, clock[0])
            options = DrillOptions(new_limit=15, deadline=Deadline(interview, sched))

            def answer(card_id: str) -> Rating:
                i, at = where[card_id], _days(clock[0])
                chance = memory.chance(i, at) if i in seen else known[i]
                recalled = answers.random() < chance
                rating = learner_rating(answers, recalled)
                memory.study(i, at, recalled, rating)
                seen.add(i)
                events.append((i, at, recalled, rating))
                return rating

            if via == "due":  # `grill due --json`, then `grill review` for each card listed
                queue = plan(store, library, options, clock[0])
                for listed in [c for c, _ in queue.due] + list(queue.new):
                    record_answer(store, sched, listed, answer(listed.id), clock[0])
                    reviews += 1
                    clock[0] += _ANSWER
                continue
            drill = Drill(store, sched, library, options, clock=lambda: clock[0])
            while (card := drill.next_card()) is not None:
                drill.rate(answer(card.id))
                reviews += 1
                clock[0] += _ANSWER
            drill.finish()
    truth = tuple(memory.chance(i, _days(interview)) for i in range(len(ids)))
    return Studied(kind, index, reviews, clock[0], interview, truth, tuple(events))


def judge(studied: Studied, store: Store, target: int, fitted: MemoryFit) -> LearnerResult:
    """grill's forecast on the last evening under `fitted`, and FSRS's average learner's,
    against the learner's truth."""
    deck = load_library(user_decks=False).main_deck()
    assert deck is not None
    last = studied.last
    by_card = personal.deck_traces(store.reviews(deck=deck.name), deck.name, last.tzinfo or UTC)
    ready = forecast_for(deck, by_card, fitted, studied.interview, target)
    plain = forecast_for(deck, by_card, average_fit(), studied.interview, target)
    row = _result(
        studied.memory, studied.learner, studied.reviews, studied.truth, ready, plain, target
    )
    return replace(row, candidates=candidates(fitted, deck, by_card, studied.interview))


def candidates(
    fitted: MemoryFit, deck: Deck, by_card: Mapping[str, Trace], at: datetime
) -> tuple[tuple[str, float, float], ...]:
    """Each candidate's share of the forecast at `at`: (name, weight, expected score), heaviest
    first, as each candidate sees it (before the spread is calibrated). Where the forecast's
    interval is wide, this says which curves disagree."""
    forecaster = Forecaster(fitted, [by_card.get(cid) for cid in deck.cards.ids])
    comps = forecaster.at(at, calibrated=False)
    weight: dict[str, float] = {}
    score: dict[str, float] = {}
    for c in comps:
        weight[c.name] = weight.get(c.name, 0.0) + c.weight
        score[c.name] = score.get(c.name, 0.0) + c.weight * c.expected
    return tuple(
        sorted(((n, w, score[n] / w) for n, w in weight.items() if w > 0), key=lambda x: -x[1])
    )


class _Forecast(Protocol):
    """What is judged: a readiness forecast, or a plan's projection."""

    @property
    def expected(self) -> float: ...
    @property
    def low(self) -> float | None: ...
    @property
    def high(self) -> float | None: ...
    @property
    def p_target(self) -> float: ...


def _result(
    kind: str,
    index: int,
    reviews: int,
    truth: Sequence[float],
    ready: _Forecast,
    plain: _Forecast,
    target: int,
) -> LearnerResult:
    return LearnerResult(
        memory=kind,
        learner=index,
        reviews=reviews,
        true_expected=sum(truth),
        true_p=at_least(poisson_binomial(truth), target),
        expected=ready.expected,
        low=ready.low if ready.low is not None else ready.expected,
        high=ready.high if ready.high is not None else ready.expected,
        p=ready.p_target,
        default_expected=plain.expected,
        default_p=plain.p_target,
    )


def _days(moment: datetime) -> float:
    return (moment - START).total_seconds() / 86400


def calibrate(
    memories: Sequence[str] = MEMORY_MODELS,
    learners: int = 6,
    *,
    days: int = 10,
    ahead: int = 4,
    target: int = 28,
    seed: int = 1,
    via: str = "drill",
    follow: int = 0,
    ceiling: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Calibration:
    """Every learner of every memory model, each in its own temporary home; with `follow`,
    the plan made that many evenings before the last is judged (`follower`)."""
    rows = []
    for kind in memories:
        for i in range(learners):
            if progress:
                progress(f"{kind} learner {i + 1}/{learners}")
            with tempfile.TemporaryDirectory(prefix="grill-calibrate-") as home:
                common = {"days": days, "ahead": ahead, "target": target, "seed": seed}
                if follow:
                    row = follower(kind, i, follow=follow, home=Path(home), via=via, **common)
                else:
                    row = learner(kind, i, home=Path(home), via=via, ceiling=ceiling, **common)
                rows.append(row)
    return Calibration(days, ahead, target, tuple(rows), via, follow)


def format_calibration(cal: Calibration, components: bool = False) -> str:
    """One line per learner (with `components`, a second line of each candidate model's weight
    and expected score), then the summary against the targets."""
    t = cal.target
    judged, beside = "grill forecast (80%)", "average learner"
    lines = [
        f"Calibration: {cal.days} study evenings through {_VIA[cal.via]}, interview "
        f"{cal.ahead} days after the last, target {t}."
    ]
    if cal.follow:
        judged, beside = "if you follow it (80%)", "if stopped then"
        lines.append(
            f"Judged: `grill plan` made {cal.follow} evenings before the last, against the learner "
            "who followed it."
        )
    lines.append(
        f"{'memory':<6} {'#':>2} {'reviews':>7}  {'truth':>12}  {judged:>30}  {beside:>17}"
    )
    for r in cal.rows:
        lines.append(
            f"{r.memory:<6} {r.learner:>2} {r.reviews:>7}  "
            f"{r.true_expected:5.1f} P={r.true_p:.2f}  "
            f"{r.expected:5.1f} [{r.low:5.1f}, {r.high:5.1f}] P={r.p:.2f}"
            f"{'' if r.covered else ' (missed)':>9}  {r.default_expected:5.1f} P={r.default_p:.2f}"
        )
        if components and r.candidates:
            parts = " · ".join(f"{n} {w:.2f} at {e:.1f}" for n, w, e in r.candidates)
            lines.append(f"{'':>10}candidates: {parts}")
        if r.ceiling is not None:
            c = r.ceiling
            models = " · ".join(f"{k} {w:.2f}" for k, w in c.family[:3] if w >= 0.01)
            lines.append(
                f"{'':>10}best the log allows: {c.expected:5.1f} P={c.p:.2f} "
                f"(misses by >3 with chance {c.unavoidable:.2f}; {models}; "
                f"{c.draws:.0f} draws' worth)"
            )
    s = cal.summary()
    lines += [
        "",
        f"|forecast P(>={t}) - true P| <= 0.15: {s['p_within_015']:.0%} of learners "
        f"({beside}: {s['default_p_within_015']:.0%})",
        f"true expected score inside the 80% interval: {s['covered']:.0%} of learners; widest "
        f"interval +-{s['max_half_width']:.1f} cards",
        f"|forecast - true expected| <= 3 cards: {s['within_3']:.0%}; <= 2: {s['within_2']:.0%}; "
        f"mean error {s['mean_abs_error']:.2f} cards ({beside}: "
        f"{s['default_mean_abs_error']:.2f})",
    ]
    best = cal.ceiling_summary()
    if best is not None:
        lines += [
            "",
            "The best forecast each log allows, knowing the simulator's memory models:",
            f"|P - true P| <= 0.15: {best['p_within_015']:.0%}; |expected - true| <= 3 cards: "
            f"{best['within_3']:.0%}; mean error {best['mean_abs_error']:.2f} cards",
            f"misses by more than 3 cards no forecast can avoid: {best['unavoidable']:.0%} of "
            f"learners (an underestimate); the learner's own model's posterior weight "
            f"{best['own_model']:.2f} on average",
        ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m grill.calibration` (scripts/simulate --calibrate): print the calibration."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="simulate --calibrate", description=main.__doc__)
    parser.add_argument("--learners", type=int, default=6, help="per memory model")
    parser.add_argument("--days", type=int, default=10, help="study evenings")
    parser.add_argument("--ahead", type=int, default=4, help="days from the last to the interview")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", action="append", choices=MODEL_CHOICES, help="repeatable")
    parser.add_argument(
        "--via",
        choices=tuple(_VIA),
        default="drill",
        help="drill: grill's drill; due: a script running grill due and grill review",
    )
    parser.add_argument(
        "--follow",
        type=int,
        default=0,
        metavar="F",
        help="judge `grill plan`'s 'If you follow it', made F evenings before the last",
    )
    parser.add_argument(
        "--components",
        action="store_true",
        help="under each learner, each candidate model's weight and expected score",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="beside each forecast, the best one the learner's log allows, knowing the "
        "simulator's memory models and priors (grill.ceiling; about 8 s a learner)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.follow < args.days:
        parser.error("--follow must be at least 0 and fewer than --days")
    if args.ceiling and args.follow:
        parser.error("--ceiling judges the forecast for stopping; it cannot be used with --follow")
    cal = calibrate(
        args.memory or MEMORY_MODELS,
        args.learners,
        days=args.days,
        ahead=args.ahead,
        seed=args.seed,
        via=args.via,
        follow=args.follow,
        ceiling=args.ceiling,
        progress=lambda step: print(f"  {step}", file=sys.stderr, flush=True),
    )
    print(format_calibration(cal, components=args.components))


if __name__ == "__main__":
    main()
