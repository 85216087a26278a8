"""Exact score distributions: how many of n independent cards, each with its own chance, are
recalled. A Poisson-binomial variable, computed by dynamic programming (O(n^2)), never by a
normal approximation: the tail P(score >= 28) is what matters and is where that is poorest.

A leaf below readiness and the simulator, which both need it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["at_least", "poisson_binomial", "wilson"]


def poisson_binomial(chances: Iterable[float]) -> tuple[float, ...]:
    """P(score == k) for k = 0..n, for independent events with the given chances.

    Adds one event at a time: after it, P(k) = P_old(k)(1 - p) + P_old(k - 1)p. Chances outside
    [0, 1] are clamped, so rounding noise never makes a probability negative.
    """
    dist = [1.0]
    for raw in chances:
        p = min(1.0, max(0.0, float(raw)))
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1.0 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    return tuple(dist)


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
