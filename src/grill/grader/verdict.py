"""The verdict policy: how many key points make an answer correct or partial.

One home for the rule, shared by the typed-answer grader (`grill.grader.grade`) and the mock's
grading of spoken answers by ticked key points (`grill.mock.tick_verdict`). It imports only the
model, so a caller that needs the policy does not pay for the grader's lexicon.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from grill.model import Rubric, Verdict

__all__ = ["correct_needed", "verdict_of"]


def correct_needed(points: int) -> int:
    """The standard's list rule: how many of n points make an answer correct
    (1->1, 2->2, 3-4->2, 5-6->3, more->half rounded up)."""
    if points <= 2:
        return max(points, 1)
    if points <= 4:
        return 2
    if points <= 6:
        return 3
    return math.ceil(points / 2)


def verdict_of(rubric: Rubric, matched: Iterable[str], vague: bool = False) -> Verdict:
    """The verdict of an answer that states the key points `matched` (ids) and nothing false.

    Correct: at least the rubric's `correct` points (default: the list rule) and every point it
    `requires`. Partial: at least its `partial` points (default 1), or a point said only vaguely.
    Wrong otherwise. A flagged answer (misconception, contradiction) is wrong before this is asked.
    """
    ids = {p.id for p in rubric.points} & set(matched)
    need = rubric.correct if rubric.correct is not None else correct_needed(len(rubric.points))
    partial = rubric.partial if rubric.partial is not None else 1
    if len(ids) >= need and set(rubric.requires) <= ids:
        return Verdict.CORRECT
    if (ids and len(ids) >= partial) or vague:
        return Verdict.PARTIAL
    return Verdict.WRONG
