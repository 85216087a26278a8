"""Exact score distributions: how many of n independent cards, each with its own chance, are
recalled. A Poisson-binomial variable, computed by dynamic programming (O(n^2)), never by a
normal approximation: the tail P(score >= 28) is what matters and is where that is poorest.

A leaf below readiness and the simulator, which both need it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["at_least", "interval_text", "poisson_binomial", "wilson"]


def poisson_binomial(chances: Iterable[float]) -> tuple[float, ...]:
    """P(score == k) for k = 0..n, for independent events with the given chances.

    The distribution is the product of the polynomials (1 - p) + p x, one per event: multiplied
    in pairs, then pairs of pairs (numpy's exact convolution; every term is positive, so nothing
    cancels), which keeps a deck of a thousand cards to milliseconds. An event of chance 0 (a
    card never studied) changes nothing and is skipped. Chances outside [0, 1] are clamped, so
    rounding noise never makes a probability negative.
    """
    import numpy as np

    ps = [min(1.0, max(0.0, float(raw))) for raw in chances]
    factors = [np.array([1.0 - p, p]) for p in ps if p > 0.0]
    while len(factors) > 1:
        paired = [np.convolve(a, b) for a, b in zip(factors[::2], factors[1::2], strict=False)]
        factors = paired + factors[len(paired) * 2 :]
    dist = np.zeros(len(ps) + 1)
    top = factors[0] if factors else np.ones(1)
    dist[: len(top)] = np.clip(top, 0.0, 1.0)
    return tuple(float(x) for x in dist)


def at_least(distribution: Sequence[float], k: int) -> float:
    """P(score >= k) from a distribution P(score == i); k <= 0 is certain, k > n impossible."""
    if k <= 0:
        return 1.0
    return min(1.0, max(0.0, sum(distribution[k:])))


def wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval for a proportion seen as `successes` of `n` (z: the normal
    quantile, 1.2816 for 80%). Unlike the plain p +- z*se it stays inside [0, 1] and is not
    empty at 0 of n or n of n, which is where a short mock's score often lands."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def interval_text(low: float | None, high: float | None) -> str:
    """An 80% interval of an expected score as text, e.g. "80%: 21-27" ("" without one); a
    narrow one keeps a decimal ("80%: 43.1-44.0")."""
    if low is None or high is None:
        return ""
    digits = 1 if high - low < 3 else 0
    return f"80%: {low:.{digits}f}-{high:.{digits}f}"
