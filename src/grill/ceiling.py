"""The best forecast any method could make from a simulated learner's log: how much of the
calibration's miss is grill's, and how much is the log's.

A simulated learner's memory is drawn from one of grill.simulate's models, each with its own
prior over the learner's traits and each card's. Knowing those models and priors (which grill
does not), the forecast that makes the least error is the posterior mean given the log: every
model, its traits drawn `draws` times from its prior, replays the learner's answers; each card's
own traits are drawn `variants` times per draw and weighed by that card's answers alone (cards
are independent given the learner), and each draw by the whole log. Answers are weighed by the
chance the draw gave them; ratings and first looks say nothing about the memory (the simulated
learner rates by whether it recalled, and a first look's chance is its prior knowledge).

What it gives, beside the truth:

* `expected`: the posterior mean of the learner's expected score on the day, the best point
  forecast there is under squared error;
* `unavoidable`: the least posterior mass any window of +-`window` cards can leave outside,
  i.e. the chance that even the best forecaster misses by more than `window` on a learner with
  this log. Summed over learners it is how many misses no forecast can avoid. The sampled
  posterior is narrower than the true one (a few hundred draws, and each draw's own card
  uncertainty left out), so this is an underestimate.
* `family`: the posterior weight of each memory model: whether the log tells them apart.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from grill.model import Rating
from grill.odds import at_least, poisson_binomial
from grill.simulate import ALL_MEMORY_MODELS, memory_of

__all__ = ["Ceiling", "posterior"]

Event = tuple[int, float, bool, Rating]


@dataclass(frozen=True)
class Ceiling:
    expected: float
    p: float
    unavoidable: float
    family: tuple[tuple[str, float], ...]
    """Each memory model's posterior weight, heaviest first."""
    draws: float
    """Effective number of draws behind the posterior (1 means one draw took all the weight)."""


def _replay(
    kind: str, seed: str, draw: int, variants: int, cards: int, events: Sequence[Event], at: float
) -> tuple[float, list[float], float]:
    """One draw of a learner of model `kind`: the log-likelihood of the log, each card's
    variants marginalised; each card's posterior chance of recall at `at`; and the variance
    of their sum that the cards' own traits leave (cards are independent given the draw)."""
    base = memory_of(kind, random.Random(f"{seed}/{kind}/{draw}"), cards)
    loglik = [[0.0] * cards for _ in range(variants)]
    day: list[list[float]] = []
    for v in range(variants):
        memory = copy.deepcopy(base)
        if v:
            memory.draw_cards(random.Random(f"{seed}/{kind}/{draw}/{v}"), cards)
        seen: set[int] = set()
        ll = loglik[v]
        for card, when, recalled, rating in events:
            if card in seen:
                p = min(1 - 1e-9, max(1e-9, memory.chance(card, when)))
                ll[card] += math.log(p if recalled else 1 - p)
            memory.study(card, when, recalled, rating)
            seen.add(card)
        day.append([memory.chance(c, at) for c in range(cards)])
    total, chances, spread = 0.0, [], 0.0
    for c in range(cards):
        col = [loglik[v][c] for v in range(variants)]
        top = max(col)
        w = [math.exp(x - top) for x in col]
        s = sum(w)
        total += top + math.log(s / variants)
        mean = sum(wi * day[v][c] for v, wi in enumerate(w)) / s
        chances.append(mean)
        spread += sum(wi * (day[v][c] - mean) ** 2 for v, wi in enumerate(w)) / s
    return total, chances, spread


def posterior(
    events: Sequence[Event],
    at: float,
    *,
    cards: int = 45,
    target: int = 28,
    kinds: Sequence[str] = ALL_MEMORY_MODELS,
    draws: int = 200,
    variants: int = 12,
    window: float = 3.0,
    seed: str = "ceiling",
) -> Ceiling:
    """The posterior forecast at `at` (days since grill.simulate.START) given `events`, every
    model in `kinds` equally likely before the log."""
    rows: list[tuple[str, float, list[float]]] = []
    spreads: list[float] = []
    for kind in kinds:
        for d in range(draws):
            ll, chances, spread = _replay(kind, seed, d, variants, cards, events, at)
            rows.append((kind, ll, chances))
            spreads.append(spread)
    top = max(ll for _, ll, _ in rows)
    w = [math.exp(ll - top) for _, ll, _ in rows]
    z = sum(w)
    w = [x / z for x in w]
    scores = [sum(ch) for _, _, ch in rows]
    expected = sum(wi * s for wi, s in zip(w, scores, strict=True))
    p = sum(
        wi * at_least(poisson_binomial(ch), target)
        for wi, (_, _, ch) in zip(w, rows, strict=True)
        if wi > 1e-6
    )
    family: dict[str, float] = {}
    for wi, (kind, _, _) in zip(w, rows, strict=True):
        family[kind] = family.get(kind, 0.0) + wi
    return Ceiling(
        expected=expected,
        p=p,
        unavoidable=_least_outside(scores, spreads, w, window),
        family=tuple(sorted(family.items(), key=lambda kv: -kv[1])),
        draws=1 / sum(x * x for x in w),
    )


def _least_outside(
    means: Sequence[float], variances: Sequence[float], weights: Sequence[float], window: float
) -> float:
    """The least mass any interval [a - window, a + window] leaves outside a mixture of normals
    (`weights`, `means`, `variances`; a variance of 0 is a point), a searched on a 0.05-card
    grid."""
    live = [
        (m, math.sqrt(v), w) for m, v, w in zip(means, variances, weights, strict=True) if w > 1e-9
    ]
    lo, hi = min(m for m, _, _ in live) - window, max(m for m, _, _ in live) + window

    def inside(a: float) -> float:
        total = 0.0
        for m, sd, w in live:
            if sd < 1e-9:
                total += w if abs(m - a) <= window else 0.0
            else:
                z = 1 / (sd * math.sqrt(2))
                total += w * 0.5 * (math.erf((a + window - m) * z) - math.erf((a - window - m) * z))
        return total

    steps = max(1, round((hi - lo) / 0.05))
    return max(0.0, 1.0 - max(inside(lo + (hi - lo) * i / steps) for i in range(steps + 1)))
