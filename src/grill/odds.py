"""Exact score distributions: how many of n independent cards, each with its own chance, are
recalled. A Poisson-binomial variable, computed by dynamic programming (O(n^2)), never by a
normal approximation: the tail P(score >= 28) is what matters and is where that is poorest.

A leaf below readiness and the simulator, which both need it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["at_least", "poisson_binomial"]


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
