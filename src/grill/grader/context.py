"""The context rules of the grader as data, in the manner of NegEx/ConText: a table of triggers.

Each trigger has an id, a category (what it does to the words in its scope), a direction (where
its scope lies: after it, before it, or both), a window (how many words the scope reaches; 0: to
the end of the clause), its words and examples of answers it reads. The grader's scope algorithm
(`grill.grader.text`) reads its word sets from this table by id
and nowhere else, so a rule is added, documented and measured in one place: `docs/grader-rules.md`
lists every trigger with its examples, and `scripts/ablate` turns each one off in turn
(`GRILL_GRADER_WITHOUT=id,id`) to measure what it earns on a set it was not written for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

__all__ = ["TRIGGERS", "Category", "Direction", "Trigger", "disabled", "trigger", "words"]


class Category(Enum):
    NEGATION = "negation"  # the words in scope are denied
    SOFT_NEGATION = "soft-negation"  # stops a misconception or red flag, not a key point
    DISMISSAL = "dismissal"  # a wrong idea named to reject it
    PSEUDO = "pseudo"  # looks like a trigger, is none ("not only X" asserts X)
    CONDITION = "condition"  # a condition or purpose, not a claim
    SUSPECT = "suspect"  # "check X isn't broken": X is named as a suspect
    RETRACTION = "retraction"  # "cosine - no wait": the clause before is taken back
    TERMINATION = "termination"  # ends a scope
    CONTINUATION = "continuation"  # looks like a scope end, is none (an aside)


class Direction(Enum):
    FORWARD = "forward"  # scope after the trigger
    BACKWARD = "backward"  # scope before the trigger
    BOTH = "both"


@dataclass(frozen=True)
class Trigger:
    id: str
    category: Category
    direction: Direction
    window: int  # words the scope reaches; 0: to the end of the clause
    words: frozenset[str]
    examples: tuple[str, ...]


def _t(
    id: str, category: Category, direction: Direction, window: int, words: str, *examples: str
) -> Trigger:
    return Trigger(id, category, direction, window, frozenset(words.split()), examples)


N, S, D, P = Category.NEGATION, Category.SOFT_NEGATION, Category.DISMISSAL, Category.PSEUDO
F, B, BOTH = Direction.FORWARD, Direction.BACKWARD, Direction.BOTH

TRIGGERS: tuple[Trigger, ...] = (
    _t(
        "negation.hard",
        N,
        F,
        3,
        "no not never without nothing nothin none neither nor cannot lack lacks lacking lacked",
        "fp16 doesn't need loss scaling",
        "no loss scaling with bf16",
    ),
    _t(
        "negation.list",
        N,
        F,
        0,
        ":",
        "What I would not do: restart from scratch, blame bit flips, or grow the batch.",
        "Not on my list: retraining from step zero, a larger batch.",
    ),
    _t(
        "negation.verbal",
        N,
        B,
        3,
        "never cannot",
        "loss scaling is not needed",
        "clipping is never used there",
    ),
    _t(
        "negation.soft",
        S,
        F,
        3,
        "avoid avoids avoiding avoided unlike",
        "avoid restarting from scratch",
        "unlike a bad batch it's persistent",
    ),
    _t(
        "dismissal",
        D,
        BOTH,
        0,
        "unlikely rare rarely seldom myth resort improbable doubtful tempting tempted"
        " counterproductive misguided mistakenly wrongly",
        "bit flips are rare",
        "restarting is a last resort",
    ),
    _t(
        "dismissal.blame-before",
        D,
        F,
        2,
        "blame blaming assume assuming suspect suspecting jump pin pins pinning attribute chalk",
        "before anyone pins it on bit flips, check the grad norm",
    ),
    _t(
        "pseudo.not-only",
        P,
        F,
        1,
        "only sure necessarily",
        "not only the lr but also clipping",
    ),
    _t(
        "condition",
        Category.CONDITION,
        F,
        0,
        "if when unless",
        "if you never hit the plateau you're compute-limited",
    ),
    _t(
        "condition.purpose",
        Category.CONDITION,
        F,
        0,
        "so if when unless until otherwise lest",
        "scale the loss so grads don't underflow",
    ),
    _t(
        "suspect.check",
        Category.SUSPECT,
        F,
        0,
        "check checks checking ensure verify confirm whether test",
        "check the schedule isn't broken",
    ),
    _t(
        "retraction",
        Category.RETRACTION,
        B,
        0,
        "no nope nah",
        "cosine - no, inverse sqrt",
        "cosine? no - inverse sqrt",
    ),
    _t(
        "retraction.words",
        Category.RETRACTION,
        B,
        0,
        "wait sorry scratch that oops not",
        "warmup ramps down - no wait, up",
    ),
    _t(
        "termination.clause",
        Category.TERMINATION,
        BOTH,
        0,
        "and but so because since while whilst whereas although though however then if unless"
        " until which that who when where otherwise yet therefore hence plus",
        "no loss scaling, and bf16 is safer: 'safer' is not negated",
    ),
    _t(
        "termination.side",
        Category.TERMINATION,
        BOTH,
        0,
        "but however although though whereas while whilst yet instead",
        "not fp16 but bf16",
    ),
    _t(
        "continuation.aside",
        Category.CONTINUATION,
        BOTH,
        0,
        "practice honestly frankly arguably admittedly generally typically usually often mostly"
        " importantly crucially notably experience view opinion course fact truth theory"
        " reality short fair least mind general",
        "FP16, in practice, is not safer",
    ),
)

_BY_ID = {t.id: t for t in TRIGGERS}


def disabled() -> frozenset[str]:
    """Trigger ids turned off for an ablation run (`GRILL_GRADER_WITHOUT=id,id`)."""
    return frozenset(x.strip() for x in os.environ.get("GRILL_GRADER_WITHOUT", "").split(","))


def trigger(id: str) -> Trigger:
    return _BY_ID[id]


LIST_LEAD = 8  # negation.list: at most this many words before the colon


def words(id: str) -> frozenset[str]:
    """A trigger's words; none while it is turned off for an ablation run."""
    return frozenset() if id in disabled() else _BY_ID[id].words
