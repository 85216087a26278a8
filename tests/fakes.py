"""Stand-ins shared by the mock and case tests: a clock that moves on command, graders that
judge by a keyword, and a small loss-spike case built in code."""

from __future__ import annotations

from grill.model import (
    Card,
    Case,
    CaseGrade,
    CasePart,
    Flag,
    FollowUp,
    Grade,
    PartGrade,
    Point,
    Verdict,
)


class FakeClock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def fake_grade(card: Card, text: str) -> Grade:
    """An answer containing 'right' is correct, 'half' partial, anything else wrong."""
    if "right" in text:
        verdict = Verdict.CORRECT
    elif "half" in text:
        verdict = Verdict.PARTIAL
    else:
        verdict = Verdict.WRONG
    points = card.rubric.points
    hit = points if verdict == Verdict.CORRECT else ()
    missed = () if hit else points
    return Grade(card.id, verdict, 1.0 if hit else 0.0, hit, missed, (), text, card.answer)


def _point(pid: str, says: str) -> Point:
    return Point(pid, says, (pid,))


CASE = Case(
    id="spike",
    title="Loss spikes",
    question="What causes sudden loss spikes in long pre-training runs?",
    tests="tests",
    covers="covers",
    wrong_answers="wrong answers",
    parts=(
        CasePart(
            "culprits",
            "names likely causes",
            (_point("grad-norm", "gradient-norm explosion"), _point("fp16", "FP16 overflow")),
        ),
        CasePart(
            "triage",
            "checks and recovers",
            (_point("rollback", "roll back to the last stable checkpoint"),),
        ),
        CasePart("prevention", "prevents the next one", (_point("pre-ln", "pre-layer-norm"),)),
    ),
    red_flags=(_point("restart_from_scratch", "restarting training from scratch"),),
    follow_ups_text="follow-ups",
    follow_ups=(
        FollowUp(
            "Which layer caused it?",
            (_point("per-layer", "per-layer grad norms"), _point("first", "first layer to spike")),
        ),
        FollowUp("FP16 vs BF16 overflow?", (_point("range", "FP16 narrow range"),)),
    ),
    example="At step 42,000 the loss jumps from 2.1 to 8.7 [not markup].",
    source="rohan-paul.com",
    deck="loss-spike-case",
)


def fake_grade_case(case: Case, text: str) -> CaseGrade:
    """Items whose id appears in the text are hit; 'scratch' raises the red flag."""
    parts = []
    for part in case.parts:
        hit = tuple(i for i in part.items if i.id in text)
        missed = tuple(i for i in part.items if i.id not in text)
        parts.append(PartGrade(part.id, len(hit) >= part.need, hit, missed))
    flags = tuple(Flag(f.id, f.says, "scratch") for f in case.red_flags if "scratch" in text)
    covered = sum(p.covered for p in parts)
    if flags or covered == 0:
        verdict = Verdict.WRONG
    elif covered == len(parts):
        verdict = Verdict.CORRECT
    else:
        verdict = Verdict.PARTIAL
    return CaseGrade(case.id, verdict, covered / len(parts), tuple(parts), flags, text)
