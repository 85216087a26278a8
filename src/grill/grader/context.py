"""The context rules of the grader as data, in the manner of NegEx/ConText: a table of triggers.

Each trigger has an id, a category (what it does to the words in its scope), a direction (where
its scope lies: after it, before it, or both), a window (how many words the scope reaches, the
clause, or the sentence; `wide`: the window for misconceptions), its words, the words it must
stand next to, and examples. The one scope algorithm (`grill.grader.scope`) reads it and
nothing else; the tokenizer (`grill.grader.text`) takes its word sets from here. A rule is
added, documented and measured in one place: `docs/grader-rules.md` lists every trigger with
its examples, and `scripts/ablate` turns each one off in turn (`GRILL_GRADER_WITHOUT=id,id`)
to measure what it earns on a set it was not written for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "CLAUSE",
    "SENTENCE",
    "TRIGGERS",
    "Category",
    "Direction",
    "Trigger",
    "disabled",
    "near",
    "trigger",
    "words",
]


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


CLAUSE = 0  # a window: to the end (or start) of the clause
SENTENCE = -1  # a window: to the end of the sentence, crossing commas; a side change cuts it


@dataclass(frozen=True)
class Trigger:
    id: str
    category: Category
    direction: Direction
    window: int  # words the scope reaches; CLAUSE, or SENTENCE
    words: frozenset[str]
    examples: tuple[str, ...]
    wide: int = 0  # the window read for misconceptions and red flags; 0: `window`
    near: frozenset[str] = frozenset()  # words that must stand next to it for it to fire
    alone: bool = False  # fires only as a clause of its own, reaching the words before it
    joins: str = ""  # the trigger whose clause or scope its words carry on


def _t(
    id: str,
    category: Category,
    direction: Direction,
    window: int,
    words: str,
    *examples: str,
    wide: int = 0,
    near: str = "",
    alone: bool = False,
    joins: str = "",
) -> Trigger:
    return Trigger(
        id,
        category,
        direction,
        window,
        frozenset(words.split()),
        examples,
        wide or window,
        frozenset(near.split()),
        alone,
        joins,
    )


N, S, D, P = Category.NEGATION, Category.SOFT_NEGATION, Category.DISMISSAL, Category.PSEUDO
C, R = Category.CONDITION, Category.RETRACTION
F, B, BOTH = Direction.FORWARD, Direction.BACKWARD, Direction.BOTH

_PREDICATES = """need needed required require requires necessary help helps matter matters use used
    work works important relevant useful apply applies enabled true correct right case
    effective problem issue cause causes fix fixes solve happen happens exist exists enough
    sufficient worth mandatory essential survive survives warranted justified advisable advised
    recommended presumed assumed suspected blamed serious credible plausible likely convincing
    sensible realistic sign signs symptom symptoms indicator indicators"""
_HELPING = "help helps fix fixes solve solves smooth cure save rescue work"
_BAD_OUTCOMES = """diverge explode nan overflow underflow unstable spike fail crash break collapse
    worse degrade hurt suffer forget stall die garbage corrupt exposed vulnerable risk doomed
    trouble blow"""

_JUDGED = """lazy cop copout excuse scapegoat handwave handwavy superstition folklore unfounded
    baseless unjustified unwarranted speculative premature overkill counterexample
    counterexamples silly foolish absurd ridiculous mistake mistaken blunder mad crazy insane
    bonkers madness unwise inadvisable simplistic superficial bandaid reckless irresponsible
    futile shortsighted misplaced contraindicated pitfall pitfalls daft"""
"""Words that judge an idea named beside them as a poor one ("blaming the hardware is lazy")."""

TRIGGERS: tuple[Trigger, ...] = (
    _t(
        "negation.hard",
        N,
        F,
        3,
        "no not never without nothing nothin nowt nada zilch none neither nor cannot"
        " lack lacks lacking lacked nobody noone nuh"
        " cannae canna dinnae didnae isnae wasnae wouldnae couldnae shouldnae willnae nae doh"
        " naethin nuthin nuffin divvent",
        "fp16 doesn't need loss scaling",
        "no loss scaling with bf16",
        "nobody's restarting from scratch",
        "it cannae show ye a layer whose gradients are vanishin'",
        "nae need tae start ower frae scratch",
        "nowt looks broken",
        "ye divvent start the whole run again ower one spike",
        wide=5,  # "would not put it down to bit flips"
    ),
    _t(
        "negation.list",
        D,
        F,
        SENTENCE,
        ":",
        "What I would not do: restart from scratch, blame bit flips, or grow the batch.",
        "Not on my list: retraining from step zero, a larger batch.",
        "Myth: every spike means a restart from scratch.",
    ),
    _t(
        "negation.list-rejected",
        N,
        F,
        SENTENCE,
        ":",
        "Not a fix: turning the LR down and calling it done.",
        "Not on the list:\n- starting over from step 0",
        near="fix fixes cause causes culprit culprits option options answer answers list do"
        " doing try trying recommend recommended solution solutions remedy remedies",
    ),
    _t(
        "negation.verbal",
        N,
        B,
        3,
        "never cannot n't",
        "loss scaling is not needed",
        "clipping is never used there",
        "the bad-batch theory doesn't survive scrutiny",
        "exploding gradients are not a sign of it",
        "raising the batch size to smooth the spike is not recommended",
        near=_PREDICATES,
        wide=6,
    ),
    _t(
        "negation.helpless",
        S,
        B,
        3,
        "never cannot n't",
        "raising the batch size won't smooth it",
        near=_HELPING,
    ),
    _t(
        "negation.fail",
        N,
        F,
        3,
        "fail fails failed failing unable",
        "the model fails to learn anything",
        wide=5,
        near="to",
    ),
    _t(
        "negation.predicate",
        N,
        F,
        3,
        "unnecessary unneeded needless irrelevant useless pointless ineffective unhelpful",
        "loss scaling is unnecessary with bf16",
        wide=5,
    ),
    _t(
        "negation.instead",
        N,
        F,
        3,
        "instead rather",
        "roll back rather than restart from scratch",
        wide=5,
        near="of than",
    ),
    _t(
        "negation.soft",
        S,
        F,
        5,
        "avoid avoids avoiding avoided unlike",
        "avoid restarting from scratch",
        "unlike a bad batch it's persistent",
    ),
    _t(
        "negation.away",
        S,
        F,
        5,
        "away clear",
        "noise steers you away from sharp minima",
        "it keeps sgd clear of sharp minima",
        near="from of",
    ),
    _t(
        "negation.stop",
        S,
        F,
        5,
        "stop stops stopped cease ceases ceased",
        "val loss stops improving",
    ),
    _t(
        "dismissal",
        D,
        BOTH,
        CLAUSE,
        "unlikely rare rarely seldom myth resort improbable doubtful tempting tempted"
        " counterproductive misguided mistakenly wrongly rejected dismissed waste wasteful"
        " temptation vetoed refuse refused refusing forfeit forfeits cancelled canceled"
        " misidentified misattributed misdiagnosed excluded unfunded deny denied"
        " wary leery worst " + _JUDGED,
        "bit flips are rare",
        "enlarging the batch size is likewise rejected",
        "restarting from zero would be a waste of weeks",
        "restarting is a last resort",
        "blaming flaky hardware would be lazy",
        "cosmic rays are a cop-out explanation",
        "raising the batch to smooth it is a mistake",
        "I'd be wary of restarting from scratch",
        "start again from scratch? that's mad",
        "I refuse to start over from scratch",
        "Often misidentified as: hardware bit-flips",
        "a restart would forfeit three weeks of compute",
        "The worst thing you can do is start the run over.",
    ),
    _t(
        "dismissal.formerly",
        D,
        BOTH,
        CLAUSE,
        "formerly",
        "The naive reaction used to be to kill the run and start over. Now you roll back.",
        "A few years ago FP8 was a research toy; on Hopper it is native.",
        "I used to assume more GPUs always meant faster training.",
    ),
    _t(
        "dismissal.first-thought",
        S,
        F,
        CLAUSE,
        "thought",
        "I thought my first model had converged, but the loss was stuck high",
        "my first thought was a flaky GPU, but nothing in the logs supported it",
        near="i first",
    ),
    _t(
        "dismissal.not-an-option",
        D,
        B,
        CLAUSE,
        "something option answer solution",
        "throwing away weeks of training is not something I'd entertain",
        "restarting from scratch is not an option",
        "restarting from scratch is not the answer",
        near="not no n't never",
    ),
    _t(
        "dismissal.blame-before",
        D,
        F,
        5,
        "blame blaming assume assuming suspect suspecting jump pin pins pinning attribute chalk",
        "before anyone pins it on bit flips, check the grad norm",
        near="before",
    ),
    _t(
        "dismissal.rule-out",
        D,
        F,
        5,
        "rule",
        "rule out bit flips first",
        near="out",
    ),
    _t(
        "dismissal.ruled-out",
        D,
        B,
        CLAUSE,
        "ruled crossed struck",
        "Bit-flips ruled out: zero ECC errors",
        "Starting over from scratch I crossed off.",
        near="out off",
    ),
    _t(
        "dismissal.were-to",
        D,
        F,
        CLAUSE,
        "were",
        "If you were to restart from scratch, you would lose three weeks",
        near="to",
    ),
    _t(
        "pseudo.not-only",
        P,
        F,
        1,
        "only sure necessarily always",
        "not only the lr but also clipping",
        "you can't always get more data, but if you can it's the best fix",
    ),
    _t(
        "pseudo.no-doubt",
        P,
        F,
        1,
        "doubt",
        "no doubt it's a bad batch: an assertion, not a denial",
        "nae doubt it's the data",
    ),
    _t(
        "pseudo.no-but",
        P,
        F,
        2,
        "option options choice alternative way",
        "there's no option but to restart from scratch: an assertion that it must be done",
        "no choice but to blame the hardware",
        near="but except",
    ),
    _t(
        "pseudo.bound",
        P,
        F,
        1,
        "above exceed exceeds exceeded exceeding beyond more higher greater larger bigger",
        "the norm never goes above one: a cap at one, not a denial of it",
        "no more than 1.0",
        near="than",  # for the comparatives: "no higher than 1"
    ),
    _t(
        "pseudo.degree",
        P,
        F,
        1,
        "so",
        "the lr is set so high that the loss can't move: one clause, 'so' says how high",
        near="high low large small big tiny huge much many few little fast slow quick long short"
        " early late noisy steep aggressive",
    ),
    _t(
        "condition",
        C,
        F,
        CLAUSE,
        "if when unless",
        "if you never hit the plateau you're compute-limited",
    ),
    _t(
        "condition.purpose",
        C,
        F,
        CLAUSE,
        "so if when unless until otherwise lest",
        "scale the loss so grads don't underflow",
    ),
    _t(
        "condition.without",
        C,
        F,
        CLAUSE,
        "without",
        "without per-tensor scaling it diverges",
        near=_BAD_OUTCOMES,
    ),
    _t(
        "condition.otherwise",
        C,
        F,
        CLAUSE,
        "without",
        "without it, grads underflow",
        near="it this that them these those one",
    ),
    _t(
        "condition.instead",
        C,
        F,
        CLAUSE,
        "instead rather",
        "roll back instead of restarting: the restart is no claim",
        near="of than",
    ),
    _t(
        "suspect.check",
        Category.SUSPECT,
        F,
        CLAUSE,
        "check checks checking ensure verify confirm whether test",
        "check the schedule isn't broken",
    ),
    _t(
        "suspect.make-sure",
        Category.SUSPECT,
        F,
        CLAUSE,
        "make",
        "make sure the loss scale isn't stuck",
        near="sure",
    ),
    _t(
        "suspect.not-yet",
        Category.SUSPECT,
        B,
        CLAUSE,
        "yet init initial",
        "adam's state hasn't formed yet: it is still to form, not denied",
        "the moment estimates aren't reliable yet, so early updates are huge",
        "adam moments not formed at init: not yet, at the start",
    ),
    _t(
        "continuation.check",
        Category.CONTINUATION,
        F,
        CLAUSE,
        "that if whether",
        "check the lr isn't tiny, that nothing is frozen",
        joins="suspect.check",
    ),
    _t(
        "retraction",
        R,
        B,
        CLAUSE,
        "no nope nah nay rather",
        "cosine - no, inverse sqrt",
        "cosine? no - inverse sqrt",
        "down to a tenth of peak. or rather, 10% below it",
        alone=True,
    ),
    _t(
        "retraction.words",
        R,
        B,
        CLAUSE,
        "wait sorry scratch that oops not or",
        "warmup ramps down - no wait, up",
        joins="retraction",
    ),
    _t(
        "refusal",
        S,
        B,
        SENTENCE,
        "never cannot n't" + " " + "unlikely rare rarely seldom myth resort improbable doubtful"
        " tempting tempted counterproductive misguided mistakenly wrongly",
        "restart from scratch to be safe, so I wouldn't",
        "raise the batch to smooth it - that's a myth",
        alone=True,
    ),
    _t(
        "refusal.relief",
        S,
        B,
        SENTENCE,
        "glad thankfully luckily fortunately",
        "we almost doubled the batch to average it out; glad we didn't",
        "someone floated a restart from scratch; luckily we didn't",
        joins="refusal",
    ),
    _t(
        "refusal.no-evidence",
        S,
        B,
        SENTENCE,
        "evidence proof sign",
        "someone wanted to blame flaky hardware; there was no evidence for it",
        "pin it on bit flips? there's no proof of that",
        near="no not n't without zero",
        alone=True,
    ),
    _t(
        "refusal.without-evidence",
        S,
        B,
        CLAUSE,
        "evidence proof signal",
        "I wouldn't blame cosmic rays without evidence",
        "pinning it on flaky GPUs without hard proof is lazy",
        "hardware faults have a prior too low to act on without a signal in the logs",
        "Bit flips? Not without evidence.",
        near="without",
    ),
    _t(
        "termination.clause",
        Category.TERMINATION,
        BOTH,
        CLAUSE,
        "and but so because since while whilst whereas although though however then if unless"
        " until which that who when where otherwise yet therefore hence plus",
        "no loss scaling, and bf16 is safer: 'safer' is not negated",
    ),
    _t(
        "termination.side",
        Category.TERMINATION,
        BOTH,
        CLAUSE,
        "but however although though whereas while whilst yet instead",
        "not fp16 but bf16",
    ),
    _t(
        "termination.except",
        Category.TERMINATION,
        BOTH,
        CLAUSE,
        "except besides",
        "nothing extra except loss scaling",
    ),
    _t(
        "termination.apart",
        Category.TERMINATION,
        BOTH,
        CLAUSE,
        "apart aside other",
        "nothing else, other than loss scaling",
        near="from than",
    ),
    _t(
        "termination.subject",
        Category.TERMINATION,
        BOTH,
        CLAUSE,
        "it this that they these those we you i",
        "unlike a bad batch it's persistent: the main clause starts at `it`",
        "if you never hit the plateau you're compute-limited",
        "with almost no dynamic range you need per-tensor scales: `no` is the fronted phrase's",
        near="with given under",  # a phrase they open at a clause's start ends at the subject
    ),
    _t(
        "continuation.place",
        Category.CONTINUATION,
        BOTH,
        CLAUSE,
        "where when then",
        "roll back to right where it diverges",
        "only then unscale",
        near="right exactly only",
    ),
    _t(
        "continuation.relative",
        Category.CONTINUATION,
        BOTH,
        CLAUSE,
        "that which who",
        "a learning rate that is too low",
        near="is are was were",
    ),
    _t(
        "continuation.relative-aside",
        Category.CONTINUATION,
        BOTH,
        CLAUSE,
        "which who",
        "raising the batch, which some guides suggest, is not something I'd do",
        "the spike, which came at step 40k, was a bad batch",
        near="is are was were would will isn't wasn't",
    ),
    _t(
        "continuation.aside",
        Category.CONTINUATION,
        BOTH,
        CLAUSE,
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
    """The trigger of an id."""
    return _BY_ID[id]


def near(id: str) -> frozenset[str]:
    """The words that must stand next to a trigger for it to fire."""
    return _BY_ID[id].near


LIST_LEAD = 8  # negation.list: at most this many words before the colon


def words(id: str) -> frozenset[str]:
    """A trigger's words; none while it is turned off for an ablation run."""
    return frozenset() if id in disabled() else _BY_ID[id].words
