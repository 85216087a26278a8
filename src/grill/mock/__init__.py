"""The mock-interview engine: questions asked cold against the clock, scored against the target.

No UI and no terminal: the caller shows each question, collects what the user typed (or the key
points they ticked after speaking) and hands it to `MockRun`. Time comes from an injected clock,
answers go to a recorder the moment they are given, and the result is scored the way the seed
defines it: X of the cards asked answered cold, against 28 of 45 (floor 24).

- `grill.mock.engine`: planning (order, limits) and running (`MockRun`, `Countdown`).
- `grill.mock.questions`: the types they share (`Question`, `MockPlan`, `MockAnswer`).
- `grill.mock.score`: the score, by section and tier, with every miss.
- `grill.mock.summary`: a mock as its session summary keeps it (`to_dict`, `from_dict`).
- `grill.mock.record`: keeping a mock in the store (`StoreRecorder`), schedule updates.
- `grill.mock.case`: the open-ended case (`CaseRun`, kept by `CaseKeeper`).
"""

from __future__ import annotations

from grill.mock.case import CaseAttempt, CaseKeeper, CaseRun, FollowUpAnswer, load_case_grader
from grill.mock.engine import (
    Clock,
    Countdown,
    Grader,
    MockOptions,
    MockRecorder,
    MockRun,
    full_target,
    grade_ticks,
    is_quick_fire,
    load_grader,
    plan_mock,
    tick_verdict,
)
from grill.mock.questions import MockAnswer, MockPlan, Question
from grill.mock.record import StoreRecorder, rating_for
from grill.mock.score import (
    ABORTED,
    COMPLETED,
    Miss,
    MockResult,
    scale,
    score_mock,
)
from grill.mock.summary import (
    MockSummary,
    SavedAnswer,
    SavedMiss,
    SavedResult,
    SectionScore,
    TierScore,
    VerdictCounts,
)

__all__ = [
    "ABORTED",
    "COMPLETED",
    "CaseAttempt",
    "CaseKeeper",
    "CaseRun",
    "Clock",
    "Countdown",
    "FollowUpAnswer",
    "Grader",
    "Miss",
    "MockAnswer",
    "MockOptions",
    "MockPlan",
    "MockRecorder",
    "MockResult",
    "MockRun",
    "MockSummary",
    "Question",
    "SectionScore",
    "SavedAnswer",
    "SavedMiss",
    "SavedResult",
    "StoreRecorder",
    "TierScore",
    "VerdictCounts",
    "full_target",
    "grade_ticks",
    "is_quick_fire",
    "load_case_grader",
    "load_grader",
    "plan_mock",
    "rating_for",
    "scale",
    "score_mock",
    "tick_verdict",
]
